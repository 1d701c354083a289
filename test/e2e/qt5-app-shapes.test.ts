// Shapes of Qt apps outside the suite's corpus (DB Browser for SQLite, Kid3, QTerminal, Qt 6's Linguist), each made
// on the PyQt5 fixture (test/fixtures/apps/qt5_fixture.py) by a flag of its own, judged by Debian's pyatspi reading the
// same objects from the bus. Apart from qt5-fixture.test.ts so that each file stays short.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { accessibleWindowState, callOk, childIndices, failsWith, pyatspiWalk } from '../helpers/tools.js';

describe('Qt 5 shapes from apps outside the corpus', () => {
  let fixtures: FixtureDesktop;

  before(async () => {
    fixtures = await FixtureDesktop.start();
  });

  after(async () => {
    await fixtures?.stop();
  });

  test("a Qt tree view's header and rows, which Qt 5 makes anew each time they are asked for, keep their indices from one reading to the next, and an action elsewhere lists none of them added or removed", async () => {
    const tree = await fixtures.launch('qt5', { title: 'Qt Tree Rows', extraArgs: ['--table'] });
    // The quirk: the same child asked for twice is two objects (the first one left alive, no child of anything).
    const paths = async () => (await fixtures.oracle.children(tree.pid, tree.title, 'tree', 'Folders', [0, 1, 2])).children.map((child) => child.path);
    const [first, second] = [await paths(), await paths()];
    assert.ok(first.every((path, i) => path !== second[i]), `pyatspi: new objects each time (${JSON.stringify(first)} → ${JSON.stringify(second)})`);
    const treeRows = async () => {
      const rows: string[] = [];
      for (const selector of ['role=columnheader name=Name', 'role=cell name=docs', 'role=cell name=music']) {
        const found = await callOk(fixtures.context, 'find_elements', { window_id: tree.id, selector });
        rows.push(...(found.structured as { matches: { index: number; role: string; name: string }[] }).matches.map((match) => `${match.index} ${match.role} ${match.name}`));
      }
      return rows;
    };
    const before = await treeRows();
    assert.deepEqual(before.map((row) => row.replace(/^\d+ /, '')), ['columnheader Name', 'cell docs', 'cell music'], JSON.stringify(before));
    assert.deepEqual(await treeRows(), before, 'read again, the header and rows keep their indices');
    const clicked = await callOk(fixtures.context, 'click', { window_id: tree.id, selector: 'role=cell name=Apple' });
    const { diff } = clicked.structured as unknown as ActionResult;
    assert.ok(diff, clicked.summary);
    const told = [...diff.added, ...diff.removed].map((node) => `${node.role} ${node.name}`);
    assert.deepEqual(told, [], `nothing added or removed by a click on another view's cell:\n${clicked.body}`);
    assert.deepEqual(await treeRows(), before, 'after the action too');
  });


  test("a row's fields in a box beside the row's label: a field with a label of its own between (ending in a colon) is named by that label alone", async () => {
    const form = await fixtures.launch('qt5', { title: 'Qt Row Box', extraArgs: ['--row-box'] });
    // pyatspi: Qt names each combo box by its choice, "Point shape:" labelling the second.
    const labelled = await fixtures.oracle.labelled(form.pid, form.title);
    assert.deepEqual(labelled.filter((entry) => entry.name === 'Disc').map((entry) => entry.labels), [['Point shape:']], JSON.stringify(labelled));
    for (const [name, choice] of [['Line type:', 'Line'], ['Point shape:', 'Disc']] as const) {
      const combo = await fixtures.oracle.find(form.pid, form.title, 'combo box', choice);
      const found = await callOk(fixtures.context, 'find_elements', { window_id: form.id, selector: `role=combobox name="${name}"` });
      const matches = found.structured.matches as { bounds: unknown; value?: string }[];
      const [x, y, w, h] = combo.extents!;
      assert.deepEqual(matches.map((match) => [match.bounds, match.value]), [[{ x, y, w, h }, choice]], found.body);
    }
  });


  test("KeePassXC's unlock form: a field in a box the app names is named by the label right above the box, and one past a small help button by the label before it; typed by that name, the text reaches that field", async () => {
    const form = await fixtures.launch('qt5', { title: 'Qt Unlock', extraArgs: ['--unlock-form'] });
    const walked = await pyatspiWalk(form.pid, form.title, fixtures.desktop.env());
    const box = (node: { extents: [number, number, number, number] | null }) => {
      const [x, y, w, h] = node.extents!;
      return { x, y, w, h };
    };
    const field = (holder: string) => walked[childIndices(walked, walked.findIndex((node) => node.role === 'filler' && node.name === holder))[0]!]!;
    const [password, keyFile] = [field('Password field'), field('Key file field')];
    // The quirk: Qt names the fields nothing, and each label points at the box the app names around its field.
    assert.deepEqual([password.role, password.name, keyFile.role, keyFile.name], ['password text', '', 'text', ''], JSON.stringify([password, keyFile]));
    const labelled = await fixtures.oracle.labelled(form.pid, form.title);
    assert.deepEqual(labelled.filter((entry) => entry.role === 'filler').map((entry) => [entry.name, entry.labels]), [['Password field', ['Enter Password:']], ['Key file field', ['Key File:']]]);
    const at = (name: string) => box(walked.find((node) => node.name === name)!);
    const [above, help, keyLabel] = [at('Enter Password:'), at('Key file help'), at('Key File:')];
    assert.ok(above.y + above.h <= box(password).y && above.x === box(password).x, `pyatspi: "Enter Password:" stands right above the password's box (${JSON.stringify([above, box(password)])})`);
    assert.ok(keyLabel.x + keyLabel.w <= help.x && help.x + help.w <= box(keyFile).x && help.w <= 16, `pyatspi: the help button stands between "Key File:" and its field (${JSON.stringify([keyLabel, help, box(keyFile)])})`);

    const { result } = await accessibleWindowState(fixtures.context, form, { include_screenshot: false });
    const body = result.body ?? '';
    assert.match(body, /gen "Password field"\n\s+\[e\d+\] tbx "Enter Password:" /, body);
    assert.match(body, /btn "Key file help" [^\n]*\n\s+\[e\d+\] gen "Key file field"\n\s+\[e\d+\] tbx "Key File:" /, body);
    for (const [name, oracle] of [['Enter Password:', password], ['Key File:', keyFile]] as const) {
      const found = await callOk(fixtures.context, 'find_elements', { window_id: form.id, selector: `role=textbox name="${name}"` });
      const matches = found.structured.matches as { bounds: unknown }[];
      assert.deepEqual(matches.map((match) => match.bounds), [box(oracle)], found.body);
    }
    const typed = await callOk(fixtures.context, 'type_text', { window_id: form.id, selector: 'role=textbox name="Key File:"', text: 'key.bin' });
    assert.equal((typed.structured as unknown as ActionResult).effect, 'confirmed', typed.summary);
    assert.equal((await fixtures.oracle.find(form.pid, form.title, 'label', 'Key file: key.bin')).found, true, 'the app says its key file field holds the text');
  });

  test("a dock widget tabbed behind another, which Qt moves up and left out of its window still showing, is hidden with what it holds, not told as items to scroll up to; its tab shows it", async () => {
    const main = await fixtures.launch('qt5', { title: 'Qt Docks', extraArgs: ['--docks'] });
    const place = async (role: string, name: string) => (await fixtures.oracle.find(main.pid, main.title, role, name)).extents!;
    const [frame, log] = [await place('frame', main.title), await fixtures.oracle.find(main.pid, main.title, 'frame', 'Log')];
    // The quirk: the Log dock behind Schema says it is showing, placed wholly above and left of the window.
    assert.ok(log.states!.includes('showing') && log.extents![0] + log.extents![2] <= frame[0] && log.extents![1] + log.extents![3] <= frame[1], JSON.stringify([frame, log]));
    const compact = async () => (await accessibleWindowState(fixtures.context, main, { include_screenshot: false })).result.body ?? '';
    const before = await compact();
    assert.doesNotMatch(before, /scroll up to see|Clear Log/, before);
    const [x, y, w, h] = await place('push button', 'Refresh Schema');
    assert.ok(before.includes(`btn "Refresh Schema" ${x},${y} ${w}x${h}`), before);
    const shown = await callOk(fixtures.context, 'click', { window_id: main.id, selector: 'role=tab name=Log' });
    assert.equal((shown.structured as unknown as ActionResult).effect, 'confirmed', shown.summary);
    const [lx, ly, lw, lh] = await place('push button', 'Clear Log');
    const after = await compact();
    assert.ok(after.includes(`btn "Clear Log" ${lx},${ly} ${lw}x${lh}`), `the Log dock's button where pyatspi places it now:\n${after}`);
    assert.doesNotMatch(after, /scroll up to see|Refresh Schema/, after);
  });


  test("DB Browser for SQLite's table editor: a combo box set on a tree's cell, in the viewport the view does not list, stays in the tree after the in-place editor the focus found it through closes", async () => {
    const editor = await fixtures.launch('qt5', { title: 'Qt Item Widgets', extraArgs: ['--item-widgets'] });
    const combos = async () => (await pyatspiWalk(editor.pid, editor.title, fixtures.desktop.env())).filter((node) => node.role === 'combo box' && node.name === 'INTEGER');
    // The fixture opens the Name cell's editor after it shows: the viewport holding it is read through the focus.
    await callOk(fixtures.context, 'wait_for', { window_id: editor.id, selector: 'role=textbox focused value=Field1', timeout_ms: 10_000 });
    const found = async () => (await callOk(fixtures.context, 'find_elements', { window_id: editor.id, selector: 'role=tree >> role=combobox name=INTEGER' })).structured.matches as { index: number }[];
    assert.equal((await found()).length, 1, 'the combo box is read while the editor has the focus');
    // The quirk: pyatspi's walk reaches neither the editor nor the combo box on the row.
    assert.deepEqual(await combos(), [], 'pyatspi: no combo box named INTEGER in the walk');
    const committed = await callOk(fixtures.context, 'press_key', { window_id: editor.id, key: 'return', delivery_mode: 'foreground' });
    assert.equal((await fixtures.oracle.find(editor.pid, editor.title, 'table cell', 'Field1')).states?.includes('focused'), true, `pyatspi: the cell has the focus, the editor closed\n${committed.body}`);
    // The editor's facts read before the Return (its text, the text selected in it, that text's formatting) are one gone object.
    const gone = (committed.structured as unknown as ActionResult).evidence?.filter((line) => line.includes(' is gone ')) ?? [];
    assert.deepEqual(gone.map((line) => line.replace(/ is gone .*/, '')), ['the focused element'], committed.body);
    // Qt announces the cell focused, then not as the tree takes the focus; the cell says focused, as pyatspi read above.
    const focus = (committed.structured as unknown as ActionResult).evidence?.filter((line) => line.includes('cell "Field1"')) ?? [];
    assert.deepEqual(focus.map((line) => line.replace(/^.*cell "Field1": /, '')), ['+foc'], committed.body);
    assert.deepEqual(await combos(), [], 'pyatspi: still no combo box in the walk');
    const [combo] = await found();
    assert.ok(combo, 'the combo box on the row is still read once the editor closed');
    // It is the one on the row: clicked where the driver places it, its list opens, and the app takes the choice clicked there.
    const opened = await callOk(fixtures.context, 'click', { window_id: editor.id, element_index: combo.index, delivery_mode: 'foreground' });
    const chosen = await callOk(fixtures.context, 'click', { window_id: editor.id, selector: 'role=listitem name=TEXT', delivery_mode: 'foreground' });
    assert.equal((await fixtures.oracle.find(editor.pid, editor.title, 'label', 'Field: Field1 TEXT')).found, true, `the app says the row's type is TEXT\n${opened.body}\n${chosen.body}`);
  });

  test("DB Browser for SQLite's filter row: a field in a table's header widget, neither listed, is read once clicked, and typed into by the focus in the background", async () => {
    const table = await fixtures.launch('qt5', { title: 'Qt Filter Header', extraArgs: ['--filter-header'] });
    // The quirk: the column header's box takes the filter row too, and pyatspi's walk reaches no text field in it.
    const [x, y, , h] = (await fixtures.oracle.find(table.pid, table.title, 'table column header', 'Name')).extents!;
    const walked = await pyatspiWalk(table.pid, table.title, fixtures.desktop.env());
    assert.ok(!walked.some((node) => node.role === 'text' && node.extents !== null && node.extents[1] >= y && node.extents[1] < y + h), JSON.stringify(walked.filter((node) => node.role === 'text')));
    await accessibleWindowState(fixtures.context, table, { include_screenshot: false });
    // Clicked where the screen shows it, in the header's bottom band.
    await callOk(fixtures.context, 'click', { window_id: table.id, x: x - table.bounds.x + 20, y: y - table.bounds.y + h - 8, delivery_mode: 'foreground' });
    const found = await callOk(fixtures.context, 'find_elements', { window_id: table.id, selector: 'role=grid >> role=textbox focused' });
    assert.equal((found.structured.matches as unknown[]).length, 1, found.body);
    const typed = await callOk(fixtures.context, 'type_text', { window_id: table.id, text: 'Bo' });
    assert.equal((typed.structured as unknown as ActionResult).path, 'x11_atspi', typed.body);
    assert.equal((await fixtures.oracle.find(table.pid, table.title, 'label', 'Shown: Bob')).found, true, `the app filtered its rows by the text typed\n${typed.body}`);
  });

  test("a Qt table's row header, which Qt gives a place and no action, reads with its box and is clicked in the foreground, selecting its row", async () => {
    const grid = await fixtures.launch('qt5', { title: 'Qt Row Headers', extraArgs: ['--table'] });
    const walked = await pyatspiWalk(grid.pid, grid.title, fixtures.desktop.env());
    const header = walked.find((node) => node.role === 'table row header' && node.name === '2' && node.states.includes('showing'));
    // The quirk: a place and nothing to do (no action), as Qt's column headers.
    assert.ok(header?.extents && header.actions.length === 0, JSON.stringify(header));
    const [x, y, w, h] = header.extents;
    const { result, state } = await accessibleWindowState(fixtures.context, grid, { include_screenshot: false });
    assert.ok((result.body ?? '').includes(`rowh "2" ${x},${y} ${w}x${h}`), result.body);
    const element = state.elements.find((entry) => entry.role === 'rowheader' && entry.name === '2' && !entry.states?.includes('hidden'))!;
    await callOk(fixtures.context, 'click', { window_id: grid.id, element_index: element.index, delivery_mode: 'foreground' });
    const banana = (await pyatspiWalk(grid.pid, grid.title, fixtures.desktop.env())).find((node) => node.role === 'table cell' && node.name === 'Banana');
    assert.ok(banana?.states.includes('selected'), `pyatspi: the row's cell is selected (${JSON.stringify(banana)})`);
  });

  test('buttons in a row after a label ending in a colon keep their own names: each is a choice of what to do, no value the label asks for', async () => {
    const form = await fixtures.launch('qt5', { title: 'Qt Button Row', extraArgs: ['--button-row'] });
    const tag1 = await fixtures.oracle.find(form.pid, form.title, 'push button', 'Tag 1');
    const found = await callOk(fixtures.context, 'find_elements', { window_id: form.id, selector: 'role=button name="Tag 1"' });
    const matches = found.structured.matches as { bounds: unknown; value?: string }[];
    const [x, y, w, h] = tag1.extents!;
    assert.deepEqual(matches.map((match) => [match.bounds, match.value]), [[{ x, y, w, h }, undefined]], found.body);
    const clicked = await callOk(fixtures.context, 'click', { window_id: form.id, selector: 'role=button name="Tag 1"' });
    assert.equal((clicked.structured as unknown as ActionResult).effect, 'confirmed', clicked.summary);
    assert.equal((await fixtures.oracle.find(form.pid, form.title, 'label', 'Filled from: Tag 1')).name, 'Filled from: Tag 1');
  });


  test('text with letters beyond ASCII typed in the background goes in as typed, no NUL after it: Qt pads inserted text to the length given, in UTF-16 units', async () => {
    const typing = await fixtures.launch('qt5', { title: 'Qt Umlauts' });
    const found = await callOk(fixtures.context, 'find_elements', { window_id: typing.id, selector: 'role=textbox value="first line"' });
    const [editor] = (found.structured as { matches: { index: number }[] }).matches;
    assert.ok(editor, found.body);
    const typed = await callOk(fixtures.context, 'type_text', { window_id: typing.id, element_index: editor.index, text: 'Grüße 😀 ' });
    assert.equal((typed.structured as unknown as ActionResult).path, 'x11_atspi', typed.summary);
    const read = await fixtures.oracle.find(typing.pid, typing.title, 'text', '');
    assert.equal(read.text, 'Grüße 😀 first line', JSON.stringify(read));
    // Qt counts UTF-16 units (the emoji is two), as it takes the length.
    assert.equal(read.characters, 'Grüße 😀 first line'.length, `pyatspi counts no character beyond the text: ${JSON.stringify(read)}`);
  });


  test("a widget that paints its lines itself and holds its own scroll bar (a terminal's screen) is a drawn surface, named with its box", async () => {
    const terminal = await fixtures.launch('qt5', { title: 'Qt Terminal', extraArgs: ['--painted-terminal'] });
    const nodes = await pyatspiWalk(terminal.pid, terminal.title, fixtures.desktop.env());
    // The premise, as pyatspi reads it: a focusable filler holding its scroll bar alone, and nothing holding the words.
    const screens = nodes.filter((node, at) => node.role === 'filler' && node.states.includes('focusable') && childIndices(nodes, at).map((child) => nodes[child]!.role).join() === 'scroll bar');
    assert.equal(screens.length, 1, JSON.stringify(screens));
    assert.ok(!nodes.some((node) => node.name.includes('WORD222')), 'nothing in the tree holds the painted text');
    const read = await callOk(fixtures.context, 'get_window_state', { window_id: terminal.id, include_screenshot: false });
    const state = read.structured as { elements: { index: number; bounds?: { x: number; y: number; w: number; h: number } }[]; drawn_surfaces?: { element_index: number }[] };
    const [x, y, w, h] = screens[0]!.extents!;
    const element = state.elements.find((each) => each.bounds?.x === x && each.bounds.y === y && each.bounds.w === w && each.bounds.h === h);
    assert.ok(element, `the screen's box ${x},${y} ${w}x${h} is in the compact view:\n${read.body}`);
    assert.deepEqual(state.drawn_surfaces?.map((surface) => surface.element_index), [element.index], read.summary);
  });

  test("a sortable Qt table's column headers, which Qt gives a place and no action, read with their box and are clicked in the foreground to sort; a background click is refused, and no sort state is made up where Qt says none", async () => {
    const table = await fixtures.launch('qt5', { title: 'Qt Sorted Table', extraArgs: ['--sorted-table'] });
    const header = await fixtures.oracle.find(table.pid, table.title, 'table column header', 'Name');
    // The quirk, as pyatspi reads it: a place, no action, and no word of the sort the header draws (Size, descending).
    assert.deepEqual([header.found, header.actions], [true, undefined], JSON.stringify(header));
    const headers = await fixtures.oracle.attributes(table.pid, table.title, ['table column header']);
    assert.deepEqual(headers.map((each) => [each.name, each.attributes]), [['Name', {}], ['Size', {}]], JSON.stringify(headers));
    const sortedBy = async (words: string) => (await fixtures.oracle.find(table.pid, table.title, 'label', words)).found;
    assert.equal(await sortedBy('Sorted by: Size descending'), true, 'the app says it is sorted by Size');

    const read = await callOk(fixtures.context, 'get_window_state', { window_id: table.id, include_screenshot: false });
    const [x, y, w, h] = header.extents!;
    assert.match(read.body ?? '', new RegExp(`\\[e(\\d+)\\] colh "Name" ${x},${y} ${w}x${h}\n`), `the header's box as pyatspi places it:\n${read.body}`);
    assert.doesNotMatch(read.body ?? '', /sort/, 'no sort state Qt does not give');
    const index = Number(new RegExp(`\\[e(\\d+)\\] colh "Name"`).exec(read.body ?? '')![1]);
    assert.match(read.summary, new RegExp(`\\[e${index}\\][^;]*no accessibility action[^;]*foreground`), read.summary);

    const background = await callOk(fixtures.context, 'click', { window_id: table.id, element_index: index, delivery_mode: 'background' });
    const refused = background.structured as unknown as ActionResult;
    assert.deepEqual([refused.path, refused.escalation?.recommended], ['none', 'foreground'], background.summary);
    assert.equal(await sortedBy('Sorted by: Size descending'), true, 'nothing reached the app');
    for (const order of ['ascending', 'descending']) {
      // Two clicks, as a person's: apart by more than Qt's double-click interval (400 ms), which a second click within
      // takes for a double click on the section, and sorts nothing.
      if (order === 'descending') await sleep(500);
      const clicked = await callOk(fixtures.context, 'click', { window_id: table.id, element_index: index, delivery_mode: 'foreground' });
      assert.equal((clicked.structured as unknown as ActionResult).effect, 'confirmed', `${order}: ${clicked.summary}`);
      assert.equal(await sortedBy(`Sorted by: Name ${order}`), true, `the app sorted by Name, ${order}: ${clicked.summary}`);
      // Qt rebuilds its header as it sorts: the header keeps its index, and the evidence says it was replaced, not gone.
      const evidence = (clicked.structured as unknown as ActionResult).evidence ?? [];
      assert.ok(!evidence.some((line) => line.includes(`[e${index}]`) && line.includes('is gone')), evidence.join(' | '));
    }
    assert.equal(await sortedBy('Rows: zebra.txt, notes.txt, a.txt'), true, 'the rows in that order');
  });


  test("a Qt date edit, whose Value holds 0 of 0..0, reads the date it shows as its value with no range; set_value writes a date through its text, and refuses a text not written as a date", async () => {
    const form = await fixtures.launch('qt5', { title: 'Qt Date Edit', extraArgs: ['--date-edit'] });
    const due = await fixtures.oracle.find(form.pid, form.title, 'spin button', 'Due date:');
    // The quirk: a spin button whose Value is 0 (of 0..0, pyatspi reads), its date in its text alone.
    assert.deepEqual([due.value, due.text], [0, '2024-03-15'], JSON.stringify(due));
    const found = await callOk(fixtures.context, 'find_elements', { window_id: form.id, selector: 'role=spinbutton name="Due date:"' });
    const [field] = found.structured.matches as { index: number; value?: string; attributes?: Record<string, unknown> }[];
    assert.deepEqual([field?.value, field?.attributes?.valueMin, field?.attributes?.valueMax], ['2024-03-15', undefined, undefined], found.body);
    const { result } = await accessibleWindowState(fixtures.context, form, { include_screenshot: false });
    assert.match(result.body ?? '', /spn "Due date:" [^\n]*val="2024-03-15"/, result.body);
    assert.doesNotMatch(result.body ?? '', /range=0\.\.0/, result.body);

    const set = await callOk(fixtures.context, 'set_value', { window_id: form.id, element_index: field!.index, value: '2025-01-31' });
    assert.equal((set.structured as unknown as ActionResult).effect, 'confirmed', set.summary);
    assert.equal((await fixtures.oracle.find(form.pid, form.title, 'label', 'Due: 2025-01-31')).found, true, `the app took the date: ${set.summary}`);
    const refused = await failsWith(fixtures.context, 'set_value', { window_id: form.id, element_index: field!.index, value: '7' }, 'not_settable');
    assert.match(refused.summary, /type_text/, refused.summary);
    assert.equal((await fixtures.oracle.find(form.pid, form.title, 'spin button', 'Due date:')).text, '2025-01-31', 'nothing was sent');
  });
  test('invoke_menu through buttons that pop up menus: a push button\'s menu is chosen from in the background and closed after, as a click closes it; a tool button whose menu opens only for a real click is refused, saying so', async () => {
    const app = await fixtures.launch('qt5', { title: 'Qt Menu Buttons', extraArgs: ['--menu-buttons'] });
    const chosenLabel = async (name: string) => (await fixtures.oracle.find(app.pid, app.title, 'label', `Chosen: ${name}`)).found;
    const windows = () => fixtures.readers.visibleWindowsOf(app.pid);
    assert.deepEqual(await windows(), [app.id], 'X: the window alone at first');
    // The case: Qt offers ShowMenu alone on such a button, which opens its menu (the click refused it as having no
    // click action), and triggers a menu entry through accessibility without closing the menu: it stayed on screen,
    // holding every app's real input.
    const chosen = await callOk(fixtures.context, 'invoke_menu', { window_id: app.id, path: ['Actions', 'Delete'] });
    assert.deepEqual([chosen.structured.menu_path, chosen.structured.effect], [['Actions', 'Delete'], 'confirmed'], chosen.body);
    assert.ok(await chosenLabel('Delete'), `pyatspi: the app took Delete\n${chosen.body}`);
    assert.deepEqual(await windows(), [app.id], `X: the menu closed after the choice\n${chosen.body}`);
    assert.match(chosen.body ?? '', /menu stayed open after the choice[^\n]*closed it/, chosen.body);

    // Qt runs the popped-up menu inside the ShowMenu call, answered once the menu closes: the app answering other
    // calls meanwhile ends the wait for it (it had waited out the call's whole timeout, 2 s, on every such click).
    const popped = await callOk(fixtures.context, 'click', { window_id: app.id, selector: 'role=button name=Actions' });
    const pop = popped.structured as unknown as ActionResult;
    assert.equal((await windows()).length, 2, `X: the menu is open\n${popped.body}`);
    assert.equal(pop.effect, 'confirmed', popped.body);
    assert.ok(pop.no_reply_ms !== undefined && pop.no_reply_ms < 2000, `ended before the call's timeout: ${pop.no_reply_ms}`);
    assert.ok((pop.evidence ?? []).some((line) => line.includes('while it answered other calls') && line.includes('the app is not hung')), popped.body);
    await callOk(fixtures.context, 'press_key', { window_id: app.id, key: 'escape' });
    assert.deepEqual(await windows(), [app.id], 'X: an Escape closed it');

    // An entry the menu lacks: refused with the entries it shows, and the menu left open for the agent to choose from.
    const missing = await failsWith(fixtures.context, 'invoke_menu', { window_id: app.id, path: ['Actions', 'Archive'] }, 'menu_item_not_found');
    assert.match(missing.summary, /no entry "Archive"; it shows \[e\d+\] menuitem "Rename", \[e\d+\] menuitem "Delete"/, missing.summary);
    assert.equal((await windows()).length, 2, 'X: the menu is left open');
    await callOk(fixtures.context, 'press_key', { window_id: app.id, key: 'escape' });
    assert.deepEqual(await windows(), [app.id], 'X: an Escape closed it');

    // A first name neither the menu bar nor a button has: the bar's refusal, which says so.
    const nowhere = await failsWith(fixtures.context, 'invoke_menu', { window_id: app.id, path: ['Archive', 'All'] }, 'menu_item_not_found');
    assert.match(nowhere.summary, /the menu bar has no item "Archive"; its items: [^;]*; nor does the window show a button named "Archive"/, nowhere.summary);

    // Qt opens an instant-popup tool button's menu for a real click only: its ShowMenu does nothing.
    const refused = await failsWith(fixtures.context, 'invoke_menu', { window_id: app.id, path: ['Tools', 'Sort'] }, 'menu_not_actionable');
    assert.match(refused.summary, /click it with delivery_mode "foreground"[^]*then "Sort"/, refused.summary);
    assert.ok(await chosenLabel('Delete'), 'pyatspi: nothing else was chosen');
    assert.deepEqual(await windows(), [app.id], 'X: no menu open');
  });
});
