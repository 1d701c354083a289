import type { Desktop } from '../platform/desktop.js';
import type { TerminalManager } from '../tui/manager.js';
import type { SessionState } from './state/session-state.js';

/** A session's context held for the length of one call; a held session is never reclaimed. */
export interface SessionLease {
  context: ToolContext;
  release(): void;
}

/** One session as get_session and list_sessions report it. */
export interface SessionInfo {
  session: string;
  /** Declared with start_session (not only created by a call that named it). */
  declared: boolean;
  busy: boolean;
  idleMs: number;
  /** How long it may stay idle before it is reclaimed with everything it owns. */
  idleLimitMs: number;
  /** Calls made in it so far (including the one asking). */
  calls: number;
  createdAt: string;
  /** What it owns, undone when it ends (see SessionResources). */
  resources: { key: string; label: string }[];
}

/** Where this process's sessions live, for health_report: the daemon (sessions outlive a call) or the calling process. */
export interface SessionHost {
  kind: 'daemon' | 'in-process';
  pid: number;
  startedAt: string;
  /** The daemon's socket. */
  socket?: string;
  /** Clients connected to the daemon now. */
  connections?(): number;
}

/** The sessions of this process by name, so a call's `session` argument can select its own. */
export interface SessionDirectory {
  lease(name: string): SessionLease;
  readonly host: SessionHost;
  /** Marks the session declared and restarts its idle clock; idleLimitMs gives it an idle limit of its own (undefined: keep the one it has). */
  declare(name: string, idleLimitMs?: number): void;
  /** Ends the session now (busy or not): everything it owns is undone before this resolves. undefined when there was none. */
  end(name: string): Promise<{ label: string; error?: string }[] | undefined>;
  info(name: string): SessionInfo | undefined;
  list(): SessionInfo[];
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
  /** The process the call came from, when it is not this one's ancestor (a CLI call the daemon serves): kill_app spares its chain. */
  callerPid?: number;
  /** When the call reached this process (performance.now()), where its adapter knows: a read begun since is fresh for it. */
  calledAt?: number;
  /**
   * Set for the steps of a plan (run_actions): an action then waits for its app to be quiet this long (at most
   * maxMs) before it answers, beyond the session's diff_settle_ms, so the next step finds the app done.
   */
  stepSettle?: { quietMs: number; maxMs: number };
  /**
   * The app's line of actions (see ActionQueue) the call runs in, when it runs inside an action that holds it: a plan's
   * steps, a replay's actions and a tool's own clicks run at once rather than queue behind the call they are part of.
   */
  heldLine?: string;
  /** Aborted when the caller cancels the call (MCP notifications/cancelled, Ctrl-C on the CLI); long waits and plans stop on it. */
  signal?: AbortSignal;
  /** Diagnostics go to stderr only: stdout belongs to the MCP protocol or the CLI result. */
  log(message: string): void;
}
