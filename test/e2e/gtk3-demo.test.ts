import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ToolContext } from '../../src/tools/context.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { TestDesktop } from '../helpers/desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { accessibleWindowState, callOk, failsWith, testContext, type Element } from '../helpers/tools.js';

// gtk3-demo's list of demos is a GtkTreeView: its rows are table cells whose only "activate" runs the
// demo, which is what a double click does. A click selects the row (and shows that demo's source).
describe('gtk3-demo: a real GTK3 app from Debian, its tree view of demos and a demo window', () => {
  let desktop: TestDesktop;
  let context: ToolContext;
  let oracle: PyatspiOracle;
  let demo: ClientWindow;

  before(async () => {
    desktop = await TestDesktop.start();
    context = testContext();
    oracle = new PyatspiOracle(desktop.env());
    demo = (await desktop.launch('gtk3-demo', [], 'Application Class')).window;
  });

  after(async () => {
    oracle?.close();
    context?.desktop.close();
    await desktop?.stop();
  });

  /**
   * The demo list's row for a demo (the outer cell; GTK3 nests a cell of the same name inside it), found by selector:
   * a row below the list's view is counted by the compact view, not listed ("Tree View" is).
   */
  async function row(name: string): Promise<Element> {
    const found = await callOk(context, 'find_elements', { window_id: demo.id, selector: `role=cell name=${JSON.stringify(name)}` });
    const cell = (found.structured.matches as Element[]).find((element) => element.actions.includes('select'));
    assert.ok(cell, `no selectable cell "${name}": ${found.summary}`);
    return cell;
  }

  // The window's title follows the selected demo, so the oracle finds the window by pid alone.
  const selectedInOracle = async (name: string) => (await oracle.find(demo.pid, '', 'table cell', name)).states?.includes('selected');

  test('a background click on a row selects it, by element and by pixels, and runs nothing', async () => {
    const assistant = await row('Assistant');
    assert.equal(await selectedInOracle('Assistant'), false);
    const clicked = await callOk(context, 'click', { window_id: demo.id, element_index: assistant.index });
    assert.equal(clicked.structured.effect, 'confirmed');
    assert.equal(clicked.structured.path, 'x11_atspi');
    assert.equal(await selectedInOracle('Assistant'), true);

    const builder = await row('Builder');
    const box = builder.bounds!;
    const byPixels = await callOk(context, 'click', { window_id: demo.id, x: box.x - demo.bounds.x + box.w / 2, y: box.y - demo.bounds.y + box.h / 2 });
    assert.equal(byPixels.structured.effect, 'confirmed');
    assert.equal(await selectedInOracle('Builder'), true);
    assert.equal(await selectedInOracle('Assistant'), false);

    const windows = (await callOk(context, 'list_windows', { pid: demo.pid })).structured.windows as unknown[];
    assert.equal(windows.length, 1, 'a click runs no demo');
  });

  test('a background click on a notebook tab switches to it (page tabs have no action; the tab list selects)', async () => {
    const tabs = (await accessibleWindowState(context, demo)).state.elements.filter((element) => element.role === 'tab');
    const source = tabs.find((tab) => tab.name === 'Source')!;
    assert.ok(source && !source.states.includes('selected'), JSON.stringify(tabs));
    assert.equal((await callOk(context, 'click', { window_id: demo.id, element_index: source.index })).structured.effect, 'confirmed');
    assert.ok((await oracle.find(demo.pid, '', 'page tab', 'Source')).states?.includes('selected'));
    const info = tabs.find((tab) => tab.name === 'Info')!;
    await callOk(context, 'click', { window_id: demo.id, element_index: info.index });
    assert.ok((await oracle.find(demo.pid, '', 'page tab', 'Info')).states?.includes('selected'));
  });

  test('Right and Left expand and collapse a row in the background; a leaf row offers no expand', async () => {
    const entry = await row('Entry');
    assert.ok(entry.actions.includes('expand') && entry.states.includes('collapsed'), JSON.stringify(entry));
    assert.ok(!(await row('Builder')).actions.includes('expand'), 'Builder has no child demos');
    const expandedInOracle = async () => (await oracle.find(demo.pid, '', 'table cell', 'Entry')).states?.includes('expanded');

    const opened = await callOk(context, 'press_key', { window_id: demo.id, element_index: entry.index, key: 'Right' });
    assert.equal(opened.structured.effect, 'confirmed');
    assert.equal(await expandedInOracle(), true);
    assert.ok((await accessibleWindowState(context, demo)).state.elements.some((element) => element.name === 'Search Entry'), 'its child rows appear');
    // Right on an expanded row moves to its first child: no accessibility equivalent, so nothing is sent.
    // A bare element_index means the latest snapshot, which the look above replaced.
    const expanded = await row('Entry');
    const again = await callOk(context, 'press_key', { window_id: demo.id, element_index: expanded.index, key: 'Right' });
    assert.equal(again.structured.path, 'none');
    assert.equal(await expandedInOracle(), true);

    const closed = await callOk(context, 'press_key', { window_id: demo.id, element_index: expanded.index, key: 'Left' });
    assert.equal(closed.structured.effect, 'confirmed');
    assert.equal(await expandedInOracle(), false);
  });

  test('a background double click on a row selects it and runs that demo', async () => {
    const assistant = await row('Assistant');
    const result = await callOk(context, 'double_click', { window_id: demo.id, element_index: assistant.index });
    assert.equal(result.structured.effect, 'confirmed');
    assert.equal(await selectedInOracle('Assistant'), true);
    let titles: string[] = [];
    for (const deadline = Date.now() + 5000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 100))) {
      titles = ((await callOk(context, 'list_windows', { pid: demo.pid })).structured.windows as { title: string }[]).map((window) => window.title);
      if (titles.length > 1) break;
    }
    assert.ok(titles.length > 1, `the Assistant demo opened a window: ${JSON.stringify(titles)}`);
    // The demo's window is modal: while it is up the main window takes no input, and an action on it is refused.
    await failsWith(context, 'click', { window_id: demo.id, element_index: assistant.index }, 'blocked_by_modal_dialog');
    await closeDemos();
  });

  /** A window of the demo app other than the main one, titled so, once it is mapped (within 5 s when waiting). */
  async function demoWindow(title: string, waitMs = 5000): Promise<ClientWindow | undefined> {
    for (const deadline = Date.now() + waitMs; ; await new Promise((resolve) => setTimeout(resolve, 100))) {
      const found = (await context.desktop.windows()).find((candidate) => candidate.pid === demo.pid && candidate.id !== demo.id && candidate.title === title);
      if (found || Date.now() >= deadline) return found;
    }
  }

  /**
   * Closes the demo windows that are open (gtk3-demo makes each modal: while one is up the main window takes no input,
   * and actions on it are refused), through the window manager as a person would (alt+F4).
   */
  async function closeDemos(): Promise<void> {
    for (const open of (await context.desktop.windows()).filter((candidate) => candidate.pid === demo.pid && candidate.id !== demo.id)) {
      await callOk(context, 'press_key', { window_id: open.id, key: 'alt+f4', delivery_mode: 'foreground' });
      for (const deadline = Date.now() + 5000; (await context.desktop.windows()).some((candidate) => candidate.id === open.id); await new Promise((resolve) => setTimeout(resolve, 100))) {
        assert.ok(Date.now() < deadline, `alt+F4 closed the demo window "${open.title}"`);
      }
    }
  }

  /** Runs a demo by double-clicking its row (unless its window is open already) and returns its window. */
  async function runDemo(name: string): Promise<ClientWindow> {
    const open = await demoWindow(name, 0);
    if (open) return open;
    await closeDemos();
    await callOk(context, 'double_click', { window_id: demo.id, element_index: (await row(name)).index });
    const window = await demoWindow(name);
    assert.ok(window, `the ${name} demo opened its window`);
    // The main window is titled after the selected demo too (and takes no input while the demo is up): the oracle
    // takes the newer of two windows of one title, the demo's.
    return window;
  }

  test('an unnamed entry takes its name from the label that labels it (labelled-by), as pyatspi shows the relation', async () => {
    const window = await runDemo('Dialogs and Message Boxes');
    const labelled = (await oracle.labelled(window.pid, window.title)).filter((entry) => entry.role === 'text');
    assert.ok(labelled.some((entry) => entry.name === '' && entry.labels.includes('Entry 1')), JSON.stringify(labelled));
    const { state } = await accessibleWindowState(context, window);
    const entries = state.elements.filter((element) => element.role === 'textbox');
    assert.ok(entries.some((entry) => entry.name === 'Entry 1'), JSON.stringify(entries));
  });

  test('a button that runs a modal GTK3 dialog: the dialog can be read and used, and its OK hands the text back', async () => {
    const window = await runDemo('Dialogs and Message Boxes');
    const opener = (await accessibleWindowState(context, window)).state.elements.find((element) => element.name === 'Interactive Dialog')!;
    const clicked = await callOk(context, 'click', { window_id: window.id, element_index: opener.index });
    assert.equal(clicked.structured.effect, 'confirmed');
    const dialog = await demoWindow('Interactive Dialog');
    assert.ok(dialog, 'the dialog is mapped');
    // gtk_dialog_run runs the dialog inside the click's D-Bus dispatch; the app must still answer.
    const { state } = await accessibleWindowState(context, dialog);
    assert.equal(state.degraded, false, state.degraded_reason);
    const entry = state.elements.find((element) => element.role === 'textbox' && element.name === 'Entry 2')!;
    assert.equal((await callOk(context, 'type_text', { window_id: dialog.id, element_index: entry.index, text: 'from the dialog' })).structured.effect, 'confirmed');
    const ok = state.elements.find((element) => element.role === 'button' && element.name === 'OK')!;
    assert.equal((await callOk(context, 'click', { window_id: dialog.id, element_index: ok.index })).structured.effect, 'confirmed');

    const after = (await accessibleWindowState(context, window)).state;
    assert.ok(after.elements.some((element) => element.role === 'textbox' && element.value === 'from the dialog'), JSON.stringify(after.elements));
    assert.ok(!(await context.desktop.windows()).some((candidate) => candidate.id === dialog.id), 'the dialog closed');
  });

  test('a click on a cell of a table with several columns selects its row (the table refuses SelectChild; its Table interface selects rows)', async () => {
    await closeDemos();
    await callOk(context, 'press_key', { window_id: demo.id, element_index: (await row('Tree View')).index, key: 'Right' });
    const window = await runDemo('List Store');
    const { state } = await accessibleWindowState(context, window);
    const bug = state.elements.find((element) => element.role === 'cell' && element.name === '60620')!;
    assert.ok(bug && !bug.states.includes('selected'), JSON.stringify(bug));
    const clicked = await callOk(context, 'click', { window_id: window.id, element_index: bug.index });
    assert.equal(clicked.structured.effect, 'confirmed');
    assert.ok((await oracle.find(window.pid, window.title, 'table cell', '60620')).states?.includes('selected'), 'pyatspi sees the row selected');
  });

  test('a check-box cell: the background click selects its row but GTK3 does not toggle it, and says so; foreground toggles it', async () => {
    const window = await demoWindow('List Store');
    assert.ok(window, 'the List Store demo is open');
    const cells = (await accessibleWindowState(context, window)).state.elements.filter((element) => element.role === 'cell' && element.actions.includes('toggle'));
    const cell = cells.find((candidate) => !candidate.states.includes('checked') && !candidate.states.includes('selected'))!;
    assert.ok(cell, JSON.stringify(cells));
    const background = await callOk(context, 'click', { window_id: window.id, element_index: cell.index });
    assert.equal(background.structured.effect, 'suspected_noop');
    assert.equal((background.structured.escalation as { recommended: string }).recommended, 'foreground');
    const foreground = await callOk(context, 'click', { window_id: window.id, element_index: cell.index, delivery_mode: 'foreground' });
    assert.equal(foreground.structured.effect, 'confirmed');
    const after = (await accessibleWindowState(context, window)).state.elements.find((element) => element.index === cell.index)!;
    assert.ok(after.states.includes('checked'), JSON.stringify(after));
  });

  test('set_value picks a combo box choice past a separator and one inside a submenu, and reads back what the combo shows', async () => {
    const window = await runDemo('Combo Boxes');
    const combos = (await accessibleWindowState(context, window)).state.elements.filter((element) => element.role === 'combobox');
    // "Items with icons" has a separator row before "Open"; "Where are we ?" groups its towns in submenus.
    const icons = combos.find((combo) => combo.value === 'Warning')!;
    const towns = combos.find((combo) => combo.name === 'Boston')!;
    assert.ok(icons && towns, JSON.stringify(combos));

    const open = await callOk(context, 'set_value', { window_id: window.id, element_index: icons.index, value: 'Open' });
    assert.equal(open.structured.effect, 'confirmed');
    assert.equal((await oracle.find(window.pid, window.title, 'combo box', 'document-open')).found, true, 'GTK names the combo after the icon of its active row');
    const albany = await callOk(context, 'set_value', { window_id: window.id, element_index: towns.index, value: 'Albany' });
    assert.equal(albany.structured.effect, 'confirmed');
    assert.equal((await oracle.find(window.pid, window.title, 'combo box', 'Albany')).found, true);
    const after = (await accessibleWindowState(context, window)).state.elements.filter((element) => element.role === 'combobox');
    assert.deepEqual(after.slice(0, 2).map((combo) => combo.value), ['Open', 'Albany']);
    await failsWith(context, 'set_value', { window_id: window.id, element_index: towns.index, value: 'Atlantis' }, 'no_such_option');
  });
});
