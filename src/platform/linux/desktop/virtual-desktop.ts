import { spawn } from 'node:child_process';
import { accessibleSessionEnvironment } from './accessible-session.js';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { askSessionBusForAccessibilityBus } from '../atspi/bus-address.js';
import { DBusConnection, setProperty, Variant } from '../dbus/index.js';
import { X11Connection } from '../x11/index.js';
import { commandLine, isAlive, processChain, processesWithEnvironment, spawnDetached, terminate, waitFor } from './processes.js';
import { requireProgram } from './requirements.js';
import { withStartLock } from './start-lock.js';
import { ToolError } from '../../../errors.js';
import { logDirectory, stateDirectory } from './state-dir.js';

/** What `desktop start` records so that `stop`, `status` and later driver processes find the desktop. */
export interface DesktopState {
  display: string;
  width: number;
  height: number;
  pids: { xvfb: number; dbus: number; windowManager: number; compositor: number };
  sessionBusAddress: string;
  accessibilityBusAddress: string;
  logDir: string;
  startedAt: string;
}

export interface DesktopStatus extends DesktopState {
  alive: boolean;
}

export interface StartOptions {
  display?: string;
  width?: number;
  height?: number;
}

const firstCandidateDisplay = 90;
const candidateCount = 400;

export function parseSize(text: string): { width: number; height: number } {
  const match = /^(\d{1,6})x(\d{1,6})$/.exec(text.trim());
  if (!match) throw new Error(`invalid size "${text}": expected WIDTHxHEIGHT, e.g. 1280x800`);
  const width = Number(match[1]);
  const height = Number(match[2]);
  if (width < 64 || height < 64 || width > 8192 || height > 8192) {
    throw new Error(`invalid size "${text}": each side must be between 64 and 8192 pixels`);
  }
  return { width, height };
}

function displayNumber(display: string): number {
  const match = /^:(\d+)$/.exec(display.trim());
  if (!match) throw new Error(`invalid display "${display}": expected :N, e.g. :99`);
  return Number(match[1]);
}

/**
 * Whether a display number is taken. A lock file whose X server is dead (killed, so it could not clean up)
 * is stale: it and the server's socket are removed, as X servers themselves do, and the number is free. So is a
 * socket left with no lock file beside it that refuses connections: nothing listens on it (an X server that ran
 * there was killed after its lock was removed, or the lock was cleared by hand), and Xvfb replaces such a socket
 * when it starts. A socket that accepts, or that cannot be tried, keeps the number taken.
 */
async function displayInUse(number: number): Promise<boolean> {
  const lock = `/tmp/.X${number}-lock`;
  const socket = `/tmp/.X11-unix/X${number}`;
  const owner = lockOwner(number);
  if (owner !== undefined && !isAlive(owner)) {
    rmSync(lock, { force: true });
    rmSync(socket, { force: true });
  }
  if (existsSync(lock)) return true;
  if (!existsSync(socket)) return false;
  if (!(await refusesConnections(socket))) return true;
  rmSync(socket, { force: true });
  return false;
}

/** A connection to the socket is refused at once: nothing listens on it. Any other answer (or none within a second) is not. */
function refusesConnections(path: string): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createConnection(path);
    const end = (refused: boolean) => {
      clearTimeout(timer);
      probe.destroy();
      resolve(refused);
    };
    const timer = setTimeout(() => end(false), 1000);
    probe.once('connect', () => end(false));
    probe.once('error', (error: NodeJS.ErrnoException) => end(error.code === 'ECONNREFUSED'));
  });
}

function statePath(display: string): string {
  return join(stateDirectory(), `desktop-${displayNumber(display)}.json`);
}

function writeState(state: DesktopState): void {
  const path = statePath(state.display);
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
  renameSync(temporary, path);
}

function readState(path: string): DesktopState | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as DesktopState;
  } catch {
    return undefined;
  }
}

