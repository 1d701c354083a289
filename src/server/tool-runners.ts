import { randomBytes } from 'node:crypto';
import { argumentShapeProblem } from '../tools/argument-shape.js';
import { failureResult, type ToolCallResult } from '../tools/call-result.js';
import { DaemonLink } from './daemon/link.js';
import { maxRequestBytes, type Origin } from './daemon/protocol.js';
import { daemonSocketPath } from './daemon/socket-path.js';
import { debugEnabled, logToStderr } from './log.js';

/** Where an adapter's tool calls run. The adapters (CLI, MCP) only format; neither knows which runner it has. */
export interface ToolRunner {
  /** `signal` is the caller's cancellation (MCP notifications/cancelled, Ctrl-C): the call stops and answers as cancelled. */
  call(name: string, args: unknown, signal?: AbortSignal): Promise<ToolCallResult>;
  close(): Promise<void>;
}

/**
 * In this process: the registry's handlers with one session (by name; none = the CLI's anonymous one) on
 * resources of this process's own. The tools, sharp and the desktop clients are loaded here, not at
 * startup, so a call through the daemon starts in a fraction of the time.
 */
export async function inProcessRunner(session: string | undefined, options: { failurePrintedByCaller?: boolean } = {}): Promise<ToolRunner> {
  const [{ runTool }, { createSharedResources, SessionTable }] = await Promise.all([import('../tools/run.js'), import('./session.js')]);
  // A handler's diagnostic log carries the stack of an unexpected failure. Where the caller prints the failure
  // on the same stderr (the CLI), that would say it twice, so it appears only when debugging.
  const quiet = options.failurePrintedByCaller && !debugEnabled();
  const shared = createSharedResources(quiet ? { log: () => {} } : {});
  const table = new SessionTable(shared);
  // The caller's session is held for as long as the runner lives; end_session may end it, and the next call then gets a fresh one.
  let lease = table.lease(session);
  const context = () => {
    if (!table.info(lease.context.session)) {
      lease.release();
      lease = table.lease(session);
    }
    return lease.context;
  };
  return {
    call: (name, args, signal) => runTool(name, args, signal ? { ...context(), signal } : context()),
    close: () => shared.close(),
  };
}

/** Room in a request line for what surrounds the arguments (id, tool, session, cwd). */
const requestEnvelopeBytes = 64 << 10;

/**
 * Through the daemon for this display, started on demand. A daemon that cannot be reached becomes a tool
 * error naming why, the same shape a failing tool has, so adapters need no second error path.
 */
export function daemonRunner(origin: Origin, session: string | undefined): ToolRunner {
  const link = new DaemonLink({ socketPath: daemonSocketPath(), log: logToStderr });
  return {
    async call(name, args, signal) {
      // Refused here as runTool would, before serialising the request (JSON.stringify overflows on deep nesting).
      const shapeProblem = argumentShapeProblem(args);
      if (shapeProblem) return failureResult('usage', `invalid arguments for ${name}: ${shapeProblem}`, 'invalid_arguments');
      // The daemon would refuse the line without saying which call it was; say it here, with the size.
      const size = Buffer.byteLength(JSON.stringify(args ?? {}));
      if (size > maxRequestBytes - requestEnvelopeBytes) {
        return failureResult('usage', `the arguments of ${name} are ${size} bytes as JSON; the daemon takes at most ${maxRequestBytes - requestEnvelopeBytes} (call --no-daemon has no limit)`, 'request_too_large');
      }
      try {
        const call = { tool: name, arguments: (args ?? {}) as Record<string, unknown>, origin, cwd: process.cwd(), caller_pid: process.pid, ...(session !== undefined ? { session } : {}) };
        return await link.call(call, signal);
      } catch (error) {
        return failureResult('tool', (error as Error).message, 'daemon_unavailable');
      }
    },
    async close() {
      link.close();
    },
  };
}

/** A session id of its own for one MCP connection to the daemon. */
export function mcpSessionId(): string {
  return `mcp-${process.pid}-${randomBytes(4).toString('hex')}`;
}
