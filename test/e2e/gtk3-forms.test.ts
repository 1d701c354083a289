// GTK3 forms laid out as Inkscape's and GIMP's dialogs lay theirs out, where a new user found the tree wrong: controls
// named by a tool tip or by the choice they show instead of the label beside them, a field named by a farther label,
// items of a hidden notebook page placed two billion pixels off, a hidden pane's huge list counted as rows to scroll to, and a Value with no number (GIMP's progress bar)
// whose reading made ATK's bridge abort the app. Judged by pyatspi and by the fixture's own log.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { repositoryRoot } from '../helpers/desktop.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk, failsWith, pyatspiWalk, type Element } from '../helpers/tools.js';
import { XReaders } from '../helpers/x-readers.js';

describe('GTK3 forms of graphics apps, judged by pyatspi', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;
  let logDir: string;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    logDir = mkdtempSync(join(tmpdir(), 'cup-forms-'));
    window = await fixtures.launch('gtk3', { title: 'Forms Fixture', size: '480x800', extraArgs: ['--labels', '--hidden-icons', '--greyed-choice', '--coded-choice', '--switch-rows', '--popover', '--popover-checks', '--city-list', '--action-log', join(logDir, 'actions.log')] });
  });

  after(async () => {
    await fixtures?.stop();
    if (logDir) rmSync(logDir, { recursive: true, force: true });
  });

  const named = (elements: readonly Element[], role: string) => elements.filter((element) => element.role === role).map((element) => element.name);
  /** A pyatspi script's run, with the oracle's modules (atspi_frames) at hand. */
  const pyatspi = (lines: readonly string[]) =>
    spawnSync('/usr/bin/python3', ['-c', ['import pyatspi', 'from atspi_frames import find_frame', ...lines].join('\n')], {
      env: { ...fixtures.desktop.env(), PYTHONPATH: join(repositoryRoot, 'test', 'fixtures', 'oracle') },
      encoding: 'utf8',
      timeout: 30_000,
    });
  /** What a pyatspi script leaves in `answer`, passed back as JSON; the test fails when the script does. */
  const pyatspiJson = <T>(lines: readonly string[]): T => {
    const run = pyatspi([...lines, 'import json', 'print(json.dumps(answer))']);
    assert.equal(run.status, 0, run.stderr);
    return JSON.parse(run.stdout) as T;
  };

  test('a check box and a switch with no text of their own are named by the label pointing at them, not by a tool tip', async () => {
    const labelled = await fixtures.oracle.labelled(window.pid, window.title);
    const pointed = (role: string) => labelled.filter((entry) => entry.role === role).map((entry) => `${entry.name}|${entry.labels.join()}`);
    // The case: pyatspi reads both unnamed, each labelled by a label widget; the check box has a tool tip as well.
    assert.deepEqual(pointed('check box'), ['|Sticky mode'], JSON.stringify(labelled));
    assert.deepEqual(pointed('toggle button'), ['|Dark theme'], JSON.stringify(labelled));

    const elements = await fixtures.elements(window);
    assert.ok(named(elements, 'checkbox').includes('Sticky mode'), JSON.stringify(named(elements, 'checkbox')));
    // A switch to an agent (its one action is "toggle"), not a plain button.
    assert.ok(named(elements, 'switch').includes('Dark theme'), JSON.stringify(named(elements, 'switch')));
    assert.ok(!named(elements, 'checkbox').includes('Stay in this mode after the work is done'), 'the tool tip is no name');

    const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=checkbox name="Sticky mode"' });
    assert.equal((clicked.structured as unknown as ActionResult).effect, 'confirmed', clicked.summary);
    assert.match(readFileSync(join(logDir, 'actions.log'), 'utf8'), /^sticky True /m, 'the fixture logs its check box toggled on');
  });

  test('combo boxes GTK3 names by their choice are named by their label: the one pointing at it, else the one beside it', async () => {
    const walked = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    const combos = walked.filter((node) => node.role === 'combo box').map((node) => node.name);
    // The case: GTK3 names each unnamed combo box after its chosen item.
    assert.ok(combos.includes('Multiscale') && combos.includes('mm'), JSON.stringify(combos));
    const labelled = await fixtures.oracle.labelled(window.pid, window.title);
    assert.ok(labelled.some((entry) => entry.role === 'combo box' && entry.labels.includes('Update strategy:')), JSON.stringify(labelled));

    const elements = await fixtures.elements(window);
    const combo = (name: string) => elements.find((element) => element.role === 'combobox' && element.name === name);
    assert.equal(combo('Update strategy:')?.value, 'Multiscale', JSON.stringify(elements.filter((element) => element.role === 'combobox')));
    assert.equal(combo('Display units:')?.value, 'mm', JSON.stringify(elements.filter((element) => element.role === 'combobox')));
    // A combo box named by the app keeps its name ("Color", set on its accessible), and one past a button that the
    // label left of both labels keeps its choice's name.
    assert.equal(combo('Color')?.value, 'Red');
    assert.equal(combo('pt')?.value, 'pt', JSON.stringify(elements.filter((element) => element.role === 'combobox')));

    const set = await callOk(fixtures.context, 'set_value', { window_id: window.id, selector: 'role=combobox name="Update strategy:"', value: 'Responsive' });
    assert.equal((set.structured as unknown as ActionResult).effect, 'confirmed', set.summary);
    // The app renames the box to its choice; to the agent that is the value changing, as the tree shows it.
    const evidence = (set.structured as unknown as ActionResult).evidence ?? [];
    // Told by the choice read back (`choice of [eN]: "Multiscale" → "Responsive"`) or by the renaming event read as the
    // value, whichever came first: never as a name.
    const toldAsChoice = (line: string) => line.includes('value is now "Responsive"') || /^choice of \[e\d+\]: "Multiscale" → "Responsive"$/.test(line);
    assert.ok(evidence.some(toldAsChoice) && !evidence.some((line) => line.includes('name is now')), JSON.stringify(evidence));
    const after = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    assert.ok(after.some((node) => node.role === 'combo box' && node.name === 'Responsive'), 'pyatspi: the combo box shows Responsive');
    const reread = await fixtures.elements(window);
    assert.equal(reread.find((element) => element.role === 'combobox' && element.name === 'Update strategy:')?.value, 'Responsive', 'still named by its label');
  });

  test('a field is named by the nearer label in a box of its own, not by a farther one on its row', async () => {
    const walked = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    const spin = walked.find((node) => node.role === 'spin button');
    const label = (name: string) => walked.find((node) => node.role === 'label' && node.name === name)?.extents;
    const [stroke, own] = [label('Stroke:'), label('O:')];
    assert.ok(spin?.extents && stroke && own, JSON.stringify(walked.filter((node) => ['spin button', 'label'].includes(node.role))));
    // The case: both labels end left of the field on its row, and "O:" (inside a box of its own) is the nearer.
    assert.equal(spin.name, '', 'pyatspi: the spin button is unnamed');
    const right = (box: number[]) => box[0]! + box[2]!;
    assert.ok(right(stroke) < right(own) && right(own) <= spin.extents[0], `Stroke: ${stroke}, O: ${own}, field ${spin.extents}`);

    const elements = await fixtures.elements(window);
    // (The --greyed-choice rows' Port: spin button is labelled by a label pointing at it.)
    assert.deepEqual(named(elements, 'spinbutton').filter((name) => name !== 'Port:'), ['O:']);
  });

  test('a combo box whose model keeps a code before the text it shows is named by its label, and its choice told as shown, not by the code', async () => {
    // The case: GTK3 names the box after the first text column of its active row, the code "en", though it draws
    // "English"; the label "Language:" points at it. The tree named it "en", and a choice of German was told as
    // 'value is now "de"'.
    const walked = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    assert.ok(walked.some((node) => node.role === 'combo box' && node.name === 'en'), JSON.stringify(walked.filter((node) => node.role === 'combo box')));
    const labelled = await fixtures.oracle.labelled(window.pid, window.title);
    assert.ok(labelled.some((entry) => entry.role === 'combo box' && entry.labels.includes('Language:')), JSON.stringify(labelled));

    const elements = await fixtures.elements(window);
    const combo = elements.find((element) => element.role === 'combobox' && element.value === 'English');
    assert.equal(combo?.name, 'Language:', JSON.stringify(elements.filter((element) => element.role === 'combobox')));

    const set = await callOk(fixtures.context, 'set_value', { window_id: window.id, selector: 'role=combobox name="Language:"', value: 'German' });
    const result = set.structured as unknown as ActionResult;
    assert.equal(result.effect, 'confirmed', set.summary);
    assert.equal((await fixtures.waitForStatus(window, (status) => status.lastKey === 'language:de')).lastKey, 'language:de', 'the app took German');
    const evidence = result.evidence ?? [];
    assert.ok(!evidence.some((line) => /is now "(de|en)"/.test(line)), JSON.stringify(evidence));
    assert.ok(evidence.some((line) => line.includes('"German"')), JSON.stringify(evidence));
    assert.doesNotMatch(set.body ?? '', /"de"|"en"/, 'the diff names no code either');
  });

  test('a choice in a popover that closes it is read back with the popover closed, as GTK3 says so at its fade\'s end', async () => {
    // The case: GTK3 fades a popover out and says it hidden some 170 ms after the clicked button's own events; the
    // click was read back at once, and its diff still showed the popover and its buttons, which pyatspi then read gone.
    const opened = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=button name="View options"' });
    assert.equal((opened.structured as unknown as ActionResult).effect, 'confirmed', opened.summary);
    const showing = async (name: string) =>
      (await pyatspiWalk(window.pid, window.title, fixtures.desktop.env())).find((node) => node.role === 'push button' && node.name === name)?.states.includes('showing');
    assert.equal(await showing('Zoom out'), true, 'pyatspi: the popover is open');

    const chose = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=button name="Zoom out"' });
    assert.equal((chose.structured as unknown as ActionResult).effect, 'confirmed', chose.summary);
    assert.equal((await fixtures.waitForStatus(window, (status) => status.lastKey === 'zoom:out')).lastKey, 'zoom:out', 'the app took Zoom out');
    assert.equal(await showing('Zoom out'), false, 'pyatspi: the popover closed');
    // The result says so: its diff has both buttons hidden with the popover.
    for (const name of ['Zoom in', 'Zoom out']) assert.match(chose.body ?? '', new RegExp(`btn "${name}"[^\\n]*\\+hid|- btn "${name}"`), chose.body);
  });

  test('a check item of a popover built from a menu model reads checked in the tree, the diff and the evidence as the app holds it', async () => {
    // The case (gtk3-widget-factory's Dark Theme): GTK3 makes such items model buttons, whose accessible announces
    // CHECKED, which the click's evidence told ("+chk"), and leaves it out of its state set, which the diff and every
    // later read took as the item's state: unchecked. The app's own word (its status label, read by pyatspi) is the judge.
    const item = async (name: string) => (await pyatspiWalk(window.pid, window.title, fixtures.desktop.env())).find((node) => node.role === 'check box' && node.name === name);
    assert.equal((await item('Show Grid'))?.states.includes('showing'), false, 'pyatspi: the popover is closed');
    const opened = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=button name=Display' });
    assert.equal((opened.structured as unknown as ActionResult).effect, 'confirmed', opened.summary);
    assert.equal((await item('Show Grid'))?.states.includes('showing'), true, 'pyatspi: the popover is open');
    // The items shown are told as the diff tells them (hidden going), where the evidence said "-off"; the unnamed
    // panels shown with them (told "generic: -off") are left to the diff, as what they hold says more.
    const shownLines = (opened.structured as unknown as ActionResult).evidence ?? [];
    assert.ok(shownLines.some((line) => line.includes('"Show Grid": ') && line.slice(line.indexOf('"Show Grid": ') + 13).split(', ').includes('-hid')), JSON.stringify(shownLines));
    assert.ok(!shownLines.some((line) => / generic: |-off/.test(line)), JSON.stringify(shownLines));
    assert.match(opened.body ?? '', /chk "Show Grid" states: [^\n]*-hid/, opened.body);
    // Snap to Grid is on from the start, and said so as the popover showed it.
    const snap = (await fixtures.elements(window)).find((element) => element.name === 'Snap to Grid');
    assert.ok(snap?.states.includes('checked'), JSON.stringify(snap));

    for (const delivery_mode of ['background', 'foreground'] as const) {
      for (const on of [true, false]) {
        const index = (await fixtures.elements(window)).find((element) => element.name === 'Show Grid')?.index;
        const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=checkbox name="Show Grid"', delivery_mode });
        const result = clicked.structured as unknown as ActionResult;
        assert.equal(result.effect, 'confirmed', `${delivery_mode}: ${clicked.summary}\n${clicked.body}`);
        const state = on ? 'on' : 'off';
        assert.equal((await fixtures.waitForStatus(window, (status) => status.lastKey === `display:grid:${state}`)).lastKey, `display:grid:${state}`, `${delivery_mode}: the app holds Show Grid ${state}`);
        // The toolkit's part of the case: pyatspi reads no CHECKED in the item's state set, whatever the app holds.
        assert.equal((await item('Show Grid'))?.states.includes('checked'), false, 'pyatspi: GTK3 leaves CHECKED out of a model button\'s states');
        const change = on ? '+chk' : '-chk';
        assert.ok((result.evidence ?? []).some((line) => (line.includes('"Show Grid"') || line.includes(`[e${index}]`)) && line.includes(change)), `${delivery_mode}: evidence ${JSON.stringify(result.evidence)}`);
        assert.match(clicked.body ?? '', new RegExp(`chk "Show Grid" states: [^\\n]*\\${change}`), `${delivery_mode}: the diff\n${clicked.body}`);
        const read = (await fixtures.elements(window)).find((element) => element.name === 'Show Grid');
        assert.equal(read?.states.includes('checked'), on, `${delivery_mode}: a fresh read ${JSON.stringify(read)}`);
      }
    }
    await callOk(fixtures.context, 'press_key', { window_id: window.id, key: 'Escape' });
  });

  test('invoke_menu through a menu button: the button named first is clicked, then the entry in its popover; an entry it lacks is refused with the entries it shows', async () => {
    // The case: GTK's header bar apps keep their menus behind a menu button, and invoke_menu followed menu bars only:
    // ["View options", "Zoom in"] was refused, the agent told to click the button, then the entry.
    const showing = async (name: string) =>
      (await pyatspiWalk(window.pid, window.title, fixtures.desktop.env())).find((node) => node.role === 'push button' && node.name === name)?.states.includes('showing');
    assert.equal(await showing('Zoom in'), false, 'pyatspi: the popover is closed');
    const chosen = await callOk(fixtures.context, 'invoke_menu', { window_id: window.id, path: ['View options', 'Zoom in'] });
    assert.deepEqual(chosen.structured.menu_path, ['View options', 'Zoom in'], chosen.body);
    assert.equal(chosen.structured.effect, 'confirmed', chosen.body);
    assert.equal((await fixtures.waitForStatus(window, (status) => status.lastKey === 'zoom:in')).lastKey, 'zoom:in', 'the app took Zoom in');
    assert.equal(await showing('Zoom in'), false, 'pyatspi: the popover closed with the choice');
    // A model menu's check item, toggled: the app's word is the judge. Snap to Grid is on from the fixture's start.
    const toggled = await callOk(fixtures.context, 'invoke_menu', { window_id: window.id, path: ['display', 'snap to grid'] });
    assert.deepEqual(toggled.structured.menu_path, ['Display', 'Snap to Grid'], 'named as the app names them');
    const snap = 'display:snap:off';
    assert.equal((await fixtures.waitForStatus(window, (status) => status.lastKey === snap)).lastKey, snap, toggled.body);
    // GTK3 leaves a check item's popover open, as after a person's click: the button closes it again.
    await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=button name=Display' });

    const refused = await failsWith(fixtures.context, 'invoke_menu', { window_id: window.id, path: ['View options', 'Zoom sideways'] }, 'menu_item_not_found');
    assert.match(refused.summary, /no entry "Zoom sideways"; it shows \[e\d+\] button "Zoom in", \[e\d+\] button "Zoom out"/, refused.summary);
    assert.equal(await showing('Zoom in'), true, 'pyatspi: the popover is left open, as the refusal says');
    await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=button name="View options"' });
    assert.equal(await showing('Zoom in'), false, 'pyatspi: closed again');
  });

  test('invoke_menu through one of two menu buttons named alike (gedit\'s "Menu" beside Open and its main "Menu"): the one whose menu shows the entry is used, the other closed again', async () => {
    const twins = await fixtures.launch('gtk3', { title: 'Twin Menus', extraArgs: ['--twin-menu-buttons'] });
    const showing = async (name: string) =>
      (await pyatspiWalk(twins.pid, twins.title, fixtures.desktop.env())).find((node) => node.role === 'push button' && node.name === name)?.states.includes('showing');
    // The case: both buttons read "Menu", and the path was refused as ambiguous, naming two look-alike buttons.
    const chosen = await callOk(fixtures.context, 'invoke_menu', { window_id: twins.id, path: ['Menu', 'Preferences'] });
    assert.equal(chosen.structured.effect, 'confirmed', chosen.body);
    assert.equal((await fixtures.waitForStatus(twins, (status) => status.lastKey === 'twin:preferences')).lastKey, 'twin:preferences', chosen.body);
    assert.equal(await showing('Recent notes.txt'), false, 'pyatspi: the first menu, opened to look, is closed again');
    assert.equal(await showing('Preferences'), false, 'pyatspi: the second closed with the choice');
    const refused = await failsWith(fixtures.context, 'invoke_menu', { window_id: twins.id, path: ['Menu', 'Quit'] }, 'menu_item_not_found');
    assert.match(refused.summary, /none of the 2 buttons named "Menu" shows an entry "Quit" \(\[e\d+\] button "Menu": it shows \[e\d+\] button "Recent notes.txt"; \[e\d+\] button "Menu": it shows \[e\d+\] button "Preferences"\); each was closed again/, refused.summary);
    assert.equal(await showing('Recent notes.txt'), false, 'pyatspi: closed');
    assert.equal(await showing('Preferences'), false, 'pyatspi: closed');
    // Its window would lie over the form the tests after this one click into.
    process.kill(twins.pid);
  });

  test('a background click on a choice in an entry\'s completion list, which only selects it there, says nothing was chosen; a real click chooses it', async () => {
    // The case: GTK3's completion list is a popup window (popup for the field) holding a table of the matches; it
    // takes a choice from a press on a row, and a row selected through accessibility is only highlighted. Such a
    // click was confirmed by the row's +selected, the field still reading "Pa" and the list left open.
    await callOk(fixtures.context, 'type_text', { window_id: window.id, selector: 'role=textbox name=City', text: 'Pa', delivery_mode: 'foreground' });
    await callOk(fixtures.context, 'wait_for', { window_id: window.id, selector: 'role=cell name=Parma', timeout_ms: 5000 });
    const popup = pyatspi([
      `app = [a for a in pyatspi.Registry.getDesktop(0) if a and a.get_process_id() == ${window.pid}][0]`,
      "for top in app:",
      "    for relation in top.getRelationSet():",
      "        if relation.getRelationType() == pyatspi.RELATION_POPUP_FOR and top.getState().contains(pyatspi.STATE_SHOWING):",
      "            print(top.getRoleName(), '->', relation.getTarget(0).name)",
    ]);
    assert.match(popup.stdout, /^window -> City$/m, `pyatspi: the list is a popup window for the field\n${popup.stdout}${popup.stderr}`);

    const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=cell name=Parma' });
    const result = clicked.structured as unknown as ActionResult;
    assert.equal(result.effect, 'suspected_noop', clicked.summary);
    assert.equal(result.escalation?.recommended, 'foreground', clicked.summary);
    assert.notEqual((await fixtures.status(window)).lastKey, 'city:Parma', 'the app chose nothing');

    const real = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=cell name=Parma', delivery_mode: 'foreground' });
    assert.equal((real.structured as unknown as ActionResult).effect, 'confirmed', real.summary);
    assert.equal((await fixtures.waitForStatus(window, (status) => status.lastKey === 'city:Parma')).lastKey, 'city:Parma', 'the app took Parma');
  });

  test('a switch in a settings list\'s row is named by the label beside it, and the row by its label once', async () => {
    // The case: GTK3 reports the switch as a toggle button with no name and no label pointing at it, beside the
    // label "Notifications"; the row beside it holds "Brightness" and a slider, unnamed too.
    const walked = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    const list = walked.findIndex((node) => node.role === 'list box');
    assert.ok(list >= 0, JSON.stringify(walked.map((node) => node.role)));
    const inList = walked.slice(list + 1).filter((_node, i, rest) => rest.slice(0, i + 1).every((each) => each.depth > walked[list]!.depth));
    assert.deepEqual(inList.filter((node) => node.role === 'toggle button' || node.role === 'slider').map((node) => `${node.role}|${node.name}`), ['toggle button|', 'slider|']);
    const labelled = await fixtures.oracle.labelled(window.pid, window.title);
    assert.ok(!labelled.some((entry) => entry.role === 'toggle button' && entry.labels.includes('Notifications')), JSON.stringify(labelled));

    // It is a switch (GTK3's one toggle button whose one action is "toggle"), off: it read as a plain button, and on as pressed.
    const elements = await fixtures.elements(window);
    const notifications = elements.find((element) => element.name === 'Notifications' && !['option', 'listitem', 'text'].includes(element.role));
    assert.equal(notifications?.role, 'switch', JSON.stringify(notifications));
    assert.ok(!notifications.states.includes('checked') && !notifications.states.includes('pressed'), JSON.stringify(notifications));
    const rows = elements.filter((element) => element.role === 'option' || element.role === 'listitem').map((element) => element.name);
    assert.ok(rows.includes('Notifications') && rows.includes('Brightness'), JSON.stringify(rows));

    const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=switch name=Notifications' });
    assert.equal((clicked.structured as unknown as ActionResult).effect, 'confirmed', clicked.summary);
    assert.equal((await fixtures.waitForStatus(window, (status) => status.lastKey === 'notifications:on')).lastKey, 'notifications:on', 'the app turned its switch on');
    assert.match(clicked.body ?? '', /sw "Notifications" states: \+chk/, clicked.body);
    const on = (await fixtures.elements(window)).find((element) => element.role === 'switch' && element.name === 'Notifications');
    assert.ok(on?.states.includes('checked'), JSON.stringify(on));
    const turned = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    assert.ok(turned.some((node) => node.role === 'toggle button' && node.states.includes('checked')), 'pyatspi: the switch is checked');

    // set_value false turns it off, as the app says.
    const off = await callOk(fixtures.context, 'set_value', { window_id: window.id, selector: 'role=switch name=Notifications', value: 'false' });
    assert.equal((off.structured as unknown as ActionResult).effect, 'confirmed', off.summary);
    assert.equal((await fixtures.waitForStatus(window, (status) => status.lastKey === 'notifications:off')).lastKey, 'notifications:off', 'the app turned its switch off');
  });

  test('a row holding only a combo box is not named by its choice, nor renamed when another is chosen', async () => {
    // Simple Scan's preference rows (libhandy): the row's title is drawn but not exposed, and the row holds a combo box
    // GTK3 names by its choice; pyatspi names the row nothing.
    const rowWindow = await fixtures.launch('gtk3', { title: 'Choice Row', size: '360x700', rows: 3, extraArgs: ['--choice-row'] });
    try {
      const walked = await pyatspiWalk(rowWindow.pid, rowWindow.title, fixtures.desktop.env());
      const combo = walked.findIndex((node) => node.role === 'combo box' && node.name === 'Automatic');
      const row = walked.slice(0, combo).reverse().find((node) => node.depth < walked[combo]!.depth);
      assert.deepEqual([row?.role, row?.name], ['list item', ''], 'pyatspi: the combo box lies in an unnamed row');
      const rowOf = (elements: readonly Element[]) => {
        const box = elements.find((element) => element.role === 'combobox' && element.value !== undefined && ['Automatic', 'A4'].includes(element.value));
        // Elements are numbered in pre-order: the row holding the box is the last row before it (a list box's is an option).
        return { box, row: elements.filter((element) => ['listitem', 'option'].includes(element.role) && box !== undefined && element.index < box.index).at(-1) };
      };
      const before = rowOf(await fixtures.elements(rowWindow));
      assert.ok(before.row && before.row.index === before.box!.index - 1, JSON.stringify(before));
      assert.notEqual(before.row?.name, 'Automatic', `the row is not named by the choice its combo box shows: ${JSON.stringify(before.row)}`);
      const chosen = await callOk(fixtures.context, 'set_value', { window_id: rowWindow.id, element_index: before.box!.index, value: 'A4' });
      assert.equal((await fixtures.waitForStatus(rowWindow, (status) => status.lastKey === 'size:A4')).lastKey, 'size:A4', 'the app took A4');
      assert.ok(!/(li|opt) name:/.test(chosen.body ?? ''), `the row is not said renamed: ${chosen.body}`);
      // The combo box's line says its choice once, not again in the bus's spelling of the event (SelectionChanged).
      const evidence = (chosen.structured as unknown as ActionResult).evidence ?? [];
      assert.ok(evidence.some((line) => /(value is now|→) "A4"/.test(line)), JSON.stringify(evidence));
      assert.deepEqual(evidence.filter((line) => /selection ?changed/i.test(line)), [], JSON.stringify(evidence));
      const after = rowOf(await fixtures.elements(rowWindow));
      assert.equal(after.box?.value, 'A4', JSON.stringify(after));
      assert.equal(after.row?.name, before.row?.name, 'the row keeps its name');
    } finally {
      process.kill(rowWindow.pid, 'SIGKILL');
    }
  });

  test('the items of a hidden notebook page, which GTK3 places at -2^31 plus their offset, have no place', async () => {
    const walked = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    // Unnamed on the bus: their words are their Text, which names them.
    const icons = walked.filter((node) => node.role === 'icon');
    assert.equal(icons.length, 3, JSON.stringify(walked.filter((node) => node.role === 'icon')));
    // The case: a billion pixels and more left of the screen, and not at -2^31 exactly.
    assert.ok(icons.every((node) => node.extents !== null && node.extents[0] < -(2 ** 30) && node.extents[0] !== -(2 ** 31)), JSON.stringify(icons.map((node) => node.extents)));

    const result = await callOk(fixtures.context, 'get_window_state', { window_id: window.id, pid: window.pid, include_screenshot: false });
    const items = (result.structured as { elements: Element[] }).elements.filter((element) => element.role === 'img' && ['A4', 'Letter', 'Legal'].includes(element.name));
    assert.equal(items.length, 3, result.body);
    assert.deepEqual(items.map((element) => element.bounds), [undefined, undefined, undefined], result.body);
    assert.ok(items.every((element) => element.states.includes('offscreen')), result.body);
    assert.doesNotMatch(result.body ?? '', /-21474836\d\d/, 'no coordinate of the sentinel is shown');
  });

  test('find_elements lists the matches on screen first, those on a notebook page not shown after, each in the order of the tree', async () => {
    const pages = await fixtures.desktop.launchFixture('gtk3', { title: 'Pages Fixture', extraArgs: ['--hidden-buttons'] });
    const walked = await pyatspiWalk(pages.window.pid, 'Pages Fixture', fixtures.desktop.env());
    const styles = walked.filter((node) => node.role === 'push button' && node.name.startsWith('Style '));
    const showing = styles.filter((node) => node.states.includes('showing')).map((node) => node.name);
    // The case (Gnumeric's Format Cells): the page not shown comes first in the tree, and the first matches were all on it.
    assert.deepEqual(styles.map((node) => node.name), ['Style 1', 'Style 2', 'Style 3', 'Style 4', 'Style 5', 'Style 6', 'Style A', 'Style B']);
    assert.deepEqual(showing, ['Style A', 'Style B'], JSON.stringify(styles));

    const cut = await callOk(fixtures.context, 'find_elements', { window_id: pages.window.id, selector: 'role=button name^=Style', max_results: 3 });
    const names = (result: typeof cut) => (result.structured.matches as Element[]).map((element) => element.name);
    assert.deepEqual(names(cut), [...showing, 'Style 1'], `${cut.summary} ${JSON.stringify(cut.structured.matches)} ${JSON.stringify(styles)}`);
    assert.equal(cut.structured.count, 8);
    assert.match(cut.summary, /\(first 3 shown, those on screen first: 2 of 8 are\)/, cut.summary);
    const all = await callOk(fixtures.context, 'find_elements', { window_id: pages.window.id, selector: 'role=button name^=Style' });
    assert.deepEqual(names(all), [...showing, ...styles.map((node) => node.name).filter((name) => !showing.includes(name))], all.summary);
  });

  test('a huge list in a hidden pane, or on a notebook page behind the shown one, is counted as hidden with it, not as rows to scroll down to; shown, it is scrolled', async () => {
    // Pluma's closed side pane holds a file browser of /tmp's thousands of rows: its read said "4234 children out of
    // view not read (4234 down)", and find_elements advised scrolling the hidden list down, which brings in nothing.
    // Caja's folder tree, on its side pane's page behind the Places page, read the same.
    const index = await fixtures.desktop.launchFixture('gtk3', { title: 'Index Fixture', extraArgs: ['--hidden-rows', '300'] });
    const list = (name: string) => {
      const run = pyatspi([
        `frame = find_frame(${index.window.pid}, "Index Fixture")`,
        `view = pyatspi.findDescendant(frame, lambda node: node.getRoleName() in ("table", "tree table") and node.name == ${JSON.stringify(name)})`,
        'states = view.getState()',
        'print(view.childCount, states.contains(pyatspi.STATE_VISIBLE), states.contains(pyatspi.STATE_SHOWING))',
      ]);
      return `${run.stdout.trim()}${run.stderr.trim()}`;
    };
    // The Index's pane is hidden, so the view is not showing (itself visible inside it); so is the Archive, on its page.
    for (const name of ['Index', 'Archive']) {
      const [rows, , showing] = list(name).split(' ');
      assert.ok(Number(rows) >= 300 && showing === 'False', `pyatspi: the ${name} holds the rows and is not showing (${list(name)})`);
    }
    const target = { window_id: index.window.id, pid: index.window.pid, include_screenshot: false };
    const unreadNote = async (selector: string) => {
      const sought = await callOk(fixtures.context, 'find_elements', { window_id: index.window.id, selector });
      return { notes: (sought.structured as { unread?: string[] }).unread ?? [], summary: sought.summary };
    };

    const read = await callOk(fixtures.context, 'get_window_state', target);
    const state = read.structured as { unread_children?: unknown; unread_hidden_children?: number };
    assert.doesNotMatch(read.summary, /out of view/, read.summary);
    assert.equal(state.unread_children, undefined, read.summary);
    assert.ok((state.unread_hidden_children ?? 0) >= 600, read.summary);
    const full = await callOk(fixtures.context, 'get_window_state', { ...target, detail: 'full' });
    const hints = (full.body ?? '').split('\n').filter((line) => /more items/.test(line) && !/open the menu/.test(line));
    assert.equal(hints.length, 2, full.body);
    assert.ok(hints.every((hint) => /hidden with this .* show it/.test(hint)), full.body);
    const hidden = await unreadNote('name="Entry 250"');
    assert.equal(hidden.notes.length, 2, hidden.summary);
    assert.ok(hidden.notes.every((note) => /holds \d+ more items.*it is hidden: show it/.test(note) && !/scroll/.test(note)), hidden.summary);

    await callOk(fixtures.context, 'click', { window_id: index.window.id, selector: 'name="Show index"' });
    await callOk(fixtures.context, 'click', { window_id: index.window.id, selector: 'role=tab name=Archive' });
    for (const name of ['Index', 'Archive']) assert.match(list(name), /^\d+ True True$/, `pyatspi: the ${name} is shown`);
    const shown = await unreadNote('name="Item 250"');
    assert.equal(shown.notes.length, 2, shown.summary);
    assert.ok(shown.notes.every((note) => /holds \d+ more items not in the tree: scroll it down/.test(note)), shown.summary);
    assert.match((await callOk(fixtures.context, 'get_window_state', target)).summary, /children out of view not read \(\d+ down\)/);
  });

  test('a scroll given only the window moves the one region it shows, not one hidden with a side pane or a page behind', async () => {
    // A window's hidden panes are in its snapshot too: counted, this window, which shows one list, was refused as having
    // three scrollable regions; and System Monitor, its shown page changed since the read, had the one now hidden scrolled.
    const fixture = await fixtures.desktop.launchFixture('gtk3', { title: 'Scroll Fixture', extraArgs: ['--hidden-rows', '50'] });
    /** Each list's pane's vertical scroll bar value and whether the pane shows, as pyatspi reads them. */
    const panes = () =>
      pyatspiJson<Record<string, [number, boolean]>>([
        `frame = find_frame(${fixture.window.pid}, "Scroll Fixture")`,
        'answer = {}',
        'for name in ("Items", "Index", "Archive"):',
        '    view = pyatspi.findDescendant(frame, lambda node: node.name == name and node.getRoleName() in ("list box", "table", "tree table"))',
        '    pane = view.parent',
        '    while pane.getRoleName() != "scroll pane": pane = pane.parent',
        '    bar = [child for child in pane if child.getRoleName() == "scroll bar" and child.getState().contains(pyatspi.STATE_VERTICAL)][0]',
        '    answer[name] = [bar.queryValue().currentValue, pane.getState().contains(pyatspi.STATE_SHOWING)]',
      ]);
    const before = panes();
    assert.deepEqual(Object.fromEntries(Object.entries(before).map(([name, [, showing]]) => [name, showing])), { Items: true, Index: false, Archive: false }, JSON.stringify(before));
    await callOk(fixtures.context, 'get_window_state', { window_id: fixture.window.id, include_screenshot: false });
    const scrolled = await callOk(fixtures.context, 'scroll', { window_id: fixture.window.id, direction: 'down', amount: 3 });
    assert.equal(scrolled.structured.effect, 'confirmed', scrolled.summary);
    const after = panes();
    assert.ok(after.Items![0] > before.Items![0], `pyatspi: the Items list scrolled down (${JSON.stringify(before)} -> ${JSON.stringify(after)})`);
    assert.equal(after.Index![0], before.Index![0]);
    assert.equal(after.Archive![0], before.Archive![0]);
  });

  test('a scroll given only a window not read yet in the session reads it, and moves the one region it shows', async () => {
    // Pluma's document, scrolled right after launch_app (or after the daemon was replaced): refused with no_snapshot,
    // "call get_window_state", where a click by selector reads the window itself.
    const fixture = await fixtures.desktop.launchFixture('gtk3', { title: 'Unread Scroll Fixture', extraArgs: ['--hidden-rows', '50'] });
    const items = () =>
      pyatspiJson<number>([
        `frame = find_frame(${fixture.window.pid}, "Unread Scroll Fixture")`,
        'view = pyatspi.findDescendant(frame, lambda node: node.name == "Items" and node.getRoleName() in ("list box", "table", "tree table"))',
        'pane = view.parent',
        'while pane.getRoleName() != "scroll pane": pane = pane.parent',
        'answer = [child for child in pane if child.getRoleName() == "scroll bar" and child.getState().contains(pyatspi.STATE_VERTICAL)][0].queryValue().currentValue',
      ]);
    const before = items();
    const scrolled = await callOk(fixtures.context, 'scroll', { window_id: fixture.window.id, direction: 'down', amount: 3 });
    assert.equal(scrolled.structured.effect, 'confirmed', scrolled.summary);
    assert.ok(items() > before, `pyatspi: the Items list scrolled down (${before} -> ${items()})`);
  });

  test("a context menu's greyed-out items are marked so in the evidence's menu line and on the diff's added lines", async () => {
    // Pluma's text menu opens with Cut, Copy, Paste and Delete greyed out: the evidence read '6 items, "Cut", "Copy", ...'
    // and the diff '+ [e469] mi "Cut"', and an agent clicking Cut met element_disabled a second later.
    const fixture = await fixtures.desktop.launchFixture('gtk3', { title: 'Greyed Menu Fixture' });
    try {
      const opened = await callOk(fixtures.context, 'right_click', { window_id: fixture.window.id, selector: 'role=textbox name="Name field"', delivery_mode: 'foreground' });
      const items = pyatspiJson<[string, boolean][]>([
        `app = [a for a in pyatspi.Registry.getDesktop(0) if a is not None and a.get_process_id() == ${fixture.window.pid}][0]`,
        'menu = [top for top in app if top.getRoleName() == "window" and top.getState().contains(pyatspi.STATE_SHOWING)][0]',
        'answer = [[item.name, item.getState().contains(pyatspi.STATE_SENSITIVE)] for item in pyatspi.findAllDescendants(menu, lambda node: node.getRoleName() == "menu item")]',
      ]);
      const greyed = items.filter(([, sensitive]) => !sensitive).map(([name]) => name);
      const offered = items.filter(([, sensitive]) => sensitive).map(([name]) => name);
      assert.ok(greyed.includes('Cut') && offered.length > 0, `pyatspi: the empty field's menu greys Cut out, and not every item: ${JSON.stringify(items)}`);
      const line = ((opened.structured.evidence ?? []) as string[]).find((text) => text.startsWith('menu opened over the window')) ?? '';
      for (const [name, sensitive] of items) assert.ok(line.includes(`"${name}"${sensitive ? ',' : ' {dis}'}`) || (sensitive && line.endsWith(`"${name}"`)), `"${name}" ${sensitive ? 'unmarked' : 'marked {dis}'}: ${line}`);
      const body = opened.body ?? '';
      for (const name of greyed) assert.match(body, new RegExp(`^\\+ \\[e\\d+\\] mi "${name}" \\{dis\\}$`, 'm'), body);
      for (const name of offered) assert.match(body, new RegExp(`^\\+ \\[e\\d+\\] mi "${name}"$`, 'm'), body);
    } finally {
      process.kill(fixture.window.pid);
    }
  });

  test('an expander is not named by what it discloses, expanded or collapsed', async () => {
    // System Monitor's untitled CPU expander read "CPU2 0.0% CPU1 0.0%", renamed at each refresh of its meters, and
    // its Network one, collapsed, its hidden body's words in another order.
    const fixture = await fixtures.desktop.launchFixture('gtk3', { title: 'Expander Fixture', extraArgs: ['--meter-expander'] });
    const oracle = () =>
      pyatspiJson<[string, boolean, string[]]>([
        `frame = find_frame(${fixture.window.pid}, "Expander Fixture")`,
        'node = pyatspi.findDescendant(frame, lambda node: node.getRoleName() == "toggle button" and node.getState().contains(pyatspi.STATE_EXPANDABLE))',
        'words = [label.name for label in pyatspi.findAllDescendants(node, lambda child: child.getRoleName() == "label")]',
        'answer = [node.name, node.getState().contains(pyatspi.STATE_EXPANDED), words]',
      ]);
    assert.deepEqual(oracle(), ['', true, ['Load', '42%']], 'pyatspi: an unnamed expander, expanded, holding its body\'s labels');
    const expander = async () => {
      const read = await callOk(fixtures.context, 'get_window_state', { window_id: fixture.window.id, include_screenshot: false, detail: 'full' });
      const found = (read.structured.elements as Element[]).find((element) => element.role === 'button' && (element.states.includes('expanded') || element.actions.includes('expand')));
      assert.ok(found, read.body);
      return found;
    };
    const open = await expander();
    assert.equal(open.name, '', `not named by its body: ${JSON.stringify(open)}`);
    const clicked = await callOk(fixtures.context, 'click', { window_id: fixture.window.id, element_index: open.index });
    assert.equal(clicked.structured.effect, 'confirmed', clicked.summary);
    assert.equal(oracle()[1], false, 'pyatspi: collapsed');
    const closed = await expander();
    assert.equal(closed.index, open.index);
    assert.equal(closed.name, '', `collapsed, not named by its hidden body: ${JSON.stringify(closed)}`);
  });

  test('a Value that has no number (GAIL\'s progress bar) is read without aborting the app', async () => {
    const meter = await fixtures.desktop.launchFixture('gtk3', { title: 'Meter Fixture', extraArgs: ['--unvalued-meter'] });
    // The case: pyatspi's Get of its minimum fails (the toolkit cannot give it).
    const run = pyatspi([
      `frame = find_frame(${meter.window.pid}, "Meter Fixture")`,
      'meter = pyatspi.findDescendant(frame, lambda node: node.getRoleName() == "progress bar")',
      'try:',
      '    meter.queryValue().minimumValue',
      '    print("read")',
      'except Exception:',
      '    print("failed")',
    ]);
    assert.equal(run.stdout.trim(), 'failed', `pyatspi: ${run.stdout} ${run.stderr}`);

    const read = await callOk(fixtures.context, 'get_window_state', { pid: meter.window.pid, window_id: meter.window.id, detail: 'full', include_screenshot: false });
    const state = read.structured as { degraded: boolean; elements: Element[] };
    assert.equal(state.degraded, false, read.summary);
    assert.ok(state.elements.some((element) => element.role === 'progressbar' && element.name === 'Meter'), read.body);
    assert.equal(meter.process.exitCode, null, 'the app still runs');
    assert.equal(meter.process.signalCode, null, 'the app still runs');
    assert.ok((await fixtures.oracle.statusText(meter.window.pid, meter.window.title)).startsWith('counter='), 'pyatspi: the app still answers');
  });
  test('a grid GTK3 lists last-added first is read in rows from the top, each field named by its label', async () => {
    // The case: pyatspi lists the --greyed-choice grid's children from its last row up, the Port: spin button first.
    const walked = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    const label = walked.findIndex((node) => node.role === 'label' && node.name === 'Protocol:');
    const grid = walked.slice(0, label).reverse().find((node) => node.depth === walked[label]!.depth - 1)!;
    const start = walked.indexOf(grid);
    const end = walked.findIndex((node, index) => index > start && node.depth <= grid.depth);
    const listed = walked.slice(start + 1, end === -1 ? undefined : end).filter((node) => node.depth === grid.depth + 1);
    assert.deepEqual(listed.map((node) => node.role === 'label' ? node.name : node.role), ['spin button', 'Port:', 'text', 'Server:', 'combo box', 'Protocol:'], 'pyatspi: the last-added row first');
    // The rows top-down in pyatspi's places: each label is left of its field, on its row.
    const rows = listed.map((node) => node.extents![1]);
    assert.ok(rows[0]! > rows[2]! && rows[2]! > rows[4]!, JSON.stringify(rows));

    const read = await callOk(fixtures.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
    const lines = (read.body ?? '').split('\n');
    const line = (pattern: RegExp) => {
      const at = lines.findIndex((each) => pattern.test(each));
      assert.ok(at >= 0, `${pattern} in:\n${read.body}`);
      return at;
    };
    const order = [/cmb "Protocol:"/, /tbx "Server:"/, /spn "Port:"/].map(line);
    assert.deepEqual(order, [...order].sort((a, b) => a - b), `the compact view reads the grid in rows:\n${order.map((at) => lines[at]).join('\n')}`);
    // Each label is said once, on the line of the field it names.
    assert.ok(!lines.some((each) => /txt "(Protocol|Server|Port):"/.test(each)), read.body);
  });

  test('an option the app greys out is refused with nothing sent; a value the element already holds is no change, not a failure', async () => {
    const walked = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    const item = (name: string) => walked.find((node) => node.role === 'menu item' && node.name === name);
    // The case: pyatspi reads IMAP4 neither sensitive nor enabled beside a sensitive POP3.
    assert.ok(item('POP3')?.states.includes('sensitive'), JSON.stringify(item('POP3')));
    assert.ok(item('IMAP4') && !item('IMAP4')!.states.includes('sensitive') && !item('IMAP4')!.states.includes('enabled'), JSON.stringify(item('IMAP4')));
    const selector = (role: string, name: string) => `role=${role} name="${name}"`;
    const refused = await failsWith(fixtures.context, 'set_value', { window_id: window.id, selector: selector('combobox', 'Protocol:'), value: 'IMAP4' }, 'option_not_selectable');
    assert.match(refused.summary, /disabled/, refused.summary);
    assert.notEqual((await fixtures.status(window)).lastKey, 'protocol:IMAP4', 'the fixture took no choice');
    assert.ok((await pyatspiWalk(window.pid, window.title, fixtures.desktop.env())).some((node) => node.role === 'combo box' && node.name === 'POP3'), 'pyatspi: POP3 is still chosen');

    for (const [role, name, value] of [['combobox', 'Protocol:', 'POP3'], ['textbox', 'Server:', 'mail.example.org'], ['spinbutton', 'Port:', '110']] as const) {
      const same = await callOk(fixtures.context, 'set_value', { window_id: window.id, selector: selector(role, name), value });
      const result = same.structured as unknown as ActionResult;
      assert.deepEqual([result.path, result.effect], ['none', 'confirmed'], `${name} ${value}: ${same.summary}`);
      assert.match((result.evidence ?? []).join('\n'), /already: nothing to change/, same.summary);
      assert.match(same.summary, /^✅ set_value .*: already so, nothing was sent$/m, 'the summary says so, not "confirmed via none"');
    }
    // A value it does not hold yet is still set.
    const port = await callOk(fixtures.context, 'set_value', { window_id: window.id, selector: selector('spinbutton', 'Port:'), value: '995' });
    assert.deepEqual([(port.structured as unknown as ActionResult).path, (port.structured as unknown as ActionResult).effect], ['x11_atspi', 'confirmed'], port.summary);
    const run = pyatspi([
      `frame = find_frame(${window.pid}, ${JSON.stringify(window.title)})`,
      'spins = pyatspi.findAllDescendants(frame, lambda node: node.getRoleName() == "spin button")',
      'print(" ".join(str(int(spin.queryValue().currentValue)) for spin in spins))',
    ]);
    assert.ok(run.stdout.trim().split(' ').includes('995'), `pyatspi: the Port: spin button holds 995 (${run.stdout} ${run.stderr})`);
  });

  test('a spin button showing typed digits it has not taken yet does not hold the number it held: set_value of it sets the text', async () => {
    // Mines' Percent mines field: "20" typed after its 25 showed 2520, and set_value 25 answered "holds 25 already".
    const port = 'role=spinbutton name="Port:"';
    const spin = () => {
      const run = pyatspi([
        `frame = find_frame(${window.pid}, ${JSON.stringify(window.title)})`,
        'labelled = lambda node: [target.name for relation in node.getRelationSet() if relation.getRelationType() == pyatspi.RELATION_LABELLED_BY for target in (relation.getTarget(i) for i in range(relation.getNTargets()))]',
        'spin = pyatspi.findDescendant(frame, lambda node: node.getRoleName() == "spin button" and "Port:" in labelled(node))',
        'print(repr(spin.queryText().getText(0, -1)), int(spin.queryValue().currentValue))',
      ]);
      return `${run.stdout.trim()}${run.stderr.trim()}`;
    };
    const held = /^'(\d+)' (\d+)$/.exec(spin());
    assert.ok(held && held[1] === held[2], `pyatspi: the field shows the number it holds (${spin()})`);
    await callOk(fixtures.context, 'type_text', { window_id: window.id, selector: port, text: '7' });
    // The case: the field shows the typed digit after the number, which it still holds.
    assert.equal(spin(), `'${held[1]}7' ${held[2]}`, 'pyatspi: typed, not taken');

    const set = await callOk(fixtures.context, 'set_value', { window_id: window.id, selector: port, value: held[2]! });
    const result = set.structured as unknown as ActionResult;
    assert.deepEqual([result.path, result.effect], ['x11_atspi', 'confirmed'], set.summary);
    assert.equal(spin(), `'${held[2]}' ${held[2]}`, `pyatspi: the field shows ${held[2]} again (${set.summary})`);
    const again = await callOk(fixtures.context, 'set_value', { window_id: window.id, selector: port, value: held[2]! });
    assert.equal((again.structured as unknown as ActionResult).path, 'none', again.summary);
  });

  test('a field that completes the typed text and selects what it added (a file chooser\'s location) says so, and what keys typed next would do', async () => {
    const completing = await fixtures.desktop.launchFixture('gtk3', { title: 'Completion Fixture', extraArgs: ['--completion'] });
    const field = 'role=textbox name=Folder';
    const read = () => {
      const run = pyatspi([
        `frame = find_frame(${completing.window.pid}, "Completion Fixture")`,
        'field = pyatspi.findDescendant(frame, lambda node: node.name == "Folder" and node.getRoleName() == "text")',
        'text = field.queryText()',
        'start, end = text.getSelection(0) if text.getNSelections() > 0 else (0, 0)',
        'print(repr(text.getText(0, -1)), repr(text.getText(start, end)))',
      ]);
      return `${run.stdout.trim()}${run.stderr.trim()}`;
    };
    const typed = await callOk(fixtures.context, 'type_text', { window_id: completing.window.id, selector: field, text: 'rep' });
    // The case: the app added "orts/" after the typed "rep" and selected it.
    assert.equal(read(), `'reports/' 'orts/'`, 'pyatspi: the field completed and selected');
    const evidence = ((typed.structured as unknown as ActionResult).evidence ?? []).join('\n');
    assert.match(evidence, /the app completed the text typed into \[e\d+\]: it added "orts\/" and selected it, and keys typed into a focused field replace a selection; to type after it, press_key "End" first/, evidence);
    // Text that nothing completes (no name starts with it) leaves nothing selected, and no such line.
    await callOk(fixtures.context, 'set_value', { window_id: completing.window.id, selector: field, value: '' });
    const plain = await callOk(fixtures.context, 'type_text', { window_id: completing.window.id, selector: field, text: 'zz' });
    assert.equal(read(), `'zz' ''`, 'pyatspi: nothing completed');
    assert.doesNotMatch(((plain.structured as unknown as ActionResult).evidence ?? []).join('\n'), /completed/, plain.summary);
  });

  test('a background click on a field of a window behind another sends nothing, as GTK3 raises the window it focuses; typing reaches the field there', async () => {
    const x = new XReaders(fixtures.desktop.env());
    const front = await fixtures.launch('gtk3', { title: 'In Front', size: '300x200' });
    const field = 'role=textbox name="Server:"';
    try {
      await x.activate(front.id);
      assert.equal(await x.activeWindow(), front.id, 'xprop: the other window is the active one');
      const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, selector: field });
      const result = clicked.structured as unknown as ActionResult;
      // The case: GrabFocus on a GTK3 field presents its window, and the click activated the form behind, unannounced.
      assert.equal(result.path, 'none', clicked.summary);
      assert.match(clicked.body ?? clicked.summary, /raises window \d+ \(not the active window\)/, clicked.body);
      assert.equal(await x.activeWindow(), front.id, 'xprop: the window in front is still the active one');

      const typed = await callOk(fixtures.context, 'type_text', { window_id: window.id, selector: field, text: '.net' });
      assert.equal((typed.structured as unknown as ActionResult).effect, 'confirmed', typed.summary);
      const texts = await fixtures.oracle.texts(window.pid, window.title);
      assert.ok(texts.includes('mail.example.org.net'), `pyatspi: the text went into the field behind: ${JSON.stringify(texts)}`);
      assert.equal(await x.activeWindow(), front.id, 'xprop: typing in the background left the activation where it was');
    } finally {
      await callOk(fixtures.context, 'set_value', { window_id: window.id, selector: field, value: 'mail.example.org' });
      await callOk(fixtures.context, 'kill_app', { pid: front.pid });
    }
  });

  test('a closed combo box says how many choices it holds: GTK3 keeps them in a hidden, off-screen menu, which the compact text had dropped with its count', async () => {
    const choices = await fixtures.oracle.menuItems(window.pid, window.title, 'combo box', 'Color');
    assert.ok(choices.length >= 2, `pyatspi: the Color combo box holds its choices in a menu: ${JSON.stringify(choices)}`);
    const color = (await fixtures.elements(window)).find((element) => element.role === 'combobox' && element.name === 'Color');
    assert.ok(color, 'the tree shows the Color combo box');
    const compact = (await callOk(fixtures.context, 'get_window_state', { window_id: window.id, include_screenshot: false })).body ?? '';
    const lines = compact.split('\n');
    const at = lines.findIndex((line) => line.trimStart().startsWith(`[e${color.index}] cmb "Color"`));
    assert.ok(at >= 0, compact);
    // The count says how to choose one: the line lists no verb that chooses, and set_value takes a choice by its text.
    assert.match(lines[at + 1] ?? '', new RegExp(`^\\s+# ${choices.length} more items \u2014 open the list to see, or set_value with a choice's text$`), compact);
    assert.ok(!choices.some((choice) => lines.some((line) => line.includes(`mi "${choice}"`))), 'the closed choices are counted, not listed');
    const before = (await fixtures.oracle.status(window.pid, window.title)).color;
    const other = choices.find((choice) => choice !== before);
    assert.ok(other, `pyatspi: a choice other than ${before}: ${JSON.stringify(choices)}`);
    try {
      await callOk(fixtures.context, 'set_value', { window_id: window.id, element_index: color.index, value: other });
      assert.equal((await fixtures.oracle.status(window.pid, window.title)).color, other, 'pyatspi: the fixture took the choice set_value named by its text, the list never opened');
    } finally {
      await callOk(fixtures.context, 'set_value', { window_id: window.id, selector: 'role=combobox name="Color"', value: before! });
    }
  });
  test("a closed combo box's choices are not offered as the nearest names when nothing matched: they are seen nowhere until the list opens", async () => {
    const choices = await fixtures.oracle.menuItems(window.pid, window.title, 'combo box', 'Color');
    const chosen = (await fixtures.oracle.status(window.pid, window.title)).color;
    const hidden = choices.find((choice) => choice !== chosen);
    assert.ok(hidden, `pyatspi: a choice other than ${chosen}: ${JSON.stringify(choices)}`);
    // The oracle's part: the choice is an item of the combo box's menu, which no one sees while the box is closed.
    const item = (await pyatspiWalk(window.pid, window.title, fixtures.desktop.env())).find((node) => node.role === 'menu item' && node.name === hidden);
    assert.ok(item && !item.states.includes('showing'), `pyatspi: ${hidden} is an item not shown: ${JSON.stringify(item)}`);
    // A button sought by the choice's name (Mousepad's Find and Replace offered "Selection", a choice of its closed
    // "Replace all in:" list, for a button sought).
    const selector = `role=button name=${JSON.stringify(hidden)}`;
    const waited = await failsWith(fixtures.context, 'wait_for', { window_id: window.id, selector, timeout_ms: 300 }, 'timeout');
    const found = await callOk(fixtures.context, 'find_elements', { window_id: window.id, selector });
    const clicked = await failsWith(fixtures.context, 'click', { window_id: window.id, selector }, 'not_found');
    for (const [tool, names] of [['wait_for', waited.structured.nearest_names], ['find_elements', found.structured.nearest_names], ['click', clicked.structured.nearest_names]] as const) {
      assert.ok(Array.isArray(names) && names.length > 0, `${tool} offers nearest names: ${JSON.stringify(names)}`);
      assert.ok(!(names as string[]).includes(hidden), `${tool} offered the closed list's choice ${hidden}: ${JSON.stringify(names)}`);
    }
  });
});
