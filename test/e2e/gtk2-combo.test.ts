import assert from 'node:assert/strict';
import { execFileSync, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { ToolContext } from '../../src/tools/context.js';
import { TestDesktop } from '../helpers/desktop.js';
import { accessibleWindowState, callOk, testContext, type Element } from '../helpers/tools.js';

/**
 * A GTK 2 combo box through GAIL, in Pidgin's Add Account dialog: GAIL's combo box keeps the Text of the first
 * choice it showed ("Bonjour") and reports the current one's length, so once IRC is chosen its Text reads "Bon".
 * The choice took (its name and the dialog's fields say so): set_value must say so, and the tree must show "IRC".
 * Judged by pyatspi: the combo box's name, its stale Text, and the Server field IRC adds.
 * GAIL's page tabs say neither SELECTABLE nor SELECTED, and their tab list's Selection switches pages all the same:
 * a background click on one must select it there, and the tree must show the current tab as that Selection names it
 * (judged by pyatspi's Selection of the tab list), and a click on the tab shown already, which only that Selection says
 * is shown, must send nothing and say so.
 * GTK 2's click action presses the button, and the press moves the keyboard focus to it, in a window that is not
 * active too: the result must say so (judged by pyatspi's focused object once the dialog is activated, and by
 * xdotool's active window), where GTK 3's click leaves the focus where it was and says nothing of it.
 */
describe('GTK 2 (GAIL) combo box whose Text goes stale, and page tabs', () => {
  let desktop: TestDesktop;
  let context: ToolContext;
  let profile: string;

  before(async () => {
    desktop = await TestDesktop.start();
    context = testContext();
    profile = mkdtempSync(join(tmpdir(), 'cup-pidgin-'));
  });

  after(async () => {
    await desktop?.stop();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  /** The Protocol combo box's name and Text, and whether the dialog has a "Server:" field, as pyatspi reads them. */
  function oracle(pid: number): { name: string; text: string; server: boolean } {
    const script = [
      'import json, pyatspi',
      'found = {"name": None, "text": None, "server": False}',
      'def walk(node, depth=0):',
      '    if node is None or depth > 40: return',
      '    role = node.getRoleName()',
      // The Protocol combo box is the one beside the "Protocol:" label.
      '    if role == "combo box" and found["name"] is None and any(sibling.name == "Protocol:" for sibling in node.parent):',
      '        found["name"] = node.name',
      '        found["text"] = node.queryText().getText(0, -1)',
      '    if role == "text" and node.name == "Server:": found["server"] = True',
      '    for child in node: walk(child, depth + 1)',
      'for app in pyatspi.Registry.getDesktop(0):',
      `    if app.get_process_id() == ${pid}: walk(app)`,
      'print(json.dumps(found))',
    ].join('\n');
    const run = spawnSync('/usr/bin/python3', ['-c', script], { env: desktop.env(), encoding: 'utf8', timeout: 30_000 });
    assert.equal(run.status, 0, `pyatspi oracle: ${run.stderr}`);
    return JSON.parse(run.stdout) as { name: string; text: string; server: boolean };
  }

  /** Pidgin with a fresh profile, its Add Account dialog opened from the Accounts window by a click. */
  async function openAddAccount(): Promise<{ pidgin: ChildProcess; dialogId: number }> {
    const { process: pidgin, window: accounts } = await desktop.launch('pidgin', ['-c', profile], 'Accounts', 30_000, { GTK_MODULES: 'gail:atk-bridge' });
    const { state } = await accessibleWindowState(context, accounts);
    const add = state.elements.find((element) => element.role === 'button' && element.name === 'Add...');
    assert.ok(add, 'the Accounts window has Add...');
    const clicked = await callOk(context, 'click', { pid: pidgin.pid, window_id: accounts.id, element_index: add.index });
    const dialog = (clicked.structured.new_windows as { window_id: number; title: string }[] | undefined)?.find((window) => window.title === 'Add Account');
    const dialogId = dialog?.window_id ?? ((await callOk(context, 'wait_for', { pid: pidgin.pid, window_title: 'Add Account' })).structured.windows as { window_id: number }[])[0]!.window_id;
    return { pidgin, dialogId };
  }

  test('choosing IRC is confirmed, and the tree shows IRC, not the stale Text', async () => {
    const { pidgin, dialogId } = await openAddAccount();
    const read = await callOk(context, 'get_window_state', { pid: pidgin.pid, window_id: dialogId, include_screenshot: false });
    // GTK 2 names it by its choice; the driver by its label, the choice its value.
    const combo = (read.structured.elements as Element[]).find((element) => element.role === 'combobox' && element.value === 'Bonjour');
    assert.ok(combo, 'the Protocol combo box shows Bonjour first');
    assert.equal(combo.name, 'Protocol:');

    const chosen = await callOk(context, 'set_value', { pid: pidgin.pid, window_id: dialogId, element_index: combo.index, value: 'IRC' });
    assert.equal(chosen.structured.effect, 'confirmed', chosen.summary);
    const truth = oracle(pidgin.pid!);
    assert.equal(truth.name, 'IRC', 'pyatspi: the combo box is named by its choice');
    assert.notEqual(truth.text, 'IRC', `pyatspi: its Text is stale (${JSON.stringify(truth.text)}), the premise`);
    assert.ok(truth.server, 'pyatspi: the dialog now asks for an IRC server');

    const after = await callOk(context, 'get_window_state', { pid: pidgin.pid, window_id: dialogId, include_screenshot: false });
    const shown = (after.structured.elements as Element[]).find((element) => element.index === combo.index);
    assert.equal(shown?.value, 'IRC');
    pidgin.kill('SIGKILL');
  });
  /** The page tab list's selected tab, as its Selection names it (GAIL's tabs say neither selectable nor selected). */
  function selectedTab(pid: number): string[] {
    const script = [
      'import json, pyatspi',
      'found = []',
      'def walk(node, depth=0):',
      '    if node is None or depth > 40: return',
      '    if node.getRoleName() == "page tab list":',
      '        selection = node.querySelection()',
      '        found.extend(selection.getSelectedChild(i).name for i in range(selection.nSelectedChildren))',
      '        return',
      '    for child in node: walk(child, depth + 1)',
      'for app in pyatspi.Registry.getDesktop(0):',
      `    if app.get_process_id() == ${pid}:`,
      '        for window in app:',
      '            if window.name == "Add Account": walk(window)',
      'print(json.dumps(found))',
    ].join('\n');
    const run = spawnSync('/usr/bin/python3', ['-c', script], { env: desktop.env(), encoding: 'utf8', timeout: 30_000 });
    assert.equal(run.status, 0, `pyatspi oracle: ${run.stderr}`);
    return JSON.parse(run.stdout) as string[];
  }

  /** The dialog's reading and its tab of that name, with pyatspi's word that Basic is the current tab. */
  async function readTab(pid: number, dialogId: number, name: string): Promise<{ elements: Element[]; tab: Element }> {
    assert.deepEqual(selectedTab(pid), ['Basic'], 'pyatspi: the Basic tab is the current one');
    const read = await callOk(context, 'get_window_state', { pid, window_id: dialogId, include_screenshot: false });
    const elements = read.structured.elements as Element[];
    const tab = elements.find((element) => element.role === 'tab' && element.name === name);
    assert.ok(tab, `the dialog has a ${name} tab`);
    return { elements, tab };
  }

  test('a background click on a GAIL page tab, which says it is neither selectable nor selected, switches to its page', async () => {
    const { pidgin, dialogId } = await openAddAccount();
    const { elements, tab: advanced } = await readTab(pidgin.pid!, dialogId, 'Advanced');
    assert.ok(advanced.actions.includes('select'), `the tab can be selected: ${JSON.stringify(advanced.actions)}`);
    const current = (elements: Element[]) => elements.filter((element) => element.role === 'tab' && element.states.includes('selected')).map((element) => element.name);
    assert.deepEqual(current(elements), ['Basic'], 'the tree shows the current tab, as the tab list\'s Selection names it');
    const clicked = await callOk(context, 'click', { pid: pidgin.pid, window_id: dialogId, element_index: advanced.index });
    assert.equal(clicked.structured.path, 'x11_atspi', clicked.summary);
    assert.equal(clicked.structured.effect, 'confirmed', clicked.summary);
    assert.deepEqual(selectedTab(pidgin.pid!), ['Advanced'], 'pyatspi: the Advanced tab is the current one now');
    const after = await callOk(context, 'get_window_state', { pid: pidgin.pid, window_id: dialogId, include_screenshot: false });
    assert.deepEqual(current(after.structured.elements as Element[]), ['Advanced'], 'the next read shows Advanced current');
    pidgin.kill('SIGKILL');
  });

  test('a background click on the GAIL page tab shown already sends nothing and says so, not "no effect seen"', async () => {
    const { pidgin, dialogId } = await openAddAccount();
    const { tab: basic } = await readTab(pidgin.pid!, dialogId, 'Basic');
    const clicked = await callOk(context, 'click', { pid: pidgin.pid, window_id: dialogId, element_index: basic.index });
    // Judged by its tab's states alone (GAIL's say nothing), the shown tab was selected again and read "no effect seen".
    assert.equal(clicked.structured.effect, 'confirmed', clicked.summary);
    assert.equal(clicked.structured.path, 'none', `nothing is sent for the tab shown already: ${clicked.summary}`);
    assert.equal(clicked.structured.escalation, undefined, clicked.summary);
    assert.deepEqual(selectedTab(pidgin.pid!), ['Basic'], 'pyatspi: Basic is still the current tab');
    pidgin.kill('SIGKILL');
  });

  /** The objects of the app's window titled `title` that say FOCUSED, with the window's checked check boxes, by pyatspi. */
  function focusAndChecks(pid: number, title: string): { focused: string[]; checked: string[] } {
    const script = [
      'import json, pyatspi',
      'found = {"focused": [], "checked": []}',
      'def walk(node, depth=0):',
      '    if node is None or depth > 60: return',
      '    states = node.getState()',
      '    if states.contains(pyatspi.STATE_FOCUSED): found["focused"].append(node.getRoleName() + " " + node.name)',
      '    if node.getRoleName() == "check box" and states.contains(pyatspi.STATE_CHECKED): found["checked"].append(node.name)',
      '    for child in node: walk(child, depth + 1)',
      'for app in pyatspi.Registry.getDesktop(0):',
      `    if app.get_process_id() == ${pid}:`,
      '        for window in app:',
      `            if window.name == ${JSON.stringify(title)}: walk(window)`,
      'print(json.dumps(found))',
    ].join('\n');
    const run = spawnSync('/usr/bin/python3', ['-c', script], { env: desktop.env(), encoding: 'utf8', timeout: 30_000 });
    assert.equal(run.status, 0, `pyatspi oracle: ${run.stderr}`);
    return JSON.parse(run.stdout) as { focused: string[]; checked: string[] };
  }

  /** Activates a window as a person would (xdotool), and answers the active window's id once it is. */
  async function activate(windowId: number): Promise<number> {
    execFileSync('xdotool', ['windowactivate', '--sync', String(windowId)], { env: desktop.env(), timeout: 10_000 });
    await sleep(300);
    return Number(execFileSync('xdotool', ['getactivewindow'], { env: desktop.env(), encoding: 'utf8', timeout: 10_000 }).trim());
  }

  /**
   * A background click on `name`'s check box in `windowId`, with `behind` active: the result, and the window's focused
   * objects by pyatspi before the click and once the window is activated again after it.
   */
  async function clickBehind(pid: number, windowId: number, title: string, behind: number, name: string) {
    assert.equal(await activate(windowId), windowId, 'xdotool: the window is active');
    const before = focusAndChecks(pid, title);
    assert.equal(before.focused.length, 1, `pyatspi: one object has the focus: ${JSON.stringify(before)}`);
    assert.equal(await activate(behind), behind, 'xdotool: the other window is active, this one behind it');
    const read = await callOk(context, 'get_window_state', { window_id: windowId, include_screenshot: false });
    const box = (read.structured.elements as Element[]).find((element) => element.role === 'checkbox' && element.name === name);
    assert.ok(box, `the window has the check box ${name}`);
    const clicked = await callOk(context, 'click', { window_id: windowId, element_index: box.index });
    assert.equal(clicked.structured.path, 'x11_atspi', clicked.summary);
    assert.ok(focusAndChecks(pid, title).checked.includes(name), 'pyatspi: the check box is checked');
    const active = Number(execFileSync('xdotool', ['getactivewindow'], { env: desktop.env(), encoding: 'utf8', timeout: 10_000 }).trim());
    assert.notEqual(active, windowId, 'xdotool: the click did not activate the window');
    assert.equal(await activate(windowId), windowId);
    return { clicked, box, before: before.focused[0]!, after: focusAndChecks(pid, title).focused };
  }

  test('a background click on a GTK 2 check box in a window behind another says the focus moved to it; GTK 3\'s moves none and says none', async () => {
    const { pidgin, dialogId } = await openAddAccount();
    // Pidgin shows its Buddy List some seconds after it starts, in front: it is awaited, and is the window in front.
    const front = ((await callOk(context, 'wait_for', { pid: pidgin.pid, window_title: 'Buddy List', timeout_ms: 20_000 })).structured.windows as { window_id: number }[])[0]!.window_id;
    const name = 'Use this buddy icon for this account:';
    const gtk2 = await clickBehind(pidgin.pid!, dialogId, 'Add Account', front, name);
    assert.notEqual(gtk2.before, `check box ${name}`, 'pyatspi: the focus was elsewhere before the click');
    assert.deepEqual(gtk2.after, [`check box ${name}`], 'pyatspi: the check box has the dialog\'s focus after the click, the premise');
    const said = (gtk2.clicked.structured.evidence as string[]).find((line) => line.startsWith('focus moved: '));
    assert.ok(said, `the result says the focus moved: ${gtk2.clicked.body}`);
    assert.match(said, new RegExp(`\\[e${gtk2.box.index}\\] checkbox .*keyboard focus of window ${dialogId}, which stays inactive`));

    const fixture = await desktop.launchFixture('gtk3', { title: 'CUP Focus Contrast' });
    const gtk3 = await clickBehind(fixture.window.pid, fixture.window.id, 'CUP Focus Contrast', front, 'Enable feature');
    assert.deepEqual(gtk3.after, [gtk3.before], 'pyatspi: GTK 3\'s click left the focus where it was');
    assert.ok(!(gtk3.clicked.structured.evidence as string[]).some((line) => line.startsWith('focus moved: ')), gtk3.clicked.body ?? '');
    fixture.process.kill('SIGKILL');
    pidgin.kill('SIGKILL');
  });
  /**
   * Pyatspi on the Preferences window's table cell named `cell`: its SHOWING and box, its table's, and what the window's
   * hit test finds at the cell's centre.
   */
  function cellTruth(pid: number, cell: string): { showing: boolean; box: number[]; tableShowing: boolean; tableBox: number[]; atCentre: string } {
    const script = [
      'import json, pyatspi',
      'found = []',
      'def walk(node, depth=0):',
      '    if node is None or depth > 60 or found: return',
      `    if node.getRoleName() == "table cell" and node.name == ${JSON.stringify(cell)}: found.append(node); return`,
      '    for child in node: walk(child, depth + 1)',
      'def box(node):',
      '    e = node.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)',
      '    return [e.x, e.y, e.width, e.height]',
      'for app in pyatspi.Registry.getDesktop(0):',
      `    if app.get_process_id() == ${pid}:`,
      '        for window in app:',
      '            if window.name == "Preferences": walk(window); top = window',
      'node = found[0]',
      'table = node.parent',
      'x, y, w, h = box(node)',
      'hit = top.queryComponent().getAccessibleAtPoint(x + w // 2, y + h // 2, pyatspi.DESKTOP_COORDS)',
      'while hit is not None:',
      '    deeper = hit.queryComponent().getAccessibleAtPoint(x + w // 2, y + h // 2, pyatspi.DESKTOP_COORDS) if hit.childCount else None',
      '    if deeper is None or deeper == hit: break',
      '    hit = deeper',
      'print(json.dumps({"showing": node.getState().contains(pyatspi.STATE_SHOWING), "box": box(node), "tableShowing": table.getState().contains(pyatspi.STATE_SHOWING), "tableBox": box(table), "atCentre": (hit.getRoleName() + " " + hit.name) if hit is not None else ""}))',
    ].join('\n');
    const run = spawnSync('/usr/bin/python3', ['-c', script], { env: desktop.env(), encoding: 'utf8', timeout: 30_000 });
    assert.equal(run.status, 0, `pyatspi oracle: ${run.stderr}`);
    return JSON.parse(run.stdout) as { showing: boolean; box: number[]; tableShowing: boolean; tableBox: number[]; atCentre: string };
  }

  test('a GTK 2 notebook: a click on a page tab switches pages without saying it only selected the tab, and the cells of the page switched away are not on screen', async () => {
    const { process: pidgin } = await desktop.launch('pidgin', ['-c', profile], 'Accounts', 30_000, { GTK_MODULES: 'gail:atk-bridge' });
    try {
      const list = ((await callOk(context, 'wait_for', { pid: pidgin.pid, window_title: 'Buddy List', timeout_ms: 20_000 })).structured.windows as { window_id: number }[])[0]!.window_id;
      const opened = await callOk(context, 'invoke_menu', { pid: pidgin.pid, window_id: list, path: ['Tools', 'Preferences'] });
      const preferences = (opened.structured.new_windows as { window_id: number; title: string }[] | undefined)?.find((window) => window.title === 'Preferences');
      assert.ok(preferences, opened.body ?? opened.summary);
      const tab = async (name: string) => {
        const read = await callOk(context, 'get_window_state', { pid: pidgin.pid, window_id: preferences.window_id, include_screenshot: false });
        const found = (read.structured.elements as Element[]).find((element) => element.role === 'tab' && element.name === name);
        assert.ok(found, `Preferences has a ${name} tab`);
        return found;
      };
      const sounds = await callOk(context, 'click', { pid: pidgin.pid, window_id: preferences.window_id, element_index: (await tab('Sounds')).index });
      assert.equal(sounds.structured.effect, 'confirmed', sounds.body ?? sounds.summary);
      // The tab list's selection is the page shown: the click did all a person's click does.
      assert.ok(!(sounds.structured.evidence as string[]).some((line) => /only selected/.test(line)), sounds.body ?? sounds.summary);
      assert.ok(cellTruth(pidgin.pid!, 'Buddy logs in').tableShowing, 'pyatspi: the Sounds page\'s table shows');
      await callOk(context, 'click', { pid: pidgin.pid, window_id: preferences.window_id, element_index: (await tab('Interface')).index });
      const truth = cellTruth(pidgin.pid!, 'Buddy logs in');
      // The premise: GAIL keeps the cell SHOWING at its old box, while its table lies nowhere, not showing, and the
      // window's hit test finds the Interface page's widgets there.
      assert.ok(truth.showing && truth.box[0]! > 0, `pyatspi: the cell keeps SHOWING and its box: ${JSON.stringify(truth)}`);
      assert.ok(!truth.tableShowing && truth.tableBox[0]! < -1_000_000, `pyatspi: its table is placed nowhere and not showing: ${JSON.stringify(truth)}`);
      assert.doesNotMatch(truth.atCentre, /Buddy logs in/, 'pyatspi: the hit test at the cell finds something else');
      const read = await callOk(context, 'get_window_state', { pid: pidgin.pid, window_id: preferences.window_id, include_screenshot: false, detail: 'full' });
      const cell = (read.structured.elements as Element[]).find((element) => element.role === 'cell' && element.name === 'Buddy logs in');
      assert.ok(cell, 'the full reading lists the hidden page\'s cell');
      assert.ok(cell.states.includes('offscreen'), `the cell is out of view: ${JSON.stringify(cell)}`);
      assert.doesNotMatch(read.body ?? '', /cel "Buddy logs in" \d/, 'the compact view shows the hidden cell at no place');
    } finally {
      pidgin.kill('SIGKILL');
    }
  });
});
