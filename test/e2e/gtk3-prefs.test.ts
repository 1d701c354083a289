// A GTK3 preferences page laid out as Transmission's (Edit > Preferences), where a new user found the tree wrong: the
// page read upside down (GtkGrid lists its children last attached first), spin buttons whose only label is the check
// box beside them were unnamed, a combo box was named by its value, typed digits a spin button had not taken were
// reported as the typing's effect with no word that the number was unchanged, and a closed menu counted the hidden
// items the app keeps in it. Judged by pyatspi and by the fixture's own log.
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
import { eventually } from '../helpers/task-apps.js';
import { callOk, failsWith, pyatspiWalk, type Element, type OracleNode } from '../helpers/tools.js';

describe('a GTK3 preferences grid, judged by pyatspi', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;
  let logDir: string;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    logDir = mkdtempSync(join(tmpdir(), 'cup-prefs-'));
    window = await fixtures.launch('gtk3', { title: 'Prefs Fixture', size: '480x700', rows: 3, extraArgs: ['--prefs', '--model-menu', '--comma-spin', '--action-log', join(logDir, 'actions.log')] });
  });

  after(async () => {
    await fixtures?.stop();
    if (logDir) rmSync(logDir, { recursive: true, force: true });
  });

  /** The children of the object holding the Upload (kB/s): check box, in the order pyatspi lists them. */
  const gridChildren = (walked: readonly OracleNode[]): OracleNode[] => {
    const at = walked.findIndex((node) => node.role === 'check box' && node.name === 'Upload (kB/s):');
    assert.ok(at >= 0, 'pyatspi: the Upload (kB/s): check box');
    const depth = walked[at]!.depth;
    let start = at;
    while (walked[start - 1]!.depth >= depth) start--;
    const children: OracleNode[] = [];
    for (let index = start; index < walked.length && walked[index]!.depth >= depth; index++) if (walked[index]!.depth === depth) children.push(walked[index]!);
    return children;
  };
  const sameBox = (element: Element, node: OracleNode) =>
    element.bounds !== undefined && node.extents !== null && [element.bounds.x, element.bounds.y, element.bounds.w, element.bounds.h].join() === node.extents.join();

  test("a grid that lists its children last attached first is read in the order its boxes are laid out", async () => {
    // (The Quiet hours: row's box of its own is no element: its fields are, in its place.)
    const children = gridChildren(await pyatspiWalk(window.pid, window.title, fixtures.desktop.env())).filter((node) => node.role !== 'filler');
    assert.equal(children.length, 7, JSON.stringify(children));
    // The case: pyatspi lists the bottom row first (the combo box, then the Scheduled times: check box) and the top last.
    const top = (node: OracleNode) => node.extents![1];
    assert.ok(top(children[0]!) > top(children.at(-1)!), `pyatspi lists the bottom row first: ${JSON.stringify(children.map((node) => [node.role, node.name, node.extents]))}`);

    const elements = await fixtures.elements(window);
    // A label beside the field it names is said on the field's line, not as an element of its own.
    const namesField = (node: OracleNode) => node.role === 'label' && elements.some((element) => element.role !== 'text' && element.name === node.name);
    const shown = children.filter((node) => !namesField(node));
    assert.ok(shown.length >= 5, JSON.stringify(shown));
    const order = shown.map((node) => elements.findIndex((element) => sameBox(element, node)));
    assert.ok(order.every((index) => index >= 0), `every grid child but the labels of fields is an element: ${JSON.stringify(order)}`);
    // Reading order by pyatspi's own boxes: rows top to bottom (each row's boxes share their middle), each left to right.
    const middle = (node: OracleNode) => node.extents![1] + node.extents![3] / 2;
    const reading = [...shown].sort((a, b) => (Math.abs(middle(a) - middle(b)) < 10 ? a.extents![0] - b.extents![0] : middle(a) - middle(b)));
    const listed = [...shown].sort((a, b) => order[shown.indexOf(a)]! - order[shown.indexOf(b)]!);
    assert.deepEqual(listed.map((node) => `${node.role} ${node.name}`), reading.map((node) => `${node.role} ${node.name}`));
  });

  test('a value field whose only label is the check box before it (its words ending in a colon) is named by it', async () => {
    const children = gridChildren(await pyatspiWalk(window.pid, window.title, fixtures.desktop.env()));
    const node = (role: string, name?: string) => children.find((child) => child.role === role && (name === undefined || child.name === name));
    // The case: the spin button beside the check box has no name, the combo box is named by its choice.
    const upload = children.find((child) => child.role === 'spin button' && child.extents![1] === node('check box', 'Upload (kB/s):')!.extents![1]);
    assert.equal(upload?.name, '', JSON.stringify(children));
    assert.equal(node('combo box')?.name, '09:00', JSON.stringify(children));

    const elements = await fixtures.elements(window);
    const named = (role: string) => elements.filter((element) => element.role === role).map((element) => `${element.name}=${element.value}`);
    assert.ok(named('spinbutton').includes('Upload (kB/s):=100'), JSON.stringify(named('spinbutton')));
    assert.ok(named('spinbutton').includes('Download (kB/s):=50'), 'the one labelled by a text is named as before');
    assert.ok(named('combobox').includes('Scheduled times:=09:00'), JSON.stringify(named('combobox')));
    // A check box is not named by the check box before it, nor a field by a check box ending in no colon ("Enable feature").
    assert.deepEqual(elements.filter((element) => element.role === 'checkbox').map((element) => element.name).sort(), ['Enable feature', 'Quiet hours:', 'Scheduled times:', 'Upload (kB/s):']);
  });

  test("the fields of a box beside a check box ending in a colon are named by it, the later ones with the text between them", async () => {
    const walked = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    const combos = walked.filter((node) => node.role === 'combo box').map((node) => node.name);
    // The case (Transmission's Scheduled times: row): pyatspi names the first by its choice; " to " points at the second.
    assert.ok(combos.includes('22:00') && combos.includes('07:00'), JSON.stringify(combos));
    const labelled = await fixtures.oracle.labelled(window.pid, window.title);
    assert.ok(labelled.some((entry) => entry.role === 'combo box' && entry.name === '07:00' && entry.labels.map((label) => label.trim()).includes('to')), JSON.stringify(labelled));
    assert.ok(!labelled.some((entry) => entry.role === 'combo box' && entry.name === '22:00' && entry.labels.length > 0), JSON.stringify(labelled));

    const elements = await fixtures.elements(window);
    const named = elements.filter((element) => element.role === 'combobox').map((element) => `${element.name}=${element.value}`);
    assert.ok(named.includes('Quiet hours:=22:00'), JSON.stringify(named));
    assert.ok(named.includes('Quiet hours: to=07:00'), JSON.stringify(named));
    const set = await callOk(fixtures.context, 'set_value', { window_id: window.id, selector: 'role=combobox name="Quiet hours: to"', value: '22:00' });
    assert.equal((set.structured as unknown as ActionResult).effect, 'confirmed', set.summary);
    assert.equal((await pyatspiWalk(window.pid, window.title, fixtures.desktop.env())).filter((node) => node.role === 'combo box' && node.name === '22:00').length, 2, 'pyatspi: both show 22:00');
  });

  test("fields on a notebook's page not shown are named by the labels of their rows as when it is shown, though GTK3 gives them no position", async () => {
    const pages = await fixtures.launch('gtk3', { title: 'Prefs Pages Fixture', size: '480x500', rows: 1, extraArgs: ['--prefs-pages'] });
    // The fields of the Limits page: all but the fixture's own Color combo box, on its form above the notebook.
    const onPage = (name: string) => name !== 'Color' && name !== 'Color=Red';
    const fields = (walked: readonly OracleNode[]) => walked.filter((node) => (node.role === 'spin button' || node.role === 'combo box') && onPage(node.name));
    // The case: pyatspi places every field of the page not shown at x and y of -2^31, its size kept; none has a name
    // but the combo boxes' choices, and only the second time has a label pointing at it (" to ").
    const hidden = fields(await pyatspiWalk(pages.pid, pages.title, fixtures.desktop.env()));
    assert.equal(hidden.length, 5, JSON.stringify(hidden));
    assert.ok(hidden.every((node) => node.extents![0] === -2147483648 && node.extents![1] === -2147483648 && node.extents![2] > 0 && !node.states.includes('showing')), JSON.stringify(hidden));
    const read = async () => {
      const elements = (await fixtures.elements(pages)).filter((element) => element.role === 'spinbutton' || element.role === 'combobox');
      return elements.map((element) => `${element.name}=${element.value}`).filter(onPage).sort();
    };
    const before = await read();

    // Shown, the page places them: each field's name is the text of the label or check box on its row left of it as
    // pyatspi places them ("Quiet hours: to" for the second time: the row's label, then the " to " pointing at it).
    await callOk(fixtures.context, 'click', { window_id: pages.id, selector: 'role=tab name="Limits"' });
    const walked = await pyatspiWalk(pages.pid, pages.title, fixtures.desktop.env());
    const shown = fields(walked);
    assert.ok(shown.every((node) => node.states.includes('showing') && node.extents![0] >= 0), JSON.stringify(shown));
    const spinValues = await fixtures.oracle.values(pages.pid, pages.title, 'spin button');
    const labels = walked.filter((node) => (node.role === 'check box' || node.role === 'label') && node.extents && node.extents[0] >= 0);
    const rowLabel = (field: OracleNode) => {
      const middle = field.extents![1] + field.extents![3] / 2;
      const onRow = labels.filter((label) => label.extents![1] <= middle && middle <= label.extents![1] + label.extents![3] && label.extents![0] + label.extents![2] <= field.extents![0] + 2);
      return onRow.sort((a, b) => a.extents![0] - b.extents![0])[0]?.name;
    };
    const spins = shown.filter((node) => node.role === 'spin button');
    const expected = [
      ...spins.map((node, index) => `${rowLabel(node)}=${spinValues[index]}`),
      ...shown.filter((node) => node.role === 'combo box').map((node) => (node.name === '07:00' ? `Quiet hours: to=07:00` : `${rowLabel(node)}=${node.name}`)),
    ].sort();
    assert.deepEqual(expected, ['Download (kB/s):=50', 'Quiet hours: to=07:00', 'Quiet hours:=22:00', 'Scheduled times:=09:00', 'Upload (kB/s):=100'], 'pyatspi: the rows as shown');
    assert.deepEqual(before, expected, 'read on the page not shown, the fields had the names of their rows');
    assert.deepEqual(await read(), expected, 'and keep them shown');
    process.kill(pages.pid);
  });

  test("a font button a label points at is named by the label, its font its value, on a notebook's page not shown as when shown", async () => {
    // The case: Pluma's Preferences, Font & Colors page. GTK names the font button by its font; "Editor font:" points
    // at it (labelled-by). Named by the label beside it only once its page was shown, the tab's click read
    // `btn name: "Monospace Regular" → "Editor font:"` in its diff, and a selector by the label found nothing before.
    const pages = await fixtures.launch('gtk3', { title: 'Font Pages Fixture', size: '480x400', rows: 1, extraArgs: ['--font-pages'] });
    try {
      const labelled = (await fixtures.oracle.labelled(pages.pid, pages.title)).filter((node) => node.role === 'push button');
      assert.deepEqual(labelled, [{ role: 'push button', name: 'Monospace Regular', labels: ['Editor font:'] }], 'pyatspi: the label points at the font button, named by its font');
      const walked = await pyatspiWalk(pages.pid, pages.title, fixtures.desktop.env());
      assert.ok(walked.some((node) => node.role === 'push button' && node.name === 'Monospace Regular' && !node.states.includes('showing')), 'pyatspi: its page is not shown');
      const read = async () => (await fixtures.elements(pages)).filter((element) => element.role === 'button' && (element.name === 'Editor font:' || element.value === 'Monospace Regular'));
      const hidden = await read();
      assert.deepEqual(hidden.map((element) => [element.name, element.value]), [['Editor font:', 'Monospace Regular']], 'read on the page not shown');

      const shown = await callOk(fixtures.context, 'click', { window_id: pages.id, selector: 'role=tab name=Fonts' });
      const onBus = await pyatspiWalk(pages.pid, pages.title, fixtures.desktop.env());
      assert.ok(onBus.some((node) => node.role === 'push button' && node.name === 'Monospace Regular' && node.states.includes('showing')), 'pyatspi: its page is shown');
      assert.deepEqual((await read()).map((element) => [element.index, element.name, element.value]), [[hidden[0]!.index, 'Editor font:', 'Monospace Regular']], 'read shown: the same element, named alike');
      assert.doesNotMatch(shown.body ?? '', /Monospace Regular" →/, `the tab's diff renames nothing: ${shown.body}`);
    } finally {
      process.kill(pages.pid);
    }
  });

  test('digits typed into a spin button that it has not taken yet are said to be so, and Return commits them', async () => {
    const spin = 'role=spinbutton name="Upload (kB/s):"';
    const typed = await callOk(fixtures.context, 'type_text', { window_id: window.id, selector: spin, text: '7' });
    const result = typed.structured as unknown as ActionResult;
    // The case: pyatspi reads the typed digit after the number, and the number still held; the app logged no change.
    assert.ok(spinsShown().includes('1007=100.0'), `pyatspi: ${spinsShown().join(' ')}`);
    assert.equal(readLog().includes('spin upload'), false, 'the app took no number');
    assert.match((result.evidence ?? []).join('\n'), /"1007" but holds 100: .*not taken them yet/, typed.summary);

    await callOk(fixtures.context, 'press_key', { window_id: window.id, selector: spin, key: 'Return' });
    assert.match(readLog(), /^spin upload 1007 /m, 'the app took 1007 on Return');
  });

  test('a spin button showing its number with a decimal comma, as a German locale does, is not said to hold typed digits it took', async () => {
    const before = await fixtures.oracle.find(window.pid, window.title, 'spin button', 'Ratio:');
    assert.deepEqual([before.text, before.value], ['1,5', 1.5], 'pyatspi: it shows 1,5 and holds 1.5');
    assert.deepEqual(await fixtures.oracle.selectText(window.pid, window.title, 'spin button', 'Ratio:', 0, 3), [0, 3]);
    const typed = await callOk(fixtures.context, 'type_text', { window_id: window.id, selector: 'role=spinbutton name="Ratio:"', text: '2,5\n', delivery_mode: 'foreground' });
    // The app logs the number it took from its own value-changed handler, which may run after the reply came back.
    const log = await eventually(async () => readLog(), (text) => /^spin ratio 2\.5 /m.test(text), 5000);
    assert.match(log, /^spin ratio 2\.5 /m, `the app took 2.5: ${typed.summary}`);
    const after = await fixtures.oracle.find(window.pid, window.title, 'spin button', 'Ratio:');
    assert.deepEqual([after.text, after.value], ['2,5', 2.5], 'pyatspi: it shows 2,5 and holds 2.5');
    assert.doesNotMatch((typed.structured.evidence as string[] | undefined ?? []).join('\n'), /not taken them yet/, typed.summary);
  });

  test("a closed menu counts the children opening it shows, not those the app keeps hidden in it", async () => {
    const walked = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    const at = walked.findIndex((node) => node.role === 'menu' && node.name === 'Tools');
    assert.ok(at >= 0, 'pyatspi: the Tools menu');
    const items: OracleNode[] = [];
    for (let index = at + 1; index < walked.length && walked[index]!.depth > walked[at]!.depth; index++) if (walked[index]!.depth === walked[at]!.depth + 1) items.push(walked[index]!);
    // The case: five children, two of them not visible; opening the menu shows the other three.
    assert.equal(items.length, 5, JSON.stringify(items));
    const shown = items.filter((node) => node.states.includes('visible'));
    assert.deepEqual(shown.map((node) => `${node.role} ${node.name}`), ['menu item Options', 'separator ', 'menu item Plugins'], JSON.stringify(items));

    const hint = (body: string) => /mi "Tools"[^\n]*\n\s+# (\d+) more items/.exec(body)?.[1];
    const compact = await callOk(fixtures.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
    assert.equal(hint(compact.body ?? ''), String(shown.length), compact.body);
    const full = await callOk(fixtures.context, 'get_window_state', { window_id: window.id, include_screenshot: false, detail: 'full' });
    assert.ok(/mi "Options"/.test(full.body ?? ''), 'a full read lists the items');

    // A query in a compact read does not look into closed menus, and says so.
    const queried = await callOk(fixtures.context, 'get_window_state', { window_id: window.id, include_screenshot: false, query: 'Plugins' });
    assert.match(queried.summary, /did not search the \d+ items of closed menus.*detail "full" or find_elements/, queried.summary);
    const found = await callOk(fixtures.context, 'find_elements', { window_id: window.id, selector: 'name=Plugins' });
    assert.match(found.summary, /1 element/, found.summary);
  });

  test('invoke_menu offers and takes only the items a menu shows, by the names the tree gives them', async () => {
    // The hidden "Empty" at the end of Pluma's File menu (a UI file's) was listed among its items and refused as
    // disabled; Mousepad's labels end in spaces, which menu_path and the listed items kept ("Tab Size      ").
    let walked = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    const childrenOf = (role: string, name: string) => {
      const at = walked.findIndex((node) => node.role === role && node.name === name);
      assert.ok(at >= 0, `pyatspi: the ${role} "${name}"`);
      const items: OracleNode[] = [];
      for (let index = at + 1; index < walked.length && walked[index]!.depth > walked[at]!.depth; index++) if (walked[index]!.depth === walked[at]!.depth + 1) items.push(walked[index]!);
      return items;
    };
    const tools = childrenOf('menu', 'Tools');
    assert.ok(tools.some((node) => node.name === 'Empty' && !node.states.includes('visible')), 'pyatspi: the Tools menu holds a hidden Empty');
    const refused = await failsWith(fixtures.context, 'invoke_menu', { window_id: window.id, path: ['Tools', 'Empty'] }, 'menu_item_not_found');
    const shownItems = tools.filter((node) => node.role === 'menu item' && node.name !== '' && node.states.includes('visible')).map((node) => node.name);
    assert.deepEqual(refused.structured.items, shownItems, refused.summary);

    // View is in the window's second menu bar: the path is followed in the bar holding its first name (through
    // LibreOffice's first bar, 0 pixels high, Edit > Undo was refused as offering no action).
    assert.ok(childrenOf('menu', 'Tab Size      ').some((node) => node.name === '8      '), 'pyatspi: the labels end in spaces');
    const chosen = await callOk(fixtures.context, 'invoke_menu', { window_id: window.id, path: ['View', 'Tab Size', '8'] });
    assert.deepEqual(chosen.structured.menu_path, ['View', 'Tab Size', '8'], chosen.summary);
    assert.equal((await fixtures.waitForStatus(window, (status) => status.lastKey !== '')).lastKey, 'model:tab:8', 'the fixture: 8 was chosen');
    walked = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    assert.ok(childrenOf('menu', 'Tab Size      ').find((node) => node.name === '8      ')?.states.includes('checked'), 'pyatspi: 8 is checked');
  });

  /** Every spin button of the window as pyatspi reads it: the text it shows and the number it holds. */
  const spinsShown = (): string[] => {
    const run = spawnSync('/usr/bin/python3', ['-c', [
      'import pyatspi',
      'from atspi_frames import find_frame',
      `frame = find_frame(${window.pid}, ${JSON.stringify(window.title)})`,
      'spins = pyatspi.findAllDescendants(frame, lambda node: node.getRoleName() == "spin button")',
      'print(" ".join(f"{spin.queryText().getText(0, -1)}={spin.queryValue().currentValue!r}" for spin in spins))',
    ].join('\n')], { env: { ...fixtures.desktop.env(), PYTHONPATH: join(repositoryRoot, 'test', 'fixtures', 'oracle') }, encoding: 'utf8', timeout: 30_000 });
    assert.equal(run.status, 0, run.stderr);
    return run.stdout.trim().split(' ');
  };

  test('a number finer than a range control takes is rounded to what it takes before it is sent, and the evidence says so', async () => {
    const download = 'role=spinbutton name="Download (kB/s):"';
    // The case: GTK3's spin button showing whole numbers took 7.6 as it was: it held 7.6 and showed "8".
    const set = await callOk(fixtures.context, 'set_value', { window_id: window.id, selector: download, value: '7.6' });
    assert.match((set.structured.evidence as string[]).join('\n'), /holds 8, not the 7\.6 asked for: it takes whole numbers/, set.summary);
    assert.ok(spinsShown().includes('8=8.0'), `pyatspi: it shows 8 and holds 8: ${spinsShown().join(' ')}`);
    assert.ok(!spinsShown().some((spin) => spin.endsWith('=7.6')), spinsShown().join(' '));
    assert.match(readLog(), /^spin download 8 /m, 'the app took 8');
    assert.doesNotMatch(readLog(), /^spin download 7 /m, 'the app never held 7.6');

    // A number that rounds to the one held sends nothing, and says what it was rounded to.
    const again = await callOk(fixtures.context, 'set_value', { window_id: window.id, selector: download, value: '8.3' });
    assert.match(JSON.stringify(again.structured), /holds 8 \(8\.3 rounded to the whole numbers it takes\)/, again.summary);

    // One showing a decimal (with a comma) takes numbers to one decimal.
    const ratio = await callOk(fixtures.context, 'set_value', { window_id: window.id, selector: 'role=spinbutton name="Ratio:"', value: '3.14' });
    assert.match((ratio.structured.evidence as string[]).join('\n'), /holds 3\.1, not the 3\.14 asked for: it takes numbers to 1 decimal/, ratio.summary);
    const shown = await fixtures.oracle.find(window.pid, window.title, 'spin button', 'Ratio:');
    assert.deepEqual([shown.text, shown.value], ['3,1', 3.1], 'pyatspi: it shows 3,1 and holds 3.1');
    assert.match(readLog(), /^spin ratio 3\.1 /m);

    // A slider stepping by whole numbers (it shows no text) is moved to whole numbers, as a person moves it.
    const slider = await callOk(fixtures.context, 'set_value', { window_id: window.id, selector: 'role=slider name=Volume', value: '33.3' });
    assert.match((slider.structured.evidence as string[]).join('\n'), /holds 33, not the 33\.3 asked for: it takes whole numbers/, slider.summary);
    assert.equal((await fixtures.oracle.find(window.pid, window.title, 'slider', 'Volume')).value, 33, 'pyatspi: the slider holds 33');

    // A number outside its range is refused, nothing sent, naming the nearest it takes.
    const outside = await failsWith(fixtures.context, 'set_value', { window_id: window.id, selector: download, value: '-3' }, 'out_of_range');
    assert.match(outside.summary, /outside the range .*\(0\.\.100000\); nothing was sent: the nearest it takes is 0/, outside.summary);
    assert.ok(spinsShown().includes('8=8.0'), spinsShown().join(' '));
  });

  const readLog = () => {
    try {
      return readFileSync(join(logDir, 'actions.log'), 'utf8');
    } catch {
      return '';
    }
  };
});