/** The X server is ours and still running: its pid is alive and is the Xvfb we started for that display. */
function serverAlive(state: DesktopState): boolean {
  if (!isAlive(state.pids.xvfb)) return false;
  const argv = commandLine(state.pids.xvfb);
  return argv.some((arg) => arg.endsWith('Xvfb')) && argv.includes(state.display);
}

/** Every desktop this user started, alive or not. */
export function listDesktops(): DesktopStatus[] {
  const dir = stateDirectory();
  return readdirSync(dir)
    .filter((name) => /^desktop-\d+\.json$/.test(name))
    .map((name) => readState(join(dir, name)))
    .filter((state): state is DesktopState => state !== undefined)
    .map((state) => ({ ...state, alive: serverAlive(state) }));
}

/** What an app needs to run on this desktop and be read: its display, its session bus, accessibility on. */
export function desktopEnvironment(state: DesktopState): Record<string, string> {
  return { DISPLAY: state.display, DBUS_SESSION_BUS_ADDRESS: state.sessionBusAddress, ...accessibleSessionEnvironment(process.env) };
}

/** The pid an X server wrote into the display's lock file, if it can be read. */
function lockOwner(number: number): number | undefined {
  try {
    const pid = Number.parseInt(readFileSync(`/tmp/.X${number}-lock`, 'utf8').trim(), 10);
    return Number.isInteger(pid) ? pid : undefined;
  } catch {
    return undefined;
  }
}

async function startXServer(requested: number | undefined, width: number, height: number, logDir: string) {
  const xvfb = requireProgram('Xvfb', 'xvfb');
  const candidates = requested !== undefined ? [requested] : Array.from({ length: candidateCount }, (_, i) => firstCandidateDisplay + i);
  for (const number of candidates) {
    if (await displayInUse(number)) {
      if (requested !== undefined) {
        throw new Error(`display :${number} is already in use (/tmp/.X${number}-lock exists, or a server listens on /tmp/.X11-unix/X${number}); omit --display to pick a free one`);
      }
      continue;
    }
    const log = join(logDir, `xvfb-${number}.log`);
    // -noreset keeps root-window properties (such as AT_SPI_BUS) when the last client disconnects.
    const pid = spawnDetached(
      xvfb,
      [`:${number}`, '-screen', '0', `${width}x${height}x24`, '-nolisten', 'tcp', '-noreset', '-dpi', '96'],
      { ...process.env },
      log,
    );
    try {
      const outcome = await waitFor(`Xvfb :${number} to accept connections`, 10_000, async () => {
        if (!isAlive(pid)) return 'exited';
        // Another process's server that took the number a moment earlier also accepts connections, while ours is
        // about to exit: only the server that wrote the lock file is ours (else openbox would meet another
        // desktop's window manager and exit).
        if (lockOwner(number) !== pid) return undefined;
        const connection = await X11Connection.connect({ display: `:${number}`, timeoutMs: 1000 });
        connection.close();
        return 'ours';
      });
      if (outcome === 'ours') return { number, pid };
      // It lost the number to another process's server between our check and its start: try the next.
      if (requested !== undefined) throw new Error(`Xvfb :${number} exited; see ${log}`);
    } catch (error) {
      await terminate(pid);
      // Another process may have claimed this number between our check and Xvfb's start: try the next.
      if (requested !== undefined) throw error;
    }
  }
  throw new Error('no free X display number found between :90 and :489');
}

/**
 * Asks the session bus for the accessibility bus (which starts at-spi-bus-launcher when it is not running)
 * and switches accessibility on, as a desktop's start does; used again after that bus was started anew.
 */
export async function enableAccessibility(sessionBusAddress: string): Promise<string> {
  const bus = await DBusConnection.connect(sessionBusAddress, { timeoutMs: 5000 });
  try {
    const address = await askSessionBusForAccessibilityBus(bus);
    // Toolkits such as Chromium and Qt only export their trees when this flag is on.
    await setProperty(bus, 'org.a11y.Bus', '/org/a11y/bus', 'org.a11y.Status', 'IsEnabled', new Variant('b', true), 5000);
    return address;
  } finally {
    bus.close();
  }
}

