// The processes kill_app must refuse whatever pid a caller sends: the system's own (init, kernel threads), the
// driver, its other processes (the daemon, MCP servers) and every process it runs under (the agent, its shell), the caller's own chain when the
// call came from another process (a CLI call to the daemon), and the desktop the driver works on (its X server,
// its session bus, the window manager, and the services its buses started: the accessibility bus and registry).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { commandLine, processChain, processEnvironment, statFields } from './processes.js';
import { listDesktops } from './virtual-desktop.js';

/** The driver's entry script: another process running it (the daemon, an MCP server) is the driver too. */
const driverEntry = fileURLToPath(new URL('../../../server/main.js', import.meta.url));

/** PF_KTHREAD in /proc/PID/stat's flags field: the process is a kernel thread. */
const KERNEL_THREAD_FLAG = 0x00200000;
function isKernelThread(pid: number): boolean {
  const flags = Number(statFields(pid)?.[6]);
  return pid === 2 || (Number.isFinite(flags) && (flags & KERNEL_THREAD_FLAG) !== 0);
}

function name(pid: number): string {
  return commandLine(pid)[0]?.split('/').at(-1) ?? `pid ${pid}`;
}

/** The X server that owns the display (from its lock file), whichever desktop it is. */
function xServerOf(display: string | undefined): number | undefined {
  const number = /^:(\d+)/.exec(display ?? '')?.[1];
  if (number === undefined) return undefined;
  try {
    const pid = Number.parseInt(readFileSync(`/tmp/.X${number}-lock`, 'utf8').trim(), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** The processes of the embedded desktop the driver works on, when it started one, and the addresses of its buses. */
function desktopOf(display: string | undefined): { processes: { pid: number; role: string }[]; buses: string[] } {
  const desktop = listDesktops().find((candidate) => candidate.display === display && candidate.alive);
  const x = xServerOf(display);
  const processes = [
    ...(x !== undefined ? [{ pid: x, role: `the X server of ${display}` }] : []),
    ...(desktop
      ? [
          { pid: desktop.pids.dbus, role: 'the desktop\'s session bus' },
          { pid: desktop.pids.windowManager, role: 'the window manager' },
          { pid: desktop.pids.compositor, role: 'the compositing manager' },
        ]
      : []),
  ].filter((entry) => entry.pid > 0);
  const buses = [process.env.DBUS_SESSION_BUS_ADDRESS, desktop?.sessionBusAddress, desktop?.accessibilityBusAddress].filter((address): address is string => !!address);
  return { processes, buses: buses.map(busPath) };
}

/** The socket part of a D-Bus address: the guid differs between the copies of one address. */
function busPath(address: string): string {
  return address.split(',')[0]!;
}

/** The bus that started pid by D-Bus activation (the accessibility bus and its registry are started so), if any. */
function starterBus(pid: number): string | undefined {
  const entry = processEnvironment(pid)?.find((line) => line.startsWith('DBUS_STARTER_ADDRESS='));
  return entry ? busPath(entry.slice('DBUS_STARTER_ADDRESS='.length)) : undefined;
}

/**
 * Why the driver must not signal pid, or undefined when it may. callerPid is the process a call came from when
 * that is not this one's ancestor (a CLI call served by the daemon).
 */
export function protectionOf(pid: number, callerPid?: number): string | undefined {
  if (pid <= 1) return pid === 1 ? 'pid 1 is the init process' : `pid ${pid} names no single process`;
  if (isKernelThread(pid)) return `pid ${pid} is a kernel thread`;
  if (pid === process.pid) return `pid ${pid} is the driver itself`;
  if (processChain(process.pid).includes(pid)) return `pid ${pid} (${name(pid)}) is a process the driver runs under`;
  if (commandLine(pid).slice(1, 2).includes(driverEntry)) return `pid ${pid} is another process of this driver (its daemon or an MCP server)`;
  if (callerPid !== undefined && processChain(callerPid).includes(pid)) return `pid ${pid} (${name(pid)}) is the caller or a process the caller runs under`;
  const desktop = desktopOf(process.env.DISPLAY);
  const role = desktop.processes.find((entry) => entry.pid === pid)?.role;
  if (role) return `pid ${pid} is ${role}`;
  // What the desktop's buses started by activation (the accessibility bus, its registry) is the desktop too.
  const starter = starterBus(pid);
  if (starter !== undefined && desktop.buses.includes(starter)) return `pid ${pid} (${name(pid)}) is a service the desktop's bus started`;
  return undefined;
}
