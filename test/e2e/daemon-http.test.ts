import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { runCli, stopDaemon, waitUntil } from '../daemon/helpers.js';
import { TestDesktop } from '../helpers/desktop.js';
import { callTool, HttpServerProcess, resultText } from '../helpers/mcp-http.js';

describe('cup-driver serve --http: the daemon serves HTTP clients and CLI calls from one state', () => {
  let desktop: TestDesktop;
  let window: ClientWindow;
  let env: NodeJS.ProcessEnv;
  let actionLog: string;
  let daemon: HttpServerProcess;
  // One HTTP client for the file: its session also keeps the daemon (idle timeout 2 s) from exiting between the tests.
  let client: Client;
  let transport: StreamableHTTPClientTransport;

  before(async () => {
    desktop = await TestDesktop.start();
    actionLog = join(mkdtempSync(join(tmpdir(), 'cup-daemon-http-')), 'actions.log');
    window = (await desktop.launchFixture('gtk3', { extraArgs: ['--action-log', actionLog] })).window;
    env = desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-config-')) });
    daemon = await HttpServerProcess.start(['serve', '--http', '0', '--idle-timeout', '2'], env);
    ({ client, transport } = await daemon.connect());
  });

  after(async () => {
    await client?.close().catch(() => undefined);
    await daemon?.stop();
    await stopDaemon(env);
    await desktop?.stop();
  });

  test('a CLI call and an HTTP client reach each other\'s sessions in the one daemon', async () => {
    const set = await runCli(['call', 'set_config', '{"max_image_dimension": 400}', '--session', 'shared'], env);
    assert.equal(set.status, 0, set.stderr);
    const seen = await callTool(client, 'get_config', { session: 'shared' });
    assert.equal(seen.structuredContent?.max_image_dimension, 400, 'the HTTP client sees the config the CLI set in session "shared"');

    // The HTTP client reads the window in its own session; the CLI clicks by that snapshot's element index.
    const found = await callTool(client, 'find_elements', { pid: window.pid, window_id: window.id, selector: 'role=button name="Increment"' });
    assert.ok(!found.isError, resultText(found));
    const index = (found.structuredContent as { matches: { index: number }[] }).matches[0]!.index;
    const session = `http-${transport.sessionId}`;
    const status = JSON.parse((await runCli(['daemon', 'status', '--json'], env)).stdout) as { pid: number; sessions: { id: string }[] };
    assert.equal(status.pid, daemon.child.pid, 'the CLI talks to the daemon that serves HTTP');
    assert.ok(status.sessions.some((entry) => entry.id === session), `daemon status lists ${session}`);
    const click = await runCli(['call', 'click', JSON.stringify({ window_id: window.id, element_index: index, diff: false }), '--session', session], env);
    assert.equal(click.status, 0, click.stderr + click.stdout);
    await waitUntil('the app logged the click', 3000, () => existsSync(actionLog) && /^increment 1 /m.test(readFileSync(actionLog, 'utf8')));
  });

  test('a live HTTP session keeps the daemon from idling out; once it ends, the daemon exits by itself', async () => {
    // Four idle timeouts with the session open (and no socket connection): still serving.
    await new Promise((resolve) => setTimeout(resolve, 8000));
    assert.equal(daemon.child.exitCode, null, 'the daemon still runs');
    assert.ok(!(await callTool(client, 'get_screen_size')).isError);
    const tokenFile = daemon.tokenFile;
    await transport.terminateSession();
    await client.close();
    await waitUntil('the daemon exited after its idle timeout', 10_000, () => daemon.child.exitCode !== null);
    assert.equal(daemon.child.exitCode, 0);
    assert.match(daemon.stderr, /HTTP server stopping: the daemon is stopping/);
    assert.equal(existsSync(tokenFile), false, 'the generated token file went with it');
  });
});
