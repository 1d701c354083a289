import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readlinkSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ToolContext } from '../../src/tools/context.js';
import { fixtureApps, TestDesktop } from '../helpers/desktop.js';
import { callOk, testContext } from '../helpers/tools.js';

/**
 * Apps whose toolkit sets no _NET_WM_PID and has no accessibility (Xt/Xaw here; Tk and Motif are alike): their
 * windows still have their process (the X server knows it), launch_app finds their window and says at once that
 * there is no tree and what works instead, and an app starts in the caller's working directory (the daemon serves
 * callers in many). Judged by xprop (no _NET_WM_PID), xdotool (the window), /proc (the process, its cwd) and pyatspi
 * (the applications on the bus).
 */
describe('apps without _NET_WM_PID or accessibility, and where apps start', () => {
  let desktop: TestDesktop;
  let context: ToolContext;
  let folder: string;

  before(async () => {
    desktop = await TestDesktop.start();
    folder = realpathSync(mkdtempSync(join(tmpdir(), 'cup-launch-cwd-')));
    // The caller's working directory, as the daemon passes each call's: not the test process's own.
    context = { ...testContext(), cwd: folder };
  });

  after(async () => {
    await desktop?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  const run = (command: string, args: string[]) => spawnSync(command, args, { env: desktop.env(), encoding: 'utf8', timeout: 15_000 }).stdout;

  /** The pids of the applications registered on the accessibility bus, as pyatspi lists them. */
  function pidsOnBus(): number[] {
    const script = 'import pyatspi\nfor app in pyatspi.Registry.getDesktop(0):\n    print(app.get_process_id())';
    return run('/usr/bin/python3', ['-c', script]).split('\n').filter(Boolean).map(Number);
  }

  test('list_windows gives an Xaw window the pid of its process, which sets no _NET_WM_PID', async () => {
    const { process: xcalc, window } = await desktop.launch('xcalc', [], 'Calculator');
    assert.match(run('xprop', ['-id', String(window.id), '_NET_WM_PID']), /not found/, 'xcalc sets no _NET_WM_PID (the premise)');
    const listed = (await callOk(context, 'list_windows', {})).structured.windows as { window_id: number; pid: number }[];
    assert.equal(listed.find((entry) => entry.window_id === window.id)?.pid, xcalc.pid);
    const running = (await callOk(context, 'list_apps', {})).structured.apps as { pid: number }[];
    assert.ok(running.some((app) => app.pid === xcalc.pid), 'list_apps lists it as running');
    xcalc.kill('SIGKILL');
  });

  test('launch_app finds such an app\'s window and says soon that it has no tree and what works', async () => {
    const started = Date.now();
    const result = await callOk(context, 'launch_app', { name: 'xcalc', creates_new_application_instance: true });
    const elapsed = Date.now() - started;
    const pid = result.structured.pid as number;
    const windows = result.structured.windows as { window_id: number }[];
    try {
      assert.equal(readFileSync(`/proc/${pid}/comm`, 'utf8').trim(), 'xcalc');
      const found = run('xdotool', ['search', '--name', '^Calculator$']).split('\n').filter(Boolean).map(Number);
      assert.equal(windows.length, 1);
      assert.ok(found.includes(windows[0]!.window_id), `xdotool finds window ${windows[0]!.window_id} (${found.join(', ')})`);
      assert.ok(!pidsOnBus().includes(pid), 'pyatspi: xcalc is not on the accessibility bus');
      assert.equal(result.structured.accessible, false);
      assert.match(result.summary, /not registered on the accessibility bus/);
      // The app was given time to register (5 s after its window), not the whole 20 s launch budget.
      assert.ok(elapsed < 15_000, `answered after ${elapsed} ms`);
      const state = await callOk(context, 'get_window_state', { pid, window_id: windows[0]!.window_id, include_screenshot: false });
      assert.equal(state.structured.degraded, true);
      assert.match(String(state.structured.degraded_reason), /not registered on the accessibility bus.*click with x, y in window pixels/);
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });

  test('launch_app starts the app in the caller\'s working directory, where its relative file names are', async () => {
    const fixture = join(fixtureApps, 'gtk3_fixture.py');
    const result = await callOk(context, 'launch_app', { name: '/usr/bin/python3', additional_arguments: [fixture, '--title', 'CUP Launch Folder'], creates_new_application_instance: true });
    const pid = result.structured.pid as number;
    try {
      assert.match(readFileSync(`/proc/${pid}/cmdline`, 'utf8'), /gtk3_fixture/);
      assert.equal(readlinkSync(`/proc/${pid}/cwd`), folder);
      assert.notEqual(process.cwd(), folder, 'the premise: the driver\'s own process runs elsewhere');
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });
});
