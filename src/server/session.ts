import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { LinuxDesktop } from '../platform/linux/linux-desktop.js';
import type { ToolContext } from '../tools/context.js';
import { ConfigStore } from '../tools/state/config-store.js';
import { SessionState } from '../tools/state/session-state.js';
import { TerminalRegistry } from '../tui/manager.js';
import { logToStderr } from './log.js';

/** Where the global default configuration lives; the CLI's anonymous session writes it so the next call sees it. */
export function persistedConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'cup-driver', 'config.json');
}

/**
 * What one process owns once, whatever number of sessions it serves: the desktop with its X11 and
 * accessibility connections (and any later long-lived manager). Every path (in-process CLI, MCP, daemon)
 * builds its contexts from this, so a field added here reaches all of them.
 */
export interface SharedResources {
  desktop: LinuxDesktop;
  /** Terminal programs started with tui_start, grouped by session; close() stops them (whole process groups, reaped). */
  terminals: TerminalRegistry;
  log(message: string): void;
  /** Stops what one session started (its terminals) once the daemon forgets that session. */
  endSession(session: string): Promise<void>;
  /** Stops everything the resources own; the process may exit afterwards. */
  close(): Promise<void>;
}

export function createSharedResources(options: { log?: (message: string) => void } = {}): SharedResources {
  const log = options.log ?? logToStderr;
  const desktop = new LinuxDesktop({ autoStartDesktop: true, log });
  const terminals = new TerminalRegistry({ policyPath: join(dirname(persistedConfigPath()), 'terminal-policy.json') });
  return {
    desktop,
    terminals,
    log,
    endSession: (session) => terminals.stopScope(session),
    async close() {
      await terminals.stopAll();
      desktop.close();
    },
  };
}

export interface SessionOptions {
  /**
   * True for the CLI's anonymous session: set_config then writes the global default file (atomically) and
   * the session follows that file. Other sessions start from the file and keep their changes to themselves.
   */
  persistConfig: boolean;
}

/** A new session (fresh snapshots, image mappings and config) on the process's shared resources. */
export function sessionContext(shared: SharedResources, session: string, options: SessionOptions): ToolContext {
  const configPath = persistedConfigPath();
  const config = new ConfigStore(options.persistConfig ? { readFrom: configPath, writeTo: configPath, followFile: true } : { readFrom: configPath });
  return { session, cwd: process.cwd(), desktop: shared.desktop, state: new SessionState(config), terminals: shared.terminals.scope(session), log: shared.log };
}

/**
 * The context of a caller's session by name, the same rule on every path: a named session (`--session`,
 * an MCP connection) starts from the global default config and keeps its changes to itself; the CLI's
 * anonymous session (no name) owns the global default file, so `call set_config` then `call get_config`
 * works in separate processes, with or without the daemon.
 */
export function callerSession(shared: SharedResources, name: string | undefined): ToolContext {
  return name === undefined ? sessionContext(shared, 'cli', { persistConfig: true }) : sessionContext(shared, name, { persistConfig: false });
}

/** A context whose desktop is the Linux backend itself: tests and scripts also reach below the tools. */
export type LinuxToolContext = ToolContext & { desktop: LinuxDesktop };

/** A one-off context with resources of its own (tests, scripts); close it with `context.desktop.close()`. */
export function createContext(options: { session: string } & SessionOptions): LinuxToolContext {
  const shared = createSharedResources();
  return { ...sessionContext(shared, options.session, options), desktop: shared.desktop };
}
