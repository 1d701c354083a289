import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { LinuxToolContext } from '../../src/server/session.js';
import { fixtureApps, TestDesktop } from '../helpers/desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { findAllRaw, unreadInShown } from '../helpers/raw-tree.js';
import { ATSPI_ROLE } from '../../src/cup/atspi/constants.js';
import { callOk, failsWith, testContext, type Element, type WindowState } from '../helpers/tools.js';

type Diff = { added: { role: string; name: string }[]; removed: { role: string; name: string }[] };

/**
 * Rules for Java's ATK bridge (libatk-wrapper-java), on a small Swing form launched with launch_app (which loads the
 * bridge): a JLabel's new text, announced only as visible data changed, is a click's evidence; a table's cells, which
 * the bridge makes anew on every read and which say LABEL, are cells, keep their indices and stay out of an action's diff; of a JTabbedPane's
 * tabs, which copy their tab bar's states, only the current one reads focused; a JCheckBoxMenuItem, which says CHECK_BOX,
 * is its menu's item; an open menu, which says CHECKED, is not checked; and a JComboBox's choices, in a list inside a
 * scroll pane inside its popup, are counted and chosen by set_value; a tab page's scroll pane, which the bridge places
 * from its page tab instead of its tab bar, is placed where it shows and what it holds read; a JTree's nodes, which
 * say LABEL, are its tree items at their levels, expanded by a background key and selected alone; a modal JDialog, which only its accessible dialog
 * calls modal, refuses actions on the window under it, and an owner-less one on every frame of the app. Judged by pyatspi (and xprop).
 */
