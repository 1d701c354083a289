// Trajectory recording and replay through the real clients: an MCP client records element, pixel and typing actions
// on the GTK3 fixture; the turn folders are read from disk (PNG sizes and pixels by sharp, the app state as a CUP
// envelope); the app is killed, started afresh, and the CLI replays the recording through the daemon. What the fresh
// app received is read by pyatspi. Two sessions record at once on one daemon without mixing.
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import sharp from 'sharp';
import { validateEnvelope } from '../../src/cup/index.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { callCliJson, stopDaemon, waitUntil } from '../daemon/helpers.js';
import { TestDesktop } from '../helpers/desktop.js';
import { connectMcp } from '../helpers/mcp.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { XReaders } from '../helpers/x-readers.js';

interface Element {
  index: number;
  role: string;
  name: string;
  bounds?: { x: number; y: number; w: number; h: number };
}

interface ActionJson {
  turn: number;
  tool: string;
  arguments: Record<string, unknown>;
  result: { ok: boolean; summary: string; effect?: string };
  session: string;
  pid: number;
  window: { window_id: number; title: string; app_name: string };
  click_point?: { x: number; y: number; screen_x: number; screen_y: number };
  element?: { role: string; name: string; ancestry: { role: string; name: string }[]; occurrence: number };
  window_pixels?: Record<string, number>;
  time: string;
  files: string[];
}

