// File Roller (Archive Manager, GTK 3) as a new user tried it: its main menu is a popover, its New Archive dialog an
// expander ("Other Options") over a password field and disabled check boxes, and a Location combo box whose places a
// separator splits. What the driver said wrong there, each judged by pyatspi.
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ToolContext } from '../../src/tools/context.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import type { TestDesktop } from '../helpers/desktop.js';
import { startUserDesktop, stopUserDesktop, type UserDesktop } from '../helpers/user-desktop.js';
import { accessibleWindowState, callOk, childIndices, failsWith, pyatspiWalk, type OracleNode } from '../helpers/tools.js';

describe('File Roller: a new user\'s New Archive dialog, judged by pyatspi', () => {
  let user: UserDesktop;
  let desktop: TestDesktop;
  let context: ToolContext;
  let app: ChildProcess;
  let main: ClientWindow;
  /** The New Archive dialog's window id, opened by the first test that needs it. */
  let dialog: number | undefined;
  /** The evidence and diff of the click on "New Archive…" that opened it. */
  let opening: { result: ActionResult; body: string } | undefined;

  before(async () => {
    user = await startUserDesktop('cup-file-roller-home-');
    ({ desktop, context } = user);
    ({ process: app, window: main } = await desktop.launch('file-roller', [], 'Archive Manager', 20_000, user.env()));
    await accessibleWindowState(context, main, { include_screenshot: false });
  });

  after(async () => {
    app?.kill();
    await stopUserDesktop(user);
  });

  const walk = (title: string) => pyatspiWalk(main.pid, title, desktop.env());
  const named = (nodes: readonly OracleNode[], role: string, name: string) => nodes.find((node) => node.role === role && node.name === name);

  /** The New Archive dialog, opened from the main menu's popover the first time. */
  async function newArchiveDialog(): Promise<number> {
    if (dialog !== undefined) return dialog;
    await callOk(context, 'click', { window_id: main.id, selector: 'role=button name=Menu' });
    const clicked = await callOk(context, 'click', { window_id: main.id, selector: 'role=button name="New Archive…"' });
    const result = clicked.structured as unknown as ActionResult;
    opening = { result, body: clicked.body ?? "" };
    const opened = result.new_windows?.find((window) => window.title === 'New Archive');
    assert.ok(opened, `the click opened the New Archive dialog:\n${clicked.body}`);
    dialog = opened.window_id;
    return dialog;
  }

  test('set_value on a disabled check box is refused element_disabled, as a click is, and nothing is sent', async () => {
    const window = await newArchiveDialog();
    const split = 'Split into volumes of';
    // The case: pyatspi reads the check box neither enabled nor sensitive, and unchecked.
    const box = named(await walk('New Archive'), 'check box', split);
    assert.ok(box && !box.states.includes('sensitive') && !box.states.includes('enabled') && !box.states.includes('checked'), `pyatspi: ${JSON.stringify(box)}`);
    const selector = `role=checkbox name="${split}"`;
    const clicked = await failsWith(context, 'click', { window_id: window, selector }, 'element_disabled');
    const set = await failsWith(context, 'set_value', { window_id: window, selector, value: 'true' }, 'element_disabled');
    assert.match(set.summary, /disabled/, set.summary);
    assert.match(clicked.summary, /disabled/, clicked.summary);
    // Nothing was sent: pyatspi still reads it unchecked.
    assert.ok(!named(await walk('New Archive'), 'check box', split)?.states.includes('checked'), 'the check box stayed unchecked');
  });

  test('the evidence tells the clicked menu button\'s states as the diff does (hidden with its closed popover, the focus gone)', async () => {
    await newArchiveDialog();
    const { result, body } = opening!;
    // The case: pyatspi reads "New Archive…" not showing, not focused, placed nowhere, in the closed popover.
    const button = named(await walk('Archive Manager'), 'push button', 'New Archive…');
    assert.ok(button && !button.states.includes('showing') && !button.states.includes('focused'), `pyatspi: ${JSON.stringify(button)}`);
    const entry = result.diff?.changed.find((node) => node.role === 'button' && node.name === 'New Archive…');
    assert.ok(entry?.changes.states, `the diff tells its states:\n${body}`);
    assert.ok(entry.changes.states.added.includes('hidden') && entry.changes.states.removed.includes('focused'), `the diff, as pyatspi: hidden, the focus gone:\n${body}`);
    const line = (result.evidence ?? []).find((told) => told.startsWith(`[e${entry.index}] `));
    assert.ok(line, `the evidence tells it:\n${body}`);
    const told = new Set(line.slice(line.lastIndexOf(': ') + 2).split(', '));
    assert.ok(told.has('+hid') && told.has('-foc') && !told.has('+off'), `the evidence agrees with the diff: ${line}\n${body}`);
  });

  test('a closed combo box\'s count of its choices leaves its separator out', async () => {
    const window = await newArchiveDialog();
    // The case: pyatspi reads the Location box's popup with a separator among its items (the other box, of file
    // types, has none). The box fills its places as GTK finds them: the count is compared with pyatspi's walks on both
    // sides of the reading, once they agree.
    const choicesNow = async () => {
      const nodes = await walk('New Archive');
      const choicesOf = (box: number) => {
        const menu = childIndices(nodes, box).find((at) => nodes[at]!.role === 'menu');
        return menu === undefined ? [] : childIndices(nodes, menu).map((at) => nodes[at]!);
      };
      const box = nodes.findIndex((node, at) => node.role === 'combo box' && choicesOf(at).some((choice) => choice.role === 'separator'));
      assert.ok(box >= 0, 'pyatspi: a combo box with a separator among its choices');
      return choicesOf(box).map((node) => ({ role: node.role, name: node.name, visible: node.states.includes('visible') }));
    };
    for (let attempt = 0; ; attempt++) {
      const choices = await choicesNow();
      const { result } = await accessibleWindowState(context, { ...main, id: window, title: 'New Archive' }, { include_screenshot: false });
      if (JSON.stringify(await choicesNow()) !== JSON.stringify(choices) && attempt < 5) continue;
      const separators = choices.filter((node) => node.role === 'separator').length;
      assert.ok(separators > 0, `pyatspi: a separator among ${JSON.stringify(choices)}`);
      // A choice the app keeps hidden (not VISIBLE) is no choice either: hidden items are never counted.
      const hidden = choices.filter((node) => node.role !== 'separator' && !node.visible).length;
      const lines = result.body!.split('\n');
      const at = lines.findIndex((line) => / cmb "Location:"/.test(line));
      assert.ok(at >= 0, result.body);
      assert.match(lines[at + 1]!, new RegExp(`# ${choices.length - separators - hidden} more items`), `${JSON.stringify(choices)}:\n${result.body}`);
      return;
    }
  });

  test('a query that matches only hidden elements says so, and how to see them, where it read "0 shown"', async () => {
    // The case: pyatspi reads the main menu's "Test Integrity" not showing (its popover closed).
    const button = named(await walk('Archive Manager'), 'push button', 'Test Integrity');
    assert.ok(button && !button.states.includes('showing'), `pyatspi: ${JSON.stringify(button)}`);
    for (const query of ['Test Integrity', 'role=button name="Test Integrity"']) {
      const { result, state } = await accessibleWindowState(context, main, { include_screenshot: false, query });
      assert.equal(state.elements.length, 0, result.body);
      assert.match(result.summary, /the query also matched 1 hidden element .*detail "full" shows it/, result.summary);
      const full = await callOk(context, 'get_window_state', { window_id: main.id, include_screenshot: false, query, detail: 'full' });
      assert.match(full.body ?? '', /btn "Test Integrity" .*\{[^}]*hid/, `detail "full" shows it, hidden:\n${full.body}`);
    }
  });

  test('expanding "Other Options" tells the fields it reveals shown (-hid), not moved', async () => {
    const window = await newArchiveDialog();
    const expander = 'role=button name="Other Options"';
    const password = () => named(nodesNow, 'password text', 'Password:') ?? nodesNow.find((node) => node.role === 'password text');
    let nodesNow = await walk('New Archive');
    // Collapsed first, whichever way the dialog opened (File Roller remembers it).
    if (named(nodesNow, 'toggle button', 'Other Options')?.states.includes('expanded')) {
      await callOk(context, 'click', { window_id: window, selector: expander });
      nodesNow = await walk('New Archive');
    }
    // The case: pyatspi reads the password field VISIBLE and not SHOWING inside the collapsed expander.
    assert.ok(password() && password()!.states.includes('visible') && !password()!.states.includes('showing'), `pyatspi: ${JSON.stringify(password())}`);
    await accessibleWindowState(context, { ...main, id: window, title: 'New Archive' }, { include_screenshot: false });
    const clicked = await callOk(context, 'click', { window_id: window, selector: expander });
    const result = clicked.structured as unknown as ActionResult;
    nodesNow = await walk('New Archive');
    assert.ok(password()?.states.includes('showing'), `pyatspi: the field shows now: ${JSON.stringify(password())}`);
    const field = result.diff?.changed.find((node) => node.role === 'textbox' && node.name === 'Password:');
    assert.ok(field && field.changes.states?.removed.includes('hidden'), `the diff tells the field shown (-hid):\n${clicked.body}`);
    assert.ok(!(result.diff?.moved?.notable ?? []).some((node) => node.index === field.index), `not among the moved:\n${clicked.body}`);
    const line = (result.evidence ?? []).find((told) => told.startsWith(`[e${field.index}] `));
    assert.ok(!line || line.endsWith(': -hid'), `the evidence agrees: ${line}\n${clicked.body}`);
  });
});
