import { spawn } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** How a process ended: its exit status, or the signal that ended it. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

/**
 * Starts a long-lived helper in its own session so it outlives the command that started it
 * (a desktop started by `desktop start` must survive that command), with output to a log file.
 * `exited` settles when it ends while this process still runs, for callers that need its status
 * (a launcher that hands files to an app already running exits at once, and says by its status whether that worked).
 */
export function spawnDetachedWatched(command: string, args: string[], env: NodeJS.ProcessEnv, logFile: string, cwd?: string): { pid: number; exited: Promise<ProcessExit> } {
  const log = openSync(logFile, 'a');
  try {
    const child = spawn(command, args, { env, detached: true, stdio: ['ignore', log, log], ...(cwd ? { cwd } : {}) });
    // A program that cannot be started also emits 'error' later; the throw below reports it, and an unheard 'error' would crash the driver.
    child.once('error', () => {});
    if (child.pid === undefined) throw new Error(`could not start ${command}`);
    const exited = new Promise<ProcessExit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    child.unref();
    return { pid: child.pid, exited };
  } finally {
    closeSync(log);
  }
}

/** spawnDetachedWatched for helpers whose exit nobody waits for. */
export function spawnDetached(command: string, args: string[], env: NodeJS.ProcessEnv, logFile: string): number {
  return spawnDetachedWatched(command, args, env, logFile).pid;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  // A zombie still answers signal 0; treat it as gone.
  const fields = statFields(pid);
  return fields !== undefined && fields[0] !== 'Z';
}

/** Fields of /proc/PID/stat after the command name, which may itself contain spaces and parentheses; field 0 is the state. */
export function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** Ancestry chains are short; the bound stops a loop on a /proc that changes under us. */
const MAX_CHAIN = 64;

/** pid, its parent, its parent's parent ... up to init. */
export function processChain(pid: number): number[] {
  const chain: number[] = [];
  for (let current: number | undefined = pid; current !== undefined && chain.length < MAX_CHAIN && !chain.includes(current); current = parentPid(current)) {
    chain.push(current);
  }
  return chain;
}

function parentPid(pid: number): number | undefined {
  const parent = Number(statFields(pid)?.[1]);
  return Number.isInteger(parent) && parent > 0 ? parent : undefined;
}

/** When the process started, in clock ticks since boot (/proc/PID/stat field 22): comparable between processes. */
export function processStartTicks(pid: number): number | undefined {
  const ticks = Number(statFields(pid)?.[19]);
  return Number.isFinite(ticks) ? ticks : undefined;
}

/** Every process id listed in /proc, this process's own included. */
export function processIds(): number[] {
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).map(Number);
}

/** Polls until the check passes; throws an error naming what was awaited when the deadline passes. */
export async function waitFor<T>(what: string, timeoutMs: number, check: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const reason = lastError instanceof Error ? `: ${lastError.message}` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${reason}`);
    }
    await sleep(25);
  }
}

/** SIGTERM, then SIGKILL if the process is still there after the grace period. */
export async function terminate(pid: number, graceMs = 1500): Promise<void> {
  if (!isAlive(pid)) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(20);
  if (isAlive(pid)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      return;
    }
    const killDeadline = Date.now() + 1000;
    while (isAlive(pid) && Date.now() < killDeadline) await sleep(20);
  }
}

/**
 * Processes whose environment has NAME=value (used to find helpers a desktop's bus started). A D-Bus address
 * may carry more keys after the ones given (dbus-daemon hands the services it starts its address with
 * ",guid=..." added), so an entry that continues with a comma matches too.
 */
export function processesWithEnvironment(name: string, value: string): number[] {
  const needle = `${name}=${value}`;
  const matches = (entry: string) => entry === needle || entry.startsWith(`${needle},`);
  const found: number[] = [];
  for (const pid of processIds()) {
    if (pid === process.pid) continue;
    // Gone already, or not ours to read: undefined.
    if (processEnvironment(pid)?.some(matches)) found.push(pid);
  }
  return found;
}

/** The environment a process was started with (/proc/PID/environ), entry by entry; undefined when it is gone or not ours to read. */
export function processEnvironment(pid: number): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  } catch {
    return undefined;
  }
}

export function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

/** Waits (checking every 10 ms) until the processes are gone or `timeoutMs` passed; returns those still alive. */
export async function waitGone(pids: readonly number[], timeoutMs: number): Promise<number[]> {
  const deadline = Date.now() + timeoutMs;
  let alive = pids.filter(isAlive);
  while (alive.length > 0 && Date.now() < deadline) {
    await sleep(10);
    alive = alive.filter(isAlive);
  }
  return alive;
}
