import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { existsSync, lstatSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import { isAlive } from '../../src/platform/linux/desktop/processes.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { daemonLogPath, daemonSocketPath } from '../../src/server/daemon/socket-path.js';
import { TestDesktop } from '../helpers/desktop.js';
import { daemonProcesses, runCli, stopDaemon, waitUntil, withoutSnapshotId, type CliRun } from '../daemon/helpers.js';
import { defaultConfig } from '../../src/tools/state/config-store.js';

interface JsonOutput {
  isError: boolean;
  content: { type: 'text'; text: string }[];
  images: { path: string; mimeType: string }[];
  structuredContent: Record<string, unknown> & { snapshot_id?: string; degraded?: boolean };
}

describe('cup-driver call through the daemon', () => {
  let desktop: TestDesktop;
  let window: ClientWindow;
  let env: NodeJS.ProcessEnv;
  let socketPath: string;
  const extraEnvs: NodeJS.ProcessEnv[] = [];

  async function status(runEnv = env): Promise<{ pid: number; sessions: { id: string }[] }> {
    const run = await runCli(['daemon', 'status', '--json'], runEnv);
    assert.equal(run.status, 0, run.stderr);
    return JSON.parse(run.stdout) as { pid: number; sessions: { id: string }[] };
  }

  async function windowStateJson(extra: string[]): Promise<{ run: CliRun; output: JsonOutput }> {
    const args = ['call', 'get_window_state', JSON.stringify({ pid: window.pid, window_id: window.id }), '--json', ...extra];
    const run = await runCli(args, env);
    assert.equal(run.status, 0, run.stderr);
    return { run, output: JSON.parse(run.stdout) as JsonOutput };
  }

  before(async () => {
    desktop = await TestDesktop.start();
    window = (await desktop.launchFixture('gtk3')).window;
    // Long enough that the daemon never idles out between the tests of this file.
    env = desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-config-')), CUP_DRIVER_IDLE_TIMEOUT: '120' });
    socketPath = daemonSocketPath(env);
    // The fixture's tree appears a moment after its window; wait for it without the daemon.
    await waitUntil('the fixture is accessible', 15_000, async () => {
      const run = await runCli(['call', 'get_window_state', JSON.stringify({ pid: window.pid, window_id: window.id, include_screenshot: false }), '--json', '--no-daemon'], env);
      return run.status === 0 && !(JSON.parse(run.stdout) as JsonOutput).structuredContent.degraded;
    });
  });

  after(async () => {
    for (const runEnv of [env, ...extraEnvs]) if (runEnv) await stopDaemon(runEnv);
    await desktop?.stop();
  });

  test('two separate call processes share the daemon: session s1 keeps its config, s2 has the default, nothing is persisted', async () => {
    const set = await runCli(['call', 'set_config', '{"max_image_dimension": 500}', '--session', 's1'], env);
    assert.equal(set.status, 0, set.stderr);
    assert.equal(set.stdout, '✅ max_image_dimension=500 clipboard_keep_s=1800 held_button_max_s=60 diff_settle_ms=0 (for session "s1")\n');
    assert.equal(set.stderr, '', 'starting the daemon is silent');
    const pid = (await status()).pid;
    assert.deepEqual(daemonProcesses(socketPath), [pid]);

    const s1 = await runCli(['call', 'get_config', '--session', 's1'], env);
    assert.equal(s1.stdout, '✅ max_image_dimension=500 clipboard_keep_s=1800 held_button_max_s=60 diff_settle_ms=0\n');
    const s2 = await runCli(['call', 'get_config', '--session', 's2'], env);
    assert.equal(s2.stdout, '✅ max_image_dimension=1568 clipboard_keep_s=1800 held_button_max_s=60 diff_settle_ms=0\n');
    const anonymous = await runCli(['call', 'get_config'], env);
    assert.equal(anonymous.stdout, '✅ max_image_dimension=1568 clipboard_keep_s=1800 held_button_max_s=60 diff_settle_ms=0\n');
    assert.equal(existsSync(join(env.XDG_CONFIG_HOME!, 'cup-driver', 'config.json')), false);
    assert.equal((await status()).pid, pid, 'the same daemon served every call');

    // The session's max_image_dimension applies to its screenshots.
    const shot = await windowStateJson(['--session', 's1']);
    const size = await sharp(readFileSync(shot.output.images[0]!.path)).metadata();
    assert.equal(Math.max(size.width!, size.height!), 500);
  });

  test('get_window_state in one call process, a click by bare element_index in the next: the snapshot lives in the daemon', async () => {
    const state = await windowStateJson(['--session', 'clicker']);
    const elements = state.output.structuredContent.elements as { index: number; role: string; name: string }[];
    const increment = elements.find((element) => element.role === 'button' && element.name === 'Increment');
    assert.ok(increment, 'the fixture shows its Increment button');
    const statusBefore = elements.find((element) => /counter=\d+/.test(element.name))?.name ?? '';
    assert.match(statusBefore, /counter=\d+/, 'the fixture reports its counter in a status label');
    const before = Number(/counter=(\d+)/.exec(statusBefore)![1]);

    const click = await runCli(['call', 'click', JSON.stringify({ window_id: window.id, element_index: increment.index }), '--session', 'clicker'], env);
    assert.equal(click.status, 0, click.stderr);
    const after = await windowStateJson(['--session', 'clicker']);
    const statusAfter = (after.output.structuredContent.elements as { name: string }[]).find((element) => /counter=\d+/.test(element.name))?.name ?? '';
    assert.equal(Number(/counter=(\d+)/.exec(statusAfter)?.[1]), before + 1, `${statusBefore} -> ${statusAfter}`);

    // The same bare index in a session that never read the window has nothing to resolve against.
    const stranger = await runCli(['call', 'click', JSON.stringify({ window_id: window.id, element_index: increment.index }), '--session', 'stranger'], env);
    assert.equal(stranger.status, 1);
    assert.match(stranger.stderr, /no snapshot of window \d+ in session "stranger"; call get_window_state first/);
  });

  test('relative paths are taken from each caller\'s working directory, not the daemon\'s', async () => {
    const first = mkdtempSync(join(tmpdir(), 'cup-caller-a-'));
    const second = mkdtempSync(join(tmpdir(), 'cup-caller-b-'));
    for (const directory of [first, second]) {
      const run = await runCli(['call', 'get_window_state', JSON.stringify({ pid: window.pid, window_id: window.id, screenshot_out_file: 'shot.png', max_elements: 5 })], env, directory);
      assert.equal(run.status, 0, run.stderr);
      assert.ok(existsSync(join(directory, 'shot.png')), `written into ${directory}`);
    }
  });

  test('the socket is 0600 in a 0700 directory; the daemon logs to a file next to it', async () => {
    await runCli(['call', 'get_config'], env);
    assert.ok(lstatSync(socketPath).isSocket());
    assert.equal(lstatSync(socketPath).mode & 0o777, 0o600);
    assert.equal(statSync(dirname(socketPath)).mode & 0o777, 0o700);
    const log = readFileSync(daemonLogPath(socketPath), 'utf8');
    assert.match(log, /serving .*daemon-\d+\.sock; exits after 120 s idle/);
    assert.match(log, /s1 cli set_config: ok in \d+ ms/);
  });

  test('get_window_state through the daemon returns the same elements, text and image as --no-daemon', async () => {
    const imageDir = mkdtempSync(join(tmpdir(), 'cup-images-'));
    const direct = await windowStateJson(['--no-daemon', '--image-dir', imageDir]);
    const daemon = await windowStateJson(['--image-dir', imageDir]);
    const strip = (output: JsonOutput) => withoutSnapshotId({ ...output, images: output.images.map((image) => image.mimeType) }, output.structuredContent.snapshot_id);
    assert.deepEqual(strip(daemon.output), strip(direct.output));
    assert.ok((daemon.output.structuredContent.elements as { name: string }[]).some((element) => element.name === 'Increment'));
    for (const output of [direct.output, daemon.output]) {
      assert.ok(output.images[0]!.path.startsWith(imageDir), 'images are written by the CLI, where it was asked');
      const size = await sharp(readFileSync(output.images[0]!.path)).metadata();
      assert.equal(size.width, window.bounds.width);
    }
  });

  test('exit status, stdout and stderr are identical with and without the daemon', async () => {
    const cases = [
      ['call', 'no_such_tool', '{}'],
      ['call', 'get_window_state', '{"pid": 1, "window_id": "abc", "colour": 1}'],
      ['call', 'get_window_state', JSON.stringify({ pid: window.pid, window_id: 424242 })],
      ['call', 'list_windows', '{}'],
      ['call', 'get_screen_size'],
      ['call', 'set_config', '{"max_image_dimension": -1}', '--session', 'x'],
      ['call', 'get_config', '--session', 'bad name'],
      ['call', 'list_windows', '{pid:'],
    ];
    for (const args of cases) {
      const [viaDaemon, direct] = await Promise.all([runCli(args, env), runCli([...args, '--no-daemon'], env)]);
      assert.deepEqual(
        { status: viaDaemon.status, stdout: viaDaemon.stdout, stderr: viaDaemon.stderr },
        { status: direct.status, stdout: direct.stdout, stderr: direct.stderr },
        args.join(' '),
      );
    }
    const unknown = await runCli(['call', 'no_such_tool', '{}'], env);
    assert.equal(unknown.status, 2);
    const toolError = await runCli(['call', 'get_window_state', JSON.stringify({ pid: window.pid, window_id: 424242 })], env);
    assert.equal(toolError.status, 1);
    assert.match(toolError.stderr, /no top-level window with window_id 424242/);
    const badSession = await runCli(['call', 'get_config', '--session', 'bad name'], env);
    assert.equal(badSession.status, 2);
    assert.match(badSession.stderr, /invalid session name "bad name": use 1-128 letters/);
  });

  test('the anonymous session persists set_config to the global file, shared with --no-daemon both ways', async () => {
    const file = join(env.XDG_CONFIG_HOME!, 'cup-driver', 'config.json');
    assert.equal((await runCli(['call', 'set_config', '{"max_image_dimension": 640}'], env)).status, 0);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { ...defaultConfig, max_image_dimension: 640 });
    assert.equal((await runCli(['call', 'get_config'], env)).stdout, '✅ max_image_dimension=640 clipboard_keep_s=1800 held_button_max_s=60 diff_settle_ms=0\n');
    assert.equal((await runCli(['call', 'get_config', '--no-daemon'], env)).stdout, '✅ max_image_dimension=640 clipboard_keep_s=1800 held_button_max_s=60 diff_settle_ms=0\n');
    assert.equal((await runCli(['call', 'set_config', '{"max_image_dimension": 0}', '--no-daemon'], env)).status, 0);
    assert.equal((await runCli(['call', 'get_config'], env)).stdout, '✅ max_image_dimension=0 clipboard_keep_s=1800 held_button_max_s=60 diff_settle_ms=0\n');
    assert.equal((await runCli(['call', 'set_config', '{"max_image_dimension": 1568}'], env)).status, 0);
  });

  test('a SIGKILLed daemon leaves a stale socket that the next call replaces', async () => {
    const old = (await status()).pid;
    process.kill(old, 'SIGKILL');
    await waitUntil('the killed daemon is gone', 5000, () => !isAlive(old));
    assert.ok(lstatSync(socketPath).isSocket(), 'the stale socket file is still there');
    const run = await runCli(['call', 'get_config', '--session', 's1'], env);
    assert.equal(run.status, 0, run.stderr);
    assert.equal(run.stdout, '✅ max_image_dimension=1568 clipboard_keep_s=1800 held_button_max_s=60 diff_settle_ms=0\n', 'a new daemon: the old session state died with the old one');
    const fresh = (await status()).pid;
    assert.notEqual(fresh, old);
    assert.deepEqual(daemonProcesses(socketPath), [fresh]);
    assert.match(readFileSync(daemonLogPath(socketPath), 'utf8'), /replacing the stale socket/);
  });

  test('four calls racing to start the daemon end up with one daemon', async () => {
    await stopDaemon(env);
    assert.equal(existsSync(socketPath), false, 'daemon stop removed the socket');
    const runs = await Promise.all([0, 1, 2, 3].map((n) => runCli(['call', 'get_config', '--session', `race${n}`], env)));
    for (const run of runs) assert.equal(run.status, 0, run.stderr);
    const pid = (await status()).pid;
    // A daemon that lost the race exits on its own after finding the winner.
    await waitUntil('only the winning daemon runs', 5000, () => daemonProcesses(socketPath).length === 1);
    assert.deepEqual(daemonProcesses(socketPath), [pid]);
    const ids = (await status()).sessions.map((session) => session.id);
    for (const n of [0, 1, 2, 3]) assert.ok(ids.includes(`race${n}`), 'every racer was served by the winner');
  });

  test('the daemon exits after its idle timeout and removes its socket', async () => {
    const idleEnv = { ...env, CUP_DRIVER_IDLE_TIMEOUT: '1', CUP_DRIVER_SOCKET: join(dirname(socketPath), 'idle.sock') };
    extraEnvs.push(idleEnv);
    const run = await runCli(['call', 'get_screen_size'], idleEnv);
    assert.equal(run.status, 0, run.stderr);
    const [pid] = daemonProcesses(idleEnv.CUP_DRIVER_SOCKET);
    assert.ok(pid, 'a daemon serves the idle socket');
    await waitUntil('the idle daemon exits', 10_000, () => !isAlive(pid!));
    assert.equal(existsSync(idleEnv.CUP_DRIVER_SOCKET), false);
    assert.match(readFileSync(daemonLogPath(idleEnv.CUP_DRIVER_SOCKET), 'utf8'), /stopping: idle for 1 s[\s\S]*stopped/);
  });

  test('a running terminal program keeps an idle daemon alive; once it stops, the daemon idles out', async () => {
    const idleEnv = { ...env, CUP_DRIVER_IDLE_TIMEOUT: '1', CUP_DRIVER_SOCKET: join(dirname(socketPath), 'idle-tui.sock') };
    extraEnvs.push(idleEnv);
    const started = await runCli(['call', 'tui_start', JSON.stringify({ command: 'bash', args: ['--norc', '--noprofile'], session: 'keeper' })], idleEnv);
    assert.equal(started.status, 0, started.stderr);
    const [pid] = daemonProcesses(idleEnv.CUP_DRIVER_SOCKET);
    assert.ok(pid);
    await sleep(3000);
    assert.ok(isAlive(pid!), 'the daemon outlives its idle timeout while bash runs');
    const stopped = await runCli(['call', 'tui_stop', JSON.stringify({ session: 'keeper' })], idleEnv);
    assert.equal(stopped.status, 0, stopped.stderr);
    await waitUntil('the idle daemon exits', 10_000, () => !isAlive(pid!));
  });
});

