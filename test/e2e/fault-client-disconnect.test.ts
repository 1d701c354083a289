// Issue 13, faults: clients that go away mid-call. 50 rounds against one daemon (connections dropped and CLI
// processes killed with SIGKILL while the daemon runs their call, and MCP clients killed while their server runs one): each call is
// cancelled (no session stays busy), every MCP server ends by itself, and the daemon holds no more file
// descriptors, sockets or child processes than before (/proc). `npm run faults` runs 1000 rounds.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { daemonSocketPath } from '../../src/server/daemon/socket-path.js';
import { callCliJson, daemonProcesses, stopDaemon } from '../daemon/helpers.js';
import { TestDesktop } from '../helpers/desktop.js';
import { DISCONNECTED_SESSION, disconnectRounds } from '../helpers/disconnects.js';

describe('clients that disconnect mid-call', () => {
  let desktop: TestDesktop;
  let env: NodeJS.ProcessEnv;
  let app: ClientWindow;

  before(async () => {
    desktop = await TestDesktop.start();
    env = desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-config-')), CUP_DRIVER_IDLE_TIMEOUT: '300' });
    app = (await desktop.launchFixture('gtk3', { title: 'Waited on' })).window;
  });

  after(async () => {
    if (env) await stopDaemon(env);
    await desktop?.stop();
  });

  test('50 clients killed mid-call: every call cancelled, nothing leaks in the daemon', async () => {
    const first = await callCliJson(env, 'get_window_state', { pid: app.pid, window_id: app.id, include_screenshot: false });
    assert.equal(first.status, 0, first.stderr);
    const [daemon] = daemonProcesses(daemonSocketPath(env));
    assert.ok(daemon);
    const report = await disconnectRounds(env, daemon, app.pid, 50);
    assert.deepEqual(daemonProcesses(daemonSocketPath(env)), [daemon], 'the same daemon serves on');
    assert.deepEqual([report.cliRounds, report.mcpRounds], [5, 5]);
    assert.ok(report.slowestMcpExitMs < 5000, `an MCP server took ${report.slowestMcpExitMs} ms to end after its client was killed`);
    assert.ok(report.after.sockets <= report.before.sockets, `sockets ${report.before.sockets} → ${report.after.sockets}`);
    assert.ok(report.after.fds <= report.before.fds, `file descriptors ${report.before.fds} → ${report.after.fds}`);
    assert.ok(report.after.children <= report.before.children, `child processes ${report.before.children} → ${report.after.children}`);
    // Every killed client's call was cancelled: no session is left busy with one.
    const sessions = await callCliJson(env, 'list_sessions', {});
    const disconnected = (sessions.json.sessions as { session: string; busy: boolean }[]).find((session) => session.session === DISCONNECTED_SESSION);
    assert.ok(disconnected, `the killed clients' session: ${sessions.stderr}`);
    assert.equal(disconnected.busy, false, 'no killed client\'s call is still running');
  });
});
