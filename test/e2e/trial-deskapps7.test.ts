// Debian desktop apps a new user tried through plans, waits and diffs, and what they showed wrong: GNOME System
// Monitor (GTK3 with libhandy), whose preferences rows name their one switch or spin button by nothing but the row's
// labelled-by relation, so the controls read unnamed, and whose column shown in its main window from there went unsaid,
// its header being in no reading of that window, and whose tooltip over the process list read as a popup menu or list
// reaching past the window, with the list's cells under it for its items (as a GTK3 fixture's wide tooltip does here);
// GNOME Characters (GTK 4), whose character dialog, its object named by its type, was read as another window changed; GNOME Clocks (GTK 4), whose alarm row's delete button, named by
// its tool tip alone, was taken for a value its switch asks for, and whose tab switched said each element it hid or
// showed hidden or shown and again moved; GtkTerm (GTK3), whose title X spells with two spaces
// where its tree shows one, so a wait for the title as read timed out, and whose dialog a wait given its pid matched
// beside another app's window of that title, and never saw close while that one stayed.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import type { ToolContext } from '../../src/tools/context.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import type { TestDesktop } from '../helpers/desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { listClientWindows, type ClientWindow } from '../../src/platform/linux/windows.js';
import { startUserDesktop, stopUserDesktop, type UserDesktop } from '../helpers/user-desktop.js';
import { accessibleWindowState, callOk, childIndices, pyatspiWalk } from '../helpers/tools.js';

/** A find_elements result's matches. */
type Matches = { matches: { name: string; role: string }[] };
const execFileAsync = promisify(execFile);

type Box = { x: number; y: number; w: number; h: number };

/** The tooltips mapped on the screen, as the X server lists them: top-level windows typed _NET_WM_WINDOW_TYPE_TOOLTIP, viewable. */
async function mappedTooltips(env: NodeJS.ProcessEnv): Promise<Box[]> {
  const { stdout } = await execFileAsync('xwininfo', ['-root', '-children', '-int'], { env });
  const candidates = [...stdout.matchAll(/^\s+(\d+) .*\)\s+(\d+)x(\d+)\+(-?\d+)\+(-?\d+)\s+\S+$/gm)].filter((match) => Number(match[2]) > 10 && Number(match[3]) > 10);
  const found = await Promise.all(
    candidates.map(async ([, id, w, h, x, y]) => {
      const [type, info] = await Promise.all([execFileAsync('xprop', ['-id', id!, '_NET_WM_WINDOW_TYPE'], { env }), execFileAsync('xwininfo', ['-id', id!], { env })]);
      return type.stdout.includes('_NET_WM_WINDOW_TYPE_TOOLTIP') && /Map State: IsViewable/.test(info.stdout) ? [{ x: Number(x), y: Number(y), w: Number(w), h: Number(h) }] : [];
    }),
  );
  return found.flat();
}

