import type { Desktop } from '../platform/desktop.js';
import type { TerminalManager } from '../tui/manager.js';
import type { SessionState } from './state/session-state.js';

/** A session's context held for the length of one call; a held session is never reclaimed. */
export interface SessionLease {
  context: ToolContext;
  release(): void;
}

/** The sessions of this process by name, so a call's `session` argument can select its own. */
export interface SessionDirectory {
  lease(name: string): SessionLease;
}

/** Everything a tool handler may use. One context per session (an MCP connection, a CLI call, a daemon session, a `session` argument). */
export interface ToolContext {
  session: string;
  /** Every session of the process: a call naming another session runs in that session's context. */
  sessions: SessionDirectory;
  /** The caller's working directory: relative paths in arguments are taken from it (the daemon serves callers in many). */
  cwd: string;
  desktop: Desktop;
  state: SessionState;
  /** Terminal programs started with tui_start; the adapters stop them all when the caller goes away. */
  terminals: TerminalManager;
  /** Aborted when the caller cancels the call (MCP notifications/cancelled, Ctrl-C on the CLI); long waits and plans stop on it. */
  signal?: AbortSignal;
  /** Diagnostics go to stderr only: stdout belongs to the MCP protocol or the CLI result. */
  log(message: string): void;
}
