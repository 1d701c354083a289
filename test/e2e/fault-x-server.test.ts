// Issue 13, faults: the X server gone. On a display the driver did not start, every call (the one in flight
// included) fails with display_unavailable within 2 s and the process goes on; on the embedded desktop the
// next call starts the desktop again on the same display, and the daemon that serves the CLI keeps running.
// The kernel (/proc) tells which processes run; a new app on the restarted desktop is read as pyatspi reads it.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { isAlive } from '../../src/platform/linux/desktop/processes.js';
import { listDesktops } from '../../src/platform/linux/desktop/virtual-desktop.js';
import { stateDirectory } from '../../src/platform/linux/desktop/state-dir.js';
import { daemonSocketPath } from '../../src/server/daemon/socket-path.js';
import { runTool } from '../../src/tools/run.js';
import { callCliJson, daemonProcesses, runCli, stopDaemon } from '../daemon/helpers.js';
import { TestDesktop } from '../helpers/desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { accessibleWindowState, testContext } from '../helpers/tools.js';

const BOUND_MS = 2000;

describe('an X server the driver did not start, gone', () => {
  test('the call in flight and every later call fail with display_unavailable within 2 s; the process goes on', async () => {
    const desktop = await TestDesktop.start();
    // The desktop's record taken away: to the driver this display is someone else's, which it must not restart.
    const record = join(stateDirectory(), `desktop-${desktop.state.display.slice(1)}.json`);
    const saved = readFileSync(record);
    rmSync(record);
    const context = testContext();
    const lock = `/tmp/.X${desktop.state.display.slice(1)}-lock`;
    try {
      const app = await desktop.launchFixture('gtk3', { title: 'On a server that goes' });
      await accessibleWindowState(context, app.window, { include_screenshot: false });
      // In flight when the server goes: a wait for a window that never comes, for far longer than the bound.
      const waiting = runTool('wait_for', { pid: app.window.pid, window_title: 'Never shown', timeout_ms: 30_000 }, context);
      await sleep(300);
      // The display's lock is made this process's before its server dies: tests in other files start desktops at
      // the same time, and one of them would take the number of a dead server's stale lock, so the calls below would
      // reach that test's X server on the same DISPLAY (a CI run's wait_for went on for its whole 30 s that way).
      writeFileSync(lock, `${String(process.pid).padStart(10)}\n`);
      const killed = Date.now();
      process.kill(desktop.state.pids.xvfb, 'SIGKILL');
      const inFlight = await waiting;
      assert.ok(Date.now() - killed < BOUND_MS, `the call in flight answered ${Date.now() - killed} ms after the server went`);
      assert.equal(inFlight.structured.error, 'display_unavailable', inFlight.summary);
      for (const [tool, args] of [
        ['list_windows', {}],
        ['get_screen_size', {}],
        ['get_cursor_position', {}],
        ['clipboard_read', {}],
        ['click', { window_id: app.window.id, x: 5, y: 5 }],
        ['get_window_state', { pid: app.window.pid, window_id: app.window.id }],
        ['find_elements', { pid: app.window.pid, window_id: app.window.id, selector: 'role=button' }],
        ['get_accessibility_tree', {}],
      ] as const) {
        const callStarted = Date.now();
        const result = await runTool(tool, args, context);
        assert.ok(Date.now() - callStarted < BOUND_MS, `${tool} took ${Date.now() - callStarted} ms`);
        assert.equal(result.structured.error, 'display_unavailable', `${tool}: ${result.summary}`);
        assert.match(result.summary, new RegExp(`DISPLAY=${desktop.state.display}`));
      }
      assert.ok(!listDesktops().some((candidate) => candidate.display === desktop.state.display), 'nothing was started in its place');
    } finally {
      context.desktop.close();
      writeFileSync(record, saved);
      await desktop.stop();
      if (existsSync(lock) && readFileSync(lock, 'utf8').trim() === String(process.pid)) rmSync(lock, { force: true });
    }
  });
});

describe('the embedded desktop\'s X server gone', () => {
  let desktop: TestDesktop;
  let env: NodeJS.ProcessEnv;

  before(async () => {
    desktop = await TestDesktop.start();
    env = desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-config-')), CUP_DRIVER_IDLE_TIMEOUT: '120' });
  });

  after(async () => {
    if (env) await stopDaemon(env);
    await desktop?.stop();
  });

  test('the next call through the daemon starts the desktop again on its display; the daemon keeps running and new apps are read', async () => {
    const first = await runCli(['call', 'list_windows'], env);
    assert.equal(first.status, 0, first.stderr);
    const [daemon] = daemonProcesses(daemonSocketPath(env));
    assert.ok(daemon);
    const oldServer = desktop.state.pids.xvfb;
    process.kill(oldServer, 'SIGKILL');
    for (const deadline = Date.now() + 5000; isAlive(oldServer); await sleep(20)) assert.ok(Date.now() < deadline);

    const next = await runCli(['call', 'list_windows'], env);
    assert.equal(next.status, 0, `${next.stdout}\n${next.stderr}`);
    assert.match(next.stderr, new RegExp(`the X server of the virtual desktop ${desktop.state.display} had gone away; the desktop was started again`));
    assert.deepEqual(daemonProcesses(daemonSocketPath(env)), [daemon], 'the same daemon answered');
    const now = listDesktops().find((candidate) => candidate.display === desktop.state.display);
    assert.ok(now?.alive, 'the desktop runs again on its display');
    assert.notEqual(now.pids.xvfb, oldServer);

    // An app started on the new desktop is read through the daemon as pyatspi reads it.
    const app = await desktop.launchFixture('gtk3', { title: 'On the new server' });
    const oracle = new PyatspiOracle(desktop.env());
    try {
      const status = await oracle.statusText(app.window.pid, app.window.title);
      let names: string[] = [];
      for (const deadline = Date.now() + 15_000; !names.includes(status); await sleep(200)) {
        assert.ok(Date.now() < deadline, `the driver never read "${status}"; it read ${JSON.stringify(names.slice(0, 20))}`);
        const read = await callCliJson(env, 'get_window_state', { pid: app.window.pid, window_id: app.window.id, include_screenshot: false });
        names = ((read.json.elements ?? []) as { name: string }[]).map((element) => element.name);
      }
    } finally {
      oracle.close();
    }
  });
});
