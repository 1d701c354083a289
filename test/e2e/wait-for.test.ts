// wait_for and find_elements on the GTK3 fixture started with --waits: its buttons add, remove or open something
// 300 ms after a click and log when. The oracles are pyatspi (the element is really there or gone, the app
// really got the click), xdotool (the window really exists) and the fixture's own log of when it changed.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { activateWindow, click } from '../../src/platform/linux/input/index.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { runTool } from '../../src/tools/run.js';
import { runCli, stopDaemon } from '../daemon/helpers.js';
import { FixtureControl } from '../helpers/fixture-control.js';
import { centre, FixtureDesktop } from '../helpers/fixture-desktop.js';
import { connectMcp } from '../helpers/mcp.js';
import { callOk, failsWith } from '../helpers/tools.js';

interface Match {
  element_token: string;
  window_id: number;
  index: number;
  role: string;
  name: string;
  states: string[];
  actions: string[];
  bounds?: { x: number; y: number; w: number; h: number };
}

interface WaitResult {
  elapsed_ms: number;
  woken_by: string;
  reads: number;
  from_events: boolean;
  count: number;
  matches: Match[];
  snapshot_ids: string[];
  windows: { window_id: number; pid: number; title: string }[];
}

const title = 'CUP Fixture Waits';

