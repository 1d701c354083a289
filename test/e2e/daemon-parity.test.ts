import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import sharp from 'sharp';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { TestDesktop } from '../helpers/desktop.js';
import { connectMcp } from '../helpers/mcp.js';
import { runCli, stopDaemon, waitUntil, withoutSnapshotId } from '../daemon/helpers.js';

/** What every path must agree on for one call. */
interface Outcome {
  isError: boolean;
  text: string;
  structured?: Record<string, unknown>;
  images: { mimeType: string; width: number; height: number }[];
}

async function imageSize(data: Buffer, mimeType: string) {
  const metadata = await sharp(data).metadata();
  return { mimeType, width: metadata.width!, height: metadata.height! };
}

function normalised(outcome: Outcome): Outcome {
  return withoutSnapshotId(outcome, outcome.structured?.snapshot_id);
}

describe('every path gives the same results: in-process, daemon, mcp, mcp --daemon', () => {
  let desktop: TestDesktop;
  let window: ClientWindow;
  let env: NodeJS.ProcessEnv;
  const clients: Client[] = [];
  let mcp: Client;
  let mcpViaDaemon: Client;

  async function connect(args: string[]): Promise<Client> {
    const { client } = await connectMcp(env, args);
    clients.push(client);
    return client;
  }

  async function viaCli(tool: string, args: Record<string, unknown>, extra: string[]): Promise<Outcome> {
    const run = await runCli(['call', tool, JSON.stringify(args), '--json', ...extra], env);
    assert.ok(run.status !== null && run.stdout !== '', `${tool}: ${run.stderr}`);
    const output = JSON.parse(run.stdout) as {
      isError: boolean;
      content: { text: string }[];
      images: { path: string; mimeType: string }[];
      structuredContent: Record<string, unknown>;
    };
    return {
      isError: output.isError,
      text: output.content[0]!.text,
      structured: output.structuredContent,
      images: await Promise.all(output.images.map((image) => imageSize(readFileSync(image.path), image.mimeType))),
    };
  }

  async function viaMcp(client: Client, tool: string, args: Record<string, unknown>): Promise<Outcome> {
    const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
    const [first, ...rest] = result.content;
    assert.equal(first?.type, 'text');
    const text = (first as { text: string }).text;
    return {
      isError: result.isError === true,
      text,
      ...(result.structuredContent ? { structured: result.structuredContent as Record<string, unknown> } : {}),
      images: await Promise.all(
        rest.filter((item) => item.type === 'image').map((item) => {
          const image = item as { data: string; mimeType: string };
          return imageSize(Buffer.from(image.data, 'base64'), image.mimeType);
        }),
      ),
    };
  }

  async function allPaths(tool: string, args: Record<string, unknown>): Promise<Record<string, Outcome>> {
    return {
      'call --no-daemon': normalised(await viaCli(tool, args, ['--no-daemon'])),
      'call (daemon)': normalised(await viaCli(tool, args, [])),
      mcp: normalised(await viaMcp(mcp, tool, args)),
      'mcp --daemon': normalised(await viaMcp(mcpViaDaemon, tool, args)),
    };
  }

  function assertAllEqual(outcomes: Record<string, Outcome>): Outcome {
    const [[firstPath, first], ...others] = Object.entries(outcomes) as [string, Outcome][];
    for (const [path, outcome] of others) assert.deepEqual(outcome, first, `${path} differs from ${firstPath}`);
    return first!;
  }

  before(async () => {
    desktop = await TestDesktop.start();
    window = (await desktop.launchFixture('gtk3')).window;
    env = desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-config-')), CUP_DRIVER_IDLE_TIMEOUT: '120' });
    await waitUntil('the fixture is accessible', 15_000, async () => {
      const outcome = await viaCli('get_window_state', { pid: window.pid, window_id: window.id, include_screenshot: false }, ['--no-daemon']);
      return !outcome.isError && outcome.structured?.degraded === false;
    });
    [mcp, mcpViaDaemon] = await Promise.all([connect(['mcp']), connect(['mcp', '--daemon'])]);
  });

  after(async () => {
    for (const client of clients) await client.close();
    if (env) await stopDaemon(env);
    await desktop?.stop();
  });

  test('tools/list is the registry on both MCP paths', async () => {
    const [direct, daemon] = await Promise.all([mcp.listTools(), mcpViaDaemon.listTools()]);
    assert.deepEqual(daemon, direct);
    assert.ok(direct.tools.some((tool) => tool.name === 'get_window_state'));
  });

  test('list_windows', async () => {
    const outcome = assertAllEqual(await allPaths('list_windows', {}));
    const windows = (outcome.structured as { windows: { window_id: number }[] }).windows;
    assert.ok(windows.some((record) => record.window_id === window.id));
  });

  test('get_screen_size', async () => {
    const outcome = assertAllEqual(await allPaths('get_screen_size', {}));
    assert.deepEqual(outcome.structured, { width: 1280, height: 800, scale_factor: 1 });
  });

  test("get_window_state: elements, body and screenshot", async () => {
    const outcome = assertAllEqual(await allPaths('get_window_state', { pid: window.pid, window_id: window.id }));
    assert.match(outcome.text, /^✅ "CUP Fixture GTK3" \(pid \d+, window \d+, snapshot <snapshot>\)/);
    assert.match(outcome.text, /btn "Increment"/);
    assert.deepEqual(outcome.images, [{ mimeType: 'image/png', width: window.bounds.width, height: window.bounds.height }]);
  });

  test('errors: a missing window (tool error), bad arguments and an unknown tool', async () => {
    const missing = assertAllEqual(await allPaths('get_window_state', { pid: window.pid, window_id: 999999 }));
    assert.equal(missing.isError, true);
    assert.match(missing.text, /^error \[window_not_found\]: .*no top-level window with window_id 999999; call list_windows/);
    assert.equal(missing.structured?.error, 'window_not_found', 'the code reaches every path in the structured fields');
    const invalid = assertAllEqual(await allPaths('get_window_state', { pid: window.pid, window_id: 'abc' }));
    assert.match(invalid.text, /window_id: expected an integer, got string "abc"/);
    const unknown = assertAllEqual(await allPaths('no_such_tool', {}));
    assert.match(unknown.text, /^error \[unknown_tool\]: unknown tool "no_such_tool"; available tools: list_apps/);
  });

  test('mcp --daemon has a session of its own in the daemon', async () => {
    await mcpViaDaemon.callTool({ name: 'set_config', arguments: { max_image_dimension: 300 } });
    const config = (await mcpViaDaemon.callTool({ name: 'get_config', arguments: {} })) as CallToolResult;
    assert.deepEqual(config.structuredContent, { max_image_dimension: 300, clipboard_keep_s: 1800, held_button_max_s: 60, diff_settle_ms: 0 });
    const cli = await runCli(['call', 'get_config'], env);
    assert.equal(cli.stdout, '✅ max_image_dimension=1568 clipboard_keep_s=1800 held_button_max_s=60 diff_settle_ms=0\n', 'the CLI session is not affected');
    const status = JSON.parse((await runCli(['daemon', 'status', '--json'], env)).stdout) as { sessions: { id: string }[] };
    assert.ok(status.sessions.some((session) => /^mcp-\d+-[0-9a-f]{8}$/.test(session.id)), JSON.stringify(status.sessions));
    await mcpViaDaemon.callTool({ name: 'set_config', arguments: { max_image_dimension: 1568 } });
  });
});
