import { errorCodeOf, type ToolCallResult } from '../../tools/call-result.js';
import type { DaemonConnection } from './connection.js';
import { attachDaemon } from './launcher.js';
import type { CallRequest } from './protocol.js';
import { daemonLogPath } from './socket-path.js';

/**
 * The longest a client waits for one tool call. Calls legitimately take tens of seconds (launch_app waits
 * for a window and its accessibility tree; the first call without DISPLAY starts the embedded desktop), so
 * the bound is generous; it only guards against a daemon that will never answer.
 */
export const callTimeoutMs = 120_000;

/**
 * A caller's line to the daemon: attaches on first use (starting the daemon when needed) and again after
 * the connection dropped, so a long-lived caller (the MCP server) survives a daemon restart.
 */
export class DaemonLink {
  private connection?: Promise<DaemonConnection>;

  constructor(private readonly options: { socketPath: string; log(message: string): void }) {}

  /** `signal` cancels the call in the daemon, which then answers it as cancelled. */
  async call(call: Omit<CallRequest, 'id' | 'op'>, signal?: AbortSignal): Promise<ToolCallResult> {
    const hint =
      ` (the bound for one call: launch_app or a first call that starts the desktop take tens of seconds, not this long);` +
      ` see the daemon's log ${daemonLogPath(this.options.socketPath)}, or run the call with --no-daemon`;
    for (let attempt = 1; ; attempt++) {
      const connection = await this.attached();
      const result = await connection.request({ op: 'call', ...call }, callTimeoutMs, call.tool, hint, signal);
      // A daemon that had just begun to stop refused the call without running it, so running it on a fresh daemon is safe.
      if (attempt > 1 || errorCodeOf(result) !== 'daemon_stopping') return result;
      connection.close();
      this.connection = undefined;
    }
  }

  close(): void {
    void this.connection?.then((connection) => connection.close()).catch(() => undefined);
    this.connection = undefined;
  }

  private attached(): Promise<DaemonConnection> {
    const current = this.connection;
    if (current) {
      return current.then((connection) => {
        if (!connection.closed) return connection;
        if (this.connection === current) this.connection = undefined;
        return this.attached();
      });
    }
    const attaching = attachDaemon(this.options.socketPath, { start: true, log: this.options.log });
    this.connection = attaching;
    attaching.catch(() => {
      if (this.connection === attaching) this.connection = undefined;
    });
    return attaching;
  }
}