describe('recording and replay', () => {
  let desktop: TestDesktop;
  let oracle: PyatspiOracle;
  let env: NodeJS.ProcessEnv;
  let window: ClientWindow;
  const clients: Client[] = [];
  const recorded = mkdtempSync(join(tmpdir(), 'cup-trajectory-'));

  async function mcp(): Promise<Client> {
    const { client } = await connectMcp(env);
    clients.push(client);
    return client;
  }

  async function call(client: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult & { structuredContent: Record<string, unknown> }> {
    return (await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as CallToolResult & { structuredContent: Record<string, unknown> };
  }

  const cli = (tool: string, args: Record<string, unknown>, session?: string) => callCliJson(env, tool, args, session ? ['--session', session] : []);

  async function elements(client: Client, target: ClientWindow): Promise<Element[]> {
    let found: Element[] = [];
    await waitUntil('the fixture is accessible', 15_000, async () => {
      const state = await call(client, 'get_window_state', { pid: target.pid, window_id: target.id, include_screenshot: false });
      found = (state.structuredContent.elements as Element[] | undefined) ?? [];
      return found.some((element) => element.name === 'Increment');
    });
    return found;
  }

  function named(list: Element[], name: string): Element {
    const found = list.find((element) => element.name === name);
    assert.ok(found, `no element "${name}"`);
    return found;
  }

  const status = (target: ClientWindow) => oracle.status(target.pid, target.title);
  const pasted = async (target: ClientWindow) => (await oracle.find(target.pid, target.title, 'text', 'Paste target')).text ?? '';

  before(async () => {
    desktop = await TestDesktop.start();
    oracle = new PyatspiOracle(desktop.env());
    env = desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-config-')), CUP_DRIVER_IDLE_TIMEOUT: '120' });
    window = (await desktop.launchFixture('gtk3')).window;
  });

  after(async () => {
    for (const client of clients) await client.close();
    if (env) await stopDaemon(env);
    oracle?.close();
    await desktop?.stop();
  });

  test('an MCP session records element, pixel and typing actions as whole turn folders', async () => {
    const client = await mcp();
    const list = await elements(client, window);
    const increment = named(list, 'Increment');
    const started = await call(client, 'start_recording', { output_dir: recorded });
    assert.ok(!started.isError, JSON.stringify(started.content));
    assert.deepEqual([started.structuredContent.recording, started.structuredContent.next_turn], [true, 1]);

    const actions: [string, Record<string, unknown>][] = [
      ['click', { window_id: window.id, element_index: increment.index }],
      ['type_text', { window_id: window.id, element_index: named(list, 'Paste target').index, text: 'replayed ✓' }],
      // Window-local screenshot pixels of the Increment button's centre (the window is not downscaled).
      ['click', { window_id: window.id, x: increment.bounds!.x + increment.bounds!.w / 2 - window.bounds.x, y: increment.bounds!.y + increment.bounds!.h / 2 - window.bounds.y }],
    ];
    for (const [tool, args] of actions) {
      const result = await call(client, tool, args);
      assert.ok(!result.isError, `${tool}: ${JSON.stringify(result.content)}`);
      assert.equal(result.structuredContent.effect, 'confirmed', `${tool}: ${JSON.stringify(result.content)}`);
    }
    // Reads are not actions: they write no turn.
    await call(client, 'get_window_state', { pid: window.pid, window_id: window.id, include_screenshot: false });
    const state = await call(client, 'get_recording_state', {});
    assert.deepEqual([state.structuredContent.next_turn, state.structuredContent.turns_written], [4, 3]);
    const stopped = await call(client, 'stop_recording', {});
    assert.deepEqual([stopped.structuredContent.stopped, stopped.structuredContent.turns_written], [true, 3]);
    assert.deepEqual([(await status(window)).counter, await pasted(window)], ['2', 'replayed ✓'], 'the recorded actions happened (pyatspi)');

    assert.deepEqual(readdirSync(recorded).sort(), ['turn-00001', 'turn-00002', 'turn-00003'], 'three turn folders and nothing half-written');
    const records = [1, 2, 3].map((turn) => JSON.parse(readFileSync(join(recorded, `turn-0000${turn}`, 'action.json'), 'utf8')) as ActionJson);
    records.forEach((record, index) => {
      assert.equal(record.turn, index + 1);
      assert.equal(record.tool, actions[index]![0]);
      assert.deepEqual(record.arguments, actions[index]![1], 'the arguments as given');
      assert.equal(record.result.ok, true);
      assert.equal(record.pid, window.pid);
      assert.deepEqual([record.window.window_id, record.window.title], [window.id, window.title]);
      assert.ok(!Number.isNaN(Date.parse(record.time)) && record.time.endsWith('Z'), `ISO-8601 time: ${record.time}`);
      const files = readdirSync(join(recorded, `turn-0000${index + 1}`)).sort();
      assert.deepEqual(files, [...record.files].sort(), 'action.json lists the files the folder has');
      assert.deepEqual(files, record.tool === 'click' ? ['action.json', 'app_state.json', 'click.png', 'screenshot.png'] : ['action.json', 'app_state.json', 'screenshot.png']);
    });
    assert.deepEqual(records[0]!.element && [records[0]!.element.role, records[0]!.element.name, records[0]!.element.ancestry[0]?.role], ['button', 'Increment', 'window']);
    assert.equal(records[1]!.element?.name, 'Paste target');
    assert.equal(records[2]!.element, undefined, 'a pixel click has no element');
    const centre = { x: Math.round(increment.bounds!.x + increment.bounds!.w / 2) - window.bounds.x, y: Math.round(increment.bounds!.y + increment.bounds!.h / 2) - window.bounds.y };
    assert.deepEqual(records[2]!.window_pixels, { x: Math.round(actions[2]![1].x as number), y: Math.round(actions[2]![1].y as number) });
    for (const record of [records[0]!, records[2]!]) {
      assert.ok(Math.abs(record.click_point!.x - centre.x) <= 1 && Math.abs(record.click_point!.y - centre.y) <= 1, `click point ${JSON.stringify(record.click_point)} is the button's centre ${JSON.stringify(centre)}`);
      assert.equal(record.click_point!.screen_x - record.click_point!.x, window.bounds.x);
    }

    // The app state after each action: a valid CUP envelope showing that action's effect (the status label's
    // counter, the field's text).
    const states = [1, 2, 3].map((turn) => {
      const envelope = JSON.parse(readFileSync(join(recorded, `turn-0000${turn}`, 'app_state.json'), 'utf8'));
      assert.deepEqual(validateEnvelope(envelope), { valid: true, errors: [] }, `turn ${turn}: app_state.json is a valid CUP envelope`);
      assert.equal(envelope.app.pid, window.pid);
      const nodes: { name: string; value?: string; children?: unknown[] }[] = [];
      const walk = (node: { name: string; value?: string; children?: unknown[] }) => {
        nodes.push(node);
        for (const child of node.children ?? []) walk(child as typeof node);
      };
      envelope.tree.forEach(walk);
      return [/counter=\d+/.exec(JSON.stringify(envelope))?.[0], nodes.find((node) => node.name === 'Paste target')?.value ?? ''];
    });
    assert.deepEqual(states, [['counter=1', ''], ['counter=1', 'replayed ✓'], ['counter=2', 'replayed ✓']]);

    // The screenshot is the window at full size; click.png is it with the point marked in red.
    for (const record of [records[0]!, records[2]!]) {
      const folder = join(recorded, `turn-0000${record.turn}`);
      const shot = await sharp(join(folder, 'screenshot.png')).raw().toBuffer({ resolveWithObject: true });
      assert.deepEqual([shot.info.width, shot.info.height], [window.bounds.width, window.bounds.height]);
      const marked = await sharp(join(folder, 'click.png')).removeAlpha().raw().toBuffer({ resolveWithObject: true });
      const at = (image: typeof shot, x: number, y: number) => [...image.data.subarray((y * image.info.width + x) * image.info.channels, (y * image.info.width + x) * image.info.channels + 3)];
      const { x, y } = record.click_point!;
      assert.deepEqual(at(marked, x, y), [255, 0, 0], 'the marker is at the click point');
      assert.notDeepEqual(at(shot, x, y), [255, 0, 0], 'the plain screenshot has no marker');
      assert.deepEqual(at(marked, x + 40, y), at(shot, x + 40, y), 'away from the point the two agree');
    }
  });

  test('the CLI replays the recording through the daemon on a fresh run of the app', async () => {
    const killed = await call(clients[0]!, 'kill_app', { pid: window.pid });
    assert.deepEqual(killed.structuredContent, { pid: window.pid, killed: true });
    assert.ok(!(await new XReaders(env).clientList()).includes(window.id), 'kill_app answers once the window manager no longer lists the window (xprop)');
    window = (await desktop.launchFixture('gtk3')).window;
    let unseen = '';
    await waitUntil('the fresh fixture is accessible (pyatspi)', 15_000, async () => {
      const counter = (await status(window).catch((error: Error) => void (unseen = error.message)))?.counter;
      return counter === '0';
    }).catch((error: Error) => {
      throw new Error(`${error.message}; pyatspi's last answer: ${unseen}`);
    });
    const replay = await cli('replay_trajectory', { dir: recorded, delay_ms: 100 });
    assert.equal(replay.status, 0, replay.stderr);
    const steps = replay.json.steps as { turn: string; ok: boolean; window_id?: number; element_token?: string }[];
    assert.deepEqual(steps.map((step) => [step.turn, step.ok, step.window_id]), [
      ['turn-00001', true, window.id],
      ['turn-00002', true, window.id],
      ['turn-00003', true, window.id],
    ]);
    assert.ok(steps[0]!.element_token && steps[1]!.element_token && !steps[2]!.element_token, 'element turns were found again; the pixel turn needs no element');
    assert.deepEqual([(await status(window)).counter, await pasted(window)], ['2', 'replayed ✓'], 'the fresh app received both clicks and the text (pyatspi)');
  });

  test('a turn whose element is gone stops the replay and says which turn and why', async () => {
    const broken = mkdtempSync(join(tmpdir(), 'cup-trajectory-'));
    cpSync(recorded, broken, { recursive: true });
    const path = join(broken, 'turn-00002', 'action.json');
    const record = JSON.parse(readFileSync(path, 'utf8')) as ActionJson;
    record.element!.name = 'No such field';
    writeFileSync(path, JSON.stringify(record));
    const before = await status(window);
    const replay = await cli('replay_trajectory', { dir: broken, delay_ms: 0 });
    assert.equal(replay.status, 1);
    assert.equal(replay.json.error, 'replay_step_failed');
    assert.match(String(replay.json.message), /turn-00002 \(type_text\).*no textbox "No such field" in the window now \(its textbox elements: "Name field", "Paste target"/);
    assert.equal(replay.json.failed_turn, 'turn-00002');
    assert.equal(Number((await status(window)).counter), Number(before.counter) + 1, 'turn 1 ran, turn 3 did not');
    const missing = await cli('replay_trajectory', { dir: mkdtempSync(join(tmpdir(), 'cup-empty-')) });
    assert.equal(missing.status, 1);
    assert.equal(missing.json.error, 'not_a_trajectory');
  });


  test('an action.json edited by hand or cut short stops the replay at that turn, naming the field, before it acts', async () => {
    const edits: [string, (record: Record<string, unknown>, text: string) => string, RegExp][] = [
      ['result removed', (record) => JSON.stringify({ ...record, result: undefined }), /turn-00002\/action\.json is not a turn start_recording wrote \(result: .*expected object, received undefined\); restore it, or remove the turn folder/],
      ['arguments a string', (record) => JSON.stringify({ ...record, arguments: 'x' }), /\(arguments: .*expected record, received string\)/],
      ['window without its title', (record) => JSON.stringify({ ...record, window: { window_id: 5, pid: 1 } }), /\(window\.title: .*expected string.*window\.app_name: .*expected string/],
      ['element ancestry null', (record) => JSON.stringify({ ...record, element: { ...(record.element as object), ancestry: null } }), /\(element\.ancestry: .*expected array, received null\)/],
      ['cut short', (_record, text) => text.slice(0, 100), /turn-00002.action\.json is not valid JSON, cut short or edited since it was recorded/],
    ];
    for (const [what, edit, expected] of edits) {
      const broken = mkdtempSync(join(tmpdir(), 'cup-trajectory-'));
      cpSync(recorded, broken, { recursive: true });
      const path = join(broken, 'turn-00002', 'action.json');
      const text = readFileSync(path, 'utf8');
      writeFileSync(path, edit(JSON.parse(text) as Record<string, unknown>, text));
      const before = await status(window);
      const replay = await cli('replay_trajectory', { dir: broken, delay_ms: 0 });
      assert.equal(replay.status, 1, what);
      assert.deepEqual([replay.json.error, replay.json.failed_turn], ['replay_step_failed', 'turn-00002'], what);
      assert.match(String(replay.json.message), expected, what);
      assert.doesNotMatch(String(replay.json.message), /Cannot read properties|undefined \(pid/, `${what}: no internal error`);
      assert.equal(Number((await status(window)).counter), Number(before.counter) + 1, `${what}: turn 1 ran, turn 3 did not (pyatspi)`);
    }
  });
  test('two sessions record at once on one daemon without mixing, and may not share a folder', async () => {
    const [alphaDir, betaDir] = [mkdtempSync(join(tmpdir(), 'cup-alpha-')), mkdtempSync(join(tmpdir(), 'cup-beta-'))];
    for (const [session, dir] of [['alpha', alphaDir], ['beta', betaDir]] as const) {
      const started = await cli('start_recording', { output_dir: dir }, session);
      assert.equal(started.status, 0, started.stderr);
    }
    const taken = await cli('start_recording', { output_dir: betaDir }, 'gamma');
    assert.equal(taken.status, 1);
    assert.equal(taken.json.error, 'output_dir_in_use');
    assert.match(String(taken.json.message), /session "beta" is recording into/);
    const client = await mcp();
    const list = await elements(client, window);
    const alphaState = await cli('get_window_state', { pid: window.pid, window_id: window.id, include_screenshot: false }, 'alpha');
    assert.equal(alphaState.status, 0);
    const betaState = await cli('get_window_state', { pid: window.pid, window_id: window.id, include_screenshot: false }, 'beta');
    assert.equal(betaState.status, 0);
    // Interleaved, and partly at the same time.
    const runs = await Promise.all([
      cli('click', { window_id: window.id, element_index: named(list, 'Increment').index }, 'alpha'),
      cli('set_value', { window_id: window.id, element_index: named(list, 'Name field').index, value: 'beta was here' }, 'beta'),
    ]);
    for (const run of runs) assert.equal(run.status, 0, run.stderr);
    // GTK reads no key events sent in the background and no element of the window reports the focus: the Escape is not
    // delivered (the CLI's exit status 3), and is a turn of the recording all the same.
    const escape = await cli('press_key', { window_id: window.id, key: 'Escape' }, 'alpha');
    assert.equal(escape.status, 3, JSON.stringify(escape.json));
    assert.equal((await cli('click', { window_id: window.id, element_index: named(list, 'Increment').index }, 'beta')).status, 0);
    // An MCP session that does not record writes into neither.
    await call(client, 'click', { window_id: window.id, element_index: named(list, 'Increment').index });
    for (const session of ['alpha', 'beta']) assert.equal((await cli('stop_recording', {}, session)).status, 0);

    const turnsOf = (dir: string) => readdirSync(dir).sort().map((turn) => JSON.parse(readFileSync(join(dir, turn, 'action.json'), 'utf8')) as ActionJson);
    assert.deepEqual(turnsOf(alphaDir).map((record) => [record.turn, record.session, record.tool]), [[1, 'alpha', 'click'], [2, 'alpha', 'press_key']]);
    assert.deepEqual(turnsOf(betaDir).map((record) => [record.turn, record.session, record.tool]), [[1, 'beta', 'set_value'], [2, 'beta', 'click']]);
    assert.equal((await oracle.find(window.pid, window.title, 'text', 'Name field')).text, 'beta was here');
    // A folder that holds a recording is not written over unless asked.
    const again = await cli('start_recording', { output_dir: alphaDir }, 'alpha');
    assert.equal(again.status, 1);
    assert.equal(again.json.error, 'output_dir_in_use');
    assert.match(String(again.json.message), /overwrite: true/);
    const overwritten = await cli('start_recording', { output_dir: alphaDir, overwrite: true }, 'alpha');
    assert.equal(overwritten.status, 0, overwritten.stderr);
    // The old turns are gone; the folder holds only the marker of the recording now running (see Faults).
    assert.deepEqual(readdirSync(alphaDir), ['.recording.json']);
    assert.equal((await cli('stop_recording', {}, 'alpha')).status, 0);
    assert.ok(!existsSync(join(alphaDir, 'turn-00001')));
  });
  test('stop_recording during an action of its session waits for that action\'s turn: the folder holds what it counts, and nothing comes after', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cup-stop-midway-'));
    const client = await mcp();
    const field = named(await elements(client, window), 'Paste target');
    assert.ok(!(await call(client, 'start_recording', { output_dir: dir })).isError);
    // Typed key by key in the foreground, 80 ms apart: about 2 s under way.
    const typing = call(client, 'type_text', { window_id: window.id, element_index: field.index, text: 'stopped midway', delivery_mode: 'foreground', delay_ms: 80 });
    await waitUntil('the typing took its turn', 10_000, async () => (await call(client, 'get_recording_state', {})).structuredContent.next_turn === 2);
    const stopped = await call(client, 'stop_recording', {});
    assert.ok(!stopped.isError, JSON.stringify(stopped.content));
    const typed = await typing;
    assert.ok(!typed.isError, JSON.stringify(typed.content));
    const turns = () => readdirSync(dir).filter((name) => name.startsWith('turn-'));
    assert.deepEqual(turns(), ['turn-00001'], 'the action that was under way is recorded, whole');
    assert.equal(stopped.structuredContent.turns_written, 1, 'stop_recording counts the turn it waited for');
    await sleep(1000);
    assert.deepEqual(readdirSync(dir), ['turn-00001'], 'nothing is written into the folder after stop_recording answered');
  });
});
