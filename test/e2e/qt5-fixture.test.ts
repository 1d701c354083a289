// Qt 5's own AT-SPI bridge, on the PyQt5 fixture (test/fixtures/apps/qt5_fixture.py): shapes every Qt and KDE app
// shows (Kate's settings pages, VLC's preferences, Okular's page view) that GTK's bridge never makes. The oracle is
// Debian's pyatspi, reading the same objects from the bus: their boxes, states and values.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { unreadInShown } from '../helpers/raw-tree.js';
import { runTool } from '../../src/tools/run.js';
import { accessibleWindowState, callOk, childIndices, failsWith, pyatspiWalk, testContext, type OracleNode } from '../helpers/tools.js';

describe('Qt 5 fixture', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('qt5');
  });

  after(async () => {
    await fixtures?.stop();
  });

  const oracle = () => pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
  /** The form's vertical scroll bar as pyatspi places it: its box is the height of the scroll area's view. */
  const formBar = (nodes: OracleNode[]) => nodes.find((node) => node.role === 'scroll bar' && node.states.includes('showing') && node.extents![3] > node.extents![2])!;
  /** The form's check boxes whose boxes pyatspi places wholly outside the view (above or below it). */
  const outsideView = (nodes: OracleNode[]) => {
    const [, top, , height] = formBar(nodes).extents!;
    return nodes.filter((node) => node.role === 'check box').map((node) => node.extents![1] + node.extents![3] <= top || node.extents![1] >= top + height);
  };

  test('typing with no element goes to the editor that has the focus, not to another object Qt says is focused', async () => {
    const focused = (await oracle()).filter((node) => node.states.includes('focused')).map((node) => node.role);
    // The quirk: the list's current row and the button whose focus proxy is the editor say they are focused too.
    assert.ok(['list item', 'push button', 'text'].every((role) => focused.includes(role)), JSON.stringify(focused));
    const typed = await callOk(fixtures.context, 'type_text', { window_id: window.id, text: 'typed by an agent ' });
    assert.equal((typed.structured as unknown as ActionResult).effect, 'confirmed', typed.summary);
    const texts = await fixtures.oracle.texts(window.pid, window.title);
    assert.ok(texts.some((text) => text.startsWith('typed by an agent first line')), `pyatspi texts: ${JSON.stringify(texts)}`);
  });

  test("a scroll area's rows below its view are offscreen, and it scrolls in the background by its scroll bar", async () => {
    const before = await oracle();
    const hidden = outsideView(before);
    // The quirk this test is about: Qt says every row is showing, those the area's view hides too.
    assert.ok(hidden.some(Boolean) && before.filter((node) => node.role === 'check box').every((node) => node.states.includes('showing')), JSON.stringify(hidden));

    const offscreen = async () => (await fixtures.elements(window)).filter((element) => element.role === 'checkbox').map((element) => element.states.includes('offscreen'));
    assert.deepEqual(await offscreen(), hidden, 'the compact view marks offscreen exactly the rows pyatspi places outside the view');

    // Every scroll bar's value: only the form's can move (the editor's text fits).
    const barsBefore = await fixtures.oracle.values(window.pid, window.title, 'scroll bar');
    const scrolled = await callOk(fixtures.context, 'scroll', { window_id: window.id, selector: 'role=checkbox [index=0]', direction: 'down', by: 'page' });
    assert.equal((scrolled.structured as unknown as ActionResult).effect, 'confirmed', scrolled.summary);
    assert.equal((scrolled.structured as unknown as ActionResult).path, 'x11_atspi', 'moved through accessibility, not the wheel');
    const barsAfter = await fixtures.oracle.values(window.pid, window.title, 'scroll bar');
    assert.ok(barsAfter.some((value, i) => value > barsBefore[i]!), `pyatspi: the form's scroll bar moved down (${JSON.stringify(barsBefore)} → ${JSON.stringify(barsAfter)})`);
    const after = await oracle();
    assert.notDeepEqual(outsideView(after), hidden, 'other rows are in view now');
    assert.deepEqual(await offscreen(), outsideView(after), 'after the scroll, the offscreen rows are again those pyatspi places outside the view');
  });

  test('a check box with no text of its own is named by the label on its row; clicked by that name, that box toggles', async () => {
    const rowOf = (nodes: OracleNode[], label: string) => {
      const [, y, , h] = nodes.find((node) => node.role === 'label' && node.name === label)!.extents!;
      return nodes.find((node) => node.role === 'check box' && Math.abs(node.extents![1] + node.extents![3] / 2 - (y + h / 2)) < h / 2)!;
    };
    const before = rowOf(await oracle(), 'Option 3:');
    // The quirk: Qt names the box nothing, and ties no label to it.
    assert.equal(before.name, '', JSON.stringify(before));
    const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=checkbox name="Option 3:"' });
    assert.equal((clicked.structured as unknown as ActionResult).effect, 'confirmed', clicked.summary);
    const after = rowOf(await oracle(), 'Option 3:');
    assert.notEqual(after.states.includes('checked'), before.states.includes('checked'), 'pyatspi: the box on the row of "Option 3:" toggled');
  });

  test('a combo box Qt names by its choice is named by the label that points at it; its value is the choice', async () => {
    const labelled = await fixtures.oracle.labelled(window.pid, window.title);
    // The quirk: Qt names the combo box by the choice it shows, its buddy label only in a labelled-by relation.
    assert.deepEqual(labelled.filter((entry) => entry.role === 'combo box').map((entry) => [entry.name, entry.labels]), [['Light', ['Theme:']], ['Fit Width', ['Zoom:']]]);
    const combos = (await oracle()).filter((node) => node.role === 'combo box');
    for (const [label, value, index] of [['Theme:', 'Light', 0], ['Zoom:', 'Fit Width', 1]] as const) {
      const found = await callOk(fixtures.context, 'find_elements', { window_id: window.id, selector: `role=combobox name="${label}"` });
      const matches = (found.structured as { matches: { value?: string; bounds?: { x: number; y: number; w: number; h: number } }[] }).matches;
      assert.deepEqual(matches.map((match) => match.value), [value], found.body);
      const [x, y, w, h] = combos[index]!.extents!;
      assert.deepEqual(matches[0]!.bounds, { x, y, w, h }, `the match is the combo box pyatspi labels "${label}"`);
    }
  });

  test("an editable combo box's closed choices are counted, its text field kept", async () => {
    const zoomChoices = (await oracle()).filter((node) => node.role === 'list item' && ['Fit Width', 'Fit Page', '100%'].includes(node.name));
    // The quirk: Qt keeps the closed list's items showing, at the screen's corner.
    assert.ok(zoomChoices.length === 3 && zoomChoices.every((node) => node.states.includes('showing')), JSON.stringify(zoomChoices));
    const { result } = await accessibleWindowState(fixtures.context, window, { include_screenshot: false });
    const body = result.body ?? '';
    assert.ok(!/li "Fit Page"/.test(body), body);
    assert.match(body, /cmb "[^"]*" [^\n]*val="Fit Width"\n\s+# 3 more items — open the list to see, or set_value with a choice's text\n\s+\[e\d+\] tbx [^\n]*val="Fit Width"/, body);
  });

  test("an editable combo box's value is what its field holds, not the item its closed list marks after a choice it did not take", async () => {
    const zoom = 'role=combobox name=Zoom:';
    // Qt's list items toggled through accessibility are marked selected in the closed list, which the combo box need
    // not take (set_value may be refused so); whatever set_value said, the field holds what the box shows.
    await runTool('set_value', { window_id: window.id, selector: zoom, value: 'Fit Page' }, fixtures.context);
    await callOk(fixtures.context, 'set_value', { window_id: window.id, selector: zoom, value: '150%' });
    const nodes = await oracle();
    // Qt names an editable combo box by the text its field holds; its items lie in its list, a level below.
    const combo = nodes.find((node, at) => node.role === 'combo box' && nodes.slice(at + 1, at + 4).some((item) => item.role === 'list item' && item.name === 'Fit Width'))!;
    const marked = nodes.filter((node) => node.role === 'list item' && node.states.includes('selected')).map((node) => node.name);
    assert.equal(combo.name, '150%', `pyatspi: the box shows the text set (${JSON.stringify(combo)})`);
    assert.ok((await fixtures.oracle.texts(window.pid, window.title)).includes('150%'), 'pyatspi: its field holds 150%');
    assert.ok(!marked.includes('150%'), `pyatspi: the closed list marks no item showing 150% (${JSON.stringify(marked)})`);
    const found = await callOk(fixtures.context, 'find_elements', { window_id: window.id, selector: zoom });
    const matches = found.structured.matches as { value?: string }[];
    assert.deepEqual(matches.map((match) => match.value), ['150%'], found.body);
  });

  test("invoke_menu: an exclusive check item chosen is confirmed by its own check mark, of which Qt announces nothing", async () => {
    const checked = async (name: string) => (await fixtures.oracle.find(window.pid, window.title, 'menu item', name)).states!.includes('checked');
    assert.deepEqual([await checked('Radian'), await checked('Degree')], [true, false], 'pyatspi: Radian is the unit before');
    const chosen = await callOk(fixtures.context, 'invoke_menu', { window_id: window.id, path: ['Units', 'Degree'] });
    const result = chosen.structured as unknown as ActionResult;
    assert.deepEqual([await checked('Radian'), await checked('Degree')], [false, true], 'pyatspi: Degree is the unit now');
    assert.equal(result.effect, 'confirmed', chosen.summary);
    assert.ok(result.evidence?.some((line) => /"Units > Degree": \+chk/.test(line)), JSON.stringify(result.evidence));
    // Chosen again, the item already checked changes nothing, and the result does not claim it did.
    const again = await callOk(fixtures.context, 'invoke_menu', { window_id: window.id, path: ['Units', 'Degree'] });
    assert.notEqual((again.structured as unknown as ActionResult).effect, 'confirmed', again.summary);
    assert.deepEqual([await checked('Radian'), await checked('Degree')], [false, true], 'pyatspi: Degree is still the unit');
  });

  test('a foreground click on a drop-down scrolled out of its scroll area scrolls it in, and leaves the window active with the list open: Qt would close it if the window active before got its place back', async () => {
    // The form scrolled to its end: the Theme combo box, its first row, lies above the area's view.
    await callOk(fixtures.context, 'scroll', { window_id: window.id, selector: 'role=checkbox [index=0]', direction: 'down', by: 'page', amount: 3 });
    const combo = () => oracle().then((nodes) => nodes.find((node) => node.role === 'combo box' && node.name === 'Light')!);
    const [, barTop] = formBar(await oracle()).extents!;
    const [, comboTop, , comboHeight] = (await combo()).extents!;
    assert.ok(comboTop + comboHeight <= barTop, `pyatspi: the combo box (y ${comboTop}) lies above the view (y ${barTop})`);
    const other = await fixtures.launch('gtk3', { title: 'Active before' });
    await fixtures.readers.activate(other.id);
    assert.equal(await fixtures.readers.activeWindow(), other.id, 'xdotool: the other window is active before the click');
    const before = await fixtures.readers.visibleWindowsOf(window.pid);
    const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=combobox name="Theme:"', delivery_mode: 'foreground' });
    const result = clicked.structured as unknown as ActionResult;
    assert.equal(result.effect, 'confirmed', clicked.summary);
    assert.equal(result.scrolled_into_view, true, clicked.summary);
    assert.ok((await combo()).extents![1] >= barTop, 'pyatspi: the combo box is in the view now');
    assert.ok(result.evidence?.some((line) => /stays active with the popup it opened/.test(line)), JSON.stringify(result.evidence));
    // Given back, Qt closed the list within a moment: it must still be open well after the call.
    await new Promise((resolve) => setTimeout(resolve, 800));
    const popups = (await fixtures.readers.visibleWindowsOf(window.pid)).filter((id) => !before.includes(id));
    assert.equal(popups.length, 1, `xdotool: the list's popup window is still shown (before ${JSON.stringify(before)})`);
    assert.equal(await fixtures.readers.activeWindow(), window.id, 'xdotool: the Qt window kept its activation');
    const closed = await callOk(fixtures.context, 'press_key', { window_id: window.id, key: 'escape', delivery_mode: 'foreground' });
    assert.equal((closed.structured as unknown as ActionResult).effect, 'confirmed', closed.summary);
    assert.deepEqual(await fixtures.readers.visibleWindowsOf(window.pid), before, 'xdotool: Escape closed the list');
    // With the list closed, nothing holds the activation: the window active before the click has its place back.
    assert.equal(await fixtures.readers.activeWindow(), other.id, 'xdotool: the window active before the click is active again');
    const evidence = (closed.structured as unknown as ActionResult).evidence ?? [];
    assert.ok(evidence.some((line) => line.startsWith(`window ${other.id} has its place back`)), JSON.stringify(evidence));
  });

  test("a list row renamed in place: F2 in the foreground leaves the window active with the editor open, and Qt's editor, which no object lists as a child, is in the tree with the focus and takes the new name", async () => {
    await fixtures.readers.activate(window.id);
    // A real click gives the list the focus (Qt says its current row is focused whether or not it has the focus).
    await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=listitem name=Home', delivery_mode: 'foreground' });
    const other = await fixtures.launch('gtk3', { title: 'Active while renaming' });
    await fixtures.readers.activate(other.id);
    assert.equal(await fixtures.readers.activeWindow(), other.id, 'xdotool: the other window is active before F2');
    const opened = await callOk(fixtures.context, 'press_key', { window_id: window.id, key: 'F2', delivery_mode: 'foreground' });
    const result = opened.structured as unknown as ActionResult;
    assert.equal(result.effect, 'confirmed', opened.summary);
    assert.ok(result.evidence?.some((line) => /stays active with the text field it opened for editing \(holding "Home"\)/.test(line)), JSON.stringify(result.evidence));
    // Given back, Qt ended the editing within a moment: the window must still be active well after the call.
    await new Promise((resolve) => setTimeout(resolve, 800));
    assert.equal(await fixtures.readers.activeWindow(), window.id, 'xdotool: the Qt window kept its activation');
    // The quirk: a walk of the window's children finds no editable text holding the row's name.
    const editor = await fixtures.oracle.findWithState(window.pid, window.title, 'text', 'focused').catch(() => undefined);
    assert.ok(editor === undefined || !(await fixtures.oracle.texts(window.pid, window.title)).includes('Home'), JSON.stringify(editor));
    const found = await callOk(fixtures.context, 'find_elements', { window_id: window.id, selector: 'role=textbox focused' });
    const matches = (found.structured as { matches: { index: number; value?: string }[] }).matches;
    assert.deepEqual(matches.map((match) => match.value), ['Home'], found.body);
    const typed = await callOk(fixtures.context, 'set_value', { window_id: window.id, element_index: matches[0]!.index, value: 'Office' });
    assert.equal((typed.structured as unknown as ActionResult).effect, 'confirmed', typed.summary);
    await callOk(fixtures.context, 'press_key', { window_id: window.id, key: 'Return', delivery_mode: 'foreground' });
    const renamed = await fixtures.oracle.find(window.pid, window.title, 'list item', 'Office');
    assert.equal(renamed.name, 'Office', 'pyatspi: the row is named Office now');
    // The editing over, the window active before F2 has its place back.
    assert.equal(await fixtures.readers.activeWindow(), other.id, 'xdotool: the window active before F2 is active again');
  });

  test("keys for a list's row go to the list when the focus is elsewhere: the row Qt says is focused, as its current item, is not taken for the focus", async () => {
    await fixtures.readers.activate(window.id);
    await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=textbox value^="typed by an agent"', delivery_mode: 'foreground' });
    const row = await fixtures.oracle.find(window.pid, window.title, 'list item', 'Office');
    // The quirk: the editor beside the list has the focus, and the list's current row says focused all the same.
    assert.ok(row.states!.includes('focused') && (await fixtures.oracle.findWithState(window.pid, window.title, 'text', 'focused')) !== undefined, JSON.stringify(row));
    const pressed = await callOk(fixtures.context, 'press_key', { window_id: window.id, selector: 'role=listitem name=Office', key: 'F2', delivery_mode: 'foreground' });
    assert.equal((pressed.structured as unknown as ActionResult).effect, 'confirmed', pressed.summary);
    const found = await callOk(fixtures.context, 'find_elements', { window_id: window.id, selector: 'role=textbox focused' });
    assert.deepEqual((found.structured as { matches: { value?: string }[] }).matches.map((match) => match.value), ['Office'], `the row's editor has the focus: ${found.body}`);
    await callOk(fixtures.context, 'press_key', { window_id: window.id, key: 'Escape', delivery_mode: 'foreground' });
  });

  test("a Qt context menu, a popup Qt lists as no child of the application (made with the id of an editor destroyed before), is in the window's tree, and its item is chosen by selector in the background", async () => {
    const before = await fixtures.readers.visibleWindowsOf(window.pid);
    const opened = await callOk(fixtures.context, 'right_click', { window_id: window.id, selector: 'role=listitem name=Documents', delivery_mode: 'foreground' });
    assert.equal((opened.structured as unknown as ActionResult).effect, 'confirmed', opened.summary);
    assert.equal((await fixtures.readers.visibleWindowsOf(window.pid)).filter((id) => !before.includes(id)).length, 1, "xdotool: the menu's popup window is shown");
    // The quirk: pyatspi finds the menu among no top level of the app.
    const tops = await fixtures.oracle.topLevels(window.pid);
    assert.ok(!tops.some((top) => top.items.includes('Archive Documents')), `pyatspi: ${JSON.stringify(tops)}`);
    const found = await callOk(fixtures.context, 'find_elements', { window_id: window.id, selector: 'role=menuitem name="Archive Documents"' });
    const matches = (found.structured as { matches: { index: number }[] }).matches;
    assert.equal(matches.length, 1, found.body);
    const chosen = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: matches[0]!.index });
    assert.equal((chosen.structured as unknown as ActionResult).path, 'x11_atspi', chosen.summary);
    // Qt announces no change of a list item's text, and the verdict is still suspected_noop (see the README's known limits).
    assert.equal((await fixtures.oracle.find(window.pid, window.title, 'list item', 'Archived')).name, 'Archived', 'pyatspi: the menu item ran');
  });
  test('a background Return into a Qt line edit, which offers no activate action, is refused naming what it offers and the foreground call to make, which then works', async () => {
    const city = await fixtures.launch('qt5', { title: 'Return Field', extraArgs: ['--completer'] });
    try {
      // The oracle: pyatspi reads the line edit's actions, and "activate" is none of them.
      const field = (await pyatspiWalk(city.pid, city.title, fixtures.desktop.env())).find((node) => node.role === 'text' && node.states.includes('editable') && node.name === 'City:');
      assert.ok(field, 'pyatspi finds the City: line edit');
      assert.ok(!field.actions.map((name) => name.toLowerCase()).includes('activate'), JSON.stringify(field.actions));
      const state = await callOk(fixtures.context, 'find_elements', { window_id: city.id, selector: 'role=textbox name=City:' });
      const index = (state.structured as { matches: { index: number }[] }).matches[0]!.index;
      const pressed = await callOk(fixtures.context, 'press_key', { window_id: city.id, element_index: index, key: 'return' });
      const result = pressed.structured as unknown as ActionResult;
      assert.equal(result.path, 'none', JSON.stringify(result));
      const reason = result.escalation?.reason ?? '';
      assert.match(reason, /offers no "activate" action through accessibility \(it offers "SetFocus"\)/i, reason);
      const call = `press_key {"window_id": ${city.id}, "element_index": ${index}, "key": "return", "delivery_mode": "foreground"}`;
      assert.ok(reason.includes(call), reason);
      // The call it names is one the driver takes and sends as real keys.
      const named = JSON.parse(call.slice('press_key '.length)) as Record<string, unknown>;
      const real = (await callOk(fixtures.context, 'press_key', named)).structured as unknown as ActionResult;
      assert.notEqual(real.path, 'none', JSON.stringify(real));
      // type_text with a last newline: the text before it may go alone in the background; nothing was typed.
      const typed = (await callOk(fixtures.context, 'type_text', { window_id: city.id, element_index: index, text: 'Bern\n' })).structured as unknown as ActionResult;
      assert.equal(typed.path, 'none', JSON.stringify(typed));
      assert.match(typed.escalation?.reason ?? '', /or type "Bern" here without the newline and then press_key \{"window_id": \d+, "element_index": \d+, "key": "return", "delivery_mode": "foreground"\}/, typed.escalation?.reason);
      assert.ok(!(await fixtures.oracle.texts(city.pid, city.title)).includes('Bern'), 'pyatspi: nothing was typed');
    } finally {
      process.kill(city.pid);
    }
  });
  test("a QCompleter's suggestions, a list Qt shows in a popup it lists as no child of the application, are in the window's tree, diff and find_elements while typing, and gone after Escape", async () => {
    // The suggestions under a field typed into were drawn over the window and read nowhere: the popups Qt lists as no
    // child of the application were looked for among the menus it announced shown only.
    const city = await fixtures.launch('qt5', { title: 'Completer', extraArgs: ['--completer'] });
    try {
      const cities = ['Berlin', 'Bern', 'Bergen', 'Boston'];
      const suggested = async () => {
        const found = await callOk(fixtures.context, 'find_elements', { window_id: city.id, selector: 'role=listitem' });
        return (found.structured as { matches: { name: string }[] }).matches.map((match) => match.name).filter((name) => cities.includes(name));
      };
      const before = await fixtures.readers.visibleWindowsOf(city.pid);
      const typed = (await callOk(fixtures.context, 'type_text', { window_id: city.id, selector: 'name=City:', text: 'Ber', delivery_mode: 'foreground' })).structured as unknown as ActionResult;
      // At least one: a window Qt maps a moment after starting may come too (CI saw two).
      const shown = (await fixtures.readers.visibleWindowsOf(city.pid)).filter((id) => !before.includes(id));
      assert.ok(shown.length > 0, "xdotool: the suggestions' popup window is shown");
      // The quirk: pyatspi finds the list among no top level of the app.
      const tops = await fixtures.oracle.topLevels(city.pid);
      assert.ok(!tops.some((top) => top.items.includes('Bern')), `pyatspi: ${JSON.stringify(tops)}`);
      const starting = cities.filter((name) => name.startsWith('Ber'));
      assert.deepEqual(await suggested(), starting);
      assert.deepEqual(typed.diff!.added.filter((node) => cities.includes(node.name)).map((node) => node.name), starting, JSON.stringify(typed.diff));

      // Chosen in the background, Qt takes the row's text into the field (and leaves the list open).
      const chosen = (await callOk(fixtures.context, 'click', { window_id: city.id, selector: 'role=listitem name=Bergen' })).structured as unknown as ActionResult;
      assert.ok((await fixtures.oracle.texts(city.pid, city.title)).includes('Bergen'), 'pyatspi: the field took the choice');
      assert.match(chosen.evidence!.join('\n'), /"City:": text is now "Bergen"/, JSON.stringify(chosen.evidence));

      const closed = (await callOk(fixtures.context, 'press_key', { window_id: city.id, key: 'Escape', delivery_mode: 'foreground' })).structured as unknown as ActionResult;
      const left = await fixtures.readers.visibleWindowsOf(city.pid);
      assert.equal(shown.filter((id) => left.includes(id)).length, shown.length - 1, "xdotool: the suggestions' popup is gone");
      assert.deepEqual(await suggested(), []);
      assert.equal(closed.effect, 'confirmed', JSON.stringify(closed));
    } finally {
      process.kill(city.pid);
    }
  });
  test('Qt\'s file dialog: a folder it creates is told as the detail view\'s row, not also as an item of the list view it keeps undrawn', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'cup-qt-save-'));
    const saving = await fixtures.desktop.launchFixture('qt5', { title: 'Qt Saver', extraArgs: ['--save-dialog', folder] });
    const opened = await callOk(fixtures.context, 'click', { window_id: saving.window.id, selector: 'role=button name="Save…"' });
    const dialog = (opened.structured as unknown as ActionResult).new_windows?.find((each) => each.title === 'Save Report');
    assert.ok(dialog, opened.summary);
    const created = await callOk(fixtures.context, 'click', { window_id: dialog.window_id, selector: 'role=button name="Create New Folder"' });
    assert.ok(existsSync(join(folder, 'New Folder')), 'the dialog made the folder on disk');
    // The case: pyatspi reads the new folder in the detail view's cells and as an item of a list view Qt keeps undrawn,
    // of no size (both say showing).
    const nodes = await pyatspiWalk(saving.window.pid, 'Save Report', fixtures.desktop.env());
    const item = nodes.findIndex((node) => node.role === 'list item' && node.name === 'New Folder');
    assert.ok(item >= 0, JSON.stringify(nodes.filter((node) => node.name === 'New Folder')));
    const view = nodes.slice(0, item).reverse().find((node) => node.depth === nodes[item]!.depth - 1)!;
    assert.deepEqual([view.role, view.extents?.[2], view.extents?.[3]], ['list', 0, 0], JSON.stringify(view));
    assert.ok(nodes.some((node) => node.role === 'table cell' && node.name === 'New Folder' && node.states.includes('showing')));
    const diff = (created.structured as unknown as ActionResult).diff;
    assert.ok(diff, created.summary);
    const told = [...diff.added, ...diff.changed].filter((node) => node.name === 'New Folder');
    assert.deepEqual(told.map((node) => node.role), ['cell'], created.body);
    assert.ok(![...diff.added, ...diff.changed].some((node) => node.role === 'listitem'), created.body);
    await callOk(fixtures.context, 'press_key', { window_id: dialog.window_id, key: 'Escape', delivery_mode: 'foreground' });
    await callOk(fixtures.context, 'click', { window_id: dialog.window_id, selector: 'role=button name=Cancel' });
    rmSync(folder, { recursive: true, force: true });
  });
  test("scroll areas showing what the app paints (a QGraphicsView, a self-painted widget) are drawn surfaces, named with their views' boxes", async () => {
    // qpdfview and Okular draw a document's pages in a QGraphicsView, Okular its thumbnails in a widget that paints
    // itself: the compact view showed empty scrolled groups where the screenshot showed the page's text, and did not
    // say that it is only in the screenshot.
    const drawing = await fixtures.desktop.launchFixture('qt5', { title: 'Qt Drawn View', extraArgs: ['--drawn-view'] });
    const nodes = await pyatspiWalk(drawing.window.pid, 'Qt Drawn View', fixtures.desktop.env());
    const childrenOf = (at: number) => childIndices(nodes, at);
    const holdsBar = (at: number) => childrenOf(at).some((child) => nodes[child]!.role === 'scroll bar');
    const empty = (at: number) => nodes[at]!.role === 'filler' && childrenOf(at).length === 0;
    // The oracle, as pyatspi reads them: the views of scroll areas (a filler beside fillers holding bars) that hold
    // nothing or one empty filler, and the empty filler in one (the painted widget, taller than its view).
    const views = nodes.flatMap((node, at) => {
      if (node.role !== 'filler' || !childrenOf(at).some(holdsBar)) return [];
      return childrenOf(at).filter((child) => nodes[child]!.role === 'filler' && !holdsBar(child) && nodes[child]!.states.includes('showing') && (empty(child) || (childrenOf(child).length === 1 && empty(childrenOf(child)[0]!))));
    });
    assert.equal(views.length, 2, `the graphics view's viewport and the strip's (the form's area holds its form): ${JSON.stringify(views.map((at) => nodes[at]))}`);
    const painted = childrenOf(views[1]!)[0]!;
    assert.ok(nodes[painted]!.extents![3] > nodes[views[1]!]!.extents![3], 'the painted widget runs below its view (the premise)');
    assert.ok(!nodes.some((node) => node.name.includes('WORD111')), 'nothing in the tree holds the drawn text (the premise)');

    const read = await callOk(fixtures.context, 'get_window_state', { window_id: drawing.window.id, include_screenshot: false });
    const state = read.structured as { elements: { index: number; bounds?: { x: number; y: number; w: number; h: number } }[]; drawn_surfaces?: { element_index: number; bounds: { x: number; y: number; w: number; h: number } }[] };
    const shown = views.map((at) => {
      const [x, y, w, h] = nodes[at]!.extents!;
      const element = state.elements.find((each) => each.bounds?.x === x && each.bounds.y === y && each.bounds.w === w && each.bounds.h === h);
      assert.ok(element, `the view's box ${x},${y} ${w}x${h} is in the compact view:\n${read.body}`);
      assert.match(read.summary, new RegExp(`\\[e${element.index}\\] ${w}x${h} at `));
      return element.index;
    });
    assert.deepEqual(state.drawn_surfaces?.map((surface) => surface.element_index), shown, read.summary);
  });

  test('a toolbar Qt names by its title as written ("&Edit tools") is named as shown, without the mnemonic mark', async () => {
    // qpdfview titles its toolbars "&File", "&Edit": Qt strips the mark from buttons' and menus' names, not from these.
    const tools = await fixtures.desktop.launchFixture('qt5', { title: 'Qt Toolbar', extraArgs: ['--toolbar'] });
    try {
      const nodes = await pyatspiWalk(tools.window.pid, 'Qt Toolbar', fixtures.desktop.env());
      assert.ok(nodes.some((node) => node.role === 'tool bar' && node.name === '&Edit tools'), `pyatspi: the toolbar is named as written: ${JSON.stringify(nodes.filter((node) => node.role === 'tool bar'))}`);
      const found = await callOk(fixtures.context, 'find_elements', { window_id: tools.window.id, selector: 'role=toolbar' });
      const names = (found.structured.matches as { name: string }[]).map((match) => match.name);
      assert.deepEqual(names, ['Edit tools'], found.body);
    } finally {
      tools.process.kill('SIGKILL');
    }
  });

  test('a QGraphicsView whose scene fits it, its scroll bars hidden, is a drawn surface too: its viewport, a focusable filler holding nothing', async () => {
    // lximage-qt shows a picture so: the reading showed its menu bar and status bar and nothing where the picture is.
    const fitted = await fixtures.desktop.launchFixture('qt5', { title: 'Qt Fitted View', extraArgs: ['--fitted-view'] });
    const nodes = await pyatspiWalk(fitted.window.pid, 'Qt Fitted View', fixtures.desktop.env());
    const childrenOf = (at: number) => childIndices(nodes, at);
    // The premise, as pyatspi reads it: a focusable filler (the view) holding only its viewport, a focusable filler
    // holding nothing, with no scroll bar beside it.
    const views = nodes.flatMap((node, at) => {
      const inside = childrenOf(at);
      const viewport = inside.length === 1 ? nodes[inside[0]!]! : undefined;
      const bare = viewport?.role === 'filler' && viewport.states.includes('focusable') && viewport.states.includes('showing') && childrenOf(inside[0]!).length === 0;
      return node.role === 'filler' && node.states.includes('focusable') && bare ? [viewport] : [];
    });
    assert.equal(views.length, 1, JSON.stringify(views));
    const read = await callOk(fixtures.context, 'get_window_state', { window_id: fitted.window.id, include_screenshot: false });
    const state = read.structured as { elements: { index: number; bounds?: { x: number; y: number; w: number; h: number } }[]; drawn_surfaces?: { element_index: number }[] };
    const [x, y, w, h] = views[0]!.extents!;
    const element = state.elements.find((each) => each.bounds?.x === x && each.bounds.y === y && each.bounds.w === w && each.bounds.h === h);
    assert.ok(element, `the viewport's box ${x},${y} ${w}x${h} is in the compact view:\n${read.body}`);
    assert.deepEqual(state.drawn_surfaces?.map((surface) => surface.element_index), [element.index], read.summary);
  });

  test('a background click on a cell of a Qt view (a Toggle that flips its selection; no Selection interface) selects it alone and leaves a selected cell selected, as a person\'s click does', async () => {
    const grids = await fixtures.desktop.launchFixture('qt5', { title: 'Qt Grids', extraArgs: ['--table'] });
    const { window: grid } = grids;
    const click = async (name: string) => (await callOk(fixtures.context, 'click', { window_id: grid.id, selector: `role=cell name=${name}` })).structured as unknown as ActionResult;
    const selected = (view: string) => fixtures.oracle.selected(grid.pid, grid.title, view);
    // A table that selects single cells and takes several (Qt's defaults): the Toggle had added Banana to Apple.
    await click('Apple');
    assert.deepEqual(await selected('Stock'), ['Apple']);
    await click('Banana');
    assert.deepEqual(await selected('Stock'), ['Banana'], 'a click selects the cell alone');
    // The Toggle on a selected cell deselected it, and the click was confirmed by its -sel.
    const again = await click('Banana');
    assert.deepEqual(await selected('Stock'), ['Banana'], 'a click on the selected cell leaves it selected');
    assert.notEqual(again.effect, 'confirmed', JSON.stringify(again));
    // A tree that selects one row: its Toggle on the selected row deselected it.
    await click('music');
    await click('music');
    assert.deepEqual(await selected('Folders'), ['music']);
  });

  test("a tree view's cell Qt announces through a new object is told as the snapshot's element, once", async () => {
    const grids = await fixtures.desktop.launchFixture('qt5', { title: 'Qt Tree Twins', extraArgs: ['--table'] });
    const { window: grid } = grids;
    const { state } = await accessibleWindowState(fixtures.context, grid, { include_screenshot: false });
    const cell = (name: string) => state.elements.find((element) => element.role === 'cell' && element.name === name)!;
    const click = async (name: string) => (await callOk(fixtures.context, 'click', { window_id: grid.id, element_index: cell(name).index })).structured as unknown as ActionResult;
    const music = await click('music');
    assert.deepEqual(await fixtures.oracle.selected(grid.pid, grid.title, 'Folders'), ['music'], 'pyatspi: music is selected');
    const docs = await click('docs');
    assert.deepEqual(await fixtures.oracle.selected(grid.pid, grid.title, 'Folders'), ['docs'], 'pyatspi: docs is selected, music no more');
    for (const result of [music, docs]) {
      const evidence = result.evidence ?? [];
      // Qt announces each cell's selection from an object made for the announcement, which no reading listed.
      assert.deepEqual(evidence.filter((line) => line.startsWith('(not in the snapshot)')), [], JSON.stringify(evidence));
    }
    assert.ok((docs.evidence ?? []).includes(`[e${cell('music').index}] cell "music": -sel`), `music's deselection is told as its element: ${JSON.stringify(docs.evidence)}`);
    assert.equal((docs.evidence ?? []).filter((line) => line.includes('+sel')).length, 1, `docs' selection is told once: ${JSON.stringify(docs.evidence)}`);
  });

  test('the tab Qt 5 says focused is its tab bar\'s current one: it reads selected, not focused, and a click on it sends nothing', async () => {
    const tabbed = await fixtures.desktop.launchFixture('qt5', { title: 'Qt Tabs', extraArgs: ['--tabs'] });
    const { window: tabs } = tabbed;
    const tabStates = async () => new Map((await pyatspiWalk(tabs.pid, tabs.title, fixtures.desktop.env())).filter((node) => node.role === 'page tab').map((node) => [node.name, node.states]));
    // The case: both tab bars' current tabs say focused (the keyboard focus is in neither), and no tab says selected.
    const before = await tabStates();
    assert.ok(before.get('General')!.includes('focused') && before.get('One')!.includes('focused'), JSON.stringify([...before]));
    assert.ok([...before.values()].every((states) => !states.includes('selected')), JSON.stringify([...before]));

    const read = async () => (await accessibleWindowState(fixtures.context, tabs, { include_screenshot: false })).state.elements.filter((element) => element.role === 'tab');
    const shown = (elements: Awaited<ReturnType<typeof read>>) => elements.filter((element) => element.states.includes('selected')).map((element) => element.name).sort();
    const first = await read();
    assert.deepEqual(shown(first), ['General', 'One'], JSON.stringify(first));
    assert.ok(first.every((element) => !element.states.includes('focused')), JSON.stringify(first));

    const click = async () => (await callOk(fixtures.context, 'click', { window_id: tabs.id, selector: 'role=tab name=Fonts' })).structured as unknown as ActionResult;
    assert.equal((await click()).effect, 'confirmed');
    assert.ok((await tabStates()).get('Fonts')!.includes('focused'), 'pyatspi: Fonts is the current tab');
    assert.deepEqual(shown(await read()), ['Fonts', 'One']);
    // Fonts is shown: the click asks for what is so, and sends nothing (it read "no effect seen", advising the foreground).
    const again = await click();
    assert.equal(again.effect, 'confirmed', JSON.stringify(again));
    assert.equal(again.path, 'none', JSON.stringify(again));
    assert.ok((await tabStates()).get('Fonts')!.includes('focused'), 'pyatspi: Fonts is still the current tab');
    tabbed.process.kill();
  });

  test("fields on a tab page Qt hides are named by their rows' labels as when it is shown, though Qt places them nowhere", async () => {
    const tabbed = await fixtures.desktop.launchFixture('qt5', { title: 'Qt Form Tabs', extraArgs: ['--form-tabs'] });
    const { window: tabs } = tabbed;
    try {
      const fields = async () => (await pyatspiWalk(tabs.pid, tabs.title, fixtures.desktop.env())).filter((node) => node.role === 'spin button' || node.role === 'combo box');
      // The case: the Limits page's spin box is unnamed and its combo box named by its choice, with no labelled-by
      // relation; Qt hides them (not visible) at 0,0 0x0.
      const hidden = (await fields()).filter((node) => !node.states.includes('visible'));
      assert.deepEqual(hidden.map((node) => `${node.role} ${node.name} ${node.extents!.join()}`), ['spin button  0,0,0,0', 'combo box Preferred 0,0,0,0'], JSON.stringify(hidden));
      const labelled = await fixtures.oracle.labelled(tabs.pid, tabs.title);
      assert.ok(!labelled.some((entry) => entry.role === 'spin button' || entry.name === 'Preferred'), JSON.stringify(labelled));
      const read = async () => (await accessibleWindowState(fixtures.context, tabs, { include_screenshot: false, detail: 'full' })).state.elements
        .filter((element) => element.role === 'spinbutton' || element.role === 'combobox').map((element) => `${element.name}=${element.value}`).sort();
      const before = await read();

      // Shown, pyatspi places the check box or label of each row left of its field: those name the fields.
      await callOk(fixtures.context, 'click', { window_id: tabs.id, selector: 'role=tab name=Limits' });
      const walked = await pyatspiWalk(tabs.pid, tabs.title, fixtures.desktop.env());
      // The Limits page's fields: its spin box (the window's only one) and its combo box showing Preferred.
      const shownFields = walked.filter((node) => (node.role === 'spin button' || (node.role === 'combo box' && node.name === 'Preferred')) && node.states.includes('showing'));
      const labels = walked.filter((node) => (node.role === 'check box' || node.role === 'label') && node.states.includes('showing'));
      const rowLabel = (field: OracleNode) => {
        const middle = field.extents![1] + field.extents![3] / 2;
        const onRow = labels.filter((label) => label.extents![1] <= middle && middle <= label.extents![1] + label.extents![3] && label.extents![0] + label.extents![2] <= field.extents![0] + 2);
        return onRow.sort((a, b) => b.extents![0] + b.extents![2] - (a.extents![0] + a.extents![2]))[0]?.name;
      };
      const spinValue = (await fixtures.oracle.values(tabs.pid, tabs.title, 'spin button')).find((value) => value === 2);
      const expected = shownFields.map((node) => `${rowLabel(node)}=${node.role === 'spin button' ? spinValue : node.name}`).sort();
      assert.deepEqual(expected, ['Encryption:=Preferred', 'Stop at ratio:=2'], JSON.stringify(shownFields));
      const limits = (names: string[]) => names.filter((name) => expected.includes(name));
      assert.deepEqual(limits(before), expected, `read hidden, the Limits fields had the names of their rows: ${JSON.stringify(before)}`);
      assert.deepEqual(limits(await read()), expected, 'and keep them shown');
    } finally {
      tabbed.process.kill();
    }
  });

  test('a read of what is shown leaves what a hidden tab page holds unread and counted, numbers the rest as a whole read does, and reads the page once it shows', async () => {
    const tabbed = await fixtures.desktop.launchFixture('qt5', { title: 'Qt Hidden Page', extraArgs: ['--form-tabs'] });
    const { window: tabs } = tabbed;
    const [context, other] = [testContext(), testContext()];
    try {
      // pyatspi: the containers neither visible nor showing inside a visible parent (menus and combo boxes' lists aside,
      // which are counted as menus), and how many objects they hold. The Limits page is one, holding its four rows.
      const walked = await pyatspiWalk(tabs.pid, tabs.title, fixtures.desktop.env());
      const menuRoles = new Set(['menu', 'popup menu', 'menu item']);
      const parentOf = (at: number) => {
        let parent = at - 1;
        while (parent > 0 && walked[parent]!.depth >= walked[at]!.depth) parent--;
        return parent;
      };
      const hides = (at: number) => {
        const node = walked[at]!;
        const parent = walked[parentOf(at)];
        return at > 0 && !node.states.includes('visible') && !node.states.includes('showing') && parent?.states.includes('visible') === true && parent.role !== 'combo box' && !menuRoles.has(node.role);
      };
      const hiddenBelow = (at: number): boolean => at > 0 && (hides(parentOf(at)) || hiddenBelow(parentOf(at)));
      const hiddenTops = walked.flatMap((_, at) => (hides(at) && !hiddenBelow(at) ? [at] : []));
      const subtreeSize = (at: number) => {
        const end = walked.findIndex((node, i) => i > at && node.depth <= walked[at]!.depth);
        return (end < 0 ? walked.length : end) - at;
      };
      const held = hiddenTops.reduce((sum, at) => sum + subtreeSize(at) - 1, 0);
      assert.ok(walked.some((node) => node.role === 'spin button' && !node.states.includes('visible')), 'pyatspi: the Limits page\'s spin box is hidden (the premise)');
      assert.ok(held >= 4, `pyatspi: hidden containers hold ${held} objects`);

      const limits = { maxNodes: 5000, maxDepth: 1000, budgetMs: 8000, fresh: true };
      const shown = await context.desktop.readWindowTree(tabs, { ...limits, visibleOnly: true });
      const whole = await context.desktop.readWindowTree(tabs, limits);
      // What the whole read holds that the read of what is shown does not: all of it held by a container that read
      // counts as hidden (or a closed menu, whose items neither reads), as many objects as pyatspi finds hidden.
      const unread = unreadInShown(whole.read!.root!, shown.read?.root);
      assert.equal(unread.hidden, held, `a read of what is shown left unread: ${JSON.stringify(unread)}; pyatspi: hidden containers hold ${held}`);
      assert.equal(unread.elsewhere, undefined, JSON.stringify(unread));
      const compact = await accessibleWindowState(context, tabs, { include_screenshot: false });
      assert.doesNotMatch(String(compact.result.body), /Stop at ratio/);
      assert.equal((compact.result.structured as { unread_hidden_children?: number }).unread_hidden_children, hiddenTops.reduce((sum, at) => sum + childIndices(walked, at).length, 0), compact.result.summary);
      // In a session of its own: a session keeps the numbers its earlier readings gave.
      const full = await accessibleWindowState(other, tabs, { include_screenshot: false, detail: 'full' });
      const numbered = new Map(full.state.elements.map((element) => [element.index, `${element.role} ${element.name}`]));
      assert.deepEqual(compact.state.elements.filter((element) => numbered.get(element.index) !== `${element.role} ${element.name}`), [], 'every shown element has its number in a whole read');

      await callOk(context, 'click', { window_id: tabs.id, selector: 'role=tab name=Limits' });
      const opened = await accessibleWindowState(context, tabs, { include_screenshot: false });
      assert.match(String(opened.result.body), /spn "Stop at ratio:"/, 'shown, the page is read');
    } finally {
      await Promise.all([context.desktop.close(), other.desktop.close()]);
      tabbed.process.kill();
    }
  });

  test('an action on a window walked on every reading leaves hidden tab pages unread around it: the page it brings forward comes in its diff as added, the one it sends back as removed', async () => {
    const tabbed = await fixtures.desktop.launchFixture('qt5', { title: 'Qt Page Diff', extraArgs: ['--form-tabs'] });
    const { window: tabs } = tabbed;
    const context = testContext();
    try {
      // The premise, by pyatspi: the Limits page's spin box is in the tree while its page is behind, hidden.
      const walked = await pyatspiWalk(tabs.pid, tabs.title, fixtures.desktop.env());
      assert.ok(walked.some((node) => node.role === 'spin button' && !node.states.includes('visible')), 'pyatspi: the Limits page\'s spin box is there, hidden');
      await accessibleWindowState(context, tabs, { include_screenshot: false });
      const clicked = await callOk(context, 'click', { window_id: tabs.id, selector: 'role=tab name=Limits' });
      const { diff } = clicked.structured as unknown as ActionResult;
      assert.ok(diff, clicked.summary);
      // Read whole around the click, the page's objects were there before and after, and came as state lines (-hid).
      const added = diff.added.map((node) => `${node.role} ${node.name}`);
      assert.ok(added.includes('spinbutton Stop at ratio:'), `the page brought forward is added:\n${clicked.body}`);
      assert.ok(diff.removed.some((node) => node.name === 'Limit rate:'), `the page sent back is removed:\n${clicked.body}`);
      assert.ok(!diff.changed.some((entry) => entry.name === 'Stop at ratio:'), `no state line for it:\n${clicked.body}`);
      // pyatspi: shown now.
      const shownWalk = await pyatspiWalk(tabs.pid, tabs.title, fixtures.desktop.env());
      assert.ok(shownWalk.some((node) => node.role === 'spin button' && node.states.includes('showing')), 'pyatspi: the spin box shows');
      // Its index is one the next call can use.
      const spin = diff.added.find((node) => node.role === 'spinbutton' && node.name === 'Stop at ratio:')!;
      const set = await callOk(context, 'set_value', { window_id: tabs.id, element_index: spin.index, value: '4' });
      assert.equal(set.structured.effect, 'confirmed', set.summary);
      assert.ok((await fixtures.oracle.values(tabs.pid, tabs.title, 'spin button')).includes(4), 'pyatspi: the spin box holds 4');
    } finally {
      await context.desktop.close();
      tabbed.process.kill();
    }
  });

  test('a dialog Qt makes after another closed, with the closed one\'s object ids, is read with its own roles: the input dialog\'s label is no alert', async () => {
    const asking = await fixtures.desktop.launchFixture('qt5', { title: 'Qt Asker', extraArgs: ['--questions'] });
    const asked = await callOk(fixtures.context, 'click', { window_id: asking.window.id, selector: 'role=button name="Ask…"' });
    const question = (asked.structured as unknown as ActionResult).new_windows?.find((each) => each.title === 'Discard?');
    assert.ok(question, asked.summary);
    assert.match(asked.body ?? '', /\[e0\] (alrt|adlg) "Discard\?"/, 'the question is read as an alert');
    await callOk(fixtures.context, 'click', { window_id: question.window_id, selector: 'role=button name=No' });
    const renamed = await callOk(fixtures.context, 'click', { window_id: asking.window.id, selector: 'role=button name="Rename…"' });
    const dialog = (renamed.structured as unknown as ActionResult).new_windows?.find((each) => each.title === 'Rename');
    assert.ok(dialog, renamed.summary);
    // The oracle: pyatspi reads the prompt as a label (and no alert in the dialog).
    const nodes = await pyatspiWalk(asking.window.pid, 'Rename', fixtures.desktop.env());
    assert.deepEqual(nodes.filter((node) => node.name === 'New name:').map((node) => node.role).sort(), ['label', 'text'], JSON.stringify(nodes));
    const read = await callOk(fixtures.context, 'find_elements', { window_id: dialog.window_id, selector: 'name="New name:"' });
    const matches = (read.structured as { matches: { role: string }[] }).matches;
    assert.deepEqual(matches.map((match) => match.role).sort(), ['text', 'textbox'], read.body);
    await callOk(fixtures.context, 'click', { window_id: dialog.window_id, selector: 'role=button name=Cancel' });
  });

  test("a number finer than Qt's spin boxes and sliders take: each holds what it shows, and the evidence says what it holds against what was asked", async () => {
    const spin = await fixtures.launch('qt5', { title: 'Qt Range', extraArgs: ['--spin'] });
    const judged = async (role: string, name: string) => {
      const node = await fixtures.oracle.find(spin.pid, spin.title, role, name);
      return [node.text ?? '', node.value];
    };
    const cases: [string, string, string, string, (string | number | undefined)[]][] = [
      ['spin button', 'Copies:', 'role=spinbutton name=Copies:', '7.6', ['8', 8]],
      ['spin button', 'Zoom:', 'role=spinbutton name=Zoom:', '2.36', ['2.4', 2.4]],
      ['slider', 'Level:', 'role=slider name=Level:', '33.7', ['', 34]],
    ];
    for (const [role, name, selector, value, shown] of cases) {
      const set = await callOk(fixtures.context, 'set_value', { window_id: spin.id, selector, value });
      const held = shown[1]!;
      assert.match((set.structured.evidence as string[]).join('\n'), new RegExp(`holds ${String(held).replace('.', '\\.')}, not the ${value.replace('.', '\\.')} asked for`), set.summary);
      assert.deepEqual(await judged(role, name), shown, `pyatspi: ${name} shows and holds ${held}`);
    }
    const outside = await failsWith(fixtures.context, 'set_value', { window_id: spin.id, selector: 'role=spinbutton name=Copies:', value: '0' }, 'out_of_range');
    assert.match(outside.summary, /\(1\.\.99\); nothing was sent: the nearest it takes is 1/, outside.summary);
    assert.deepEqual(await judged('spin button', 'Copies:'), ['8', 8], 'pyatspi: Copies: still holds 8');
  });

  test("an option of a Qt drop-down clicked in the background is only selected in its list, the choice not taken: the click says so; a foreground click takes it", async () => {
    const shows = async () => (await oracle()).find((node) => node.role === 'combo box' && node.states.includes('showing') && ['Light', 'Dark'].includes(node.name))?.name;
    assert.equal(await shows(), 'Light', 'pyatspi: the Theme combo box shows Light before');
    const opened = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=combobox name="Theme:"' });
    assert.equal((opened.structured as unknown as ActionResult).effect, 'confirmed', opened.summary);
    const picked = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=listitem name=Dark' });
    const result = picked.structured as unknown as ActionResult;
    const dark = await fixtures.oracle.find(window.pid, window.title, 'list item', 'Dark');
    // The quirk: Qt's Toggle selects the row in the open list, and the combo box keeps its choice.
    assert.ok(dark.states!.includes('selected'), `pyatspi: the row is selected: ${JSON.stringify(dark.states)}`);
    assert.equal(await shows(), 'Light', 'pyatspi: the combo box still shows Light');
    assert.equal(result.effect, 'suspected_noop', picked.summary);
    assert.equal(result.escalation?.recommended, 'foreground', picked.summary);
    assert.match(result.escalation?.reason ?? '', /showing "Light"/, picked.summary);
    const taken = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=listitem name=Dark', delivery_mode: 'foreground' });
    assert.equal((taken.structured as unknown as ActionResult).effect, 'confirmed', taken.summary);
    assert.equal(await shows(), 'Dark', 'pyatspi: the combo box shows Dark after the real click');
  });

  test("a short label in a form's label column names the field on its row, however far right a longer label sets the fields", async () => {
    const form = await fixtures.launch('qt5', { title: 'Qt Label Column', extraArgs: ['--label-column'] });
    const label = await fixtures.oracle.find(form.pid, form.title, 'label', 'Icon theme:');
    const combo = await fixtures.oracle.find(form.pid, form.title, 'combo box', 'Adwaita');
    // The premise, as pyatspi reads it: no label points at the combo box, named by its choice, and "Icon theme:" ends
    // farther left of it than a label beside its field does (160 px), the longer label below setting the column.
    assert.ok(!(await fixtures.oracle.labelled(form.pid, form.title)).some((entry) => entry.role === 'combo box' && entry.name === 'Adwaita'));
    const gap = combo.extents![0] - (label.extents![0] + label.extents![2]);
    assert.ok(gap > 160, `the gap is ${gap} px`);
    const found = await callOk(fixtures.context, 'find_elements', { window_id: form.id, selector: 'role=combobox name="Icon theme:"' });
    const matches = found.structured.matches as { bounds: unknown; value?: string }[];
    const [x, y, w, h] = combo.extents!;
    assert.deepEqual(matches.map((match) => [match.bounds, match.value]), [[{ x, y, w, h }, 'Adwaita']], found.summary);
  });

  test("a hidden column's header, which Qt lists with no place, is hidden with the column's cells", async () => {
    const list = await fixtures.launch('qt5', { title: 'Qt Hidden Column', extraArgs: ['--hidden-column'] });
    const headers = (await pyatspiWalk(list.pid, list.title, fixtures.desktop.env())).filter((node) => node.role === 'table column header');
    // The quirk: Qt lists the hidden Password column's header, saying it is showing, with no box (no Component).
    assert.deepEqual(headers.map((node) => [node.name, node.extents !== null, node.states.includes('showing')]), [['Title', true, true], ['Password', false, true], ['URL', true, true]], JSON.stringify(headers));
    const found = await callOk(fixtures.context, 'find_elements', { window_id: list.id, selector: 'role=columnheader' });
    const matches = found.structured.matches as { name: string; states?: string[] }[];
    assert.deepEqual(Object.fromEntries(matches.map((match) => [match.name, match.states?.includes('hidden') === true])), { Title: false, Password: true, URL: false }, found.summary);
    const body = (await callOk(fixtures.context, 'get_window_state', { window_id: list.id, include_screenshot: false })).body ?? '';
    assert.ok(!body.includes('colh "Password"') && body.includes('colh "URL"'), body);
  });

  describe("KeePassXC's credentials form (--password)", () => {
    let form: ClientWindow;
    before(async () => {
      form = await fixtures.launch('qt5', { title: 'Qt Credentials', extraArgs: ['--password'] });
    });
    const walked = () => pyatspiWalk(form.pid, form.title, fixtures.desktop.env());
    const boundsOf = (node: OracleNode) => {
      const [x, y, w, h] = node.extents!;
      return { x, y, w, h };
    };

    test('a field in a box the app names is named by the label beside the box', async () => {
      const passwords = (await walked()).filter((node) => node.role === 'password text');
      // The quirk: the app names the boxes ("Password field"), Qt names the fields in them nothing, and no label points at them.
      assert.deepEqual(passwords.map((node) => node.name), ['', ''], JSON.stringify(passwords));
      const labelled = (await fixtures.oracle.labelled(form.pid, form.title)).filter((entry) => entry.role === 'password text' || entry.name === 'Username field');
      assert.deepEqual(labelled, [], 'pyatspi: no label points at the password fields or the user name box');
      for (const [index, label] of ['Enter password:', 'Confirm password:'].entries()) {
        const found = await callOk(fixtures.context, 'find_elements', { window_id: form.id, selector: `role=textbox name="${label}"` });
        const matches = found.structured.matches as { bounds: unknown }[];
        assert.equal(matches.length, 1, found.summary);
        assert.deepEqual(matches[0]!.bounds, boundsOf(passwords[index]!), `the match is the password field pyatspi places right of "${label}"`);
      }
    });

    test('an editable combo box Qt names by its accessible name while empty and by the text typed into it after is named by the label beside it throughout, the text its value', async () => {
      const column = (await walked()).find((node) => node.role === 'password text')!.extents![0];
      const combo = async () => (await walked()).find((node) => node.role === 'combo box' && node.states.includes('showing') && node.extents![0] === column)!;
      // The quirk: Qt names the empty box by the name the app gives it, and by its text once it holds any.
      assert.equal((await combo()).name, 'Username field', 'pyatspi: the empty box is named by its accessible name');
      const found = async () => {
        const result = await callOk(fixtures.context, 'find_elements', { window_id: form.id, selector: 'role=combobox name="Username:"' });
        const matches = result.structured.matches as { bounds: unknown; value?: string }[];
        assert.equal(matches.length, 1, result.summary);
        return { bounds: matches[0]!.bounds, value: matches[0]!.value ?? '' };
      };
      const { result } = await accessibleWindowState(fixtures.context, form, { include_screenshot: false });
      assert.match(result.body ?? '', /\[e\d+\] cmb "Username:" [^\n]*\n\s+\[e\d+\] tbx "Username:" /, result.body);
      assert.deepEqual(await found(), { bounds: boundsOf(await combo()), value: '' }, 'empty, the box is found by the label beside it');

      const set = await callOk(fixtures.context, 'set_value', { window_id: form.id, selector: 'role=combobox name="Username:"', value: 'alice' });
      assert.equal((set.structured as unknown as ActionResult).effect, 'confirmed', set.summary);
      assert.equal((await combo()).name, 'alice', 'pyatspi: Qt names the box by the text set into it');
      assert.doesNotMatch(set.body ?? '', /name: "/, `no rename in the diff:\n${set.body}`);
      assert.deepEqual(await found(), { bounds: boundsOf(await combo()), value: 'alice' }, 'holding text, the box is found by the same name');

      const typed = await callOk(fixtures.context, 'type_text', { window_id: form.id, selector: 'role=textbox name="Username:"', text: 'bob' });
      assert.equal((typed.structured as unknown as ActionResult).effect, 'confirmed', typed.summary);
      const held = (await combo()).name;
      assert.ok(held.includes('bob') && held.includes('alice'), `pyatspi: the box holds the typed text (${held})`);
      assert.doesNotMatch(typed.body ?? '', /name: "/, `no rename in the diff:\n${typed.body}`);
      assert.deepEqual(await found(), { bounds: boundsOf(await combo()), value: held }, 'after typing too');

      // The box itself takes no text (no EditableText): typing at it goes to the field it holds, as set_value's does.
      // KeePassXC's "Username:" refused it in the background, advising real keys.
      const atBox = await callOk(fixtures.context, 'type_text', { window_id: form.id, selector: 'role=combobox name="Username:"', text: 'carol' });
      assert.equal((atBox.structured as unknown as ActionResult).effect, 'confirmed', `${atBox.summary}\n${atBox.body}`);
      const after = (await combo()).name;
      assert.ok(after.includes('carol') && after.includes('bob'), `pyatspi: the box holds the text typed at it (${after})`);
      assert.deepEqual(await found(), { bounds: boundsOf(await combo()), value: after }, 'after typing at the box');
    });

    test("a Qt password field, whose Text reads empty, is read by what it counts: set_value and type_text there say what they did", async () => {
      const first = 'role=generic name="Password field" >> role=textbox';
      const field = () => fixtures.oracle.find(form.pid, form.title, 'password text', '');
      const set = await callOk(fixtures.context, 'set_value', { window_id: form.id, selector: first, value: 's3cret!' });
      assert.equal((set.structured as unknown as ActionResult).effect, 'confirmed', set.summary);
      // The quirk: pyatspi reads no text in the field, which holds seven characters (its caret is after the seventh).
      const held = await field();
      assert.deepEqual([held.text, held.caret], ['', 7], JSON.stringify(held));
      assert.match((set.structured.evidence as string[]).join('\n'), /"" → "●●●●●●●"/u, set.summary);
      const typed = await callOk(fixtures.context, 'type_text', { window_id: form.id, selector: 'role=generic name="Repeat password field" >> role=textbox', text: 's3cret!' });
      assert.equal((typed.structured as unknown as ActionResult).effect, 'confirmed', typed.summary);
      assert.equal((await fixtures.oracle.find(form.pid, form.title, 'label', 'Passwords match')).found, true, 'the app says the two fields hold the same text');
    });
  });

  test("a real double click on a word of a text edit is told by the word it selected, though Qt puts the edit's viewport, an empty filler, over the text", async () => {
    // Last: the other tests find the edit by the text the first typed into it.
    const editor = (await fixtures.elements(window)).find((element) => element.role === 'textbox' && element.states?.includes('editable') && !element.name);
    assert.ok(editor, 'the fixture shows its unnamed text edit');
    await callOk(fixtures.context, 'set_value', { window_id: window.id, element_index: editor.index, value: 'alpha beta gamma' });
    const [x, y, w, h] = await fixtures.oracle.characterExtents(window.pid, window.title, 'text', '', 7);
    const result = (await callOk(fixtures.context, 'double_click', { window_id: window.id, x: Math.round(x + w / 2) - window.bounds.x, y: Math.round(y + h / 2) - window.bounds.y, delivery_mode: 'foreground' })).structured as unknown as ActionResult;
    assert.deepEqual(await fixtures.oracle.selection(window.pid, window.title, 'text', ''), [[6, 10]], 'pyatspi: "beta" is selected');
    assert.equal(result.effect, 'confirmed', JSON.stringify(result));
    assert.ok(result.evidence?.some((line) => line.endsWith('"none" → "6..10" ("beta")')), JSON.stringify(result));
  });
});