async function waitForRegistry(accessibilityBusAddress: string): Promise<void> {
  await waitFor('the AT-SPI registry on the accessibility bus', 10_000, async () => {
    const bus = await DBusConnection.connect(accessibilityBusAddress, { timeoutMs: 3000 });
    try {
      await bus.call({
        destination: 'org.a11y.atspi.Registry',
        path: '/org/a11y/atspi/accessible/root',
        interface: 'org.a11y.atspi.Accessible',
        member: 'GetChildren',
        timeoutMs: 5000,
      });
      return true;
    } finally {
      bus.close();
    }
  });
}

/**
 * Openbox announces itself (_NET_SUPPORTING_WM_CHECK) before it handles new windows, and map requests
 * that arrive in between are lost; an app started then would never show. So the desktop only counts as
 * ready once openbox has framed a probe window of our own.
 */
async function waitForWindowManager(display: string, wmPid: number): Promise<void> {
  const x = await X11Connection.connect({ display, timeoutMs: 2000 });
  const probe = await x.createWindow({ parent: x.screen.root, x: 0, y: 0, width: 10, height: 10 });
  try {
    await waitFor('the window manager (openbox) to manage new windows', 10_000, async () => {
      if (!isAlive(wmPid)) throw new Error('openbox exited');
      await x.mapWindow(probe);
      const tree = await x.queryTree(probe);
      return tree.parent !== x.screen.root ? true : undefined;
    });
  } finally {
    await x.destroyWindow(probe).catch(() => {});
    await x.sync().catch(() => {});
    x.close();
  }
}

/** Starts the compositor helper and waits until its redirection is in place (it prints "ready"). */
async function startCompositor(display: string, logFile: string): Promise<number> {
  const script = fileURLToPath(new URL('./compositor.js', import.meta.url));
  const log = openSync(logFile, 'a');
  try {
    const child = spawn(process.execPath, [script, display], { detached: true, stdio: ['ignore', 'pipe', log] });
    const ready = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 10_000);
      child.stdout!.once('data', () => {
        clearTimeout(timer);
        resolve(true);
      });
      child.once('exit', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
    child.stdout!.destroy();
    child.unref();
    if (!ready || child.pid === undefined) {
      if (child.pid !== undefined) await terminate(child.pid);
      throw new Error(`the compositor helper did not start; see ${logFile}`);
    }
    return child.pid;
  } finally {
    closeSync(log);
  }
}

/** Starts Xvfb, a session bus, openbox and the accessibility bus with accessibility switched on. */
export async function startDesktop(options: StartOptions = {}): Promise<DesktopState> {
  const width = options.width ?? 1280;
  const height = options.height ?? 800;
  const requested = options.display !== undefined ? displayNumber(options.display) : undefined;
  const dbusDaemon = requireProgram('dbus-daemon', 'dbus');
  const openbox = requireProgram('openbox', 'openbox');
  requireProgram('/usr/libexec/at-spi-bus-launcher', 'at-spi2-core');

  const logDir = logDirectory();
  const server = await startXServer(requested, width, height, logDir);
  const display = `:${server.number}`;
  const pids = { xvfb: server.pid, dbus: 0, windowManager: 0, compositor: 0 };
  try {
    // Before any window exists: a window redirected only after being covered keeps the wrong pixels.
    pids.compositor = await startCompositor(display, join(logDir, `compositor-${server.number}.log`));
    const socketPath = join(stateDirectory(), `bus-${server.number}`);
    rmSync(socketPath, { force: true });
    const sessionBusAddress = `unix:path=${socketPath}`;
    const env: NodeJS.ProcessEnv = { ...process.env, DISPLAY: display, DBUS_SESSION_BUS_ADDRESS: sessionBusAddress };
    delete env.NO_AT_BRIDGE;
    pids.dbus = spawnDetached(
      dbusDaemon,
      ['--session', '--nofork', '--nopidfile', `--address=${sessionBusAddress}`],
      env,
      join(logDir, `dbus-${server.number}.log`),
    );
    await waitFor('the session bus', 5000, async () => {
      if (!isAlive(pids.dbus)) throw new Error('dbus-daemon exited');
      const bus = await DBusConnection.connect(sessionBusAddress, { timeoutMs: 1000 });
      bus.close();
      return true;
    });
    pids.windowManager = spawnDetached(openbox, ['--sm-disable'], env, join(logDir, `openbox-${server.number}.log`));
    const [accessibilityBusAddress] = await Promise.all([
      enableAccessibility(sessionBusAddress),
      waitForWindowManager(display, pids.windowManager),
    ]);
    await waitForRegistry(accessibilityBusAddress);
    const state: DesktopState = {
      display,
      width,
      height,
      pids,
      sessionBusAddress,
      accessibilityBusAddress,
      logDir,
      startedAt: new Date().toISOString(),
    };
    writeState(state);
    return state;
  } catch (error) {
    await stopProcesses(display, pids, `unix:path=${join(stateDirectory(), `bus-${server.number}`)}`);
    throw error;
  }
}

