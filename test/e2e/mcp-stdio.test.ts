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
import sharp from 'sharp';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { isAlive } from '../../src/platform/linux/desktop/processes.js';
import { cliPath, TestDesktop } from '../helpers/desktop.js';
import { connectMcp } from '../helpers/mcp.js';

const execFileAsync = promisify(execFile);

function text(result: CallToolResult): string {
  const first = result.content[0];
  assert.equal(first?.type, 'text');
  return (first as { text: string }).text;
}

describe('cup-driver mcp, driven by the official MCP client SDK over stdio', () => {
  let desktop: TestDesktop;
  let window: ClientWindow;
  let client: Client;
  let stderr: () => string;

  before(async () => {
    desktop = await TestDesktop.start();
    window = (await desktop.launchFixture('gtk3')).window;
    ({ client, stderr } = await connectMcp(desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-config-')) }), ['mcp'], 'pipe'));
  });

  after(async () => {
    await client?.close();
    await desktop?.stop();
  });

  test('initialize names the server; tools/list declares every tool with object schemas', async () => {
    assert.equal(client.getServerVersion()?.name, 'cup-driver');
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name).sort();
    for (const name of ['get_accessibility_tree', 'get_config', 'get_cursor_position', 'get_screen_size', 'get_window_state', 'list_apps', 'list_windows', 'set_config', 'zoom']) {
      assert.ok(names.includes(name), `${name} listed`);
    }
    const state = tools.find((tool) => tool.name === 'get_window_state')!;
    assert.equal(state.inputSchema.type, 'object');
    // The seed's pid and window_id are both taken; the window names its app, so window_id alone suffices, and pid
    // alone names an app's only window. window_id is needed only for an app with several, which is checked in code
    // with an error naming them (as seed 001 has pid checked in code where it is needed), not pinned in the schema.
    assert.deepEqual([...(state.inputSchema.required ?? [])].sort(), []);
    assert.ok(state.inputSchema.properties && 'pid' in state.inputSchema.properties, 'pid is still an argument');
    assert.ok('window_id' in state.inputSchema.properties, 'window_id is still an argument');
    assert.equal(state.outputSchema?.type, 'object');
    assert.equal(state.annotations?.readOnlyHint, true);
  });

  test('tools/call list_windows: summary text first, machine-readable fields in structuredContent', async () => {
    const result = (await client.callTool({ name: 'list_windows', arguments: {} })) as CallToolResult;
    assert.ok(!result.isError);
    assert.match(text(result), /^✅ \d+ windows?\n/);
    const windows = (result.structuredContent as { windows: { window_id: number; pid: number }[] }).windows;
    assert.ok(windows.some((record) => record.window_id === window.id && record.pid === window.pid));
  });

  test('tools/call get_window_state: the compact tree as text and the screenshot as image content', async () => {
    const deadline = Date.now() + 15_000;
    let result: CallToolResult;
    for (;;) {
      result = (await client.callTool({ name: 'get_window_state', arguments: { pid: window.pid, window_id: window.id } })) as CallToolResult;
      if (!(result.structuredContent as { degraded: boolean }).degraded || Date.now() > deadline) break;
      await sleep(200);
    }
    assert.ok(!result.isError);
    const body = text(result);
    assert.match(body.split('\n')[0]!, /^✅ "CUP Fixture GTK3"/);
    assert.match(body, /\n# CUP 0\.1\.0 \| linux \| 1280x800\n/);
    assert.match(body, /btn "Increment"/);
    const image = result.content.find((item) => item.type === 'image') as { data: string; mimeType: string } | undefined;
    assert.equal(image?.mimeType, 'image/png');
    const metadata = await sharp(Buffer.from(image!.data, 'base64')).metadata();
    assert.equal(metadata.width, window.bounds.width);
    const structured = result.structuredContent as { elements: { role: string; name: string }[]; snapshot_id: string };
    assert.ok(structured.elements.some((element) => element.role === 'button' && element.name === 'Increment'));
    assert.match(structured.snapshot_id, /^s/);
  });

  test('bad arguments and unknown tools come back as tool errors naming the problem', async () => {
    const bad = (await client.callTool({ name: 'get_window_state', arguments: { pid: window.pid, window_id: 'abc' } })) as CallToolResult;
    assert.equal(bad.isError, true);
    assert.match(text(bad), /window_id: expected an integer|window_id: expected a number/);
    const unknown = (await client.callTool({ name: 'no_such_tool', arguments: {} })) as CallToolResult;
    assert.equal(unknown.isError, true);
    assert.match(text(unknown), /unknown tool "no_such_tool"/);
    const missing = (await client.callTool({ name: 'get_window_state', arguments: { pid: window.pid, window_id: 999999 } })) as CallToolResult;
    assert.equal(missing.isError, true);
    assert.match(text(missing), /no top-level window with window_id 999999; call list_windows/);
  });

  test('logs go to stderr only (stdout carries nothing but the protocol)', () => {
    assert.match(stderr(), /MCP server ready on stdio/);
  });

  test('without DISPLAY the server starts its own desktop, says so on stderr, and desktop stop cleans it up', async () => {
    const runtime = mkdtempSync(join(tmpdir(), 'cup-auto-'));
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: runtime, XDG_CONFIG_HOME: runtime };
    delete env.DISPLAY;
    delete env.DBUS_SESSION_BUS_ADDRESS;
    const auto = await connectMcp(env, ['mcp'], 'pipe');
    try {
      const result = (await auto.client.callTool({ name: 'get_screen_size', arguments: {} })) as CallToolResult;
      assert.ok(!result.isError, text(result));
      assert.deepEqual(result.structuredContent, { width: 1280, height: 800, scale_factor: 1 });
      assert.match(auto.stderr(), /no DISPLAY set: started a virtual desktop on :\d+/);
    } finally {
      await auto.client.close();
    }
    const status = JSON.parse((await execFileAsync(process.execPath, [cliPath, 'desktop', 'status', '--json'], { env })).stdout) as {
      display: string;
      alive: boolean;
      pids: { xvfb: number; dbus: number; windowManager: number };
    }[];
    assert.equal(status.length, 1);
    assert.equal(status[0]!.alive, true);
    await execFileAsync(process.execPath, [cliPath, 'desktop', 'stop', '--all'], { env });
    for (const pid of Object.values(status[0]!.pids)) assert.equal(isAlive(pid), false, `pid ${pid} stopped`);
  });
});
