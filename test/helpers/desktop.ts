import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { startDesktop, stopDesktop, type DesktopState } from '../../src/platform/linux/desktop/virtual-desktop.js';
import { descendsFrom } from '../../src/platform/linux/launcher.js';
import { listClientWindows, type ClientWindow } from '../../src/platform/linux/windows.js';
import { seenBefore } from '../../src/platform/windows.js';
import { X11Connection } from '../../src/platform/linux/x11/index.js';

export const repositoryRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const fixtureApps = join(repositoryRoot, 'test', 'fixtures', 'apps');
export const cliPath = join(repositoryRoot, 'dist', 'src', 'server', 'main.js');

/**
 * A private virtual desktop for one test file: its own display, session bus and accessibility bus, and
 * its own state directory so it never touches a desktop the developer is using. Everything it started,
 * apps included, is stopped by stop().
 */
/** A fresh user's home and config directories for an app the test starts (no settings, no recent files of the machine's). */
export function homeEnvironment(home: string): Record<string, string> {
  return { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_DATA_HOME: join(home, '.local', 'share'), XDG_CACHE_HOME: join(home, '.cache') };
}

/** The desktops this process started and has not stopped, and those still starting: a signal that ends the process stops them first. */
const running = new Set<TestDesktop>();
const starting = new Set<Promise<unknown>>();
let stopsOnSignal = false;

/**
 * A test run ended by a signal (Ctrl-C, a CI job cancelled, a kill) stops its desktops, whose processes are
 * detached and would otherwise outlive it on the machine: one at a time (each stop points the state directory at
 * its own), within a bound, then the process exits as the signal would have ended it.
 */
function stopDesktopsOnSignal(): void {
  if (stopsOnSignal) return;
  stopsOnSignal = true;
  for (const [signal, number] of [['SIGINT', 2], ['SIGTERM', 15], ['SIGHUP', 1]] as const) {
    process.once(signal, () => {
      const exit = () => process.exit(128 + number);
      setTimeout(exit, 10_000).unref();
      void (async () => {
        // One still starting is stopped once it has started (its processes are detached from the first).
        await Promise.allSettled([...starting]);
        await new Promise((resolve) => setImmediate(resolve));
        for (const desktop of running) await desktop.stop().catch(() => undefined);
      })().finally(exit);
    });
  }
}

export class TestDesktop {
  private readonly apps: ChildProcess[] = [];
  private x?: X11Connection;

  private constructor(
    readonly state: DesktopState,
    readonly stateHome: string,
  ) {}

  static async start(size = { width: 1280, height: 800 }): Promise<TestDesktop> {
    const stateHome = mkdtempSync(join(tmpdir(), 'cup-test-'));
    // The state directory follows XDG_RUNTIME_DIR; point it at a private one for this test process.
    process.env.XDG_RUNTIME_DIR = stateHome;
    // The desktop's helpers inherit this process's environment: one started earlier in the same process (a
    // fleet bench) must not lend them its bus, or stopping that desktop would take this one's helpers with it.
    delete process.env.DISPLAY;
    delete process.env.DBUS_SESSION_BUS_ADDRESS;
    stopDesktopsOnSignal();
    const started = startDesktop(size);
    starting.add(started);
    const state = await started.finally(() => starting.delete(started));
    process.env.DISPLAY = state.display;
    process.env.DBUS_SESSION_BUS_ADDRESS = state.sessionBusAddress;
    const desktop = new TestDesktop(state, stateHome);
    running.add(desktop);
    return desktop;
  }

  /** Environment for child processes (apps, the CLI) that must run on this desktop. */
  env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    return { ...process.env, DISPLAY: this.state.display, DBUS_SESSION_BUS_ADDRESS: this.state.sessionBusAddress, XDG_RUNTIME_DIR: this.stateHome, ...extra };
  }

  async x11(): Promise<X11Connection> {
    // A desktop whose X server was restarted (a fault test) gets a fresh connection.
    if (!this.x || this.x.closed) this.x = await X11Connection.connect({ display: this.state.display });
    return this.x;
  }

  /** Starts an app on this desktop and waits (bounded) until its window with the given title is mapped. */
  async launch(
    command: string,
    args: string[],
    title: string | RegExp,
    timeoutMs = 20_000,
    extraEnv: NodeJS.ProcessEnv = {},
  ): Promise<{ process: ChildProcess; window: ClientWindow }> {
    const x = await this.x11();
    // An app killed a moment ago stays in the window manager's list until the X server has noticed its exit, and a
    // relaunch must not be handed its window: a window is this launch's when its process is (or descends from) the
    // one started, or when it was not listed before (a toolkit that sets no _NET_WM_PID, a launcher that detaches),
    // told by id and pid as launch_app tells it (the X server hands a new client the ids of one that has just gone).
    const seen = seenBefore(await listClientWindows(x));
    // In the desktop's own directory: an app's autosaves and backups (AbiWord's Untitled1.bak~) land there, not in the checkout.
    const child = spawn(command, args, { env: this.env(extraEnv), cwd: this.stateHome, stdio: ['ignore', 'ignore', 'pipe'] });
    const ours = (window: ClientWindow) => (window.pid > 0 && (window.pid === child.pid || descendsFrom(window.pid, child.pid!))) || !seen(window);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    this.apps.push(child);
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`${command} exited with ${child.exitCode}: ${stderr}`);
      const titled = (candidate: ClientWindow) => (typeof title === 'string' ? candidate.title === title : title.test(candidate.title));
      const window = (await listClientWindows(x)).find((candidate) => ours(candidate) && titled(candidate) && candidate.isOnScreen);
      if (window) return { process: child, window };
      await sleep(50);
    }
    throw new Error(`no window titled "${title}" appeared within ${timeoutMs} ms; stderr: ${stderr}`);
  }

  async launchFixture(toolkit: 'gtk3' | 'gtk4' | 'qt5', options: { title?: string; rows?: number; size?: string; timeoutMs?: number; extraArgs?: string[]; env?: NodeJS.ProcessEnv } = {}) {
    const title = options.title ?? `CUP Fixture ${toolkit.toUpperCase()}`;
    const args = [join(fixtureApps, `${toolkit}_fixture.py`), '--title', title];
    if (options.rows !== undefined) args.push('--rows', String(options.rows));
    if (options.size) args.push('--size', options.size);
    if (options.extraArgs) args.push(...options.extraArgs);
    // Qt 5 turns its accessibility bridge on when asked, as launch_app asks it.
    const env = { ...(toolkit === 'qt5' ? { QT_LINUX_ACCESSIBILITY_ALWAYS_ON: '1' } : {}), ...options.env };
    return this.launch('/usr/bin/python3', args, title, options.timeoutMs, env);
  }

  async stop(): Promise<void> {
    running.delete(this);
    for (const app of this.apps) if (app.exitCode === null) app.kill('SIGKILL');
    this.x?.close();
    // The desktop's record is in its own state directory; another TestDesktop started since (a fleet bench) moved the variable.
    process.env.XDG_RUNTIME_DIR = this.stateHome;
    await stopDesktop(this.state.display);
    rmSync(this.stateHome, { recursive: true, force: true });
  }
}