async function stopProcesses(display: string, pids: DesktopState['pids'], sessionBusAddress: string): Promise<void> {
  // Helpers the session bus activated (accessibility bus, registry) and apps started on this desktop carry its bus address.
  // So does the shell that sourced `desktop start`'s exports, and whatever runs this stop from it: the process chain
  // this runs under is spared (a `desktop stop` typed in that shell ended the shell with it).
  const ownChain = processChain(process.pid);
  const started = processesWithEnvironment('DBUS_SESSION_BUS_ADDRESS', sessionBusAddress).filter((pid) => pid !== pids.xvfb && !ownChain.includes(pid));
  await Promise.all([pids.windowManager, pids.compositor ?? 0, ...started].filter((pid) => pid > 0).map((pid) => terminate(pid)));
  if (pids.dbus > 0) await terminate(pids.dbus);
  if (pids.xvfb > 0) await terminate(pids.xvfb);
  const number = displayNumber(display);
  rmSync(join(stateDirectory(), `bus-${number}`), { force: true });
}

/**
 * The recorded pids that still run the program recorded for them: a desktop whose X server died leaves its
 * session bus and helpers running, and a pid of one that exited may since belong to an unrelated process.
 */
function livePids(state: DesktopState): DesktopState['pids'] {
  const runs = (pid: number, check: (argv: string[]) => boolean) => (pid > 0 && isAlive(pid) && check(commandLine(pid)) ? pid : 0);
  return {
    xvfb: serverAlive(state) ? state.pids.xvfb : 0,
    dbus: runs(state.pids.dbus, (argv) => argv.includes(`--address=${state.sessionBusAddress}`)),
    windowManager: runs(state.pids.windowManager, (argv) => argv.some((arg) => arg.endsWith('openbox'))),
    compositor: runs(state.pids.compositor ?? 0, (argv) => argv.some((arg) => arg.endsWith('compositor.js')) && argv.includes(state.display)),
  };
}

async function stopRecorded(desktop: DesktopStatus): Promise<void> {
  await stopProcesses(desktop.display, livePids(desktop), desktop.sessionBusAddress);
  rmSync(statePath(desktop.display), { force: true });
}

/** Stops the desktop this user started on the display, with everything it ran; never touches a display of another program. */
export async function stopDesktop(display: string): Promise<DesktopState> {
  const desktop = listDesktops().find((candidate) => candidate.display === display);
  if (!desktop) {
    throw new ToolError(`no desktop started by cup-driver on ${display}; see \`cup-driver desktop status\``, 'desktop_not_found', { display });
  }
  await stopRecorded(desktop);
  return desktop;
}

/**
 * Starts one of our desktops again on its own display after its X server went away (killed, crashed), so
 * DISPLAY and the session bus address stay what they were. What is left of it (its session bus, window
 * manager, compositor) is stopped first, by the pids recorded for them; processes merely carrying its
 * address are left alone (a CLI client waiting on the daemon does too). Its apps died with the X server.
 * Undefined when the display names no desktop of ours, or ours still runs.
 */
