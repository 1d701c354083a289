// Shapes wxWidgets apps (FileZilla, Audacity) put on the accessibility bus, reproduced in the GTK3 fixture: what
// they show is judged by pyatspi (the app's own objects), the X server (xdotool) and the fixture's status label.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk, pyatspiWalk } from '../helpers/tools.js';

describe('wxWidgets shapes: message boxes titled after their window, fields named by the label beside them', () => {
  let fixtures: FixtureDesktop;

  before(async () => {
    fixtures = await FixtureDesktop.start();
  });

  after(async () => {
    await fixtures?.stop();
  });

  async function windowTitled(title: string): Promise<number> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const [found] = await fixtures.readers.windowsNamed(`^${title}$`);
      if (found !== undefined || Date.now() > deadline) return found ?? 0;
      await sleep(50);
    }
  }

  test('a message box titled after the window it belongs to reads as its own tree, and its OK is its own', async () => {
    // wxMessageBox shows a GtkMessageDialog titled 'Site Manager - Invalid data' over FileZilla's Site Manager; GTK
    // names its object after the message's kind ('Warning'). The title holding the other window's name was taken
    // for a match: the box read as the Site Manager's tree, and a click on 'OK' in it clicked the Site Manager's.
    const title = 'CUP Site Manager';
    const main: ClientWindow = await fixtures.launch('gtk3', { title, extraArgs: ['--message-button'] });
    try {
      const opened = await callOk(fixtures.context, 'click', { window_id: main.id, selector: 'role=button name="Check host…"' });
      const boxId = await windowTitled(`${title} - Invalid data`);
      assert.ok(boxId > 0, `xdotool: the message box is up (${opened.summary})`);
      const oracle = await pyatspiWalk(main.pid, 'Warning', fixtures.desktop.env());
      assert.ok(oracle.some((node) => node.role === 'label' && node.name === 'You have to enter a hostname.'), 'pyatspi: the Warning object holds the message');
      assert.ok(oracle.some((node) => node.role === 'alert'), 'pyatspi: GTK gives the message box the role alert');

      const state = await callOk(fixtures.context, 'get_window_state', { window_id: boxId, include_screenshot: false });
      assert.match(state.body ?? '', /You have to enter a hostname\./, state.body);
      assert.doesNotMatch(state.body ?? '', /Increment|Check host/, 'the window under it is not in the reading');
      const newWindows = (opened.structured.new_windows ?? []) as { window_id: number; tree?: string }[];
      const announced = newWindows.find((entry) => entry.window_id === boxId);
      assert.ok(announced, `the click names the box it opened: ${opened.summary}`);
      assert.doesNotMatch(JSON.stringify(announced), /Increment/, 'the opened window is shown with its own tree');

      await callOk(fixtures.context, 'click', { window_id: boxId, selector: 'role=button name=OK' });
      const status = await fixtures.waitForStatus(main, (read) => read.lastKey !== '');
      assert.equal(status.lastKey, 'message:ok', 'the fixture: the box took the OK');
      assert.deepEqual(await fixtures.readers.windowsNamed(`^${title} - Invalid data$`), [], 'xdotool: the box is gone');
    } finally {
      process.kill(main.pid, 'SIGKILL');
    }
  });

  test('an action by a field\'s label name acts on the field, not on the label that names it', async () => {
    // FileZilla's Site Manager: set_value {selector: 'name=Host:'} was ambiguous between the text "Host:" and the
    // text box named by it; an agent had to add role=textbox to every such selector.
    const title = 'CUP Labelled Fields';
    const main: ClientWindow = await fixtures.launch('gtk3', { title, extraArgs: ['--labels'] });
    try {
      const listed = await callOk(fixtures.context, 'find_elements', { window_id: main.id, selector: 'name="Update strategy:"' });
      const roles = ((listed.structured.matches ?? []) as { role: string }[]).map((element) => element.role).sort();
      assert.deepEqual(roles, ['combobox', 'text'], `the label and its combo box both carry the name: ${listed.summary}`);
      const set = await callOk(fixtures.context, 'set_value', { window_id: main.id, selector: 'name="Update strategy:"', value: 'Full redraw' });
      assert.equal((set.structured.selected as { role: string }).role, 'combobox', set.summary);
      assert.equal((await fixtures.oracle.find(main.pid, title, 'combo box', 'Full redraw')).found, true, 'pyatspi: the combo box shows the choice');
    } finally {
      process.kill(main.pid, 'SIGKILL');
    }
  });

  test('a colour button that shows only its swatch is named by the label left of it, and a click by that name opens its chooser', async () => {
    // xfce4-dict's Preferences (and wxGTK's colour pickers, GtkColorButtons too) put colour buttons right of labels
    // ("Links:", "Phonetics:") with no relation between them: the reading showed four unnamed buttons, told apart only
    // by their places, and no selector could name one.
    const title = 'CUP Colour Buttons';
    const main: ClientWindow = await fixtures.launch('gtk3', { title, extraArgs: ['--colour-buttons'] });
    try {
      const oracle = await pyatspiWalk(main.pid, title, fixtures.desktop.env());
      assert.ok(oracle.filter((node) => node.role === 'push button' && node.name === '').length >= 2, 'pyatspi: the colour buttons have no names of their own');
      const listed = await callOk(fixtures.context, 'find_elements', { window_id: main.id, selector: 'role=button name="Phonetics:"' });
      assert.equal(((listed.structured.matches ?? []) as unknown[]).length, 1, `the colour button right of "Phonetics:" is named by it: ${listed.summary}\n${listed.body}`);
      const clicked = await callOk(fixtures.context, 'click', { window_id: main.id, selector: 'role=button name="Phonetics:"' });
      assert.ok((await windowTitled('Pick Phonetics:')) > 0, `xdotool: the Phonetics colour chooser opened (${clicked.summary})`);
      assert.deepEqual(await fixtures.readers.windowsNamed('^Pick Links:$'), [], 'xdotool: the other button\'s chooser did not');
    } finally {
      process.kill(main.pid, 'SIGKILL');
    }
  });

  test('a multi-line field in a scroll pane is named by the label over it or beside it', async () => {
    // Poedit's editing area puts "Source text" and "Translation" over text views in scrolled windows, tied by no
    // relation: the reading showed two unnamed text boxes, and the label rules looked only at the fields' siblings.
    const title = 'CUP Text Panes';
    const main: ClientWindow = await fixtures.launch('gtk3', { title, extraArgs: ['--text-panes'] });
    try {
      const oracle = await pyatspiWalk(main.pid, title, fixtures.desktop.env());
      const texts = oracle.filter((node, i) => node.role === 'text' && oracle[i - 1]?.role === 'scroll pane');
      assert.ok(texts.length === 3 && texts.every((node) => node.name === ''), 'pyatspi: the three text views in their panes have no names');
      assert.deepEqual((await fixtures.oracle.labelled(main.pid, title)).filter((node) => node.role === 'text'), [], 'pyatspi: no text view is labelled by a relation');
      for (const [name, value] of [['Source text', 'Hello world'], ['Translation', ''], ['Notes:', '']] as const) {
        const listed = await callOk(fixtures.context, 'find_elements', { window_id: main.id, selector: `role=textbox name="${name}"` });
        const matches = (listed.structured.matches ?? []) as { value?: string }[];
        assert.equal(matches.length, 1, `the text box under or beside "${name}" is named by it: ${listed.summary}`);
        assert.equal(matches[0]!.value ?? '', value, `the one named "${name}" is the one that shows it: ${JSON.stringify(matches[0])}`);
      }
      await callOk(fixtures.context, 'set_value', { window_id: main.id, selector: 'role=textbox name=Translation', value: 'Hallo Welt' });
      const shown = await fixtures.oracle.texts(main.pid, title);
      assert.ok(shown.includes('Hallo Welt') && shown.includes('Hello world'), `pyatspi: the Translation pane took the text, the Source text pane kept its own: ${JSON.stringify(shown)}`);
    } finally {
      process.kill(main.pid, 'SIGKILL');
    }
  });

  test('a font button right of a check box ending in a colon is named by it and holds its font as its value', async () => {
    // Poedit's Preferences put font buttons (wxGTK's font picker, a GtkFontButton in a panel of its own) right of
    // "Use custom list font:" and "Use custom text fields font:": GTK names each by the font it shows, so both read
    // as buttons named "Sans Regular" that no selector could tell apart.
    const title = 'CUP Font Buttons';
    const main: ClientWindow = await fixtures.launch('gtk3', { title, extraArgs: ['--font-buttons'] });
    try {
      const oracle = await pyatspiWalk(main.pid, title, fixtures.desktop.env());
      const fonts = oracle.filter((node) => node.role === 'push button').map((node) => node.name);
      assert.ok(fonts.includes('Sans Regular') && fonts.includes('Monospace Regular'), `pyatspi: GTK names the font buttons by their fonts: ${JSON.stringify(fonts)}`);
      for (const [label, font] of [['Use custom text font:', 'Sans Regular'], ['Use custom UI font:', 'Monospace Regular']] as const) {
        const listed = await callOk(fixtures.context, 'find_elements', { window_id: main.id, selector: `role=button name="${label}"` });
        const matches = (listed.structured.matches ?? []) as { value?: string }[];
        assert.equal(matches.length, 1, `the font button right of "${label}" is named by it: ${listed.summary}`);
        assert.equal(matches[0]!.value, font, `its font is its value: ${JSON.stringify(matches[0])}`);
      }
      const clicked = await callOk(fixtures.context, 'click', { window_id: main.id, selector: 'role=button name="Use custom UI font:"' });
      assert.ok((await windowTitled('Pick Use custom UI font:')) > 0, `xdotool: that button's font chooser opened (${clicked.summary})`);
      assert.deepEqual(await fixtures.readers.windowsNamed('^Pick Use custom text font:$'), [], 'xdotool: the other button\'s chooser did not');
    } finally {
      process.kill(main.pid, 'SIGKILL');
    }
  });

  test('set_value on a combo box with an entry takes text that is none of its choices, and still chooses a choice', async () => {
    // Poedit's "Source code charset:" (a wxComboBox: GTK's combo box with an entry) refused "windows-1250", which a
    // person types there, as no option of the combo box; setting its inner text box worked.
    const title = 'CUP Entry Combo';
    const main: ClientWindow = await fixtures.launch('gtk3', { title, extraArgs: ['--entry-combo'] });
    try {
      const selector = 'role=combobox name="Source code charset:"';
      const typed = await callOk(fixtures.context, 'set_value', { window_id: main.id, selector, value: 'windows-1250' });
      const status = await fixtures.waitForStatus(main, (read) => read.lastKey !== '');
      assert.equal(status.lastKey, 'charset:windows-1250', `the fixture: its entry holds the text (${typed.summary})`);
      assert.ok((await fixtures.oracle.texts(main.pid, title)).includes('windows-1250'), 'pyatspi: the entry shows it');
      await callOk(fixtures.context, 'set_value', { window_id: main.id, selector, value: 'ISO-8859-1' });
      assert.equal((await fixtures.oracle.find(main.pid, title, 'combo box', 'ISO-8859-1')).found, true, 'pyatspi: a choice is still chosen as the combo box\'s choice');
    } finally {
      process.kill(main.pid, 'SIGKILL');
    }
  });
});