describe('call without DISPLAY through the daemon', () => {
  test('the daemon starts the embedded desktop and the caller is told so on stderr', async () => {
    const runtime = mkdtempSync(join(tmpdir(), 'cup-nodisplay-'));
    const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: runtime, XDG_CONFIG_HOME: runtime, CUP_DRIVER_IDLE_TIMEOUT: '60' };
    delete env.DISPLAY;
    delete env.DBUS_SESSION_BUS_ADDRESS;
    try {
      // Two callers at once: both wait for the one desktop start, so both are told, whichever ends first.
      const runs = await Promise.all([runCli(['call', 'get_screen_size'], env), runCli(['call', 'list_windows'], env)]);
      for (const run of runs) {
        assert.equal(run.status, 0, run.stderr);
        assert.match(run.stderr, /no DISPLAY set: started a virtual desktop on :\d+/);
      }
      assert.match(runs[0].stdout, /screen 1280x800/);
      const again = await runCli(['call', 'get_screen_size'], env);
      assert.equal(again.status, 0, again.stderr);
      assert.equal(again.stderr, '', 'a later call is not told again');

      // With DISPLAY set to the desktop it started, `daemon status` finds that daemon (its socket is daemon-auto.sock).
      const display = /started a virtual desktop on (:\d+)/.exec(runs[0].stderr)![1]!;
      const withDisplay = { ...env, DISPLAY: display };
      const found = await runCli(['daemon', 'status', '--json'], withDisplay);
      assert.equal(found.status, 0, found.stderr);
      const daemon = JSON.parse(found.stdout) as { running: boolean; pid: number; display: string; socket: string };
      assert.equal(daemon.running, true, found.stdout);
      assert.equal(daemon.display, display);
      assert.match(daemon.socket, /daemon-auto\.sock$/);
      assert.ok(isAlive(daemon.pid));

      // Stopping that desktop stops the daemon serving it (the process table says it is gone), and nothing reports the display any more.
      const stopped = await runCli(['desktop', 'stop', '--display', display], env);
      assert.equal(stopped.status, 0, stopped.stderr);
      assert.match(stopped.stderr, new RegExp(`stopped the daemon \\(pid ${daemon.pid}\\) serving ${display}`));
      assert.equal(isAlive(daemon.pid), false, 'the daemon process is gone');
      assert.equal(existsSync(daemon.socket), false, 'its socket is removed');
      const none = await runCli(['daemon', 'status', '--json'], withDisplay);
      assert.equal((JSON.parse(none.stdout) as { running: boolean }).running, false, none.stdout);
    } finally {
      await stopDaemon(env);
      await runCli(['desktop', 'stop', '--all'], env);
    }
  });
});