export async function restartDeadDesktop(displayVariable: string | undefined): Promise<DesktopState | undefined> {
  const dead = desktopNamedBy(displayVariable, listDesktops());
  if (!dead || dead.alive) return undefined;
  return withStartLock('start.lock', `another cup-driver process to finish restarting the desktop ${dead.display}`, async () => {
    const now = listDesktops().find((candidate) => candidate.display === dead.display);
    if (now?.alive) return now;
    const leftovers = livePids(dead);
    await Promise.all([leftovers.windowManager, leftovers.compositor, leftovers.dbus].filter((pid) => pid > 0).map((pid) => terminate(pid)));
    return startDesktop({ display: dead.display, width: dead.width, height: dead.height });
  });
}

/** Stops every desktop recorded in this user's state directory (only ours: other programs' displays are not recorded there). */
export async function stopAllDesktops(): Promise<DesktopState[]> {
  const desktops = listDesktops();
  for (const desktop of desktops) await stopRecorded(desktop);
  return desktops;
}

/**
 * The desktop of ours a DISPLAY value names, if any. ":91", ":91.0" and "unix:91" all name local display 91;
 * a remote display ("host:91") is never one of ours.
 */
export function desktopNamedBy(displayVariable: string | undefined, desktops: readonly DesktopStatus[]): DesktopStatus | undefined {
  const number = localDisplayNumber(displayVariable);
  return number !== undefined ? desktops.find((desktop) => desktop.display === `:${number}`) : undefined;
}

/** The local display number a DISPLAY value names (":91", ":91.0", "unix:91" are all "91"); undefined for a remote one. */
export function localDisplayNumber(displayVariable: string | null | undefined): string | undefined {
  return /^(?:unix)?:(\d+)(?:\.\d+)?$/.exec(displayVariable?.trim() ?? '')?.[1];
}

/**
 * DISPLAY naming a desktop of ours with no session bus set (a shell that exported DISPLAY alone): that desktop's
 * session bus is taken, so the apps launched on it join its accessibility bus. Without it each app autolaunches a
 * session bus of its own, whose accessibility launcher starts a second bus at the same socket path, cutting every
 * app already running off from the driver. Returns the desktop whose bus was taken.
 */
export function adoptDesktopSessionBus(log: (message: string) => void): DesktopState | undefined {
  if (!process.env.DISPLAY || process.env.DBUS_SESSION_BUS_ADDRESS) return undefined;
  const desktop = desktopNamedBy(process.env.DISPLAY, listDesktops());
  if (!desktop?.alive) return undefined;
  process.env.DBUS_SESSION_BUS_ADDRESS = desktop.sessionBusAddress;
  log(`DISPLAY=${process.env.DISPLAY} is the virtual desktop ${desktop.display} with no DBUS_SESSION_BUS_ADDRESS set: using its session bus ${desktop.sessionBusAddress}`);
  return desktop;
}

/**
 * Makes sure the driver has a display: with DISPLAY set, nothing changes; otherwise reuse a running
 * desktop of ours or start one, and point this process (and the apps it launches) at it.
 */
export async function ensureDisplay(log: (message: string) => void): Promise<DesktopState | undefined> {
  if (process.env.DISPLAY) return undefined;
  let desktop: DesktopState | undefined = listDesktops().find((candidate) => candidate.alive);
  if (desktop) {
    log(`no DISPLAY set: using the virtual desktop ${desktop.display} started earlier`);
  } else {
    desktop = await withStartLock('start.lock', 'another cup-driver process to finish starting a desktop', async () =>
      listDesktops().find((candidate) => candidate.alive) ?? startDesktop(),
    );
    log(`no DISPLAY set: started a virtual desktop on ${desktop.display} (stop it with \`cup-driver desktop stop --display ${desktop.display}\`)`);
  }
  Object.assign(process.env, desktopEnvironment(desktop));
  delete process.env.NO_AT_BRIDGE;
  return desktop;
}