describe('Java Swing apps through the ATK bridge', () => {
  const title = 'CUP Swing Forms';
  let desktop: TestDesktop;
  let context: LinuxToolContext;
  let oracle: PyatspiOracle;
  let pid: number;
  let windowId: number;

  before(async () => {
    desktop = await TestDesktop.start();
    context = testContext();
    oracle = new PyatspiOracle(desktop.env());
    const launched = await callOk(context, 'launch_app', { name: 'java', additional_arguments: [join(fixtureApps, 'SwingForms.java'), title], creates_new_application_instance: true });
    pid = launched.structured.pid as number;
    windowId = (launched.structured.windows as { window_id: number }[])[0]!.window_id;
  });

  after(async () => {
    if (pid) process.kill(pid, 'SIGKILL');
    oracle?.close();
    await desktop?.stop();
  });

  const read = async () => (await callOk(context, 'get_window_state', { window_id: windowId, include_screenshot: false })).structured as unknown as WindowState;
  const cellNames = ['Apples', '3', 'Pears', '5', 'Plums', '7'];

  /** What pyatspi prints running `lines` with `app`, the fixture's application object. */
  function pyatspiPrints(lines: string[]): string {
    const script = ['import pyatspi', `app = [a for a in pyatspi.Registry.getDesktop(0) if a and a.get_process_id() == ${pid}][0]`, ...lines].join('\n');
    return spawnSync('/usr/bin/python3', ['-c', script], { env: desktop.env(), encoding: 'utf8', timeout: 15_000 }).stdout.trim();
  }

  /** The paths pyatspi is given for the table's cells on two reads one after the other. */
  function cellPathsTwice(): string[][] {
    return pyatspiPrints([
      'table = pyatspi.findDescendant(app, lambda o: o.getRoleName() == "table")',
      'for _ in range(2): print(" ".join(table.getChildAtIndex(i).path for i in range(table.childCount)))',
    ]).split('\n').map((line) => line.split(' '));
  }

  test('a click whose effect is a label\'s new text is confirmed by it, as pyatspi reads the label', async () => {
    await callOk(context, 'get_window_state', { window_id: windowId, include_screenshot: false });
    await callOk(context, 'set_value', { window_id: windowId, selector: "role=textbox name='Name:'", value: 'Grace' });
    const clicked = await callOk(context, 'click', { window_id: windowId, selector: 'role=button name=Apply' });
    assert.ok((await oracle.find(pid, title, 'label', 'Status: applied Grace')).found, 'pyatspi: the status label reads the new text');
    // Swing announces the label's new text only as visible-data-changed: the click read "delivered, no effect seen"
    // with advice to click again in the foreground, while its own diff showed the label renamed.
    assert.equal(clicked.structured.effect, 'confirmed', clicked.summary);
    assert.ok((clicked.structured.evidence as string[]).some((line) => line.includes('name is now "Status: applied Grace"')), clicked.summary);
  });

  test('a table\'s cells, made anew on every read, are its cells, keep their indices and are no change in a diff', async () => {
    const [first, second] = cellPathsTwice();
    assert.equal(first!.length, cellNames.length, 'pyatspi: the table has its six cells');
    assert.ok(first!.every((path, i) => path !== second![i]), `pyatspi: each read of a cell is a new object (the premise): ${first} / ${second}`);
    const cellIndex = (state: WindowState) => new Map(state.elements.filter((element: Element) => cellNames.includes(element.name)).map((element) => [element.name, element.index]));
    const reading = await read();
    const before = cellIndex(reading);
    assert.equal(before.size, cellNames.length, 'the reading holds every cell');
    // Swing's cells take their renderer's role: pyatspi reads labels, and they read as text, not as the table's cells.
    assert.deepEqual(pyatspiPrints(['table = pyatspi.findDescendant(app, lambda o: o.getRoleName() == "table")', 'print(set(c.getRoleName() for c in table))']), "{'label'}");
    assert.deepEqual([...new Set(reading.elements.filter((element) => cellNames.includes(element.name)).map((element) => element.role))], ['cell']);
    await callOk(context, 'set_value', { window_id: windowId, selector: "role=textbox name='Name:'", value: 'Linus' });
    // diff: true, as a window read slowly (over 700 ms on a loaded machine: CI) makes actions skip their diff for a while.
    const clicked = await callOk(context, 'click', { window_id: windowId, selector: 'role=button name=Apply', diff: true });
    // The cells and the combo box's choices were listed as removed and added again on every action.
    const diff = clicked.structured.diff as Diff;
    const churn = [...diff.added, ...diff.removed].filter((node) => [...cellNames, 'Red', 'Green', 'Blue'].includes(node.name));
    assert.deepEqual(churn, [], clicked.summary);
    assert.deepEqual(new Map([...cellIndex(await read())]), before, 'each cell keeps its index');
  });

  test('of a focused tab bar\'s tabs, only the current one reads focused', async () => {
    await callOk(context, 'bring_to_front', { window_id: windowId });
    const tabStates = async () => Promise.all(['Form', 'More'].map((name) => oracle.find(pid, title, 'page tab', name)));
    for (const deadline = Date.now() + 5000; !(await tabStates()).every((tab) => tab.states?.includes('focused')) && Date.now() < deadline; ) await sleep(100);
    // Java's page tab copies its tab bar's state set, FOCUSED included (the premise).
    assert.ok((await tabStates()).every((tab) => tab.states?.includes('focused')), 'pyatspi: both tabs say focused');
    assert.ok((await oracle.find(pid, title, 'page tab list', 'Form')).states?.includes('focused'), 'pyatspi: the tab bar has the focus');
    const tabs = (await read()).elements.filter((element) => element.role === 'tab');
    assert.deepEqual(tabs.map((tab) => [tab.name, tab.states.includes('focused')]), [['Form', true], ['More', false], ['Tree', false], ['List', false]]);
  });

  test('a read of what is shown leaves a closed menu\'s items and a hidden tab page\'s content unread, as pyatspi shows none of them, and numbers elements as a whole read does', async (t) => {
    // Swing keeps a closed JMenu's items VISIBLE and clears only SHOWING: every read of what is shown read them all
    // (Freeplane's closed menus hold 540 items, a third of its window's objects).
    const items = pyatspiPrints([
      'menu = pyatspi.findDescendant(app, lambda o: o.getRoleName() == "menu" and o.name == "File")',
      'print(menu.getState().contains(pyatspi.STATE_SHOWING))',
      'for item in menu: print(item.getState().contains(pyatspi.STATE_VISIBLE), item.getState().contains(pyatspi.STATE_SHOWING))',
    ]).split('\n');
    assert.deepEqual(items, ['True', 'True False', 'True False'], 'pyatspi: File shows, its two items are visible, not showing (the premise)');
    // The More page is hidden (not visible) in a visible tab; its check box keeps its own VISIBLE.
    const page = pyatspiPrints([
      'box = pyatspi.findDescendant(app, lambda o: o.getRoleName() == "check box" and o.name == "Keep history")',
      'print(box.parent.getState().contains(pyatspi.STATE_VISIBLE), box.parent.parent.getState().contains(pyatspi.STATE_VISIBLE), box.getState().contains(pyatspi.STATE_SHOWING))',
    ]);
    assert.equal(page, 'False True False', 'pyatspi: Keep history\'s page is hidden, its tab visible (the premise)');
    // Each in a session of its own: a session keeps the numbers its earlier readings gave.
    const [first, second] = [testContext(), testContext()];
    t.after(() => Promise.all([first.desktop.close(), second.desktop.close()]));
    const compact = await callOk(first, 'get_window_state', { window_id: windowId, include_screenshot: false });
    const window = (await context.desktop.windows()).find((candidate) => candidate.id === windowId)!;
    const limits = { maxNodes: 5000, maxDepth: 1000, budgetMs: 8000, fresh: true };
    const shown = await context.desktop.readWindowTree(window, { ...limits, visibleOnly: true });
    const whole = await context.desktop.readWindowTree(window, limits);
    const files = findAllRaw(shown.read?.root, (node) => node.role === ATSPI_ROLE.MENU && node.name === 'File');
    assert.deepEqual(files.map((node) => [node.children.length, node.closedMenuItems]), [[0, 2]], 'File is read without its items, which it counts');
    const unread = unreadInShown(whole.read!.root!, shown.read?.root);
    // (Objects the bridge makes anew on each read, the table's cells, match nothing by path: not compared here.)
    // File's two items and Help's About..., Notice... and Second Window....
    assert.equal(unread['closed menu'], 5, JSON.stringify(unread));
    assert.ok((unread.hidden ?? 0) >= 2, `the hidden page and what it holds: ${JSON.stringify(unread)}`);
    assert.deepEqual(findAllRaw(shown.read?.root, (node) => node.name === 'Keep history'), [], 'the hidden page\'s check box is not read');
    assert.match(String(compact.body), /mi "File"[^\n]*\n\s*# 2 more items — open the menu to see/, compact.body);
    // The table and the status label come after the tab pane: numbered alike in both readings.
    const full = (await callOk(second, 'get_window_state', { window_id: windowId, include_screenshot: false, detail: 'full' })).structured as unknown as WindowState;
    const numbered = new Map(full.elements.map((element) => [element.index, `${element.role} ${element.name}`]));
    const elements = (compact.structured as unknown as WindowState).elements;
    assert.ok(elements.some((element) => element.name === 'Status: ready' || element.name.startsWith('Status:')), 'the status label is shown');
    assert.deepEqual(elements.filter((element) => numbered.get(element.index) !== `${element.role} ${element.name}`), [], 'every shown element has its number in a whole read');
  });

  test('a check box in a menu is its check item, which invoke_menu chooses, and an open menu is not checked', async () => {
    const chosen = await callOk(context, 'invoke_menu', { window_id: windowId, path: ['File', 'Word Wrap'] });
    assert.equal(chosen.structured.effect, 'confirmed', chosen.summary);
    const item = await oracle.find(pid, title, 'check box', 'Word Wrap');
    assert.ok(item.states?.includes('checked'), 'pyatspi: Word Wrap, a check box, is checked');
    assert.ok((await oracle.find(pid, title, 'label', 'Status: wrap true')).found, 'pyatspi: the app heard it');
    await callOk(context, 'click', { window_id: windowId, selector: 'role=menuitem name=File' });
    try {
      for (const deadline = Date.now() + 5000; !(await oracle.find(pid, title, 'menu', 'File')).states?.includes('checked') && Date.now() < deadline; ) await sleep(100);
      assert.ok((await oracle.find(pid, title, 'menu', 'File')).states?.includes('checked'), 'pyatspi: the open File menu says checked (the premise)');
      const state = await callOk(context, 'get_window_state', { window_id: windowId, include_screenshot: false });
      const elements = (state.structured as unknown as WindowState).elements;
      // The compact view of the open menu left the check box item out, and read the menu {sel,chk}.
      assert.match(String(state.body), /mic "Word Wrap"[^\n]*\{[^}]*chk/, state.body);
      assert.deepEqual(elements.filter((element) => element.name === 'Word Wrap').map((element) => element.role), ['menuitemcheckbox']);
      const menu = elements.find((element) => element.name === 'File')!;
      assert.ok(!menu.states.includes('checked'), `File: ${menu.states}`);
    } finally {
      await oracle.act(pid, title, 'menu', 'File');
    }
  });

  test('a combo box\'s choices in a scrolled list are counted, and set_value chooses one', async () => {
    const choices = Number(pyatspiPrints([
      'combo = pyatspi.findDescendant(app, lambda o: o.getRoleName() == "combo box")',
      'print(pyatspi.findDescendant(combo, lambda o: o.getRoleName() == "list").childCount)',
    ]));
    assert.equal(choices, 3, 'pyatspi: the combo box\'s list holds its three choices');
    const state = await callOk(context, 'get_window_state', { window_id: windowId, include_screenshot: false });
    // Counted as the popup's scroll pane's children (its viewport and scroll bar), every Java combo box read "2 more items".
    assert.match(String(state.body), /cmb "Red"[^\n]*\n\s*# 3 more items/, state.body);
    // The options lay deeper than set_value looked, and it said the combo box exposes none until opened.
    const combo = (state.structured as unknown as WindowState).elements.find((element) => element.role === 'combobox')!;
    const set = await callOk(context, 'set_value', { window_id: windowId, element_index: combo.index, value: 'Blue' });
    assert.equal(set.structured.effect, 'confirmed', set.summary);
    assert.ok((await oracle.find(pid, title, 'combo box', 'Blue')).found, 'pyatspi: the combo box shows Blue');
  });

  test('a JList takes several items selected by set_value, and a click selects one alone, as a plain click does', async () => {
    try {
      await callOk(context, 'click', { window_id: windowId, selector: 'role=tab name=List' });
      // The bridge gives a list's items as labels (transient, made anew on every read), which we read as list items.
      const selected = async () => {
        const states = await Promise.all(['Oak', 'Elm', 'Ash'].map(async (name) => (await oracle.find(pid, title, 'label', name)).states ?? []));
        return ['Oak', 'Elm', 'Ash'].filter((_, i) => states[i]!.includes('selected'));
      };
      const list = (await callOk(context, 'find_elements', { window_id: windowId, selector: 'role=list multiselectable' })).structured as { matches: { index: number }[] };
      assert.equal(list.matches.length, 1, JSON.stringify(list));
      const both = await callOk(context, 'set_value', { window_id: windowId, element_index: list.matches[0]!.index, value: 'Oak, Ash' });
      assert.equal(both.structured.effect, 'confirmed', both.summary);
      assert.deepEqual(await selected(), ['Oak', 'Ash'], 'pyatspi: Oak and Ash are selected');
      const one = await callOk(context, 'click', { window_id: windowId, selector: 'role=listitem name=Elm' });
      assert.equal(one.structured.effect, 'confirmed', one.summary);
      assert.deepEqual(await selected(), ['Elm'], 'pyatspi: Elm alone is selected');
    } finally {
      await callOk(context, 'click', { window_id: windowId, selector: 'role=tab name=Form' });
    }
  });

  test('a tab page\'s scroll pane, which the bridge places from its tab, is where it shows, and its tree and list are read', async () => {
    type Box = { x: number; y: number; w: number; h: number };
    try {
      for (const [tab, first] of [['Tree', 'JTree'], ['List', 'Oak']] as const) {
        await callOk(context, 'click', { window_id: windowId, selector: `role=tab name=${tab}` });
        // pyatspi: the page tab list, the tab, the tab's scroll pane and that pane's viewport.
        const [bar, page, pane, viewport] = pyatspiPrints([
          `tab = pyatspi.findDescendant(app, lambda o: o.getRoleName() == "page tab" and o.name == "${tab}")`,
          'for o in (tab.parent, tab, tab[0], tab[0][0]):',
          '  e = o.queryComponent().getExtents(pyatspi.DESKTOP_COORDS)',
          '  print(e.x, e.y, e.width, e.height)',
        ]).split('\n').map((line) => { const [x, y, w, h] = line.split(' ').map(Number); return { x: x!, y: y!, w: w!, h: h! }; }) as [Box, Box, Box, Box];
        const contains = (outer: Box, inner: Box) => outer.x <= inner.x && outer.y <= inner.y && outer.x + outer.w >= inner.x + inner.w && outer.y + outer.h >= inner.y + inner.h;
        // The premise: the bridge puts the scroll pane off its own viewport, past the tab bar's right edge, by the
        // tab's corner within the tab bar; moved back by it, the pane holds its viewport.
        assert.ok(!contains(pane, viewport) && pane.x + pane.w > bar.x + bar.w, `pyatspi: ${tab}'s pane ${JSON.stringify(pane)} is off its viewport ${JSON.stringify(viewport)}`);
        const placed = { x: pane.x - (page.x - bar.x), y: pane.y - (page.y - bar.y), w: pane.w, h: pane.h };
        assert.ok(contains(placed, viewport) && contains(bar, placed), `pyatspi: moved back, ${JSON.stringify(placed)} holds the viewport ${JSON.stringify(viewport)}`);
        const state = await callOk(context, 'get_window_state', { window_id: windowId, include_screenshot: false });
        const elements = (state.structured as unknown as WindowState).elements;
        // It read the pane at x=118 and its tree as scrolled away: "# 1 more item — scroll left to see".
        assert.ok(elements.some((element) => element.role === 'group' && JSON.stringify(element.bounds) === JSON.stringify(placed)), `${tab}: the pane at ${JSON.stringify(placed)}\n${state.body}`);
        const item = elements.find((element) => element.name === first);
        assert.ok(item && !item.states.includes('offscreen') && !item.states.includes('hidden'), `${tab}: ${first} is read, on screen\n${state.body}`);
        assert.doesNotMatch(String(state.body), /scroll left/, String(state.body));
      }
    } finally {
      await callOk(context, 'click', { window_id: windowId, selector: 'role=tab name=Form' });
    }
  });

  test('a JTree\'s nodes, which the bridge gives as labels, are tree items at their levels, expanded by a background key and selected alone by a click', async () => {
    const status = () => pyatspiPrints(['print(pyatspi.findDescendant(app, lambda o: o.getRoleName() == "label" and o.name.startswith("Status:")).name)']);
    /** pyatspi: each node under the tree, as "name level states", with its action names. */
    const nodes = () => pyatspiPrints([
      'tree = pyatspi.findDescendant(app, lambda o: o.getRoleName() == "tree")',
      'def walk(node, level):',
      '  for child in node:',
      '    s = child.getState()',
      '    marks = [n for n, st in (("expandable", pyatspi.STATE_EXPANDABLE), ("expanded", pyatspi.STATE_EXPANDED), ("collapsed", pyatspi.STATE_COLLAPSED), ("selected", pyatspi.STATE_SELECTED), ("selectable", pyatspi.STATE_SELECTABLE)) if s.contains(st)]',
      '    if s.contains(pyatspi.STATE_VISIBLE): print(child.getRoleName(), child.name, level, ",".join(marks), ",".join(child.queryAction().getName(i) for i in range(child.queryAction().nActions)))',
      '    if s.contains(pyatspi.STATE_EXPANDED): walk(child, level + 1)',
      'walk(tree, 1)',
    ]).split('\n');
    await callOk(context, 'click', { window_id: windowId, selector: 'role=tab name=Tree' });
    try {
      // The premise: Swing's nodes are labels, nested as the tree is, never SELECTABLE, each with one action, toggleexpand.
      assert.deepEqual(nodes(), [
        'label JTree 1 expandable,expanded toggleexpand',
        'label colors 2 expandable,collapsed toggleexpand',
        'label sports 2 expandable,collapsed toggleexpand',
        'label food 2 expandable,collapsed toggleexpand',
      ]);
      const items = async () => {
        const state = await callOk(context, 'get_window_state', { window_id: windowId, include_screenshot: false });
        return { body: String(state.body), elements: (state.structured as unknown as WindowState).elements };
      };
      // They read as text ("txt \"colors\""): role=treeitem found none, and nothing told their levels or which were open.
      let read = await items();
      const treeItems = (elements: Element[]) => elements.filter((element) => element.role === 'treeitem').map((element) => `${element.name} ${element.states.filter((state) => ['expanded', 'collapsed', 'selected'].includes(state)).join(',')}`);
      assert.deepEqual(treeItems(read.elements), ['JTree expanded', 'colors collapsed', 'sports collapsed', 'food collapsed'], read.body);
      assert.match(read.body, /"JTree"[^\n]*L1/, read.body);
      assert.match(read.body, /"colors"[^\n]*L2/, read.body);
      const colors = read.elements.find((element) => element.name === 'colors')!;
      assert.ok(colors.actions.includes('expand'), `colors: ${colors.actions}`);
      // Right expands a collapsed node in the background, by its toggleexpand (Swing's tree heard nothing before).
      const expanded = await callOk(context, 'press_key', { window_id: windowId, element_index: colors.index, key: 'right' });
      assert.equal(status(), 'Status: tree expanded [JTree, colors]', expanded.summary);
      assert.ok(nodes().includes('label colors 2 expandable,expanded toggleexpand'), 'pyatspi: colors is expanded');
      read = await items();
      // Its leaves, which Swing also calls collapsed, are neither expanded nor collapsed, a level below it.
      assert.deepEqual(treeItems(read.elements).slice(1, 3), ['colors expanded', 'blue '], read.body);
      assert.match(read.body, /"blue"[^\n]*L3/, read.body);
      // A click selects a node alone, as a person's does: Swing's node Selection only adds to what is selected elsewhere.
      const root = read.elements.find((element) => element.name === 'JTree')!;
      await callOk(context, 'click', { window_id: windowId, element_index: root.index });
      assert.equal(status(), 'Status: tree selected [[JTree]]');
      const blue = read.elements.find((element) => element.name === 'blue')!;
      const clicked = await callOk(context, 'click', { window_id: windowId, element_index: blue.index });
      assert.equal(clicked.structured.effect, 'confirmed', clicked.summary);
      assert.equal(status(), 'Status: tree selected [[JTree, colors, blue]]', 'the app: blue alone is selected');
      assert.deepEqual(nodes().filter((line) => line.split(' ')[3]?.includes('selected')).map((line) => line.split(' ')[1]), ['blue'], 'pyatspi: blue alone says selected');
      assert.deepEqual(treeItems((await items()).elements).filter((line) => line.includes('selected')), ['blue selected']);
      // Left collapses it again.
      const collapsed = await callOk(context, 'press_key', { window_id: windowId, element_index: colors.index, key: 'left' });
      // Swing moves the selection from blue, hidden now, to colors, and tells that last.
      assert.equal(status(), 'Status: tree selected [[JTree, colors]]', collapsed.summary);
      assert.ok(nodes().includes('label colors 2 expandable,collapsed,selected toggleexpand'), `pyatspi: colors is collapsed and selected\n${nodes().join('\n')}`);
    } finally {
      await callOk(context, 'click', { window_id: windowId, selector: 'role=tab name=Form' });
    }
  });

  test('a modal dialog that only its accessible dialog calls modal refuses clicks and menus on the window under it', async () => {
    const opened = await callOk(context, 'invoke_menu', { window_id: windowId, path: ['Help', 'About...'] });
    const dialog = (opened.structured.new_windows as { window_id: number; title: string }[] | undefined)?.find((window) => window.title === 'About Swing Forms');
    assert.ok(dialog, opened.summary);
    try {
      // The premise: Java tells the window manager only that it is a dialog of the form, never that it is modal;
      // its accessible dialog says STATE_MODAL.
      const props = spawnSync('xprop', ['-id', String(dialog.window_id), '_NET_WM_STATE', 'WM_TRANSIENT_FOR'], { env: desktop.env(), encoding: 'utf8' }).stdout;
      assert.doesNotMatch(props, /_NET_WM_STATE_MODAL/, `xprop: no modal state\n${props}`);
      assert.match(props, new RegExp(`WM_TRANSIENT_FOR\\(WINDOW\\): window id # 0x${windowId.toString(16)}\\b`), props);
      assert.ok((await oracle.find(pid, 'About Swing Forms', 'dialog', 'About Swing Forms')).states?.includes('modal'), 'pyatspi: the dialog says modal');
      const status = () => pyatspiPrints(['print(pyatspi.findDescendant(app, lambda o: o.getRoleName() == "label" and o.name.startswith("Status:")).name)']);
      const before = status();
      // Through accessibility both would run under the dialog: Swing's doAction clicks a button whatever the dialog.
      const click = await failsWith(context, 'click', { window_id: windowId, selector: 'role=button name=Apply' }, 'blocked_by_modal_dialog');
      assert.match(click.summary, new RegExp(`waits on its modal dialog ${dialog.window_id} "About Swing Forms"`), click.summary);
      await failsWith(context, 'invoke_menu', { window_id: windowId, path: ['File', 'Word Wrap'] }, 'blocked_by_modal_dialog');
      await sleep(300);
      assert.equal(status(), before, 'pyatspi: the form heard neither');
    } finally {
      await callOk(context, 'click', { window_id: dialog.window_id, selector: 'role=button name=OK' });
    }
    // pyatspi finds no window of that title once the dialog is gone.
    const dialogUp = () => oracle.find(pid, 'About Swing Forms', 'dialog', 'About Swing Forms').then((node) => node.found !== false, () => false);
    for (const deadline = Date.now() + 5000; (await dialogUp()) && Date.now() < deadline; ) await sleep(100);
    assert.equal(await dialogUp(), false, 'pyatspi: the dialog closed');
    const applied = await callOk(context, 'click', { window_id: windowId, selector: 'role=button name=Apply' });
    assert.equal(applied.structured.effect, 'confirmed', `once the dialog is closed the form takes clicks again: ${applied.summary}`);
  });

  test('a modal message box of no window, with two frames up, refuses clicks on both frames, though X11 makes it a dialog of one', async () => {
    const newWindow = async (path: string[], title: string) => {
      const opened = await callOk(context, 'invoke_menu', { window_id: windowId, path });
      const window = (opened.structured.new_windows as { window_id: number; title: string }[] | undefined)?.find((each) => each.title === title);
      assert.ok(window, opened.summary);
      return window.window_id;
    };
    const transientFor = (id: number) => spawnSync('xprop', ['-id', String(id), 'WM_TRANSIENT_FOR'], { env: desktop.env(), encoding: 'utf8' }).stdout;
    const second = await newWindow(['Help', 'Second Window...'], 'Swing Second');
    try {
      const notice = await newWindow(['Help', 'Notice...'], 'Swing Notice');
      try {
        // The premise: Java names one blocked window as the message box's owner and chains the other to it.
        assert.match(transientFor(notice), new RegExp(`window id # 0x${second.toString(16)}\\b`), `xprop: ${transientFor(notice)}`);
        assert.match(transientFor(second), new RegExp(`window id # 0x${windowId.toString(16)}\\b`), `xprop: ${transientFor(second)}`);
        assert.ok((await oracle.find(pid, 'Swing Notice', 'dialog', 'Swing Notice')).states?.includes('modal'), 'pyatspi: the message box says modal');
        const status = () => pyatspiPrints(['print(pyatspi.findDescendant(app, lambda o: o.getRoleName() == "label" and o.name.startswith("Status:")).name)']);
        const before = status();
        // The first frame, which the message box is no dialog of on X11, took the click under it.
        const click = await failsWith(context, 'click', { window_id: windowId, selector: 'role=button name=Apply' }, 'blocked_by_modal_dialog');
        assert.match(click.summary, new RegExp(`waits on its modal dialog ${notice} "Swing Notice"`), click.summary);
        await failsWith(context, 'click', { window_id: second, selector: "role=button name='Close Window'" }, 'blocked_by_modal_dialog');
        await sleep(300);
        assert.equal(status(), before, 'pyatspi: the form heard nothing');
      } finally {
        await callOk(context, 'click', { window_id: notice, selector: 'role=button name=OK' });
      }
      for (const deadline = Date.now() + 5000; !(await oracle.find(pid, title, 'label', 'Status: notice closed')).found && Date.now() < deadline; ) await sleep(100);
      assert.ok((await oracle.find(pid, title, 'label', 'Status: notice closed')).found, 'the app: the message box was answered');
    } finally {
      await callOk(context, 'click', { window_id: second, selector: "role=button name='Close Window'" });
    }
  });

  test('foreground typing into a Swing field of an inactive window, which moves its focus itself, reaches the field', async () => {
    // Swing's frame says in WM_HINTS that it takes no focus set on it (input false): it moves the focus to a window of
    // its own when the window manager asks it to, so its activation is left to the window manager, not given directly
    // as other windows' is before keys (ICCCM's globally active model).
    const hints = spawnSync('xprop', ['-id', String(windowId), 'WM_HINTS'], { env: desktop.env(), encoding: 'utf8' }).stdout;
    assert.match(hints, /Client accepts input or input focus: False/, `xprop: ${hints}`);
    const other = await desktop.launchFixture('gtk3', { title: 'Active Elsewhere' });
    try {
      await callOk(context, 'set_value', { window_id: windowId, selector: "role=textbox name='Name:'", value: '' });
      const active = spawnSync('xdotool', ['getactivewindow'], { env: desktop.env(), encoding: 'utf8' }).stdout.trim();
      assert.equal(Number(active), other.window.id, 'xdotool: the other app\'s window is the active one');
      const typed = await callOk(context, 'type_text', { window_id: windowId, selector: "role=textbox name='Name:'", text: 'Hopper', delivery_mode: 'foreground' });
      assert.equal(typed.structured.effect, 'confirmed', typed.summary);
      assert.equal((await oracle.find(pid, title, 'text', 'Name:')).text, 'Hopper', 'pyatspi: the field holds the typed text');
    } finally {
      other.process.kill('SIGKILL');
    }
  });
});
