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
import { ERROR_CODES } from '../../src/errors.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { runCli, stopDaemon } from '../daemon/helpers.js';
import { TestDesktop } from '../helpers/desktop.js';
import { connectMcp } from '../helpers/mcp.js';
import { PyatspiOracle } from '../helpers/oracle.js';

const execFileAsync = promisify(execFile);

function text(result: CallToolResult): string {
  const first = result.content[0];
  assert.equal(first?.type, 'text');
  return (first as { text: string }).text;
}

interface Element {
  index: number;
  role: string;
  name: string;
}

/**
 * The contract every tool follows, through the real MCP client and the real CLI: `session` is the run
 * identity, failures carry their code, tools/list carries titles and consent hints.
 */
describe('the tool contract over MCP and the CLI', () => {
  let desktop: TestDesktop;
  let window: ClientWindow;
  let env: NodeJS.ProcessEnv;
  let client: Client;
  let oracle: PyatspiOracle;
  const clients: Client[] = [];

  before(async () => {
    desktop = await TestDesktop.start();
    window = (await desktop.launchFixture('gtk3')).window;
    env = desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-contract-')), CUP_DRIVER_IDLE_TIMEOUT: '120' });
    ({ client } = await connectMcp(env, ['mcp']));
    clients.push(client);
    oracle = new PyatspiOracle(desktop.env());
  });

  after(async () => {
    for (const each of clients) await each.close();
    oracle?.close();
    await stopDaemon(env);
    await desktop?.stop();
  });

  async function call(name: string, args: Record<string, unknown>, via: Client = client): Promise<CallToolResult> {
    return (await via.callTool({ name, arguments: args })) as CallToolResult;
  }

  /** A get_window_state in `session` that has read the tree (a fresh app may need a moment). */
  async function snapshotIn(session: string | undefined, via: Client = client): Promise<Element[]> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const result = await call('get_window_state', { pid: window.pid, window_id: window.id, include_screenshot: false, ...(session ? { session } : {}) }, via);
      assert.ok(!result.isError, text(result));
      const structured = result.structuredContent as { degraded: boolean; elements: Element[] };
      if (!structured.degraded || Date.now() > deadline) return structured.elements;
      await sleep(200);
    }
  }

  const increment = (elements: Element[]) => elements.find((element) => element.role === 'button' && element.name === 'Increment')!;
  const counter = async () => Number((await oracle.status(window.pid, window.title)).counter);

  test('tools/list: every tool has a title and all four consent hints; the output schema includes the failure shape', async () => {
    const { tools } = await client.listTools();
    assert.ok(tools.length >= 40, `${tools.length} tools`);
    for (const tool of tools) {
      assert.ok(tool.title && tool.title.length > 2, `${tool.name} has a title`);
      const hints = tool.annotations!;
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
        assert.equal(typeof hints[hint], 'boolean', `${tool.name} states ${hint}`);
      }
      if (hints.readOnlyHint) assert.equal(hints.destructiveHint, false, `${tool.name}: a read-only tool destroys nothing`);
      assert.ok(tool.inputSchema.properties?.session, `${tool.name} takes session, the run identity`);
      const failure = (tool.outputSchema as unknown as { anyOf: { required?: string[]; properties?: { error?: { enum: string[] } } }[] }).anyOf[1]!;
      assert.deepEqual(failure.required, ['error', 'message']);
      assert.deepEqual(failure.properties!.error!.enum, Object.keys(ERROR_CODES));
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool.annotations!]));
    assert.equal(byName.get('kill_app')!.destructiveHint, true);
    assert.equal(byName.get('tui_stop')!.destructiveHint, true);
    assert.equal(byName.get('get_window_state')!.readOnlyHint, true);
    assert.equal(byName.get('click')!.readOnlyHint, false);
    assert.equal(byName.get('click')!.openWorldHint, true);
    assert.equal(byName.get('set_value')!.idempotentHint, true);
  });

  test('a snapshot taken in session alpha is not visible to session beta (or to the connection\'s own session) on the same connection', async () => {
    const elements = await snapshotIn('alpha');
    const target = { window_id: window.id, element_index: increment(elements).index };
    const before = await counter();

    for (const session of ['beta', undefined]) {
      const refused = await call('click', { ...target, ...(session ? { session } : {}) });
      assert.equal(refused.isError, true);
      const structured = refused.structuredContent as { error: string; message: string };
      assert.equal(structured.error, 'no_snapshot');
      assert.match(text(refused), /^error \[no_snapshot\]: no snapshot of window \d+ in session "[^"]+"; call get_window_state first/);
      assert.match(structured.message, session ? /session "beta"/ : /session "mcp"/);
    }
    assert.equal(await counter(), before, 'the refused clicks did nothing');

    const clicked = await call('click', { ...target, session: 'alpha' });
    assert.ok(!clicked.isError, text(clicked));
    assert.equal(await counter(), before + 1, 'the click in session alpha reached the app');
  });

  test('error codes reach MCP clients in structuredContent and in the text', async () => {
    const invalid = await call('get_window_state', { pid: window.pid, window_id: 'abc' });
    assert.equal(invalid.isError, true);
    assert.equal((invalid.structuredContent as { error: string }).error, 'invalid_arguments');
    assert.match(text(invalid), /^error \[invalid_arguments\]: .*window_id/);
    const unknown = await call('no_such_tool', {});
    assert.equal((unknown.structuredContent as { error: string }).error, 'unknown_tool');
    const missing = await call('get_window_state', { pid: window.pid, window_id: 999_999 });
    assert.equal((missing.structuredContent as { error: string }).error, 'window_not_found');
    const noTerminal = await call('tui_snapshot', { session: 'nothing-here' });
    assert.deepEqual(
      { error: (noTerminal.structuredContent as { error: string }).error, session: (noTerminal.structuredContent as { session: string }).session },
      { error: 'no_driver', session: 'nothing-here' },
    );
  });

  test('an unknown delivery_mode still runs in background, and the result says so', async () => {
    const elements = await snapshotIn('alpha');
    const before = await counter();
    const result = await call('click', { window_id: window.id, element_index: increment(elements).index, session: 'alpha', delivery_mode: 'forground' });
    assert.ok(!result.isError, text(result));
    const structured = result.structuredContent as { delivery_mode: string; warnings: string[] };
    assert.equal(structured.delivery_mode, 'background');
    assert.deepEqual(structured.warnings, ['delivery_mode "forground" is not known; ran in background; did you mean foreground?']);
    assert.match(text(result), /⚠️ delivery_mode "forground" is not known/);
    assert.equal(await counter(), before + 1);
    const ignored = await call('get_window_state', { pid: window.pid, window_id: window.id, include_screenshot: false, capture_mode: 'vision' });
    assert.match((ignored.structuredContent as { warnings: string[] }).warnings[0]!, /^capture_mode is accepted for compatibility and ignored/);
  });

  test('mcp --tools serves only the chosen areas; a bad area is a usage error naming the choices', async () => {
    const { client: terminalOnly } = await connectMcp(env, ['mcp', '--tools', 'terminal,get_screen_size']);
    clients.push(terminalOnly);
    const names = (await terminalOnly.listTools()).tools.map((tool) => tool.name);
    assert.ok(names.length > 10 && names.every((name) => name.startsWith('tui_') || name === 'get_screen_size'), names.join(', '));
    const refused = await call('list_windows', {}, terminalOnly);
    assert.equal((refused.structuredContent as { error: string }).error, 'unknown_tool');
    assert.match(text(refused), /not served here/);
    const bad = await runCli(['mcp', '--tools', 'terminals'], env);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /--tools: "terminals" is neither an area \(perception, config, input, apps, browser, terminal, recording\) nor a tool name/);
  });

  test('CLI through the daemon: the session argument and --session name the same run; --json carries the code', async () => {
    const state = await runCli(['call', 'get_window_state', JSON.stringify({ pid: window.pid, window_id: window.id, include_screenshot: false, session: 'gamma' }), '--json'], env);
    assert.equal(state.status, 0, state.stderr);
    const element = increment((JSON.parse(state.stdout) as { structuredContent: { elements: Element[] } }).structuredContent.elements);
    const target = JSON.stringify({ window_id: window.id, element_index: element.index });

    const stranger = await runCli(['call', 'click', target, '--session', 'delta', '--json'], env);
    assert.equal(stranger.status, 1);
    const refused = JSON.parse(stranger.stdout) as { isError: boolean; structuredContent: { error: string; message: string } };
    assert.equal(refused.structuredContent.error, 'no_snapshot');
    assert.match(refused.structuredContent.message, /session "delta"/);

    const before = await counter();
    const same = await runCli(['call', 'click', target, '--session', 'gamma'], env);
    assert.equal(same.status, 0, same.stderr);
    assert.equal(await counter(), before + 1);
  });

  test('each session draws its own agent cursor (xwininfo sees one window per session, where each was put)', async () => {
    const cursors = async (): Promise<Map<string, { id: string; x: number; y: number; mapped: boolean }>> => {
      const tree = (await execFileAsync('xwininfo', ['-root', '-tree'], { env: desktop.env(), timeout: 5000 })).stdout;
      const found = new Map<string, { id: string; x: number; y: number; mapped: boolean }>();
      for (const match of tree.matchAll(/^\s+(0x[0-9a-f]+) "cup-driver agent cursor \(([^)]+)\)".*\s\+(-?\d+)\+(-?\d+)\s*$/gm)) {
        const info = (await execFileAsync('xwininfo', ['-id', match[1]!], { env: desktop.env(), timeout: 5000 })).stdout;
        found.set(match[2]!, { id: match[1]!, x: Number(match[3]), y: Number(match[4]), mapped: /Map State: IsViewable/.test(info) });
      }
      return found;
    };
    for (const [session, x, y] of [['alpha', 100, 120], ['beta', 300, 320]] as const) {
      const moved = await call('move_cursor', { x, y, session });
      assert.deepEqual(moved.structuredContent, { cursor_id: session, x, y, visible: true });
    }
    let drawn = await cursors();
    assert.deepEqual([drawn.get('alpha')?.x, drawn.get('alpha')?.y, drawn.get('alpha')?.mapped], [100, 120, true]);
    assert.deepEqual([drawn.get('beta')?.x, drawn.get('beta')?.y, drawn.get('beta')?.mapped], [300, 320, true]);
    await call('move_cursor', { x: 0, y: 0, visible: false, session: 'alpha' });
    drawn = await cursors();
    assert.equal(drawn.get('alpha')?.mapped, false, 'alpha hidden');
    assert.equal(drawn.get('beta')?.mapped, true, 'beta still shows');
    const named = await call('move_cursor', { x: 50, y: 60, session: 'alpha', cursor_id: 'reviewer' });
    assert.equal((named.structuredContent as { cursor_id: string }).cursor_id, 'reviewer', 'an explicit cursor_id wins over the session');
    assert.equal((await cursors()).get('reviewer')?.mapped, true);
  });

  test('a terminal started from the CLI under a session name is the same run for an MCP client on the daemon', async () => {
    const { client: viaDaemon } = await connectMcp(env, ['mcp', '--daemon']);
    clients.push(viaDaemon);
    const started = await runCli(['call', 'tui_start', JSON.stringify({ command: 'bash', args: ['--norc', '--noprofile'], session: 'shared-run' })], env);
    assert.equal(started.status, 0, started.stderr);
    try {
      const typed = await call('tui_type', { text: 'echo run-$((6 * 7))\n', session: 'shared-run' }, viaDaemon);
      assert.ok(!typed.isError, text(typed));
      const waited = await call('tui_wait_for', { text: 'run-42', session: 'shared-run' }, viaDaemon);
      assert.ok(!waited.isError, text(waited));
      const own = await call('tui_render_text', {}, viaDaemon);
      assert.equal((own.structuredContent as { error: string }).error, 'no_driver', 'the connection\'s own session has no terminal "default"');
    } finally {
      const stopped = await runCli(['call', 'tui_stop', JSON.stringify({ session: 'shared-run' })], env);
      assert.equal(stopped.status, 0, stopped.stderr);
    }
  });
});
