// The agent cursor tools through the CLI (on the daemon, which keeps the overlay between calls) and an MCP client.
// Judged by the X server: the root window's pixels (GetImage on the root, where the overlay is composited) and the
// overlay window's geometry and map state as xwininfo reports them; what the app received by pyatspi.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { callCliJson, stopDaemon } from '../daemon/helpers.js';
import { TestDesktop } from '../helpers/desktop.js';
import { connectMcp } from '../helpers/mcp.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { readPixels } from '../x11/helpers.js';

const execFileAsync = promisify(execFile);

interface Element {
  index: number;
  name: string;
  bounds?: { x: number; y: number; w: number; h: number };
}

describe('the agent cursor tools', () => {
  let desktop: TestDesktop;
  let oracle: PyatspiOracle;
  let env: NodeJS.ProcessEnv;
  let window: ClientWindow;
  let client: Client;

  const cli = (tool: string, args: Record<string, unknown>, session?: string) => callCliJson(env, tool, args, session ? ['--session', session] : []);

  /** The overlay window of a cursor as xwininfo sees it: its top-left corner and whether it is mapped. */
  async function overlay(id: string): Promise<{ x: number; y: number; mapped: boolean } | undefined> {
    const title = id === 'default' ? 'cup-driver agent cursor' : `cup-driver agent cursor (${id})`;
    const info = await execFileAsync('xwininfo', ['-name', title], { env: desktop.env(), timeout: 5000 }).catch(() => undefined);
    if (!info) return undefined;
    const field = (name: string) => Number(new RegExp(`${name}:\\s+(-?\\d+)`).exec(info.stdout)?.[1]);
    return { x: field('Absolute upper-left X'), y: field('Absolute upper-left Y'), mapped: /Map State: IsViewable/.test(info.stdout) };
  }

  /** How many pixels of the screen around a point are (nearly) the colour. */
  async function pixelsOf(colour: [number, number, number], around: { x: number; y: number }, radius = 30): Promise<number> {
    const x = await desktop.x11();
    const origin = { x: Math.max(0, around.x - radius), y: Math.max(0, around.y - radius) };
    const read = await readPixels(x, x.screen.root, radius * 2, radius * 2, origin);
    let count = 0;
    for (let row = 0; row < radius * 2; row++) {
      for (let column = 0; column < radius * 2; column++) {
        const hex = read(column, row);
        const rgb = [0, 2, 4].map((at) => Number.parseInt(hex.slice(at, at + 2), 16));
        if (rgb.every((value, channel) => Math.abs(value - colour[channel]!) < 24)) count++;
      }
    }
    return count;
  }

  before(async () => {
    desktop = await TestDesktop.start();
    oracle = new PyatspiOracle(desktop.env());
    env = desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-config-')), CUP_DRIVER_IDLE_TIMEOUT: '120' });
    window = (await desktop.launchFixture('gtk3')).window;
    client = (await connectMcp(env)).client;
  });

  after(async () => {
    await client?.close();
    if (env) await stopDaemon(env);
    oracle?.close();
    await desktop?.stop();
  });

  test('enabled from the CLI, the cursor flies along its curve to each action\'s point and stays drawn between calls', async () => {
    const styled = await cli('set_agent_cursor_motion', { cursor_color: 'lime', cursor_size: 24, cursor_label: 'bot', glide_duration_ms: 1500, arc_size: 0.5, spring: 1 });
    assert.equal(styled.status, 0, styled.stderr);
    assert.equal(styled.json.cursor_id, 'default', 'the CLI\'s anonymous calls use the "default" cursor');
    assert.deepEqual(styled.json.appearance, { icon: 'arrow', color: '#00ff00', size: 24, opacity: 1, label: 'bot' });
    assert.equal(styled.json.enabled, false, 'styling does not turn it on');
    assert.equal((await overlay('default'))?.mapped ?? false, false);

    const enabled = await cli('set_agent_cursor_enabled', { enabled: true });
    assert.equal(enabled.status, 0, enabled.stderr);
    const centre = { x: 640, y: 400 };
    assert.deepEqual([enabled.json.enabled, enabled.json.visible, enabled.json.x, enabled.json.y], [true, true, centre.x, centre.y]);
    assert.deepEqual(await overlay('default'), { ...centre, mapped: true }, 'the arrow\'s tip is the window\'s corner');
    assert.ok((await pixelsOf([0, 255, 0], { x: centre.x + 30, y: centre.y + 20 }, 30)) > 100, 'the lime arrow and its label are on the screen, after the CLI exited');

    const state = await cli('get_window_state', { pid: window.pid, window_id: window.id, include_screenshot: false });
    const button = (state.json.elements as Element[]).find((element) => element.name === 'Increment')!;
    const target = { x: Math.round(button.bounds!.x + button.bounds!.w / 2), y: Math.round(button.bounds!.y + button.bounds!.h / 2) };
    const counter = Number((await oracle.status(window.pid, window.title)).counter);
    let done = false;
    const clicking = cli('click', { window_id: window.id, element_index: button.index }).finally(() => {
      done = true;
    });
    // During the 1.5 s flight the overlay is between the two points and off the straight line (arc_size 0.5).
    const samples: { x: number; y: number }[] = [];
    while (!done) {
      const seen = await overlay('default');
      if (seen) samples.push(seen);
      await sleep(100);
    }
    const clicked = await clicking;
    assert.equal(clicked.status, 0, clicked.stderr);
    assert.equal(Number((await oracle.status(window.pid, window.title)).counter), counter + 1, 'the click went through the cursor to the app');
    const between = samples.filter((point) => Math.min(centre.x, target.x) < point.x && point.x < Math.max(centre.x, target.x) || Math.min(centre.y, target.y) < point.y && point.y < Math.max(centre.y, target.y));
    assert.ok(between.length >= 3, `seen in flight: ${JSON.stringify(samples)}`);
    const offLine = between.map((point) => {
      const dx = target.x - centre.x;
      const dy = target.y - centre.y;
      return Math.abs(dy * (point.x - centre.x) - dx * (point.y - centre.y)) / Math.hypot(dx, dy);
    });
    assert.ok(Math.max(...offLine) > 20, `the flight is a curve, not a line: distances from the line ${offLine.map(Math.round).join(', ')}`);

    const landed = await cli('get_agent_cursor_state', {});
    assert.deepEqual([landed.json.visible, landed.json.x, landed.json.y], [true, target.x, target.y]);
    assert.deepEqual(await overlay('default'), { ...target, mapped: true });
    assert.ok((await pixelsOf([0, 255, 0], { x: target.x + 30, y: target.y + 20 }, 30)) > 100, 'drawn at the button after the CLI exited');
  });

  test('cursor precedence: cursor_id, then the session, then "default"; an MCP client sees the same cursors', async () => {
    const alpha = await cli('get_agent_cursor_state', {}, 'alpha');
    assert.deepEqual([alpha.json.cursor_id, alpha.json.enabled], ['alpha', false], 'a named session has its own cursor');
    const named = await cli('get_agent_cursor_state', { cursor_id: 'default' }, 'alpha');
    assert.deepEqual([named.json.cursor_id, named.json.enabled], ['default', true], 'an explicit cursor_id wins over the session');
    const viaMcp = (await client.callTool({ name: 'get_agent_cursor_state', arguments: { cursor_id: 'default' } })) as CallToolResult;
    // The MCP client runs its own process: the daemon's cursor is not its cursor.
    assert.equal((viaMcp.structuredContent as { enabled: boolean }).enabled, false);
    const bad = (await client.callTool({ name: 'set_agent_cursor_motion', arguments: { cursor_color: 'not-a-colour' } })) as CallToolResult;
    assert.equal(bad.isError, true);
    assert.equal((bad.structuredContent as { error: string }).error, 'invalid_arguments');
    const crosshair = (await client.callTool({ name: 'set_agent_cursor_motion', arguments: { cursor_icon: 'crosshair', cursor_color: '#0000ff', cursor_size: 32 } })) as CallToolResult;
    assert.ok(!crosshair.isError, JSON.stringify(crosshair.content));
    const moved = (await client.callTool({ name: 'move_cursor', arguments: { x: 300, y: 500 } })) as CallToolResult;
    assert.ok(!moved.isError);
    assert.ok((await pixelsOf([0, 0, 255], { x: 300, y: 500 }, 20)) > 40, 'the blue crosshair is centred on the point');
  });

  test('set_agent_cursor_style paints a gradient from tip to tail and a halo, and reverts; a missing image is refused naming image_path', async () => {
    const call = async (name: string, args: Record<string, unknown>) => (await client.callTool({ name, arguments: { cursor_id: 'styled', ...args } })) as CallToolResult;
    assert.ok(!(await call('set_agent_cursor_motion', { cursor_size: 48, cursor_icon: 'arrow' })).isError);
    const styled = await call('set_agent_cursor_style', { gradient_colors: ['red', '#0000ff'], bloom_color: '#00ff00' });
    assert.ok(!styled.isError, JSON.stringify(styled.content));
    const look = (styled.structuredContent as { appearance: { gradient?: string[]; bloom?: string } }).appearance;
    assert.deepEqual([look.gradient, look.bloom], [['#ff0000', '#0000ff'], '#00ff00']);
    const tip = { x: 900, y: 200 };
    assert.ok(!(await call('move_cursor', tip)).isError);
    // Which channel leads in each pixel of a box of the root window (the overlay is drawn there).
    const dominant = async (box: { x: number; y: number; w: number; h: number }) => {
      const x = await desktop.x11();
      const read = await readPixels(x, x.screen.root, box.w, box.h, { x: box.x, y: box.y });
      const counts = { red: 0, green: 0, blue: 0 };
      for (let row = 0; row < box.h; row++) {
        for (let column = 0; column < box.w; column++) {
          const [r, g, b] = [0, 2, 4].map((at) => Number.parseInt(read(column, row).slice(at, at + 2), 16)) as [number, number, number];
          if (r > g + 80 && r > b + 80) counts.red++;
          if (g > r + 80 && g > b + 80) counts.green++;
          if (b > r + 80 && b > g + 80) counts.blue++;
        }
      }
      return counts;
    };
    // The arrow at size 48 is 36x54 pixels from its tip: its upper fill is red, its lower fill blue.
    const upper = await dominant({ x: tip.x + 3, y: tip.y + 8, w: 8, h: 10 });
    const lower = await dominant({ x: tip.x + 3, y: tip.y + 36, w: 8, h: 8 });
    assert.ok(upper.red > 20 && upper.red > upper.blue, `the tip's fill is red: ${JSON.stringify(upper)}`);
    assert.ok(lower.blue > 20 && lower.blue > lower.red, `the tail's fill is blue: ${JSON.stringify(lower)}`);
    // The halo: green just outside the arrow's left edge, where nothing green was before.
    const halo = await dominant({ x: tip.x - 8, y: tip.y + 4, w: 8, h: 30 });
    assert.ok(halo.green > 10, `a green halo left of the arrow: ${JSON.stringify(halo)}`);

    const reverted = await call('set_agent_cursor_style', { gradient_colors: [], bloom_color: '' });
    const plain = (reverted.structuredContent as { appearance: { gradient?: string[]; bloom?: string; color: string } }).appearance;
    assert.deepEqual([plain.gradient, plain.bloom], [undefined, undefined]);
    assert.ok(!(await call('move_cursor', tip)).isError);
    const after = await dominant({ x: tip.x - 8, y: tip.y + 4, w: 8, h: 30 });
    assert.equal(after.green, 0, 'no halo once bloom_color is ""');
    const missing = await call('set_agent_cursor_style', { image_path: '/nonexistent/cursor.png' });
    assert.equal(missing.isError, true);
    assert.equal((missing.structuredContent as { error: string }).error, 'invalid_arguments');
    assert.match(JSON.stringify(missing.content), /image_path/);
    await call('set_agent_cursor_enabled', { enabled: false });
  });

  test('turned off, the cursor leaves the screen and actions no longer move it', async () => {
    const off = await cli('set_agent_cursor_enabled', { enabled: false });
    assert.equal(off.status, 0, off.stderr);
    const before = await overlay('default');
    assert.equal(before?.mapped, false);
    const state = await cli('get_window_state', { pid: window.pid, window_id: window.id, include_screenshot: false });
    const button = (state.json.elements as Element[]).find((element) => element.name === 'Increment')!;
    assert.equal((await cli('click', { window_id: window.id, element_index: button.index })).status, 0);
    const after = await overlay('default');
    assert.deepEqual(after, before, 'neither shown nor moved');
  });
});
