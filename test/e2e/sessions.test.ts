import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { runCli, stopDaemon, waitUntil } from '../daemon/helpers.js';
import { TestDesktop } from '../helpers/desktop.js';
import { connectMcp } from '../helpers/mcp.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { XReaders } from '../helpers/x-readers.js';

interface SessionRecord {
  session: string;
  declared: boolean;
  ttl_s: number;
  calls: number;
  owns: { key: string; label: string }[];
}

function text(result: CallToolResult): string {
  return (result.content[0] as { text: string }).text;
}

/**
 * Sessions with a life cycle, and mouse buttons held across calls, over the CLI (through the daemon, where
 * sessions outlive a call) and MCP: what a session owns is undone when it ends or its idle limit reclaims it,
 * judged by GDK's view of the buttons, xwininfo's view of its cursor and pyatspi's view of the app.
 */
describe('sessions and held mouse buttons over the CLI and MCP', () => {
  let desktop: TestDesktop;
  let env: NodeJS.ProcessEnv;
  let x: XReaders;
  let window: ClientWindow;
  let oracle: PyatspiOracle;
  let viaDaemon: Client;
  let inProcess: Client;

  before(async () => {
    desktop = await TestDesktop.start();
    env = desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-sessions-')), CUP_DRIVER_IDLE_TIMEOUT: '120' });
    x = new XReaders(env);
    window = (await desktop.launchFixture('gtk3', { title: 'Sessions Fixture' })).window;
    oracle = new PyatspiOracle(desktop.env());
    ({ client: viaDaemon } = await connectMcp(env, ['mcp', '--daemon']));
    ({ client: inProcess } = await connectMcp(env, ['mcp']));
  });

  after(async () => {
    await viaDaemon?.close();
    await inProcess?.close();
    oracle?.close();
    if (env) await stopDaemon(env);
    await desktop?.stop();
  });

  async function cli(tool: string, args: Record<string, unknown> = {}, session?: string): Promise<Record<string, unknown>> {
    const run = await runCli(['call', tool, JSON.stringify(args), '--json', ...(session ? ['--session', session] : [])], env);
    const parsed = JSON.parse(run.stdout) as { isError: boolean; content: { text: string }[]; structuredContent: Record<string, unknown> };
    assert.equal(parsed.isError, false, parsed.content[0]?.text ?? run.stderr);
    return parsed.structuredContent;
  }

  async function mcp(client: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
    const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
    assert.ok(!result.isError, text(result));
    return result;
  }

  /** The Volume slider's box in window-local pixels, and its value as pyatspi reads it. */
  async function slider(): Promise<{ x: number; y: number; w: number; h: number }> {
    const found = await mcp(inProcess, 'find_elements', { pid: window.pid, window_id: window.id, selector: 'name=Volume' });
    const bounds = (found.structuredContent as { matches: { bounds: { x: number; y: number; w: number; h: number } }[] }).matches[0]!.bounds;
    const windows = await mcp(inProcess, 'list_windows', { pid: window.pid });
    const box = (windows.structuredContent as { windows: { window_id: number; bounds: { x: number; y: number } }[] }).windows.find((w) => w.window_id === window.id)!.bounds;
    return { x: bounds.x - box.x, y: bounds.y - box.y, w: bounds.w, h: bounds.h };
  }
  const volume = async () => (await oracle.values(window.pid, window.title, 'slider'))[0]!;

  test('CLI: start_session is idempotent, list_sessions and get_session describe it, end_session ends it once', async () => {
    const started = await cli('start_session', { session: 'run-1' });
    assert.equal(started.started, true);
    assert.equal(started.where, 'kept by the daemon between calls');
    const again = await cli('start_session', { session: 'run-1', ttl_s: 600 });
    assert.equal(again.started, false);
    assert.equal(again.ttl_s, 600);
    await cli('set_config', { max_image_dimension: 640 }, 'run-1');
    const listed = (await cli('list_sessions')).sessions as SessionRecord[];
    const run1 = listed.find((entry) => entry.session === 'run-1');
    assert.ok(run1, JSON.stringify(listed));
    assert.equal(run1.declared, true);
    assert.equal(run1.ttl_s, 600);
    assert.ok(run1.owns.some((item) => item.key === 'config'), 'its config override is something it owns');
    const described = await cli('get_session', {}, 'run-1');
    assert.equal(described.session, 'run-1');
    assert.equal(described.calls, 4, 'two starts, set_config and this get_session (list_sessions ran in the anonymous session)');

    const ended = await cli('end_session', { session: 'run-1' });
    assert.equal(ended.ended, true);
    assert.ok((ended.undone as { label: string }[]).some((item) => /config overrides/.test(item.label)));
    const after = (await cli('list_sessions')).sessions as SessionRecord[];
    assert.equal(after.some((entry) => entry.session === 'run-1'), false);
    assert.equal((await cli('end_session', { session: 'run-1' })).ended, false, 'ending it again: nothing was running');
    assert.equal((await cli('get_config', {}, 'run-1')).max_image_dimension, 1568, 'a session of that name starts afresh, without the override');
    await cli('end_session', { session: 'run-1' });
  });

  test('MCP (daemon): end_session releases the button the session holds and hides its agent cursor', async () => {
    const session = 'gesture-a';
    await mcp(viaDaemon, 'start_session', { session });
    await mcp(viaDaemon, 'move_cursor', { x: 300, y: 300, session });
    const [cursor] = await x.windowsNamed(`cup-driver agent cursor \\(${session}\\)`);
    assert.ok(cursor, 'the session drew its agent cursor');
    assert.equal(await x.mapState(cursor), 'IsViewable');
    const box = await slider();
    const down = await mcp(viaDaemon, 'mouse_button_down', { window_id: window.id, x: box.x + 10, y: Math.round(box.y + box.h * 0.62), session });
    assert.deepEqual((down.structuredContent as { held: string[] }).held, ['left']);
    assert.deepEqual(await x.buttonsDown(), [1], 'GDK sees button 1 down after the call returned');
    const described = await mcp(viaDaemon, 'get_session', { session });
    assert.ok((described.structuredContent as unknown as SessionRecord).owns.some((item) => item.key === 'mouse_buttons'));

    const ended = await mcp(viaDaemon, 'end_session', { session });
    assert.match(text(ended), /left mouse button held, released/);
    assert.deepEqual(await x.buttonsDown(), [], 'no button stays down');
    // Its cursor window is destroyed (or at least unmapped): either way it is gone from the screen.
    const state = await x.mapState(cursor).catch((error: Error) => (/No such window/.test(error.message) ? 'destroyed' : Promise.reject(error)));
    assert.ok(['IsUnMapped', 'destroyed'].includes(state), `its cursor is gone from the screen (${state})`);
  });

  test('a session idle past its ttl is reclaimed on time with everything it owns (no further call needed)', async () => {
    const session = 'short-lived';
    // A long ttl while it is set up (a CLI call can take seconds on a busy machine), then 2 s from the last call.
    await cli('start_session', { session, ttl_s: 120 });
    await cli('set_config', { max_image_dimension: 500 }, session);
    const box = await slider();
    await cli('mouse_button_down', { window_id: window.id, x: box.x + 10, y: Math.round(box.y + box.h * 0.62) }, session);
    assert.deepEqual(await x.buttonsDown(), [1]);
    const shortened = await cli('start_session', { session, ttl_s: 2 });
    assert.equal(shortened.started, false, 'the same session, declared again');
    const held = Date.now();
    // Only the oracle looks until the button goes: the daemon's own timer must reclaim the session.
    await waitUntil('the reclaimed session released its button', 10_000, async () => (await x.buttonsDown()).length === 0);
    const after = Date.now() - held;
    assert.ok(after >= 1500, `released after ${after} ms, before the 2 s ttl ran out`);
    const sessions = (await cli('list_sessions')).sessions as SessionRecord[];
    assert.equal(sessions.some((entry) => entry.session === session), false);
    assert.equal((await cli('get_config', {}, session)).max_image_dimension, 1568, 'its override went with it');
  });

  test('MCP (in-process): a gesture across calls drags the slider, judged by pyatspi; held_button_max_s releases a forgotten button', async () => {
    const box = await slider();
    const middle = Math.round(box.y + box.h * 0.62);
    const knob = box.x + Math.round((box.w * (await volume())) / 100);
    await mcp(inProcess, 'mouse_button_down', { window_id: window.id, x: knob, y: middle });
    await mcp(inProcess, 'mouse_drag', { window_id: window.id, x: box.x + 2, y: middle, duration_ms: 200 });
    assert.ok((await volume()) <= 10, `between calls the button is still held: the knob followed to the left (${await volume()})`);
    await mcp(inProcess, 'mouse_drag', { window_id: window.id, x: box.x + Math.round(box.w * 0.75), y: middle, duration_ms: 200 });
    const released = await mcp(inProcess, 'mouse_button_up', {});
    assert.deepEqual((released.structuredContent as { released: string[] }).released, ['left']);
    const value = await volume();
    assert.ok(value >= 60 && value <= 90, `the knob ended near three quarters: ${value}`);
    assert.deepEqual(await x.buttonsDown(), []);
    const unheld = (await inProcess.callTool({ name: 'mouse_drag', arguments: { window_id: window.id, x: 5, y: 5 } })) as CallToolResult;
    assert.equal((unheld.structuredContent as { error: string }).error, 'no_button_held');

    await mcp(inProcess, 'set_config', { held_button_max_s: 1 });
    await mcp(inProcess, 'mouse_button_down', { window_id: window.id, x: knob, y: middle });
    assert.deepEqual(await x.buttonsDown(), [1]);
    await waitUntil('the forgotten button is released by itself', 5000, async () => (await x.buttonsDown()).length === 0);
    await mcp(inProcess, 'set_config', { held_button_max_s: 60 });
  });

  test('MCP: cancelling a mouse_drag releases the held button; another session cannot take a held button', async () => {
    const box = await slider();
    const middle = Math.round(box.y + box.h * 0.62);
    await mcp(viaDaemon, 'mouse_button_down', { window_id: window.id, x: box.x + 20, y: middle, session: 'drag-owner' });
    const busy = (await viaDaemon.callTool({ name: 'mouse_button_down', arguments: { session: 'intruder' } })) as CallToolResult;
    assert.equal((busy.structuredContent as { error: string }).error, 'button_busy');
    const controller = new AbortController();
    const drag = viaDaemon.callTool(
      { name: 'mouse_drag', arguments: { window_id: window.id, x: box.x + box.w - 5, y: middle, duration_ms: 8000, steps: 200, session: 'drag-owner' } },
      undefined,
      { signal: controller.signal, timeout: 30_000 },
    );
    await sleep(600);
    controller.abort();
    await assert.rejects(drag);
    await waitUntil('the cancelled drag released the button', 5000, async () => (await x.buttonsDown()).length === 0);
    const state = await mcp(viaDaemon, 'get_session', { session: 'drag-owner' });
    assert.equal((state.structuredContent as unknown as SessionRecord).owns.some((item) => item.key === 'mouse_buttons'), false, 'nothing held any more');
  });

  test('MCP: cancelling a drag stops it where it is and releases the button there, so nothing is dropped at the end after the cancel', async () => {
    const box = await slider();
    const middle = Math.round(box.y + box.h * 0.62);
    const controller = new AbortController();
    const drag = viaDaemon.callTool(
      { name: 'drag', arguments: { window_id: window.id, from_x: box.x + 5, from_y: middle, to_x: box.x + box.w - 5, to_y: middle, duration_ms: 8000, steps: 200, delivery_mode: 'foreground' } },
      undefined,
      { signal: controller.signal, timeout: 30_000 },
    );
    await waitUntil('the drag pressed its button', 5000, async () => (await x.buttonsDown()).length > 0);
    controller.abort();
    await assert.rejects(drag);
    // It went on for the rest of its 8 s and released at the right end.
    await waitUntil('the cancelled drag released its button', 3000, async () => (await x.buttonsDown()).length === 0);
    const value = await volume();
    assert.ok(value < 60, `the knob stopped short of the right end: ${value}`);
  });

  test('MCP: a foreground drag or click while a button is held (by a session, or by another driver process) is button_busy, nothing sent', async () => {
    const box = await slider();
    const middle = Math.round(box.y + box.h * 0.62);
    await mcp(viaDaemon, 'mouse_button_down', { window_id: window.id, x: box.x + 20, y: middle, session: 'holder' });
    const before = await volume();
    const refusal = async (client: Client, name: string, args: Record<string, unknown>) => {
      const result = (await client.callTool({ name, arguments: { window_id: window.id, delivery_mode: 'foreground', ...args } })) as CallToolResult;
      assert.equal((result.structuredContent as { error?: string }).error, 'button_busy', text(result));
      return text(result);
    };
    // Its press would go into the held gesture and its release let the held button go behind the holder's back.
    const drag = { from_x: box.x + 10, from_y: middle, to_x: box.x + Math.round(box.w * 0.75), to_y: middle, session: 'other' };
    assert.match(await refusal(viaDaemon, 'drag', drag), /held by session "holder".*nothing was sent/);
    assert.match(await refusal(viaDaemon, 'drag', { ...drag, session: 'holder' }), /mouse_button_up/);
    // Another process keeps no record of the hold: the X server's button state tells it.
    assert.match(await refusal(inProcess, 'click', { x: box.x + 10, y: middle }), /down on this display.*nothing was sent/);
    assert.deepEqual(await x.buttonsDown(), [1], 'the held button is still down');
    assert.equal(await volume(), before, 'the slider did not move');
    const released = await mcp(viaDaemon, 'mouse_button_up', { session: 'holder' });
    assert.deepEqual((released.structuredContent as { released: string[] }).released, ['left']);
    assert.deepEqual(await x.buttonsDown(), []);
  });

  test('MCP (in-process): sessions live in the server process; list_sessions says so and lists the connection\'s own', async () => {
    await mcp(inProcess, 'start_session', { session: 'local-1' });
    const listed = await mcp(inProcess, 'list_sessions');
    const structured = listed.structuredContent as { where: string; sessions: SessionRecord[] };
    assert.match(structured.where, /kept by this process \(pid \d+\); it ends with the process/);
    assert.deepEqual(
      structured.sessions.map((entry) => entry.session).filter((name) => ['mcp', 'local-1'].includes(name)).sort(),
      ['local-1', 'mcp'],
    );
    assert.equal((await mcp(inProcess, 'end_session', { session: 'local-1' })).structuredContent?.ended, true);
  });

  test('MCP (in-process): ending the connection\'s own session stops its terminal and says it ended', async () => {
    const { client } = await connectMcp(env, ['mcp']);
    try {
      const started = await mcp(client, 'tui_start', { command: 'sh' });
      const pid = (started.structuredContent as { pid: number }).pid;
      assert.doesNotThrow(() => process.kill(pid, 0), 'sh runs');
      const ended = (await mcp(client, 'end_session', { session: 'mcp' })).structuredContent as { ended: boolean; undone: { label: string }[] };
      assert.equal(ended.ended, true, JSON.stringify(ended));
      assert.ok(ended.undone.some((item) => /terminal/.test(item.label)), JSON.stringify(ended.undone));
      await waitUntil('the terminal\'s program is gone', 5000, () => {
        try {
          process.kill(pid, 0);
          return false;
        } catch {
          return true;
        }
      });
    } finally {
      await client.close();
    }
  });
});