describe('wait_for and find_elements on a GTK3 app', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;
  let logDir: string;
  let changeLog: string;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    logDir = mkdtempSync(join(tmpdir(), 'cup-waits-'));
    changeLog = join(logDir, 'changes.log');
    window = await fixtures.launch('gtk3', { title, extraArgs: ['--waits', '--change-log', changeLog] });
  });

  after(async () => {
    await stopDaemon(fixtures.desktop.env()).catch(() => undefined);
    await fixtures?.stop();
    rmSync(logDir, { recursive: true, force: true });
  });

  /** When the fixture says it made a change (epoch ms), from its log. */
  function changedAt(what: string): number {
    const line = readFileSync(changeLog, 'utf8').split('\n').find((entry) => entry.startsWith(`${what} `));
    assert.ok(line, `the fixture logged ${what}`);
    return Number(line.split(' ').at(-1));
  }

  async function find(selector: string): Promise<{ count: number; matches: Match[]; snapshot_id: string; nearest_names?: string[] }> {
    const result = await callOk(fixtures.context, 'find_elements', { pid: window.pid, window_id: window.id, selector });
    return result.structured as { count: number; matches: Match[]; snapshot_id: string };
  }

  /** A real click (XTEST, not the driver's tools) on the one element the selector matches. */
  async function realClick(selector: string): Promise<void> {
    const { matches } = await find(selector);
    assert.equal(matches.length, 1, `one element matches ${selector}`);
    assert.equal(await activateWindow(fixtures.x, window.id), true);
    await click(fixtures.x, centre(matches[0]!));
  }

  it('returns when an element appears, read from the app\'s events alone, with a token a click accepts', async () => {
    const waiting = runTool('wait_for', { pid: window.pid, window_id: window.id, selector: 'role=button name^="Arrived"', timeout_ms: 10_000 }, fixtures.context).then((result) => ({ result, at: Date.now() }));
    await realClick('role=btn name="Add later"');
    const { result, at } = await waiting;
    assert.equal(result.ok, true, result.summary);
    const answer = result.structured as unknown as WaitResult;
    assert.equal(answer.count, 1);
    assert.equal(answer.matches[0]!.name, 'Arrived 1');
    assert.equal(answer.woken_by, 'accessibility', 'the answer came from an event, not the periodic look');
    // GTK3 announces the button's addition (gtk_container_add): its container is re-read, not the whole window.
    assert.equal(answer.from_events, true, 'the match was read from what the events named');
    const latency = at - changedAt('added:Arrived 1');
    console.log(`# wait_for latency, app change to answer: ${latency.toFixed(1)} ms (${answer.reads} reads)`);
    assert.ok(latency < 500, `answered ${latency} ms after the change`);
    assert.equal((await fixtures.oracle.find(window.pid, title, 'push button', 'Arrived 1')).found, true, 'pyatspi sees it too');

    const before = (await fixtures.status(window)).counter;
    const clicked = await runTool('click', { element_token: answer.matches[0]!.element_token }, fixtures.context);
    assert.equal(clicked.ok, true, clicked.summary);
    const after = await fixtures.waitForStatus(window, (status) => status.counter === before + 1);
    assert.equal(after.counter, before + 1, 'the app received the click on the element wait_for returned');
  });

  it('gone: true returns once the element is removed', async () => {
    const waiting = runTool('wait_for', { pid: window.pid, selector: 'name="Arrived 1"', gone: true, timeout_ms: 10_000 }, fixtures.context).then((result) => ({ result, at: Date.now() }));
    await realClick('name="Remove later"');
    const { result, at } = await waiting;
    assert.equal(result.ok, true, result.summary);
    const answer = result.structured as unknown as WaitResult;
    assert.equal(answer.count, 0);
    assert.equal(answer.woken_by, 'accessibility');
    assert.equal(answer.from_events, false, 'that nothing matches is seen by a full read only');
    console.log(`# wait_for gone latency: ${(at - changedAt('removed:Arrived 1')).toFixed(1)} ms`);
    assert.equal((await fixtures.oracle.find(window.pid, title, 'push button', 'Arrived 1')).found, false, 'pyatspi no longer finds it');
  });

  it('window_title returns when a dialog opens', async () => {
    const waiting = runTool('wait_for', { pid: window.pid, window_title: 'later DIALOG', timeout_ms: 10_000 }, fixtures.context);
    await realClick('name="Open dialog later"');
    const result = await waiting;
    assert.equal(result.ok, true, result.summary);
    const answer = result.structured as unknown as WaitResult;
    assert.equal(answer.windows.length, 1);
    assert.equal(answer.windows[0]!.title, 'Later dialog');
    assert.notEqual(answer.woken_by, 'start');
    assert.deepEqual(await fixtures.readers.windowsNamed('^Later dialog$'), [answer.windows[0]!.window_id], 'xdotool finds that window');
    // Now the element in the dialog, found across the pid's windows; its token clicks it and the dialog closes.
    const inDialog = await callOk(fixtures.context, 'wait_for', { pid: window.pid, selector: 'name="Close dialog"', timeout_ms: 5000 });
    const match = (inDialog.structured as unknown as WaitResult).matches[0]!;
    assert.equal(match.window_id, answer.windows[0]!.window_id);
    assert.equal((await runTool('click', { element_token: match.element_token }, fixtures.context)).ok, true);
    const closed = await callOk(fixtures.context, 'wait_for', { pid: window.pid, window_title: 'Later dialog', gone: true, timeout_ms: 5000 });
    assert.equal((closed.structured as unknown as WaitResult).windows.length, 0);
    assert.deepEqual(await fixtures.readers.windowsNamed('^Later dialog$'), [], 'xdotool no longer finds it');
  });

  it('times out with what it last saw, within the timeout and a small bound', async () => {
    const started = Date.now();
    const result = await failsWith(fixtures.context, 'wait_for', { pid: window.pid, window_id: window.id, selector: 'role=button name="Incremant"', timeout_ms: 600 }, 'timeout');
    const took = Date.now() - started;
    assert.ok(took >= 600 && took < 600 + 1500, `took ${took} ms`);
    const details = result.structured as { count: number; nearest_names: string[]; window_titles: string[]; reads: number };
    assert.equal(details.count, 0);
    assert.equal(details.nearest_names[0], 'Increment', result.summary);
    assert.ok(details.window_titles.includes(title), result.summary);
    assert.match(result.summary, /timed out after 600 ms.*nearest names "Increment"/);
  });

  it('times out saying which element holds the name sought as its value, as find_elements says it', async () => {
    // Groovy Console's output pane held "42", and a wait for name~=42 timed out naming toolbar buttons as the nearest.
    await callOk(fixtures.context, 'set_value', { window_id: window.id, selector: 'role=textbox name="Name field"', value: 'Quokka 42' });
    assert.ok((await fixtures.oracle.find(window.pid, title, 'text', 'Name field')).text === 'Quokka 42', 'pyatspi: the field holds the text, under its own name');
    const result = await failsWith(fixtures.context, 'wait_for', { window_id: window.id, selector: 'role=textbox name~="Quokka"', timeout_ms: 300 }, 'timeout');
    assert.match(result.summary, /it is the value, not the name, of \[e\d+\] textbox "Name field" = "Quokka 42": ask value in place of name/);
    assert.deepEqual((result.structured as { by_value?: string[] }).by_value?.length, 1, result.summary);
    await callOk(fixtures.context, 'set_value', { window_id: window.id, selector: 'role=textbox name="Name field"', value: '' });
  });

  it('times out on time while an app too busy to answer is being read, saying what the look before saw', async () => {
    // The app stops answering (its main loop works 4 s) just before the wait's periodic look: that look runs past the
    // timeout. A 3000 ms wait had answered after 5528 ms, held by such a read.
    const busy = await fixtures.launch('gtk3', { title: 'CUP Fixture Busy', extraArgs: ['--busy-ms', '4000'] });
    try {
      const started = Date.now();
      const waiting = failsWith(fixtures.context, 'wait_for', { pid: busy.pid, window_id: busy.id, selector: 'name="Never there"', timeout_ms: 1500 }, 'timeout');
      await sleep(700);
      process.kill(busy.pid, 'SIGUSR1');
      const result = await waiting;
      const took = Date.now() - started;
      assert.ok(took >= 1500 && took < 1500 + 700, `answered after ${took} ms`);
      assert.match(result.summary, /timed out after 1500 ms/);
      assert.ok((await fixtures.oracle.find(busy.pid, 'CUP Fixture Busy', 'push button', 'Increment')).found, 'pyatspi reads the app once it answers again');
      // Busy from the start, the first look itself is held: the wait still answers on time, saying it saw nothing yet.
      process.kill(busy.pid, 'SIGUSR1');
      const first = Date.now();
      const held = await failsWith(fixtures.context, 'wait_for', { pid: busy.pid, window_id: busy.id, selector: 'name="Never there"', timeout_ms: 1500 }, 'timeout');
      const heldTook = Date.now() - first;
      assert.ok(heldTook >= 1500 && heldTook < 1500 + 700, `answered after ${heldTook} ms`);
      assert.match(held.summary, /timed out after 1500 ms .*the first look, begun \d+ ms before, had not ended/, held.summary);
      assert.ok((await fixtures.oracle.find(busy.pid, 'CUP Fixture Busy', 'push button', 'Increment')).found, 'pyatspi reads the app once it answers again');
    } finally {
      process.kill(busy.pid);
    }
  });

  it('stops promptly when the caller cancels', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const waiting = runTool('wait_for', { pid: window.pid, selector: 'name="Never there"', timeout_ms: 20_000 }, { ...fixtures.context, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('cancelled by the test')), 200);
    const result = await waiting;
    assert.equal(result.ok, false);
    assert.equal(result.structured.error, 'cancelled', result.summary);
    assert.ok(Date.now() - started < 1000, `stopped after ${Date.now() - started} ms`);
    // Who cancelled, and what the wait had seen by then, as a timeout says it.
    assert.match(result.summary, /cancelled by the caller after \d+ ms; last seen: 0 matches; .*windows .*"CUP Fixture Waits"/);
    assert.ok((result.structured.window_titles as string[]).includes(title), JSON.stringify(result.structured));
  });

  it('find_elements: ">>" scopes, [index=N] picks, and a bad selector names its position', async () => {
    const rows = await find('name=Items >> role=option');
    assert.ok(rows.count >= 3, `rows: ${rows.count}`);
    const third = await find('name=Items >> role=option [index=2]');
    assert.equal(third.count, 1);
    assert.equal(third.matches[0]!.index, rows.matches[2]!.index);
    const last = await find('name=Items >> role=option [index=-1]');
    assert.equal(last.matches[0]!.index, rows.matches.at(-1)!.index);
    const nowhere = await find('role=button >> role=option');
    assert.equal(nowhere.count, 0);
    const disabled = await find('role=button disabled');
    assert.deepEqual(disabled.matches.map((match) => match.name), ['Disabled button']);
    const near = await find('name="Incremnt"');
    assert.equal(near.nearest_names?.[0], 'Increment');

    const bad = await failsWith(fixtures.context, 'find_elements', { pid: window.pid, window_id: window.id, selector: 'role=button nme=x' }, 'invalid_selector');
    assert.equal((bad.structured as { position: number }).position, 12);
    assert.match(bad.summary, /unknown field "nme"/);
    const role = await failsWith(fixtures.context, 'find_elements', { pid: window.pid, window_id: window.id, selector: 'role=buton' }, 'invalid_selector');
    assert.match(role.summary, /did you mean button/);
  });

  it('over MCP: find_elements and wait_for, and the token clicks', async () => {
    const { client } = await connectMcp(fixtures.desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-config-')) }));
    try {
      const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: args })) as CallToolResult;
      const found = await call('find_elements', { pid: window.pid, window_id: window.id, selector: 'role=button name="Add later"' });
      assert.equal(found.isError, undefined, JSON.stringify(found.content));
      const token = (found.structuredContent as { matches: Match[] }).matches[0]!.element_token;
      const waiting = call('wait_for', { pid: window.pid, window_id: window.id, selector: 'name="Arrived 1"', timeout_ms: 10_000 });
      assert.equal((await call('click', { element_token: token })).isError, undefined);
      const waited = await waiting;
      assert.equal(waited.isError, undefined, JSON.stringify(waited.content));
      const answer = waited.structuredContent as unknown as WaitResult;
      assert.equal(answer.matches[0]!.name, 'Arrived 1');
      assert.equal((await fixtures.oracle.find(window.pid, title, 'push button', 'Arrived 1')).found, true);
      const bad = await call('wait_for', { pid: window.pid, selector: 'role=button [index=x]', timeout_ms: 100 });
      assert.equal(bad.isError, true);
      assert.equal((bad.structuredContent as { error: string }).error, 'invalid_selector');
    } finally {
      await client.close();
    }
  });

  it('from the CLI: find_elements, and a wait that times out is error [timeout] on stderr', async () => {
    const env = fixtures.desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-config-')) });
    const found = await runCli(['call', 'find_elements', JSON.stringify({ pid: window.pid, window_id: window.id, selector: 'role=btn name~=later' }), '--json'], env);
    assert.equal(found.status, 0, found.stderr);
    const names = (JSON.parse(found.stdout) as { structuredContent: { matches: Match[] } }).structuredContent.matches.map((match) => match.name);
    assert.deepEqual(names, ['Add later', 'Remove later', 'Open dialog later']);
    const waited = await runCli(['call', 'wait_for', JSON.stringify({ pid: window.pid, selector: 'name="Never there"', timeout_ms: 300 })], env);
    assert.equal(waited.status, 1);
    assert.match(waited.stderr, /error \[timeout\]/);
  });
  it('window_title: a window renamed while its app changes all the time is seen by its title, without reading the window list at each of the app\'s events', async () => {
    // The app's label counts up every 5 ms (hundreds of accessibility events a second); its title changes once. A wait
    // for a title read the window list again at each of the app's events (219 reads in 770 ms of a busy app).
    const socket = join(logDir, 'control');
    const busy = await fixtures.launch('gtk3', { title: 'CUP Fixture Ticking', extraArgs: ['--tick-ms', '5', '--control', socket] });
    const control = await FixtureControl.open(socket);
    try {
      const waiting = runTool('wait_for', { pid: busy.pid, window_title: 'renamed AT LAST', timeout_ms: 10_000 }, fixtures.context);
      await sleep(600);
      await control.send({ do: 'set_title', text: 'CUP Fixture Renamed at last' });
      const result = await waiting;
      assert.equal(result.ok, true, result.summary);
      const answer = result.structured as unknown as WaitResult;
      assert.deepEqual(answer.windows.map((each) => each.window_id), [busy.id]);
      assert.equal(answer.woken_by, 'windows');
      assert.ok(answer.reads <= 3, `${answer.reads} reads of the window list in 600 ms`);
      assert.deepEqual(await fixtures.readers.windowsNamed('^CUP Fixture Renamed at last$'), [busy.id], 'xdotool finds the window by its new title');
      // An element absent from an app that never stops changing is believed gone after a few looks, not waited out.
      const gone = await callOk(fixtures.context, 'wait_for', { window_id: busy.id, selector: 'name="Never there"', gone: true, timeout_ms: 5000 });
      assert.equal((gone.structured as unknown as WaitResult).count, 0, gone.summary);
    } finally {
      control.close();
      process.kill(busy.pid);
    }
  });

  it('a list refilled again and again (new rows every 150 ms): each read holds all its rows or says it is partial, never rows destroyed as they were read', async () => {
    // Last in the file: its churn of objects keeps the accessibility bus (and pyatspi's cache) busy a while after.
    // Between two turns of its main loop the fixture's list always holds its 40 rows (each refill removes and adds
    // them in one handler); a read spans many turns. It had shown the rows destroyed under it as disabled hidden
    // generics, or fewer rows, and said nothing of it.
    const refill = await fixtures.launch('gtk3', { title: 'CUP Fixture Refill', extraArgs: ['--refill-ms', '150'] });
    let whole = 0;
    // Its refills would load the machine under the tests that follow.
    after(() => process.kill(refill.pid));
    for (let round = 0; round < 8; round++) {
      type Found = { count: number; degraded_reason?: string; truncated: boolean };
      const options = (await callOk(fixtures.context, 'find_elements', { window_id: refill.id, selector: 'name=Items >> role=option' })).structured as Found;
      const generics = (await callOk(fixtures.context, 'find_elements', { window_id: refill.id, selector: 'name=Items >> role=generic' })).structured as Found;
      const partial = (found: Found) => found.degraded_reason !== undefined || found.truncated;
      assert.ok(options.count === 40 || partial(options), `40 rows or a partial read said so: ${options.count} (${options.degraded_reason})`);
      assert.ok(generics.count === 0 || partial(generics), `no destroyed rows shown: ${generics.count} generics under the list`);
      if (options.count === 40) whole++;
    }
    console.log(`# refilled list: ${whole} of 8 reads whole, the others said partial`);
    // A row that is always there is never gone. Read right on the app's events, in the middle of a refill, the rows
    // being removed had no name and no children, and a wait for a row to be gone answered "nothing matches" (CI,
    // after 9 reads; 4 waits of 6 in a script): an absence read while the app changed the window is looked for again.
    for (let round = 0; round < 3; round++) {
      const still = await failsWith(fixtures.context, 'wait_for', { window_id: refill.id, selector: 'role=option name~="Row 3 (rebuilt"', gone: true, timeout_ms: 2000 }, 'timeout');
      assert.match(still.summary, /timed out after 2000 ms/);
    }
  });
});
