import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { stateDirectory } from '../../platform/linux/desktop/state-dir.js';
import { localDisplayNumber } from '../../platform/linux/desktop/virtual-desktop.js';
import { DaemonConnection } from './connection.js';
import { probeDaemon, stopTimeoutMs, waitUntilStopped } from './launcher.js';
import { daemonSocketPath } from './socket-path.js';

/** A running daemon of this user, found by its socket, and the display it serves. */
export interface FoundDaemon {
  socket: string;
  pid: number;
  display: string | null;
}

const controlTimeoutMs = 5000;

function sameDisplay(a: string | null | undefined, b: string | null | undefined): boolean {
  const number = localDisplayNumber(a);
  return number !== undefined && number === localDisplayNumber(b);
}

/**
 * Every daemon answering on a socket of this user: the one this environment names (CUP_DRIVER_SOCKET, or the
 * display's name) and every `daemon-*.sock` in the private state directory. The daemon started without DISPLAY
 * (`daemon-auto.sock`) serves the desktop it started itself, which only its own answer tells.
 */
async function runningDaemons(env: NodeJS.ProcessEnv = process.env): Promise<FoundDaemon[]> {
  const directory = stateDirectory(env);
  let names: string[] = [];
  try {
    names = readdirSync(directory).filter((name) => /^daemon-.+\.sock$/.test(name));
  } catch {
    // No state directory yet: only the socket this environment names can be there.
  }
  const sockets = [...new Set([daemonSocketPath(env), ...names.map((name) => join(directory, name))])];
  const probed = await Promise.all(sockets.map(async (socket) => ({ socket, found: await probeDaemon(socket) })));
  return probed.flatMap(({ socket, found }) => (found.state === 'alive' ? [{ socket, pid: found.pid, display: found.display }] : []));
}

/** The daemons of this user that serve `display` (by what each says it serves, whatever its socket is named). */
export async function daemonsServing(display: string, env: NodeJS.ProcessEnv = process.env): Promise<FoundDaemon[]> {
  return (await runningDaemons(env)).filter((daemon) => sameDisplay(daemon.display, display));
}

/**
 * Asks a daemon to shut down and waits until its process is gone (it lets calls in flight finish first). Only
 * daemons reached through this user's private sockets are asked, and the wait is on the pid that answered.
 */
export async function stopDaemon(daemon: Pick<FoundDaemon, 'socket' | 'pid'>): Promise<void> {
  const connection = await DaemonConnection.open(daemon.socket, controlTimeoutMs);
  try {
    await connection.request({ op: 'shutdown' }, controlTimeoutMs, 'a shutdown request');
  } finally {
    connection.close();
  }
  await waitUntilStopped(daemon.socket, daemon.pid, `the daemon (pid ${daemon.pid}) did not stop within ${stopTimeoutMs / 1000} s; kill it with \`kill ${daemon.pid}\``);
}
