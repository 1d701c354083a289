import { resolve } from 'node:path';
import { flagValue, parseArgs, UsageError } from '../cli-args.js';
import { createSharedResources } from '../session.js';
import { packageVersion } from '../version.js';
import { httpFlags, httpOptionsFromFlags, type HttpFlagOptions } from '../http/http-options.js';
import type { McpHttpServer } from '../http/mcp-http-server.js';
import { DaemonAlreadyRunningError, DaemonServer } from './server.js';
import { daemonSocketPath } from './socket-path.js';

/** Long enough to span an agent's thinking between calls, short enough that a forgotten daemon goes away. */
export const defaultIdleTimeoutSeconds = 300;

/** Node's timers fire at once beyond 2^31-1 ms (about 24.8 days), which would make a long timeout an immediate exit. */
const maxIdleTimeoutSeconds = 2_000_000;

/** Seconds from --idle-timeout or CUP_DRIVER_IDLE_TIMEOUT, as milliseconds; 0 means never exit when idle. */
export function parseIdleTimeout(text: string | undefined, source: string): number {
  if (text === undefined || text.trim() === '') return defaultIdleTimeoutSeconds * 1000;
  const seconds = Number(text);
  if (!/^\s*\d+(\.\d+)?\s*$/.test(text) || seconds > maxIdleTimeoutSeconds) {
    throw new UsageError(
      `invalid idle timeout "${text}" (from ${source}): expected seconds up to ${maxIdleTimeoutSeconds}, e.g. 300, or 0 to never exit when idle`,
    );
  }
  return Math.round(seconds * 1000);
}

function logLine(message: string): void {
  process.stderr.write(`${new Date().toISOString()} cup-driver daemon[${process.pid}]: ${message}\n`);
}

/** `serve --http`: HTTP clients' calls run in the daemon's own sessions, so they share its state with CLI calls. */
async function startHttp(daemon: DaemonServer, options: HttpFlagOptions): Promise<McpHttpServer> {
  const [{ McpHttpServer }, { tools }] = await Promise.all([import('../http/mcp-http-server.js'), import('../../tools/registry.js')]);
  return McpHttpServer.start({
    ...options,
    served: tools,
    calls: { run: (session, tool, args, call) => daemon.sessions.run(session, tool, args, call), end: (session) => daemon.sessions.end(session) },
    log: logLine,
    hold: () => daemon.hold(),
  });
}

/**
 * `cup-driver serve`: the daemon, in the foreground (a client starting it on demand detaches it and sends
 * its stderr to a log file). Returns only to exit.
 */
export async function serveCommand(argv: readonly string[]): Promise<number> {
  const args = parseArgs(argv, { valued: ['socket', 'idle-timeout', ...httpFlags.valued], boolean: httpFlags.boolean, repeated: httpFlags.repeated });
  if (args.positional.length > 0) throw new UsageError(`serve takes no arguments, got: ${args.positional.join(' ')}`);
  const flag = flagValue(args, 'idle-timeout');
  const idleTimeoutMs =
    flag !== undefined ? parseIdleTimeout(flag, '--idle-timeout') : parseIdleTimeout(process.env.CUP_DRIVER_IDLE_TIMEOUT, 'CUP_DRIVER_IDLE_TIMEOUT');
  const socket = flagValue(args, 'socket');
  const socketPath = socket !== undefined ? resolve(socket) : daemonSocketPath();
  // Each request carries its caller's working directory; the daemon's own is only the default for callers that send none.

  const httpOptions = httpOptionsFromFlags(args);

  const shared = createSharedResources({ log: logLine });
  let http: McpHttpServer | undefined;
  let daemon: DaemonServer;
  try {
    daemon = await DaemonServer.start({ socketPath, idleTimeoutMs, shared, log: logLine, beforeStop: async () => http?.close('the daemon is stopping') });
  } catch (error) {
    await shared.close();
    if (error instanceof DaemonAlreadyRunningError) {
      logLine(error.message);
      return 1;
    }
    throw error;
  }
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.on(signal, () => void daemon.stop(`received ${signal}`));
  }
  try {
    if (httpOptions) http = await startHttp(daemon, httpOptions);
  } catch (error) {
    // A daemon that could not listen on HTTP stops whole: a half-started service helps no one.
    await daemon.stop(`cannot serve HTTP: ${(error as Error).message}`);
    throw error;
  }
  // A bug must not leave a socket behind that no one answers: log it, clean up, and let the next call start afresh.
  process.on('uncaughtException', (error) => {
    logLine(`internal error: ${error.stack ?? error.message}`);
    void daemon.stop('internal error').finally(() => process.exit(1));
  });
  logLine(`cup-driver ${packageVersion} serving ${socketPath}; ${idleTimeoutMs > 0 ? `exits after ${idleTimeoutMs / 1000} s idle` : 'never exits when idle'}`);
  await daemon.stopped;
  // Calls that were cancelled may still hold timers or sockets; the daemon's work is done, so leave now.
  process.exit(0);
}
