import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { DBusConnection, getProperty } from '../../src/platform/linux/dbus/index.js';
import { isAlive, processesWithEnvironment } from '../../src/platform/linux/desktop/processes.js';
import { X11Connection } from '../../src/platform/linux/x11/index.js';
import { cliPath, fixtureApps } from '../helpers/desktop.js';

describe('cup-driver desktop start | status | stop', () => {
  const runtime = mkdtempSync(join(tmpdir(), 'cup-desktop-'));
  const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: runtime, XDG_CONFIG_HOME: runtime };
  delete env.DISPLAY;
  delete env.DBUS_SESSION_BUS_ADDRESS;
  const cli = (...args: string[]) => spawnSync(process.execPath, [cliPath, ...args], { env, encoding: 'utf8', timeout: 60_000 });

  after(() => {
    // --all is safe here: the state directory is this test's own, so it only lists desktops this test started.
    cli('desktop', 'stop', '--all');
    rmSync(runtime, { recursive: true, force: true });
  });

  test('start prints export lines; the desktop has a window manager and accessibility switched on; stop leaves nothing running', async () => {
    const started = cli('desktop', 'start', '--size', '1024x768');
    assert.equal(started.status, 0, started.stderr);
    const display = /^export DISPLAY=':(\d+)'$/m.exec(started.stdout);
    const bus = /^export DBUS_SESSION_BUS_ADDRESS='(.+)'$/m.exec(started.stdout);
    assert.ok(display && bus, started.stdout);

    const x = await X11Connection.connect({ display: `:${display[1]}` });
    assert.deepEqual([x.screen.width, x.screen.height], [1024, 768]);
    assert.ok((await x.getWindowList(x.screen.root, '_NET_SUPPORTING_WM_CHECK'))?.length);
    x.close();

    const session = await DBusConnection.connect(bus[1]!);
    assert.equal(await getProperty(session, 'org.a11y.Bus', '/org/a11y/bus', 'org.a11y.Status', 'IsEnabled'), true);
    session.close();

    const status = JSON.parse(cli('desktop', 'status', '--json').stdout) as { display: string; alive: boolean; pids: Record<string, number> }[];
    assert.equal(status.length, 1);
    assert.equal(status[0]!.display, `:${display[1]}`);
    assert.equal(status[0]!.alive, true);
    const helpers = processesWithEnvironment('DBUS_SESSION_BUS_ADDRESS', bus[1]!);
    assert.ok(helpers.length >= 2, 'the accessibility bus and registry were started for this desktop');

    // A display that is taken is refused, never reused.
    const clash = cli('desktop', 'start', '--display', `:${display[1]}`);
    assert.equal(clash.status, 1);
    assert.match(clash.stderr, /display :\d+ is already in use/);

    const stop = spawnSync(process.execPath, [cliPath, 'desktop', 'stop'], { env: { ...env, DISPLAY: `:${display[1]}` }, encoding: 'utf8', timeout: 60_000 });
    assert.equal(stop.status, 0, stop.stderr);
    assert.match(stop.stderr, new RegExp(`stopped :${display[1]}\\n`));
    for (const pid of [...Object.values(status[0]!.pids), ...helpers]) assert.equal(isAlive(pid), false, `pid ${pid} is gone`);
    assert.equal(existsSync(`/tmp/.X11-unix/X${display[1]}`), false);
    assert.match(cli('desktop', 'status').stdout, /no virtual desktop started by cup-driver/);
  });

  test('stop typed in the shell that sourced the exports stops the desktop and spares that shell', () => {
    const started = cli('desktop', 'start');
    assert.equal(started.status, 0, started.stderr);
    const display = /^export DISPLAY='(:\d+)'$/m.exec(started.stdout)![1]!;
    const bus = /^export DBUS_SESSION_BUS_ADDRESS='(.+)'$/m.exec(started.stdout)![1]!;
    const helpers = processesWithEnvironment('DBUS_SESSION_BUS_ADDRESS', bus);
    assert.ok(helpers.length >= 2, 'the accessibility bus and registry were started for this desktop');
    // The shell holds the desktop's bus address, as one that ran `source <(cup-driver desktop start)` does: the stop
    // ended that shell (exit 143), so nothing after it ran.
    const shell = spawnSync('bash', ['-c', `"${process.execPath}" "${cliPath}" desktop stop --display ${display}; echo "the shell goes on: $?"`], {
      env: { ...env, DISPLAY: display, DBUS_SESSION_BUS_ADDRESS: bus },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(shell.status, 0, shell.stderr);
    assert.match(shell.stdout, /the shell goes on: 0/, shell.stderr);
    assert.match(shell.stderr, new RegExp(`stopped ${display}\\n`));
    for (const pid of helpers) assert.equal(isAlive(pid), false, `pid ${pid} is gone`);
    assert.equal(existsSync(`/tmp/.X11-unix/X${display.slice(1)}`), false);
  });

  test('desktops started at the same moment by separate processes get a display and a window manager each', async () => {
    // Separate state directories, as separate test files or users have: nothing but the X lock files is shared.
    const runtimes = [0, 1, 2].map(() => mkdtempSync(join(tmpdir(), 'cup-desktop-race-')));
    const start = (dir: string) =>
      new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [cliPath, 'desktop', 'start'], { env: { ...env, XDG_RUNTIME_DIR: dir } });
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        child.on('exit', (status) => resolve({ status, stdout, stderr }));
      });
    try {
      const results = await Promise.all(runtimes.map(start));
      const displays = results.map((result) => {
        assert.equal(result.status, 0, result.stderr);
        return /^export DISPLAY=':(\d+)'$/m.exec(result.stdout)![1];
      });
      assert.equal(new Set(displays).size, 3, `three displays: ${displays.join(', ')}`);
    } finally {
      for (const dir of runtimes) {
        spawnSync(process.execPath, [cliPath, 'desktop', 'stop', '--all'], { env: { ...env, XDG_RUNTIME_DIR: dir }, timeout: 60_000 });
        rmSync(dir, { recursive: true, force: true });
      }
    }
  });

  test('a bare stop stops only the desktop DISPLAY names, and only when cup-driver started it; --display and --all say which', () => {
    // Its own state directory: --all below must only ever see the desktops this test started.
    const dir = mkdtempSync(join(tmpdir(), 'cup-desktop-stop-'));
    const own: NodeJS.ProcessEnv = { ...env, XDG_RUNTIME_DIR: dir };
    const run = (display: string | undefined, ...args: string[]) => {
      const childEnv = { ...own };
      if (display === undefined) delete childEnv.DISPLAY;
      else childEnv.DISPLAY = display;
      return spawnSync(process.execPath, [cliPath, 'desktop', ...args], { env: childEnv, encoding: 'utf8', timeout: 60_000 });
    };
    // The independent witness: xdpyinfo answers only while that display's X server runs.
    const answers = (display: string) => spawnSync('xdpyinfo', ['-display', display], { stdio: 'ignore', timeout: 10_000 }).status === 0;
    try {
      const displays = [0, 1, 2].map(() => {
        const started = run(undefined, 'start', '--size', '640x480');
        assert.equal(started.status, 0, started.stderr);
        return `:${/^export DISPLAY=':(\d+)'$/m.exec(started.stdout)![1]}`;
      });
      const [a, b, c] = displays as [string, string, string];
      const status = JSON.parse(run(undefined, 'status', '--json').stdout) as { display: string; pids: { xvfb: number } }[];
      const xvfb = new Map(status.map((desktop) => [desktop.display, desktop.pids.xvfb]));
      assert.deepEqual([...xvfb.keys()].sort(), [...displays].sort());
      for (const display of displays) assert.ok(answers(display), `${display} answers before any stop`);

      // Without DISPLAY, and with a DISPLAY that is not ours, nothing is stopped and the refusal lists ours.
      for (const foreign of [undefined, ':4321']) {
        const refused = run(foreign, 'stop');
        assert.equal(refused.status, 1, refused.stderr);
        for (const display of displays) assert.match(refused.stderr, new RegExp(`${display} \\(running\\)`));
        assert.match(refused.stderr, /--display :N/);
        assert.match(refused.stderr, /--all/);
        assert.equal(refused.stderr.trim().split('\n').length, 1, refused.stderr);
        for (const display of displays) {
          assert.ok(isAlive(xvfb.get(display)!), `${display}'s Xvfb still runs after the refusal`);
          assert.ok(answers(display), `${display} still answers after the refusal`);
        }
      }

      // DISPLAY names a desktop of ours (screen suffix included): only that one stops.
      const bare = run(`${a}.0`, 'stop');
      assert.equal(bare.status, 0, bare.stderr);
      assert.equal(bare.stderr, `cup-driver: stopped ${a}\n`);
      assert.equal(isAlive(xvfb.get(a)!), false, `${a}'s Xvfb is gone`);
      assert.equal(answers(a), false);
      assert.ok(answers(b) && answers(c), 'the other two still answer');

      // --display stops that one only, whatever DISPLAY says.
      const named = run(c, 'stop', '--display', b);
      assert.equal(named.status, 0, named.stderr);
      assert.equal(named.stderr, `cup-driver: stopped ${b}\n`);
      assert.equal(isAlive(xvfb.get(b)!), false, `${b}'s Xvfb is gone`);
      assert.ok(answers(c), `${c} still answers`);

      assert.equal(run(undefined, 'stop', '--all', '--display', c).status, 2, 'both flags at once is a usage error');
      const all = run(undefined, 'stop', '--all');
      assert.equal(all.status, 0, all.stderr);
      assert.equal(all.stderr, `cup-driver: stopped ${c}\n`);
      assert.equal(isAlive(xvfb.get(c)!), false, `${c}'s Xvfb is gone`);
      assert.equal(answers(c), false);
      assert.match(run(undefined, 'stop').stderr, /nothing stopped/);
    } finally {
      run(undefined, 'stop', '--all');
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // GTK 4 finds the accessibility bus through its session bus (GTK 3 reads the X root window first), so with no
  // session bus it autolaunched one whose accessibility launcher took over the desktop's bus socket.
  test('a shell that exported only DISPLAY launches apps onto the desktop\'s own buses: the apps already running stay readable', async () => {
    const started = cli('desktop', 'start');
    assert.equal(started.status, 0, started.stderr);
    const display = `:${/^export DISPLAY=':(\d+)'$/m.exec(started.stdout)![1]}`;
    const bus = /^export DBUS_SESSION_BUS_ADDRESS='(.+)'$/m.exec(started.stdout)![1]!;
    try {
      const launch = (callEnv: NodeJS.ProcessEnv, text: string): number => {
        const result = spawnSync(
          process.execPath,
          [cliPath, 'call', '--no-daemon', '--json', 'launch_app', JSON.stringify({ name: '/usr/bin/python3', additional_arguments: [join(fixtureApps, 'gtk4_fixture.py'), '--title', text] })],
          { env: callEnv, encoding: 'utf8', timeout: 60_000 },
        );
        assert.equal(result.status, 0, result.stderr + result.stdout);
        return (JSON.parse(result.stdout) as { structuredContent: { pid: number } }).structuredContent.pid;
      };
      const first = launch({ ...env, DISPLAY: display, DBUS_SESSION_BUS_ADDRESS: bus }, 'first');
      const second = launch({ ...env, DISPLAY: display }, 'second');
      // The oracle: pyatspi, through the session bus the desktop printed, lists the apps registered on its accessibility bus.
      const listed = spawnSync('/usr/bin/python3', ['-c', 'import pyatspi\nprint(" ".join(str(a.get_process_id()) for a in pyatspi.Registry.getDesktop(0) if a))'], {
        env: { ...env, DISPLAY: display, DBUS_SESSION_BUS_ADDRESS: bus },
        encoding: 'utf8',
        timeout: 30_000,
      });
      const pids = listed.stdout.trim().split(/\s+/).map(Number);
      assert.ok(pids.includes(first), `the app launched first (pid ${first}) is still on the desktop's accessibility bus: ${listed.stdout} ${listed.stderr}`);
      assert.ok(pids.includes(second), `the app launched with DISPLAY alone (pid ${second}) is on it too: ${listed.stdout} ${listed.stderr}`);
    } finally {
      cli('desktop', 'stop', '--display', display);
    }
  });

  test('a socket left with no lock and nothing listening is stale: start takes its display; a listened one stays refused', async () => {
    // A number no one uses now, far from where desktops are picked (from :90 up), so no other tenant races for it.
    const number = Array.from({ length: 200 }, (_, i) => 4600 + i).find((n) => !existsSync(`/tmp/.X11-unix/X${n}`) && !existsSync(`/tmp/.X${n}-lock`))!;
    const socket = `/tmp/.X11-unix/X${number}`;
    // A process that bound the socket and ended without removing it, as a killed X server leaves it.
    const bind = (listen: boolean) => `import socket,sys,time\ns=socket.socket(socket.AF_UNIX)\ns.bind(${JSON.stringify(socket)})\n` + (listen ? 's.listen(1)\nprint("up",flush=True)\ntime.sleep(60)\n' : '');
    assert.equal(spawnSync('python3', ['-c', bind(false)]).status, 0);
    assert.ok(existsSync(socket));
    try {
      const started = cli('desktop', 'start', '--display', `:${number}`);
      assert.equal(started.status, 0, started.stderr);
      const x = await X11Connection.connect({ display: `:${number}` });
      assert.ok(x.screen.width > 0);
      x.close();
      assert.equal(cli('desktop', 'stop', '--display', `:${number}`).status, 0);
      assert.equal(existsSync(socket), false);
    } finally {
      cli('desktop', 'stop', '--display', `:${number}`);
      // The number was free when picked: a socket there now is the one this test left (a run without the fix).
      rmSync(socket, { force: true });
    }

    // Something listens on the socket (no lock file): the display is another's, and is refused, its socket kept.
    const listener = spawn('python3', ['-c', bind(true)], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise((resolve) => listener.stdout.once('data', resolve));
      const clash = cli('desktop', 'start', '--display', `:${number}`);
      assert.equal(clash.status, 1, clash.stdout);
      assert.match(clash.stderr, new RegExp(`display :${number} is already in use`));
      assert.ok(existsSync(socket));
    } finally {
      listener.kill();
      rmSync(socket, { force: true });
    }
  });

  test('stop refuses a display it did not start', () => {
    const result = cli('desktop', 'stop', '--display', ':4321');
    assert.equal(result.status, 1);
    assert.match(result.stderr, /no desktop started by cup-driver on :4321/);
  });
});
