// Real wxWidgets (wxGTK 3.2) apps driven as an agent drives them: Poedit (Debian's poedit), its translation file made
// here. What the app did is judged by pyatspi (its own objects) and the X server, never by the driver's reading.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { desktopRig, xClient } from '../helpers/desktop-rig.js';
import { accessibleWindowState, callOk, pyatspiWalk, type Element, type OracleNode } from '../helpers/tools.js';

const catalog = `msgid ""
msgstr ""
"Project-Id-Version: sample 1.0\\n"
"Language: fr\\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"

msgid "Open file"
msgstr "Ouvrir le fichier"

msgid "Save file"
msgstr ""

msgid "Quit application"
msgstr ""
`;

describe('wxWidgets apps: Poedit', () => {
  const rig = desktopRig();
  const x = xClient(rig);
  let editor: ClientWindow;

  before(async () => {
    // Its own home: Poedit keeps one instance per user (a lock and a socket in the home) and its settings there.
    const home = mkdtempSync(join(tmpdir(), 'cup-poedit-'));
    const file = join(home, 'sample.po');
    writeFileSync(file, catalog);
    editor = (await rig.desktop.launch('poedit', [file], /sample\.po/, 30_000, { HOME: home })).window;
    await accessibleWindowState(rig.context, editor, { include_screenshot: false });
  });

  /** The app's shown window of this title, as xdotool finds it (0 when none came). */
  async function windowTitled(title: string): Promise<number> {
    for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(100)) {
      const [found] = (await x('xdotool', ['search', '--all', '--onlyvisible', '--pid', String(editor.pid), '--name', `^${title}$`])).trim().split('\n').filter(Boolean);
      if (found) return Number(found);
    }
    return 0;
  }

  test('a background click on a radio button runs the app\'s UI updates: the field it enables takes input', async () => {
    // wxGTK runs its idle handlers (EVT_UPDATE_UI, which Poedit's Properties dialog enables its custom plural-forms
    // field from) only after a GDK event reached one of its widgets. A click through accessibility comes over D-Bus:
    // the radio button was checked and the field stayed disabled until the pointer next moved over the window.
    await callOk(rig.context, 'invoke_menu', { window_id: editor.id, path: ['Translation', 'Properties…'] });
    const dialog = await windowTitled('Translation Properties');
    assert.ok(dialog > 0, 'the Properties dialog is up');
    const expression = async (): Promise<OracleNode> => {
      const nodes = await pyatspiWalk(editor.pid, 'Translation Properties', rig.desktop.env());
      const radio = nodes.findIndex((node) => node.role === 'radio button' && node.name === 'Use custom expression');
      const field = nodes.slice(radio + 1).find((node) => node.role === 'text');
      assert.ok(radio >= 0 && field, 'pyatspi: the custom expression field follows its radio button');
      return field;
    };
    assert.ok(!(await expression()).states.includes('enabled'), 'pyatspi: the custom expression field starts disabled');

    const clicked = await callOk(rig.context, 'click', { window_id: dialog, selector: 'role=radio name="Use custom expression"' });
    let field = await expression();
    for (const deadline = Date.now() + 3000; !field.states.includes('enabled') && Date.now() < deadline; await sleep(200)) field = await expression();
    assert.ok(field.states.includes('enabled'), `pyatspi: the app enabled the field, as after a person's click\n${clicked.summary}\n${clicked.body}`);

    const state = await callOk(rig.context, 'get_window_state', { window_id: dialog, include_screenshot: false });
    const box = (state.structured.elements as Element[]).find((element) => element.role === 'textbox' && element.value?.includes('nplurals'));
    assert.ok(box && !box.states.includes('disabled'), `the driver reads the field enabled too: ${state.body}`);
    const typed = await callOk(rig.context, 'set_value', { window_id: dialog, element_index: box.index, value: 'nplurals=2; plural=(n != 1);' });
    assert.equal(typed.structured.effect, 'confirmed', typed.body);
    assert.ok((await rig.oracle.texts(editor.pid, 'Translation Properties')).includes('nplurals=2; plural=(n != 1);'), 'pyatspi: the field holds the new expression');
    await callOk(rig.context, 'click', { window_id: dialog, selector: 'role=button name=Cancel' });
  });

  test('a background click on a list row makes it the current row: the app shows it as its current item', async () => {
    // Poedit's list is a wxDataViewCtrl, a GTK3 tree view, and its editor shows the tree view's cursor row (its current
    // item). The tree view's Selection selects a row without moving the cursor: the row read selected, the editor
    // still showed the first string, and keys would go on from the first row, where a person's click moves both.
    const sources = async () => (await rig.oracle.texts(editor.pid, editor.title)).filter((text) => ['Open file', 'Save file', 'Quit application'].includes(text));
    // The list's own cell holds each string; the editor's source field holds the current one a second time.
    const twice = (texts: string[], text: string) => texts.filter((each) => each === text).length === 2;
    const shown = async (text: string) => {
      let now = await sources();
      for (const deadline = Date.now() + 3000; !twice(now, text) && Date.now() < deadline; await sleep(200)) now = await sources();
      return now;
    };
    const clicked = await callOk(rig.context, 'click', { window_id: editor.id, selector: 'role=cell name="Save file"' });
    const afterClick = await shown('Save file');
    assert.ok(twice(afterClick, 'Save file'), `pyatspi: the editor shows the clicked string\n${clicked.summary}\n${clicked.body}`);
    // GTK marks the cell at the tree view's cursor FOCUSED (while the view has the focus): the clicked row's cell.
    const nodes = await pyatspiWalk(editor.pid, editor.title, rig.desktop.env());
    const focused = nodes.filter((node) => node.role === 'table cell' && node.states.includes('focused')).map((node) => node.name);
    assert.deepEqual(focused, ['Save file'], 'pyatspi: the cursor is on the clicked row');
  });
});