describe('Debian desktop apps a new user tried through plans and waits (GTK3 GNOME System Monitor, GTK 4 Clocks and Characters, GTK3 GtkTerm), judged by pyatspi and the apps themselves', () => {
  let user: UserDesktop;
  let desktop: TestDesktop;
  let context: ToolContext;

  before(async () => {
    user = await startUserDesktop('cup-deskapps7-home-');
    ({ desktop, context } = user);
  });

  after(async () => {
    await stopUserDesktop(user);
  });

  test("GNOME System Monitor: each preferences row's title names the one switch or spin button it holds, as the row's labelled-by relation says, and the switch found by it takes its click; a column ticked there is said to change the main window", async () => {
    const { process, window } = await desktop.launch('gnome-system-monitor', [], 'System Monitor', 20_000, user.env());
    try {
      await accessibleWindowState(context, window, { include_screenshot: false });
      const plan = await callOk(context, 'run_actions', {
        window_id: window.id,
        steps: [
          { tool: 'click', arguments: { selector: 'role=button name=Menu' } },
          { tool: 'click', arguments: { selector: 'role=button name=Preferences' } },
          { tool: 'wait_for', arguments: { window_title: 'Preferences' } },
        ],
      });
      const prefs = (plan.structured as unknown as ActionResult).new_windows?.find((entry) => entry.title === 'Preferences');
      assert.ok(prefs, plan.body);
      // The case: pyatspi reads list items labelled by the rows' titles, each holding one unnamed switch or spin button.
      const titles = (await new PyatspiOracle(desktop.env()).labelled(window.pid, 'Preferences')).filter((entry) => entry.role === 'list item').map((entry) => entry.labels.join(' '));
      const walked = await pyatspiWalk(window.pid, 'Preferences', desktop.env());
      const lone = walked.flatMap((node, at) => {
        const held = childIndices(walked, at).map((child) => walked[child]!);
        return node.role === 'list item' && held.length === 1 && held[0]!.name === '' && ['toggle button', 'spin button'].includes(held[0]!.role) ? [held[0]!] : [];
      });
      assert.ok(titles.includes('Show Memory in IEC') && lone.length === titles.length, `pyatspi: rows ${JSON.stringify(titles)}, their unnamed controls ${JSON.stringify(lone)}`);
      const found = await callOk(context, 'find_elements', { window_id: prefs.window_id, selector: 'role=switch' });
      const spins = await callOk(context, 'find_elements', { window_id: prefs.window_id, selector: 'role=spinbutton' });
      const names = [...(found.structured as unknown as Matches).matches, ...(spins.structured as unknown as Matches).matches].map((match) => match.name);
      assert.deepEqual(names.sort(), [...titles].sort(), `${found.body}\n${spins.body}`);
      // The switch found by its row's title is the one: the process list's memory turns to IEC units (MiB, KiB).
      const iec = async () => (await pyatspiWalk(window.pid, 'System Monitor', desktop.env())).some((node) => node.role === 'table cell' && /\d\s(?:KiB|MiB|GiB)$/.test(node.name));
      assert.equal(await iec(), false, 'the process list shows SI units first');
      const clicked = await callOk(context, 'click', { window_id: prefs.window_id, selector: 'role=switch name="Show Memory in IEC"' });
      // The list takes the units at its next refresh, and one walk of a long process list takes seconds under CI's load:
      // the bound is against a hang only.
      let shown = false;
      let walks = 0;
      for (const deadline = Date.now() + 40_000; !shown && Date.now() < deadline; walks++) shown = await iec();
      assert.ok(shown, `the process list shows IEC units (${walks} pyatspi walks); the click said:\n${clicked.body}`);

      // Its Information Fields: the check-box cell before "Status" shows that column in the main window. Hidden again,
      // its header is in no reading of the main window (GTK3 keeps it, not visible); shown once more, the click says the
      // main window changed, its events being of that header alone.
      const columns = async () => (await pyatspiWalk(window.pid, 'System Monitor', desktop.env())).filter((node) => node.role === 'table column header' && node.states.includes('visible')).map((node) => node.name);
      assert.ok(!(await columns()).includes('Status'), 'no Status column yet');
      const { state } = await accessibleWindowState(context, { ...window, id: prefs.window_id, title: 'Preferences' }, { include_screenshot: false });
      const at = state.elements.findIndex((element) => element.role === 'cell' && element.name === 'Status');
      const tick = state.elements[at - 1];
      assert.ok(tick && tick.role === 'cell' && tick.name === '', JSON.stringify(state.elements.slice(at - 2, at + 1)));
      const toggle = async (shows: boolean) => {
        const result = (await callOk(context, 'click', { window_id: prefs.window_id, element_index: tick.index })).structured as unknown as ActionResult;
        assert.equal((await columns()).includes('Status'), shows, `pyatspi: the main window ${shows ? 'shows' : 'hides'} its Status column`);
        await accessibleWindowState(context, window, { include_screenshot: false });
        return result;
      };
      await toggle(true);
      await toggle(false);
      const shownAgain = await toggle(true);
      assert.deepEqual(shownAgain.other_windows_changed?.map((entry) => entry.window_id), [window.id], JSON.stringify(shownAgain));
    } finally {
      process.kill();
    }
  });

  test("Clocks: the Alarms tab's diff says each element it hid or showed once, not also moved; an alarm's delete button, named by its tool tip alone beside the alarm's switch, is named \"Delete\", not by the switch with \"Delete\" as its value", async () => {
    const { process, window } = await desktop.launch('gnome-clocks', [], 'Clocks', 20_000, user.env());
    try {
      await accessibleWindowState(context, window, { include_screenshot: false });
      // The Alarms tab hides the World page and shows its own: each element turned hidden or shown is said so once, not also moved.
      const tab = (await callOk(context, 'click', { window_id: window.id, selector: 'role=tab name=Alarms' })).structured as unknown as ActionResult;
      const flipped = (tab.diff?.changed ?? []).filter((entry) => [...(entry.changes.states?.added ?? []), ...(entry.changes.states?.removed ?? [])].includes('hidden'));
      assert.ok(flipped.length > 0, JSON.stringify(tab.diff));
      const movedToo = (tab.diff?.moved.notable ?? []).filter((entry) => flipped.some((flip) => flip.index === entry.index));
      assert.deepEqual(movedToo, [], JSON.stringify(tab.diff));
      const opened = await callOk(context, 'run_actions', {
        window_id: window.id,
        steps: [
          { tool: 'click', arguments: { selector: 'role=button name="Add Alarm"' } },
          { tool: 'wait_for', arguments: { pid: window.pid, window_title: 'New Alarm' } },
          { tool: 'click', arguments: { window_id: { from_step: 1 }, selector: 'role=button name=Add' } },
          { tool: 'wait_for', arguments: { pid: window.pid, window_title: 'New Alarm', gone: true } },
        ],
      });
      assert.equal((opened.structured as unknown as { completed_steps: number }).completed_steps, 4, opened.body);
      // The case: pyatspi reads the alarm's switch and its delete button with no name of their own (GTK 4's type names) and a tool tip each.
      const buttons = await new PyatspiOracle(desktop.env()).attributes(window.pid, 'ClocksWindow', ['push button', 'check box']);
      const shown = buttons.filter((node) => node.states.includes('visible') && node.extents[2] > 0);
      assert.ok(shown.some((node) => node.role === 'push button' && node.description === 'Delete' && node.name === 'GtkImage'), JSON.stringify(shown));
      assert.ok(shown.some((node) => node.role === 'check box' && node.description === 'Active'), JSON.stringify(shown));
      const deletes = await callOk(context, 'find_elements', { window_id: window.id, selector: 'role=button name=Delete' });
      assert.equal((deletes.structured as unknown as Matches).matches.length, 1, deletes.body);
      const read = await callOk(context, 'get_window_state', { window_id: window.id, include_screenshot: false });
      assert.doesNotMatch(read.body ?? '', /btn "Active"/, read.body);
    } finally {
      process.kill();
    }
  });

  test("Characters: a character's dialog opened by a click on the drawn grid is the window opened, its objects not another window's changes", async () => {
    const { process, window } = await desktop.launch('gnome-characters', [], 'Characters', 20_000, user.env());
    try {
      // A first start shows its recently used characters, none: the Smileys are a grid of them.
      await accessibleWindowState(context, window, { include_screenshot: false });
      await callOk(context, 'click', { window_id: window.id, selector: 'name="Smileys & Emotion" role=row', delivery_mode: 'foreground' });
      const read = (await callOk(context, 'get_window_state', { window_id: window.id, include_screenshot: false })).structured as unknown as { drawn_surfaces?: { bounds: Box }[] };
      const grid = read.drawn_surfaces?.[0]?.bounds;
      assert.ok(grid, JSON.stringify(read.drawn_surfaces));
      // The grid's first character, in window pixels.
      const clicked = (await callOk(context, 'click', { window_id: window.id, x: grid.x + 80, y: grid.y + 60, delivery_mode: 'foreground' })).structured as unknown as ActionResult;
      assert.equal(clicked.new_windows?.length, 1, JSON.stringify(clicked));
      // The case: GTK 4 names the dialog's object by its type, not its title; and the app has no window but these two.
      const tops = JSON.parse((await execFileAsync('/usr/bin/python3', ['-c', `import pyatspi, json
print(json.dumps([w.name for a in pyatspi.Registry.getDesktop(0) if a is not None and a.get_process_id() == ${window.pid} for w in a]))`], { env: desktop.env() })).stdout) as string[];
      assert.deepEqual(tops.sort(), ['Characters', 'Gjs_CharacterDialog'], 'pyatspi: the main window and the dialog, named by its type');
      assert.ok(!(clicked.evidence ?? []).some((line) => /other windows/.test(line)), JSON.stringify(clicked.evidence));
    } finally {
      process.kill();
    }
  });

  test('a tooltip reaching past its window is no popup menu or list to act in: the reading says none', async () => {
    // One word too long to wrap: GTK3 draws the tooltip wider than the fixture's window.
    const tip = `Tip${'W'.repeat(150)}`;
    const { process, window } = await desktop.launchFixture('gtk3', { extraArgs: ['--tooltip', tip] });
    try {
      const { state } = await accessibleWindowState(context, window, { include_screenshot: false });
      const increment = state.elements.find((element) => element.role === 'button' && element.name === 'Increment');
      assert.ok(increment, JSON.stringify(state.elements));
      await callOk(context, 'hover', { window_id: window.id, element_index: increment.index, dwell_ms: 1500 });
      let tips: Box[] = [];
      for (const deadline = Date.now() + 5000; tips.length === 0 && Date.now() < deadline; ) tips = await mappedTooltips(desktop.env());
      const { x, y, width, height } = window.bounds;
      const past = tips.filter((box) => box.x < x || box.y < y || box.x + box.w > x + width || box.y + box.h > y + height);
      assert.ok(past.length > 0, `xprop: a tooltip reaches past the window ${JSON.stringify(window.bounds)}: ${JSON.stringify(tips)}`);
      const read = await callOk(context, 'get_window_state', { window_id: window.id, include_screenshot: false });
      assert.doesNotMatch(read.summary ?? '', /popup/, read.summary);
    } finally {
      process.kill();
    }
  });

  test("GtkTerm: a wait for its window's title as its tree spells it finds it; a wait given its pid for its Configuration dialog finds that one alone, and sees it close while another app's \"Configuration\" stays", async () => {
    const { process, window } = await desktop.launch('gtkterm', [], /^GTKTerm/, 20_000, user.env());
    const other = spawn('zenity', ['--info', '--title', 'Configuration', '--text', 'Another app'], { env: desktop.env(user.env()), stdio: 'ignore' });
    try {
      const x = await desktop.x11();
      const windowsNow = async (pid: number) => (await listClientWindows(x)).filter((each) => each.pid === pid);
      // Its first start warns that it wrote its configuration, in a window with no title; then it names its port in the title.
      let warning: ClientWindow | undefined;
      for (const deadline = Date.now() + 10_000; !warning && Date.now() < deadline; ) warning = (await windowsNow(window.pid)).find((each) => each.id !== window.id);
      assert.ok(warning, 'GtkTerm warns at its first start');
      await accessibleWindowState(context, warning, { include_screenshot: false });
      await callOk(context, 'click', { window_id: warning.id, selector: 'role=button name=OK' });
      let title = '';
      for (const deadline = Date.now() + 10_000; !/ {2}/.test(title) && Date.now() < deadline; ) title = (await windowsNow(window.pid)).find((each) => each.id === window.id)?.title ?? '';
      // The case: X titles the window with two spaces in a row, where its tree shows one.
      assert.match(title, / {2}/, `the window manager reads two spaces in its title: ${JSON.stringify(title)}`);
      const { state } = await accessibleWindowState(context, { ...window, title }, { include_screenshot: false });
      const spelled = state.elements[0]!.name;
      assert.ok(spelled.length > 0 && !/ {2}/.test(spelled), spelled);
      const titled = await callOk(context, 'wait_for', { window_title: spelled, timeout_ms: 2000 });
      assert.deepEqual((titled.structured as unknown as { windows: { window_id: number }[] }).windows.map((each) => each.window_id), [window.id], titled.body);

      // Another app shows a window titled "Configuration" all along.
      for (const deadline = Date.now() + 10_000; !(await listClientWindows(x)).some((each) => each.pid === other.pid && each.title === 'Configuration') && Date.now() < deadline; );
      const plan = await callOk(context, 'run_actions', {
        window_id: window.id,
        steps: [
          { tool: 'invoke_menu', arguments: { path: ['Configuration', 'Port'] } },
          { tool: 'wait_for', arguments: { pid: window.pid, window_title: 'Configuration' } },
          { tool: 'click', arguments: { window_id: { from_step: 1 }, selector: 'role=button name=Cancel' } },
          { tool: 'wait_for', arguments: { pid: window.pid, window_title: 'Configuration', gone: true } },
        ],
      });
      assert.equal((plan.structured as unknown as { completed_steps: number }).completed_steps, 4, plan.body);
      assert.deepEqual((await windowsNow(window.pid)).map((each) => each.id), [window.id], 'GtkTerm closed its dialog');
      assert.ok((await listClientWindows(x)).some((each) => each.pid === other.pid && each.title === 'Configuration'), "the other app's window stays");
    } finally {
      other.kill();
      process.kill();
    }
  });
});
