import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { stopDaemon } from '../daemon/helpers.js';
import { cliPath } from '../helpers/desktop.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { connectMcp } from '../helpers/mcp.js';
import { resultText } from '../../src/tools/call-result.js';
import { eventually } from '../helpers/task-apps.js';
import { accessibleWindowState, callOk, failsWith, type Element } from '../helpers/tools.js';

// What every action returns about its window: the diff between readings just before and just after it, indexed
// by the snapshot the action took, and the trees of the windows it opened. pyatspi (the fixture's status label,
// the selected row) is the oracle for what the app did; the diff's indices are checked by acting on them.
describe('action diffs and new windows on a real GTK3 app', () => {
  let fixtures: FixtureDesktop;
  let small: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    small = await fixtures.launch('gtk3', { title: 'Diff Fixture', rows: 3, extraArgs: ['--dialog-button'] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  async function elements(window: ClientWindow): Promise<Element[]> {
    return (await accessibleWindowState(fixtures.context, window, { include_screenshot: false, detail: 'full' })).state.elements;
  }

  async function act(tool: string, args: Record<string, unknown>): Promise<{ text: string; result: ActionResult }> {
    const called = await callOk(fixtures.context, tool, args);
    return { text: resultText(called), result: called.structured as unknown as ActionResult };
  }

  function named(list: Element[], role: string, name: string): Element {
    const found = list.find((element) => element.role === role && element.name === name);
    assert.ok(found, `no ${role} "${name}"`);
    return found;
  }

  test('a click that changes the status label: one ~ line with the old and new text, at an index of the new snapshot', async () => {
    const before = await fixtures.status(small);
    const increment = named(await elements(small), 'button', 'Increment');
    const { text, result } = await act('click', { window_id: small.id, element_index: increment.index });
    assert.equal(result.effect, 'confirmed');
    const after = await fixtures.waitForStatus(small, (status) => status.counter === before.counter + 1);
    assert.equal(after.counter, before.counter + 1);

    const diff = result.diff!;
    const label = diff.changed.find((entry) => entry.changes.name?.to.startsWith('counter='));
    assert.ok(label, JSON.stringify(diff));
    assert.match(label.changes.name!.from, new RegExp(`^counter=${before.counter} `));
    assert.match(label.changes.name!.to, new RegExp(`^counter=${after.counter} `));
    assert.equal(diff.added.length + diff.removed.length, 0, JSON.stringify(diff));
    assert.match(text, new RegExp(`^~ \\[e${label.index}\\] txt name: "counter=${before.counter} .*" → "counter=${after.counter} .*"$`, 'm'));
    assert.ok(result.snapshot_id, 'the action took a snapshot');
    assert.match(text, new RegExp(`diff \\(indices of snapshot ${result.snapshot_id}\\)`));

    // The label's index in that snapshot is the label; the button's index still clicks the button.
    const fresh = await elements(small);
    assert.equal(fresh.find((element) => element.index === label.index)?.name.startsWith(`counter=${after.counter} `), true);
    const again = await act('click', { element_token: `${result.snapshot_id}:${increment.index}` });
    assert.equal(again.result.effect, 'confirmed');
    assert.equal((await fixtures.waitForStatus(small, (status) => status.counter === after.counter + 1)).counter, after.counter + 1);
  });

  test('after a compact read, which leaves closed menus\' items unread, an action\'s diff does not list them as added', async () => {
    // A fresh window, so the compact read is the first: its mirror holds the visible part, the menus' items counted.
    const fresh = await fixtures.launch('gtk3', { title: 'Diff Menus', rows: 3 });
    const compact = await callOk(fixtures.context, 'get_window_state', { pid: fresh.pid, window_id: fresh.id, include_screenshot: false });
    assert.match(compact.body ?? '', /more items — open the menu to see/, 'the compact read counts the closed menus\' items');
    const { result } = await act('invoke_menu', { pid: fresh.pid, window_id: fresh.id, path: ['File', 'New'] });
    assert.equal(result.effect, 'confirmed', JSON.stringify(result));
    const added = result.diff!.added.map((entry) => `${entry.role} "${entry.name}"`);
    assert.deepEqual(added.filter((entry) => entry.startsWith('menuitem')), [], `the diff adds closed menus' items: ${added.join(', ')}`);
    assert.ok(result.diff!.changed.some((entry) => entry.changes.name?.to.includes('menu:New')), JSON.stringify(result.diff));
  });

  test('objects the snapshot did not hold are named in the evidence by the index the diff gives them', async () => {
    // A fresh window read compact: its closed menus' items are not in the snapshot, and a click on File shows them.
    const fresh = await fixtures.launch('gtk3', { title: 'Diff Evidence Names', rows: 3 });
    const compact = await accessibleWindowState(fixtures.context, fresh, { include_screenshot: false });
    const file = named(compact.state.elements, 'menuitem', 'File');
    try {
      const { text, result } = await act('click', { pid: fresh.pid, window_id: fresh.id, element_index: file.index });
      assert.equal(result.effect, 'confirmed', text);
      const oracle = await fixtures.oracle.find(fresh.pid, fresh.title, 'menu item', 'New');
      assert.ok(oracle.states?.includes('showing'), 'pyatspi: the click showed the File menu\'s New');
      const listed = [...result.diff!.added, ...result.diff!.changed].find((entry) => entry.role === 'menuitem' && entry.name === 'New');
      assert.ok(listed, `the diff lists New: ${text}`);
      const evidence = result.evidence ?? [];
      assert.deepEqual(evidence.filter((line) => line.includes('(not in the snapshot)')), [], `the evidence names by the diff's indices: ${text}`);
      assert.ok(evidence.some((line) => line.includes(`[e${listed.index}] menuitem "New"`)), `New is named [e${listed.index}]: ${text}`);
    } finally {
      await callOk(fixtures.context, 'press_key', { pid: fresh.pid, window_id: fresh.id, key: 'Escape' });
    }
  });

  test('a check box: its state change is a ~ line, and a bare element_index from the diff clicks it again', async () => {
    const check = named(await elements(small), 'checkbox', 'Enable feature');
    const wasChecked = (await fixtures.status(small)).checked;
    const { text, result } = await act('click', { window_id: small.id, element_index: check.index });
    const entry = result.diff!.changed.find((changed) => changed.name === 'Enable feature')!;
    assert.ok(entry, text);
    assert.deepEqual(entry.changes.states, wasChecked ? { added: [], removed: ['checked'] } : { added: ['checked'], removed: [] });
    assert.match(text, new RegExp(`^~ \\[e${entry.index}\\] chk "Enable feature" states: ${wasChecked ? '-' : '\\+'}chk`, 'm'));
    const back = await act('click', { window_id: small.id, element_index: entry.index });
    assert.equal(back.result.effect, 'confirmed');
    assert.equal((await fixtures.waitForStatus(small, (status) => status.checked === wasChecked)).checked, wasChecked);
  });

  test('rebuilding the list: its old rows are - lines, its new ones + lines whose indices select those rows', async () => {
    const rebuild = named(await elements(small), 'button', 'Rebuild list');
    const { text, result } = await act('click', { window_id: small.id, element_index: rebuild.index });
    const generation = (await fixtures.waitForStatus(small, (status) => status.generation > 0)).generation;
    const diff = result.diff!;
    const rowName = (index: number) => `Row ${index} (rebuilt ${generation})`;
    assert.deepEqual(
      diff.added.filter((entry) => entry.name.startsWith('Row ')).map((entry) => entry.name),
      [1, 2, 3].map(rowName),
      text,
    );
    const previous = generation === 1 ? 'Row 2' : `Row 2 (rebuilt ${generation - 1})`;
    assert.ok(diff.removed.some((entry) => entry.name === previous), text);
    assert.match(text, new RegExp(`^- \\w+ "${previous.replace(/[()]/g, '\\$&')}" \\(was e\\d+\\)$`, 'm'));
    const second = diff.added.find((entry) => entry.name === rowName(2))!;
    assert.match(text, new RegExp(`^\\+ \\[e${second.index}\\] \\w+ "${rowName(2).replace(/[()]/g, '\\$&')}"$`, 'm'));

    // The + line's index is the new row in the action's snapshot: clicking it selects that row.
    const selected = await act('click', { window_id: small.id, element_index: second.index });
    assert.equal(selected.result.effect, 'confirmed');
    assert.equal((await fixtures.waitForStatus(small, (status) => status.selected === rowName(2))).selected, rowName(2));
  });

  test('a list re-sorted by a click on its header (the app announces only RowReordered): its rows are moves in the click\'s diff, in the order pyatspi reads', async () => {
    const sorted = await fixtures.launch('gtk3', { title: 'Diff Sorted', extraArgs: ['--file-list', '--sortable'] });
    const header = named(await elements(sorted), 'columnheader', 'Name');
    // The Size column's first cell (the Name column's cell is unnamed, a cell of an icon and a name): gamma's is "folder".
    const firstSize = async () => (await fixtures.oracle.cells(sorted.pid, sorted.title, 'table', 'File list', [0, 0], [1, 1])).cells[0]!.name;
    // The first click sorts by name (the order the rows were added in), the second the other way round.
    await act('click', { window_id: sorted.id, element_index: header.index });
    const { text, result } = await act('click', { window_id: sorted.id, element_index: header.index });
    assert.equal(await firstSize(), 'folder', 'the list is sorted the other way round, gamma first');
    const diff = result.diff!;
    assert.doesNotMatch(text, /no change in the window's tree/, text);
    assert.ok(diff.moved.count >= 2, text);
    // The click's snapshot has the rows in their new order, in document order (what the compact view shows and
    // a selector's [index=N] counts) as by their boxes: gamma, beta, alpha.
    const snapshot = fixtures.context.state.snapshots.latest(sorted.pid, sorted.id)!;
    assert.equal(snapshot.id, result.snapshot_id);
    const names = ['alpha.txt', 'beta.txt', 'gamma'];
    const cells = [...snapshot.elements.values()].filter((element) => element.role === 'cell' && names.includes(element.name));
    const order = (list: typeof cells) => [...new Set(list.map((element) => element.name))];
    assert.deepEqual(order(cells), ['gamma', 'beta.txt', 'alpha.txt'], text);
    assert.deepEqual(order([...cells].sort((a, b) => a.bounds!.y - b.bounds!.y)), ['gamma', 'beta.txt', 'alpha.txt'], text);
  });

  test('a tree view cell\'s in-place editor (GTK3 lists it as no object\'s child; the window is read from its live mirror) is in the tree, focused, and takes set_value and Return in the background; pyatspi reads the cell\'s new text', async () => {
    const edited = await fixtures.launch('gtk3', { title: 'Diff Editable', extraArgs: ['--file-list', '--editable-sizes'] });
    // A first reading starts the window's mirror, so the readings after it come from the mirror.
    const beta = named(await elements(edited), 'cell', '4 bytes');
    // The cell has neither Value nor EditableText: set_value names the editor's route (it had advised type_text on the cell,
    // which GTK3's tree view takes as the start of a search).
    const refused = await failsWith(fixtures.context, 'set_value', { window_id: edited.id, element_index: beta.index, value: '9 bytes' }, 'not_settable');
    assert.match(resultText(refused), /click the cell with delivery_mode "foreground", press_key "return" with delivery_mode "foreground" to open the entry/, resultText(refused));
    // type_text on the cell sends nothing and names the same route, where it advised a foreground retry: real keys typed
    // at the view start its search (the typing was confirmed by the selection the search moved).
    const typed = await act('type_text', { window_id: edited.id, element_index: beta.index, text: '9 bytes' });
    assert.equal(typed.result.path, 'none', typed.text);
    assert.match(typed.text, /press_key "return" with delivery_mode "foreground" to open the entry/, typed.text);
    // GTK3's edit action on a cell opens nothing: a real click puts the cursor in the Size column, a real Return opens the editor.
    await act('click', { window_id: edited.id, element_index: beta.index, delivery_mode: 'foreground' });
    const opened = await act('press_key', { window_id: edited.id, key: 'return', delivery_mode: 'foreground' });
    const isEditor = (element: Element) => element.role === 'textbox' && element.value === '4 bytes';
    const editor = (await eventually(() => elements(edited), (list) => list.some(isEditor), 3000)).find(isEditor);
    assert.ok(editor, `no textbox holding "4 bytes" after Return on the cell\n${opened.text}`);
    assert.ok(editor.states.includes('focused'), JSON.stringify(editor));
    const set = await act('set_value', { window_id: edited.id, element_index: editor.index, value: '9 bytes' });
    assert.equal(set.result.effect, 'confirmed', set.text);
    const taken = await act('press_key', { window_id: edited.id, element_index: editor.index, key: 'return' });
    assert.equal(taken.result.effect, 'confirmed', taken.text);
    assert.equal((await fixtures.waitForStatus(edited, (status) => status.lastKey === 'edited:beta.txt:9 bytes')).lastKey, 'edited:beta.txt:9 bytes');
    const sizes = await fixtures.oracle.cells(edited.pid, edited.title, 'table', 'File list', [1, 1], [1, 1]);
    assert.equal(sizes.cells[0]!.name, '9 bytes');
    assert.match(taken.text, /name: "4 bytes" → "9 bytes"/, taken.text);
  });

  test('diff: false returns no diff and keeps the snapshot the agent has', async () => {
    const state = await accessibleWindowState(fixtures.context, small, { include_screenshot: false });
    const increment = named(state.state.elements, 'button', 'Increment');
    const { text, result } = await act('click', { window_id: small.id, element_index: increment.index, diff: false });
    assert.equal(result.effect, 'confirmed');
    assert.equal(result.diff, undefined);
    assert.equal(result.snapshot_id, undefined);
    assert.doesNotMatch(text, /^(diff|~ |\+ )/m);
    assert.equal(fixtures.context.state.snapshots.latest(small.pid, small.id)?.id, state.state.snapshot_id);
  });

  test('a diff past 40 lines is summarised inline and written whole to the file it names', async () => {
    const long = await fixtures.launch('gtk3', { title: 'Diff Long' });
    try {
      const rebuild = named(await elements(long), 'button', 'Rebuild list');
      const { text, result } = await act('press_key', { window_id: long.id, element_index: rebuild.index, key: 'space' });
      assert.equal((await fixtures.waitForStatus(long, (status) => status.generation === 1)).generation, 1);
      const diff = result.diff!;
      assert.equal(diff.truncated, true);
      assert.ok(diff.counts.added >= 40 && diff.counts.removed >= 40, JSON.stringify(diff.counts));
      assert.ok(result.diff_file, 'the whole diff is in a file');
      const whole = readFileSync(result.diff_file, 'utf8').trimEnd().split('\n');
      assert.equal(whole.length, diff.lines + 1, 'a header line, then every line');
      const firstAdded = text.split('\n').find((line) => line.startsWith('+ '));
      assert.ok(firstAdded && whole.includes(firstAdded), 'the inline lines are the file\'s lines');
      assert.ok(whole.some((line) => line.startsWith('- ') && line.includes('"Row 40" (was e')), 'the last old row is in the file');
      const lines = text.split('\n');
      const inline = lines.slice(lines.findIndex((line) => line.startsWith('diff ('))).filter((line) => /^[~+-] /.test(line));
      assert.equal(inline.length, 39, text);
      assert.match(text, new RegExp(`^\\d+ changed, \\d+ added, \\d+ removed, \\d+ moved: ${diff.lines} lines, 39 of \\d+ summary lines shown, the first of each kind$`, 'm'));
      // The new rows do not hide the old ones: both kinds are shown inline, each its first lines.
      assert.ok(inline.filter((line) => line.startsWith('+ ')).length >= 15, text);
      assert.ok(inline.some((line) => line.startsWith('- ') && line.includes('"Row 1" (was e')), text);
      assert.match(text, new RegExp(`^whole diff: ${result.diff_file}$`, 'm'));
      // A line names one node, or a group of nodes whose states changed alike names a few of them.
      const namedNodes = inline.reduce((sum, line) => sum + (line.startsWith('- ') ? 1 : (line.match(/\[e\d+\]/g) ?? []).length), 0);
      assert.equal(diff.added.length + diff.removed.length + diff.changed.length, namedNodes, 'the structured entries are the nodes the lines shown name');
    } finally {
      await callOk(fixtures.context, 'kill_app', { pid: long.pid }).catch(() => undefined);
    }
  });

  test('a click that opens a dialog, over MCP: new_windows has its title, its tree with its buttons, and a snapshot to act on', async () => {
    const env = fixtures.desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-config-')) });
    const { client } = await connectMcp(env);
    try {
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
        const first = result.content[0] as { text: string };
        assert.ok(!result.isError, first.text);
        return { text: first.text, structured: result.structuredContent as Record<string, unknown> };
      };
      const state = await call('get_window_state', { pid: small.pid, window_id: small.id, include_screenshot: false });
      const opener = (state.structured.elements as Element[]).find((element) => element.role === 'button' && element.name === 'Reset…')!;
      assert.ok(opener, state.text);
      const { text, structured } = await call('click', { window_id: small.id, element_index: opener.index });
      const result = structured as unknown as ActionResult;
      const dialog = result.new_windows?.find((window) => window.title === 'Confirm reset');
      assert.ok(dialog, text);
      assert.equal(result.new_windows!.filter((window) => window.window_id === dialog.window_id).length, 1, 'listed once');
      assert.ok(dialog.snapshot_id && dialog.tree, JSON.stringify(dialog));
      const cancel = /\[e(\d+)\] btn "Cancel"/.exec(dialog.tree);
      assert.ok(cancel, dialog.tree);
      assert.match(dialog.tree, /\[e\d+\] btn "Reset"/);
      assert.match(text, /^new window: \d+ "Confirm reset" \(pid \d+, snapshot s\w+\):$/m);
      assert.match(text, /^ {2,}\[e\d+\] btn "Cancel"/m);
      assert.equal(await fixtures.readers.mapState(dialog.window_id), 'IsViewable', 'the X server shows the dialog');

      // Its [eN] are valid element indices of that window: Cancel closes the dialog, as the app reports.
      const cancelled = await call('click', { window_id: dialog.window_id, element_index: Number(cancel[1]) });
      const closing = cancelled.structured as unknown as ActionResult;
      assert.notEqual(closing.effect, 'suspected_noop', cancelled.text);
      assert.equal(closing.diff, undefined);
      assert.match(closing.diff_unavailable ?? '', /^the window closed/, cancelled.text);
      assert.equal((await fixtures.waitForStatus(small, (status) => status.lastKey === 'dialog:cancel')).lastKey, 'dialog:cancel');
    } finally {
      await client.close();
    }
  });

  test('a plan whose click opens a dialog returns it in new_windows; a click in the dialog that changes the main window names it in other_windows_changed', async () => {
    const opener = named(await elements(small), 'button', 'Reset…');
    await act('click', { window_id: small.id, element_index: named(await elements(small), 'button', 'Increment').index });
    const planned = await callOk(fixtures.context, 'run_actions', { window_id: small.id, steps: [{ tool: 'click', arguments: { element_index: opener.index } }] });
    const plan = planned.structured as unknown as ActionResult;
    const text = resultText(planned);
    const dialog = plan.new_windows?.find((window) => window.title === 'Confirm reset');
    assert.ok(dialog, text);
    assert.equal(dialog.pid, small.pid);
    assert.equal(await fixtures.readers.mapState(dialog.window_id), 'IsViewable', 'the X server shows the dialog');
    assert.match(text, /^new window: \d+ "Confirm reset" \(pid \d+, snapshot s\w+\):$/m);
    const reset = /\[e(\d+)\] btn "Reset"/.exec(dialog.tree ?? '');
    assert.ok(reset, dialog.tree);

    // Reset closes the dialog and sets the main window's counter to 0: that window was read before, so it is named.
    const { text: resetText, result } = await act('click', { window_id: dialog.window_id, element_index: Number(reset[1]) });
    assert.equal((await fixtures.waitForStatus(small, (status) => status.lastKey === 'dialog:ok')).counter, 0);
    assert.deepEqual(result.other_windows_changed, [{ window_id: small.id, title: 'Diff Fixture' }], resetText);
    assert.match(resetText, new RegExp(`^other windows changed: ${small.id} "Diff Fixture"`, 'm'));
  });

  test('a dialog the window manager takes on late (it is held stopped for 600 ms) is still in new_windows: the app announced it', async () => {
    const manager = fixtures.desktop.state.pids.windowManager;
    const opener = named(await elements(small), 'button', 'Reset…');
    process.kill(manager, 'SIGSTOP');
    const resume = setTimeout(() => process.kill(manager, 'SIGCONT'), 600);
    let clicked: { text: string; result: ActionResult };
    try {
      clicked = await act('click', { window_id: small.id, element_index: opener.index });
    } finally {
      clearTimeout(resume);
      process.kill(manager, 'SIGCONT');
    }
    const dialog = clicked.result.new_windows?.find((window) => window.title === 'Confirm reset');
    assert.ok(dialog, clicked.text);
    assert.equal(await fixtures.readers.mapState(dialog.window_id), 'IsViewable', 'the X server shows the dialog');
    const cancel = /\[e(\d+)\] btn "Cancel"/.exec(dialog.tree ?? '');
    assert.ok(cancel, dialog.tree);
    // A plan on the dialog that closes it says in its text why it has no diff, as a single action does.
    const planned = await callOk(fixtures.context, 'run_actions', { window_id: dialog.window_id, steps: [{ tool: 'click', arguments: { element_index: Number(cancel[1]) } }] });
    assert.equal((await fixtures.waitForStatus(small, (status) => status.lastKey === 'dialog:cancel')).lastKey, 'dialog:cancel');
    assert.match(resultText(planned), new RegExp(`^no diff: the window closed \\(window ${dialog.window_id} "Confirm reset"\\)`, 'm'), resultText(planned));
  });

  test('a dialog whose app answers its button 700 ms later (as one that saves a file first, sending nothing meanwhile): the click is confirmed by the dialog closing (hidden), not reported as no effect, while the window manager lags', async () => {
    const slow = await fixtures.launch('gtk3', { title: 'Slow Answer', rows: 3, extraArgs: ['--dialog-button', '--dialog-response-ms', '700'] });
    const opened = await act('click', { window_id: slow.id, element_index: named(await elements(slow), 'button', 'Reset…').index });
    const dialog = opened.result.new_windows?.find((window) => window.title === 'Confirm reset');
    assert.ok(dialog, opened.text);
    const reset = /\[e(\d+)\] btn "Reset"/.exec(dialog.tree ?? '');
    assert.ok(reset, dialog.tree);
    // The window manager is held stopped meanwhile, as a loaded one lags: its list still holds the dialog when the
    // app has closed it, and the X server's word that the window is gone is what tells.
    const manager = fixtures.desktop.state.pids.windowManager;
    process.kill(manager, 'SIGSTOP');
    const resume = setTimeout(() => process.kill(manager, 'SIGCONT'), 1500);
    const started = Date.now();
    let acted: { text: string; result: ActionResult };
    try {
      acted = await act('click', { window_id: dialog.window_id, element_index: Number(reset[1]) });
    } finally {
      clearTimeout(resume);
      process.kill(manager, 'SIGCONT');
    }
    const { text, result } = acted;
    const elapsed = Date.now() - started;
    // The app's word: it answered, and the X server no longer shows the dialog (the app hid it).
    assert.equal((await fixtures.waitForStatus(slow, (status) => status.lastKey === 'dialog:ok')).counter, 0);
    assert.notEqual(await fixtures.readers.mapState(dialog.window_id), 'IsViewable', 'the dialog is hidden');
    assert.equal(result.effect, 'confirmed', text);
    assert.match(text, new RegExp(`^- window ${dialog.window_id} "Confirm reset" closed or hidden$`, 'm'));
    assert.ok(elapsed >= 650, `the answer came ${elapsed} ms after the click began, after the app's 700 ms`);
    assert.doesNotMatch(text, /\(unreadable\)|defunct/, 'what was in the closed window is not listed one object at a time');
  });

  test('Return in a dialog\'s field whose app at once announces a thing that tells nothing, then answers 300 ms later (as GTK 2 moves the focus, then answers a dialog\'s Return in an idle handler): the key is confirmed by the dialog closing, not reported as no effect', async () => {
    // PCManFM's Rename dialog, its Return pressed through accessibility: the first sign (the focus gained by an object
    // no window held) ended the wait 30 ms after the action, told nothing, and the result said "no effect seen" of the
    // dialog that closed, and the file renamed, a moment later (files trial).
    const stirred = await fixtures.launch('gtk3', { title: 'Stirred Answer', rows: 3, extraArgs: ['--dialog-button', '--dialog-response-ms', '300', '--dialog-stir'] });
    const opened = await act('click', { window_id: stirred.id, element_index: named(await elements(stirred), 'button', 'Reset…').index });
    const dialog = opened.result.new_windows?.find((window) => window.title === 'Confirm reset');
    assert.ok(dialog, opened.text);
    const reason = /\[e(\d+)\] tbx "Reason"/.exec(dialog.tree ?? '');
    assert.ok(reason, dialog.tree);
    const { text, result } = await act('press_key', { window_id: dialog.window_id, element_index: Number(reason[1]), key: 'return' });
    // The app's word: it answered, and the X server no longer shows the dialog (the app hid it).
    assert.equal((await fixtures.waitForStatus(stirred, (status) => status.lastKey === 'dialog:ok')).counter, 0);
    assert.notEqual(await fixtures.readers.mapState(dialog.window_id), 'IsViewable', 'the dialog is hidden');
    assert.equal(result.effect, 'confirmed', text);
    assert.match(text, new RegExp(`^- window ${dialog.window_id} "Confirm reset" closed or hidden$`, 'm'));
  });

  test('a click that opens a file chooser: the chooser is in new_windows, and its widgets announcing their first states are not listed as evidence one by one', async () => {
    const opener = await fixtures.launch('gtk3', { title: 'Chooser Opener', rows: 3, extraArgs: ['--chooser-button'] });
    const { text, result } = await act('click', { window_id: opener.id, element_index: named(await elements(opener), 'button', 'Open file…').index });
    const chooser = result.new_windows?.find((window) => window.title === 'Open a file');
    assert.ok(chooser, text);
    assert.equal(await fixtures.readers.mapState(chooser.window_id), 'IsViewable', 'the X server shows the chooser');
    assert.equal(result.effect, 'confirmed', text);
    assert.doesNotMatch(text, /defunct/, text);
    // Its top-level object says FILE_CHOOSER, ATK's specialised dialog: the window is a dialog, not a group.
    assert.equal((await fixtures.oracle.find(opener.pid, 'Open a file', 'file chooser', 'Open a file')).found, true, 'pyatspi: the window\'s object is a file chooser');
    assert.match(chooser.tree ?? '', /^\s*\[e0\] dlg "Open a file"/, chooser.tree);
  });

  test('with diff_settle_ms, a search field that re-filters its list 150 ms after the typing: the late change is in the diff; an action that changes nothing is not waited on; by default nothing is waited on', async () => {
    const log = join(mkdtempSync(join(tmpdir(), 'cup-filter-')), 'changes.log');
    const filtering = await fixtures.launch('gtk3', { title: 'Diff Filter', rows: 3, extraArgs: ['--filter', '--change-log', log] });
    await callOk(fixtures.context, 'set_config', { diff_settle_ms: 250 });
    try {
      const list = await elements(filtering);
      const field = named(list, 'textbox', 'Filter');
      const started = Date.now();
      const { text, result } = await act('type_text', { window_id: filtering.id, element_index: field.index, text: 'ap' });
      // The app's word: the list re-filtered, well after the typing began (GTK's search entry waits 150 ms).
      let filtered: string | undefined;
      for (const deadline = Date.now() + 3000; !filtered && Date.now() < deadline; await sleep(50)) {
        filtered = readFileSync(log, 'utf8').split('\n').find((line) => line.startsWith('filtered:ap '));
      }
      assert.ok(filtered, readFileSync(log, 'utf8'));
      assert.ok(Number(filtered.split(' ')[1]) - started >= 100, `filtered ${Number(filtered.split(' ')[1]) - started} ms after the call began`);
      for (const gone of ['banana', 'cherry']) {
        assert.equal((await fixtures.oracle.find(filtering.pid, filtering.title, 'label', gone)).found, false, `pyatspi: "${gone}" is gone`);
        assert.match(text, new RegExp(`^- txt "${gone}" \\(was e\\d+\\)$`, 'm'));
      }
      assert.ok(result.settled_ms! >= 150, `the reading waited ${result.settled_ms} ms for the app to settle`);

      // A background click on the drawing pad sends nothing (no accessibility action; GTK ignores synthetic X events):
      // with nothing heard, the reading after it does not wait. (A disabled button's click is refused before that.)
      const pad = named(await elements(filtering), 'generic', 'Click pad');
      const idle = await act('click', { window_id: filtering.id, element_index: pad.index });
      assert.equal(idle.result.path, 'none', idle.text);
      assert.equal(idle.result.settled_ms, 0, idle.text);

      // The default, 0: the reading comes right after the typing's own confirmation, before the re-filter.
      await callOk(fixtures.context, 'set_config', { diff_settle_ms: 0 });
      const quick = await act('type_text', { window_id: filtering.id, element_index: field.index, text: 'p' });
      assert.equal(quick.result.settled_ms, 0, quick.text);
    } finally {
      await callOk(fixtures.context, 'set_config', { diff_settle_ms: 0 });
      await callOk(fixtures.context, 'kill_app', { pid: filtering.pid }).catch(() => undefined);
    }
  });

  test('over the CLI: the click result prints the diff line and --json carries the diff', async () => {
    const env = fixtures.desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-config-')) });
    const cli = (args: string[]) => spawnSync(process.execPath, [cliPath, ...args], { env, encoding: 'utf8', timeout: 60_000 });
    try {
      const state = cli(['call', 'get_window_state', JSON.stringify({ pid: small.pid, window_id: small.id, include_screenshot: false }), '--json']);
      assert.equal(state.status, 0, state.stderr);
      const increment = (JSON.parse(state.stdout) as { structuredContent: { elements: Element[] } }).structuredContent.elements.find((element) => element.name === 'Increment')!;
      const before = await fixtures.status(small);
      const click = cli(['call', 'click', JSON.stringify({ window_id: small.id, element_index: increment.index })]);
      assert.equal(click.status, 0, click.stderr);
      assert.match(click.stdout, new RegExp(`^~ \\[e\\d+\\] txt name: "counter=${before.counter} .*" → "counter=${before.counter + 1} .*"$`, 'm'));
      const json = cli(['call', 'click', JSON.stringify({ window_id: small.id, element_index: increment.index }), '--json']);
      assert.equal(json.status, 0, json.stderr);
      const result = (JSON.parse(json.stdout) as { structuredContent: ActionResult }).structuredContent;
      assert.ok(result.diff?.changed.some((entry) => entry.changes.name?.to.startsWith(`counter=${before.counter + 2} `)), json.stdout);
    } finally {
      await stopDaemon(env);
    }
  });
});
