import { closeSync, mkdirSync, openSync, readSync, renameSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive, spawnDetached } from '../../platform/linux/desktop/processes.js';
import { DaemonConnection, DaemonTimeoutError, isNoDaemonError } from './connection.js';
import { entryScript, isOlderBuild } from './identity.js';
import { daemonLogPath } from './socket-path.js';

/** Connecting to a Unix socket is immediate when something listens; this only bounds a wedged kernel queue. */
const connectTimeoutMs = 2000;
/** A live daemon answers a ping in microseconds; one that does not within this is stopped or wedged. */
const pingTimeoutMs = 5000;
/** Starting the daemon is a node process loading its modules; the desktop itself starts later, on first use. */
const startTimeoutMs = 20_000;
/** A stopping daemon first lets its calls in flight finish (up to 10 s), then closes its connections. */
export const stopTimeoutMs = 15_000;
/** Log files of daemons started on demand are rotated past this size. */
const maxLogBytes = 1 << 20;

export type ProbeResult =
  | { state: 'absent' }
  | { state: 'alive'; pid: number; display: string | null }
  | { state: 'unresponsive'; reason: string };

/** What listens on the socket: nothing (absent or a stale file), a daemon that answers, or something that does not. */
export async function probeDaemon(socketPath: string): Promise<ProbeResult> {
  let connection: DaemonConnection;
  try {
    connection = await DaemonConnection.open(socketPath, connectTimeoutMs);
  } catch (error) {
    if (isNoDaemonError(error)) return { state: 'absent' };
    return { state: 'unresponsive', reason: (error as Error).message };
  }
  try {
    const pong = await connection.request({ op: 'ping' }, pingTimeoutMs, 'a ping');
    const display = pong.structured.display;
    return { state: 'alive', pid: Number(pong.structured.pid), display: typeof display === 'string' ? display : null };
  } catch (error) {
    return { state: 'unresponsive', reason: (error as Error).message };
  } finally {
    connection.close();
  }
}

function logTail(path: string, bytes = 2000): string {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const size = statSync(path).size;
    const buffer = Buffer.alloc(Math.min(bytes, size));
    readSync(fd, buffer, 0, buffer.length, size - buffer.length);
    return buffer.toString('utf8').trim().split('\n').slice(-6).join('\n');
  } catch {
    return '';
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function startDaemonProcess(socketPath: string): { pid: number; logFile: string } {
  const logFile = daemonLogPath(socketPath);
  mkdirSync(dirname(logFile), { recursive: true, mode: 0o700 });
  try {
    if (statSync(logFile).size > maxLogBytes) renameSync(logFile, `${logFile}.old`);
  } catch {
    // No log yet.
  }
  // Quietly: the caller's stderr is part of its output, which is the same with or without the daemon.
  const pid = spawnDetached(process.execPath, [entryScript, 'serve', '--socket', socketPath], process.env, logFile);
  return { pid, logFile };
}

/**
 * Attaches to the daemon on the socket. Without a live one, starts one (detached, logging to a file in the
 * state directory) and waits, bounded, until it answers. A daemon built before this client's code is
 * asked to stop and replaced. When two clients race, both start a daemon and the socket lock lets only one of them bind; the
 * other exits and both clients attach to the winner.
 */
export async function attachDaemon(socketPath: string, options: { start: boolean; log(message: string): void }): Promise<DaemonConnection> {
  let started: { pid: number; logFile: string; deadline: number } | undefined;
  for (;;) {
    let connection: DaemonConnection | undefined;
    try {
      connection = await DaemonConnection.open(socketPath, connectTimeoutMs);
    } catch (error) {
      if (!isNoDaemonError(error)) throw error;
    }
    if (connection) {
      let build: unknown;
      try {
        const pong = await connection.request({ op: 'ping' }, pingTimeoutMs, 'a ping', '; it may be stopped (SIGSTOP) or wedged: restart it, or run the call with --no-daemon');
        build = pong.structured.build ?? null;
      } catch (error) {
        connection.close();
        // A daemon that closes on us was just stopping: start another. One that does not answer is wedged.
        if (error instanceof DaemonTimeoutError) throw error;
      }
      if (build !== undefined && !isOlderBuild(build)) return connection;
      if (build !== undefined) {
        options.log(`the daemon on ${socketPath} runs an older build (${JSON.stringify(build)}); replacing it`);
        await connection.request({ op: 'shutdown' }, pingTimeoutMs, 'a shutdown request').catch(() => undefined);
        connection.close();
        await waitUntilStopped(socketPath, undefined, `the old daemon on ${socketPath} did not stop within ${stopTimeoutMs / 1000} s; stop it with \`cup-driver daemon stop\``);
        continue;
      }
    }
    if (!options.start) throw new Error(`no cup-driver daemon is running on ${socketPath}; start one with \`cup-driver serve\``);
    started ??= { ...startDaemonProcess(socketPath), deadline: Date.now() + startTimeoutMs };
    if (Date.now() > started.deadline) {
      throw new Error(
        `the daemon (pid ${started.pid}) did not answer on ${socketPath} within ${startTimeoutMs / 1000} s; its log ${started.logFile} ends with:\n${logTail(started.logFile)}`,
      );
    }
    if (!isAlive(started.pid)) {
      // It may have lost the race to another daemon (which then answers) or failed (its log says why).
      const probe = await probeDaemon(socketPath);
      if (probe.state === 'alive') continue;
      throw new Error(`the daemon exited before it could serve ${socketPath}; its log ${started.logFile} ends with:\n${logTail(started.logFile)}`);
    }
    await sleep(50);
  }
}

/**
 * Waits until the daemon on the socket has stopped: it no longer answers and, when its pid is given, its
 * process has finished cleaning up (socket removed, desktop connections closed). Past stopTimeoutMs the
 * caller's message is thrown.
 */
export async function waitUntilStopped(socketPath: string, pid: number | undefined, timeoutMessage: string): Promise<void> {
  const deadline = Date.now() + stopTimeoutMs;
  while ((await probeDaemon(socketPath)).state === 'alive' || (pid !== undefined && isAlive(pid))) {
    if (Date.now() > deadline) throw new Error(timeoutMessage);
    await sleep(50);
  }
}
