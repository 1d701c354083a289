import type { Desktop } from '../platform/desktop.js';
import type { TerminalManager } from '../tui/manager.js';
import type { SessionState } from './state/session-state.js';

/** Everything a tool handler may use. One context per caller session (an MCP connection, a CLI call, a daemon session). */
export interface ToolContext {
  session: string;
  /** The caller's working directory: relative paths in arguments are taken from it (the daemon serves callers in many). */
  cwd: string;
  desktop: Desktop;
  state: SessionState;
  /** Terminal programs started with tui_start; the adapters stop them all when the caller goes away. */
  terminals: TerminalManager;
  /** Diagnostics go to stderr only: stdout belongs to the MCP protocol or the CLI result. */
  log(message: string): void;
}
