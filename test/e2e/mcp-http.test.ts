import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect as connectTcp } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import sharp from 'sharp';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { sessionMembers } from '../../src/tui/process-session.js';
import { tools } from '../../src/tools/registry.js';
import { waitUntil } from '../daemon/helpers.js';
import { cliPath, TestDesktop } from '../helpers/desktop.js';
import { callTool, HttpServerProcess, resultText } from '../helpers/mcp-http.js';

const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-http', version: '1' } },
};

/** A raw POST of an initialize request, to see the server's own status codes and headers. */
function postInitialize(url: URL, headers: Record<string, string>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(initialize),
  });
}

describe('cup-driver mcp --http, driven by the official MCP SDK client over Streamable HTTP', () => {
  let desktop: TestDesktop;
  let window: ClientWindow;
  let server: HttpServerProcess;
  let env: NodeJS.ProcessEnv;
  const terminalPids: number[] = [];

  const connect = async (): Promise<Client> => (await server.connect()).client;

  before(async () => {
    desktop = await TestDesktop.start();
    window = (await desktop.launchFixture('gtk3')).window;
    env = desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-http-config-')) });
    server = await HttpServerProcess.start(['mcp', '--http', '0', '--allow-origin', 'http://localhost:5173'], env);
  });

  after(async () => {
    await server?.stop();
    for (const pid of terminalPids) await waitUntil(`terminal ${pid} left no processes behind`, 5000, () => sessionMembers(pid).length === 0);
    await desktop?.stop();
  });

  test('listens on 127.0.0.1 and writes a generated 32-byte token to a 0600 file', () => {
    assert.equal(server.url.hostname, '127.0.0.1');
    assert.equal(server.url.pathname, '/mcp');
    assert.notEqual(server.url.port, '0');
    assert.equal(statSync(server.tokenFile).mode & 0o777, 0o600);
    assert.equal(Buffer.from(server.token(), 'base64url').length, 32);
  });

  test('initialize names the server; tools/list serves the whole registry with schemas and annotations', async () => {
    const client = await connect();
    assert.equal(client.getServerVersion()?.name, 'cup-driver');
    const listed = (await client.listTools()).tools;
    assert.deepEqual(listed.map((tool) => tool.name).sort(), tools.map((tool) => tool.name).sort());
    const state = listed.find((tool) => tool.name === 'get_window_state')!;
    assert.equal(state.inputSchema.type, 'object');
    assert.equal(state.annotations?.readOnlyHint, true);
  });

  test('tools/call answers with the text first and the screenshot as image content', async () => {
    const client = await connect();
    const windows = await callTool(client, 'list_windows');
    assert.ok(!windows.isError, resultText(windows));
    assert.ok((windows.structuredContent as { windows: { window_id: number }[] }).windows.some((record) => record.window_id === window.id));
    // The fixture's tree appears a moment after its window (longer on a busy machine).
    let state = await callTool(client, 'get_window_state', { pid: window.pid, window_id: window.id });
    for (const deadline = Date.now() + 15_000; (state.structuredContent as { degraded?: boolean }).degraded && Date.now() < deadline; ) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      state = await callTool(client, 'get_window_state', { pid: window.pid, window_id: window.id });
    }
    assert.ok(!state.isError, resultText(state));
    assert.match(resultText(state), /^✅ "CUP Fixture GTK3"/);
    assert.match(resultText(state), /btn "Increment"/);
    const image = state.content.find((item) => item.type === 'image') as { data: string; mimeType: string } | undefined;
    assert.equal(image?.mimeType, 'image/png');
    const metadata = await sharp(Buffer.from(image!.data, 'base64')).metadata();
    assert.equal(metadata.width, window.bounds.width);
    assert.equal(metadata.height, window.bounds.height);
  });

  test('notifications/cancelled stops a long wait_for and a waiting run_actions in the server', async () => {
    const client = await connect();
    for (const [tool, args] of [
      ['wait_for', { pid: window.pid, window_id: window.id, selector: 'name="Never there"', timeout_ms: 25_000 }],
      ['run_actions', { pid: window.pid, window_id: window.id, diff: false, steps: [{ tool: 'wait', arguments: { ms: 25_000 } }] }],
    ] as const) {
      const controller = new AbortController();
      const call = callTool(client, tool, args, { signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 700));
      const cancelledAt = Date.now();
      controller.abort();
      await assert.rejects(call, /abort/i);
      // The server's own account: the handler ended as cancelled, long before the 25 s it was asked to wait.
      await waitUntil(`the server logs ${tool} cancelled`, 3000, () => new RegExp(`${tool} cancelled by the client`).test(server.stderr));
      assert.ok(Date.now() - cancelledAt < 3000);
    }
    // The session goes on serving after its cancelled calls.
    assert.ok(!(await callTool(client, 'get_screen_size')).isError);
  });

  test('401 without a token or with a wrong one, with WWW-Authenticate; the SDK client cannot connect either', async () => {
    const none = await postInitialize(server.url, {});
    assert.equal(none.status, 401);
    assert.match(none.headers.get('www-authenticate') ?? '', /^Bearer /);
    const wrong = await postInitialize(server.url, { Authorization: `Bearer ${'x'.repeat(43)}` });
    assert.equal(wrong.status, 401);
    assert.match(wrong.headers.get('www-authenticate') ?? '', /invalid_token/);
    await assert.rejects(server.connect({ Authorization: 'Bearer nope' }));
  });

  test('an idle connection stays open past the 5 s Node closes one after by default: the client closes it, so a call after a pause never meets one the server is closing', async () => {
    const socket = connectTcp(Number(server.url.port), server.url.hostname);
    const replies: string[] = [];
    let received = '';
    let closed = false;
    socket.on('data', (data) => (received += data.toString('latin1')));
    socket.on('close', () => (closed = true));
    const ask = async () => {
      const from = received.length;
      socket.write(`GET /elsewhere HTTP/1.1\r\nHost: ${server.url.host}\r\nConnection: keep-alive\r\n\r\n`);
      await waitUntil('the answer on the same connection', 5000, () => closed || /\r\n\r\n[^]*\}/.test(received.slice(from)));
      replies.push(received.slice(from));
    };
    try {
      await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
      await ask();
      assert.match(replies[0]!, /^HTTP\/1\.1 404 /, replies[0]);
      // The server tells how long it keeps the connection: a client keeps it less long than that.
      assert.match(replies[0]!, /\r\nKeep-Alive: timeout=(\d+)/i);
      assert.ok(Number(/\r\nKeep-Alive: timeout=(\d+)/i.exec(replies[0]!)![1]) >= 600, replies[0]);
      await new Promise((resolve) => setTimeout(resolve, 6000));
      assert.equal(closed, false, 'the server kept the idle connection open for 6 s');
      await ask();
      assert.match(replies[1]!, /^HTTP\/1\.1 404 /, `a request after the pause is answered on the same connection: ${JSON.stringify(replies[1])}`);
    } finally {
      socket.destroy();
    }
  });

  test('403 for a foreign Origin or a foreign Host even with the token; an allowed Origin gets in with CORS headers', async () => {
    const authorization = { Authorization: `Bearer ${server.token()}` };
    assert.equal((await postInitialize(server.url, { ...authorization, Origin: 'http://evil.example' })).status, 403);
    assert.equal((await postInitialize(server.url, { ...authorization, Origin: 'null' })).status, 403);
    const allowed = await postInitialize(server.url, { ...authorization, Origin: 'http://localhost:5173' });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'http://localhost:5173');
    const session = allowed.headers.get('mcp-session-id');
    assert.ok(session);
    await allowed.body?.cancel();
    // Leave no session behind: the client ends what it started.
    const ended = await fetch(server.url, { method: 'DELETE', headers: { ...authorization, 'Mcp-Session-Id': session } });
    assert.equal(ended.status, 200);
    // A rebound DNS name reaches 127.0.0.1 with its own name in Host (fetch will not forge Host, so a raw request).
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const sent = request(server.url, { method: 'POST', headers: { ...authorization, Host: `attacker.example:${server.url.port}`, 'Content-Type': 'application/json' } }, (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      });
      sent.on('error', reject);
      sent.end(JSON.stringify(initialize));
    });
    assert.equal(status, 403);
  });

  test('tools/call arguments that are no JSON object are answered invalid_arguments naming what would work, not a JSON-RPC internal error', async () => {
    const { transport } = await server.connect();
    const headers = { Authorization: `Bearer ${server.token()}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', 'Mcp-Session-Id': transport.sessionId!, 'Mcp-Protocol-Version': '2025-06-18' };
    for (const [args, kind] of [['x', 'a string'], [[1], 'an array'], [null, 'null'], [7, 'a number']] as const) {
      const response = await fetch(server.url, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', id: 41, method: 'tools/call', params: { name: 'list_windows', arguments: args } }) });
      const text = await response.text();
      const data = JSON.parse(/^data: (.*)$/m.exec(text)?.[1] ?? text) as { result?: { isError?: boolean; structuredContent?: { error?: string; message?: string } }; error?: unknown };
      assert.equal(data.error, undefined, `a tool result, not a JSON-RPC error: ${text}`);
      assert.equal(data.result?.isError, true);
      assert.equal(data.result?.structuredContent?.error, 'invalid_arguments');
      assert.match(data.result?.structuredContent?.message ?? '', new RegExp(`^invalid arguments for list_windows: arguments must be a JSON object .*got ${kind}$`));
    }
  });

  test('each HTTP session has its own snapshots and config', async () => {
    const first = await connect();
    const second = await connect();
    assert.ok(!(await callTool(first, 'set_config', { max_image_dimension: 321 })).isError);
    assert.equal((await callTool(first, 'get_config')).structuredContent?.max_image_dimension, 321);
    assert.notEqual((await callTool(second, 'get_config')).structuredContent?.max_image_dimension, 321);
    const state = await callTool(first, 'get_window_state', { pid: window.pid, window_id: window.id });
    assert.ok(!state.isError);
    // The first session's element indices mean nothing in the second: it has no snapshot of the window.
    const click = await callTool(second, 'click', { pid: window.pid, window_id: window.id, element_index: 1 });
    assert.equal(click.isError, true);
    assert.equal((click.structuredContent as { error: string }).error, 'no_snapshot');
  });

  test('DELETE ends the session: its terminals are stopped and its id is refused afterwards', async () => {
    const { client, transport } = await server.connect();
    const started = await callTool(client, 'tui_start', { command: 'bash', args: ['--norc', '--noprofile'] });
    assert.ok(!started.isError, resultText(started));
    const pid = (started.structuredContent as { pid: number }).pid;
    terminalPids.push(pid);
    assert.ok(sessionMembers(pid).length >= 1, 'the terminal runs');
    const id = transport.sessionId!;
    await transport.terminateSession();
    // The server answers the DELETE only after stopping what the session started.
    assert.equal(sessionMembers(pid).length, 0, 'no process of the terminal is left once DELETE returned');
    const after = await fetch(server.url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.token()}`, 'Mcp-Session-Id': id, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    assert.equal(after.status, 404);
    await client.close();
  });

  test('SIGTERM: sessions end, terminals stop, the generated token file is removed, exit status 0', async () => {
    const own = await HttpServerProcess.start(['mcp', '--http', '127.0.0.1:0'], env);
    const { client } = await own.connect();
    const started = await callTool(client, 'tui_start', { command: 'bash', args: ['--norc', '--noprofile'] });
    const pid = (started.structuredContent as { pid: number }).pid;
    terminalPids.push(pid);
    assert.equal(await own.stop(), 0);
    assert.equal(sessionMembers(pid).length, 0);
    assert.equal(existsSync(own.tokenFile), false);
    await client.close().catch(() => undefined);
  });

  test('SIGTERM while a call runs: the client is answered at once, told the server ended its session, not left to its own timeout', async () => {
    const own = await HttpServerProcess.start(['mcp', '--http', '127.0.0.1:0'], env);
    const { client } = await own.connect();
    const waiting = callTool(client, 'wait_for', { pid: window.pid, window_id: window.id, selector: 'name="Never there"', timeout_ms: 25_000 }, { timeout: 40_000 });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const stoppedAt = Date.now();
    own.child.kill('SIGTERM');
    const answer = await waiting;
    assert.ok(Date.now() - stoppedAt < 8000, `answered ${Date.now() - stoppedAt} ms after SIGTERM`);
    assert.equal(answer.isError, true);
    assert.match(resultText(answer), /^error \[cancelled\]: .*\n⚠️ the server ended this session while the call ran \(received SIGTERM\)$/s);
    if (own.child.exitCode === null) await new Promise((resolve) => own.child.once('exit', resolve));
    assert.equal(own.child.exitCode, 0);
    await client.close().catch(() => undefined);
  });

  test('a session that idles out (client gone without DELETE) is ended with its terminals', async () => {
    const own = await HttpServerProcess.start(['mcp', '--http', '0', '--session-idle-timeout', '1'], env);
    try {
      const { client } = await own.connect();
      const started = await callTool(client, 'tui_start', { command: 'bash', args: ['--norc', '--noprofile'] });
      const pid = (started.structuredContent as { pid: number }).pid;
      terminalPids.push(pid);
      // A cancelled call gets no answer; its response must still end, or the open request would keep the session alive.
      const controller = new AbortController();
      const waiting = callTool(client, 'wait_for', { pid: window.pid, selector: 'name="Never there"', timeout_ms: 20_000 }, { signal: controller.signal });
      await new Promise((resolve) => setTimeout(resolve, 300));
      controller.abort();
      await assert.rejects(waiting, /abort/i);
      await waitUntil('the server cancelled the wait', 3000, () => /wait_for cancelled by the client/.test(own.stderr));
      // close() drops the connection and sends no DELETE: only the idle clock can end the session.
      await client.close();
      await waitUntil('the idle session was ended', 8000, () => /ended: idle for 1 s/.test(own.stderr));
      await waitUntil('its terminal was stopped', 3000, () => sessionMembers(pid).length === 0);
    } finally {
      await own.stop();
    }
  });

  test('a client that disconnects mid-call cancels the call', async () => {
    const { client, transport } = await server.connect();
    const mark = server.stderr.length;
    const waiting = callTool(client, 'wait_for', { pid: window.pid, selector: 'name="Never there either"', timeout_ms: 20_000 }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 500));
    // close() aborts the client's requests without a notifications/cancelled: only the dropped connection tells.
    await transport.close();
    await waiting;
    await waitUntil('the server cancelled the call of the vanished client', 3000, () => /wait_for cancelled by the client/.test(server.stderr.slice(mark)));
  });

  test('a given --token-file is used as is and kept; a non-loopback address needs --allow-remote', async () => {
    const tokenFile = join(mkdtempSync(join(tmpdir(), 'cup-http-token-')), 'token');
    writeFileSync(tokenFile, 'a-token-from-a-secret-0123456789\n', { mode: 0o600 });
    const own = await HttpServerProcess.start(['mcp', '--http', '0', '--token-file', tokenFile], env);
    assert.equal(own.tokenFile, tokenFile);
    const { client } = await own.connect({ Authorization: 'Bearer a-token-from-a-secret-0123456789' });
    assert.ok(!(await callTool(client, 'get_screen_size')).isError);
    await client.close();
    assert.equal(await own.stop(), 0);
    assert.ok(existsSync(tokenFile), 'a token file the server did not write is left alone');

    // A FIFO (or a device) is no token file: refused at once, where reading it blocked the process before it could serve or stop.
    const fifo = join(tokenFile, '..', 'token.fifo');
    execFileSync('mkfifo', [fifo]);
    const blocked = spawnSync(process.execPath, [cliPath, 'mcp', '--http', '0', '--token-file', fifo], { env, encoding: 'utf8', timeout: 15_000, killSignal: 'SIGKILL' });
    assert.equal(blocked.signal, null, 'the server answered within 15 s');
    assert.equal(blocked.status, 2, blocked.stderr);
    assert.match(blocked.stderr, /--token-file .*token\.fifo: cannot read it \(not a regular file\)/);

    const refused = spawnSync(process.execPath, [cliPath, 'mcp', '--http', '0.0.0.0:0'], { env, encoding: 'utf8', timeout: 15_000 });
    assert.notEqual(refused.status, 0);
    assert.match(refused.stderr, /refusing to listen on 0\.0\.0\.0.*--allow-remote/);
    const remote = await HttpServerProcess.start(['mcp', '--http', '0.0.0.0:0', '--allow-remote'], env);
    assert.match(remote.stderr, /WARNING: listening on 0\.0\.0\.0, reachable from other machines/);
    assert.equal(await remote.stop(), 0);
  });
});
