import { parseArgs, unknownWord, UsageError } from '../cli-args.js';
import { logToStderr } from '../log.js';
import { DaemonConnection, isNoDaemonError } from './connection.js';
import { daemonsServing, stopDaemon } from './display-daemons.js';
import { probeDaemon } from './launcher.js';
import { daemonSocketPath } from './socket-path.js';

const controlTimeoutMs = 5000;

/**
 * The socket of the daemon for this display: the one named after DISPLAY (or CUP_DRIVER_SOCKET) when a daemon
 * answers there, else the daemon that says it serves DISPLAY under another name (the one a call without DISPLAY
 * started, which then started this desktop).
 */
async function daemonForThisDisplay(): Promise<string> {
  const named = daemonSocketPath();
  if (process.env.CUP_DRIVER_SOCKET || !process.env.DISPLAY || (await probeDaemon(named)).state !== 'absent') return named;
  return (await daemonsServing(process.env.DISPLAY))[0]?.socket ?? named;
}

/** `cup-driver daemon status|stop`: look at or stop the daemon for this display, never starting one. */
export async function daemonCommand(argv: readonly string[]): Promise<number> {
  const [action, ...rest] = argv;
  if (action !== 'status' && action !== 'stop') throw unknownWord('daemon action', action, ['status', 'stop'], 'cup-driver daemon status [--json] | stop');
  const args = parseArgs(rest, action === 'status' ? { boolean: ['json'] } : {});
  if (args.positional.length > 0) throw new UsageError(`unexpected arguments: ${args.positional.join(' ')}`);
  const socketPath = await daemonForThisDisplay();
  let connection: DaemonConnection;
  try {
    connection = await DaemonConnection.open(socketPath, controlTimeoutMs);
  } catch (error) {
    if (!isNoDaemonError(error)) throw error;
    if (args.flags.has('json')) process.stdout.write(`${JSON.stringify({ running: false, socket: socketPath })}\n`);
    else process.stdout.write(`no daemon is running on ${socketPath}\n`);
    return 0;
  }
  try {
    if (action === 'status') {
      const status = await connection.request({ op: 'status' }, controlTimeoutMs, 'a status request');
      if (args.flags.has('json')) process.stdout.write(`${JSON.stringify({ running: true, ...status.structured }, null, 2)}\n`);
      else process.stdout.write(`${status.summary}\n${JSON.stringify(status.structured, null, 2)}\n`);
      return 0;
    }
    const identity = await connection.request({ op: 'ping' }, controlTimeoutMs, 'a ping');
    connection.close();
    const pid = Number(identity.structured.pid);
    await stopDaemon({ socket: socketPath, pid });
    logToStderr(`stopped the daemon (pid ${pid}) on ${socketPath}`);
    return 0;
  } finally {
    connection.close();
  }
}
