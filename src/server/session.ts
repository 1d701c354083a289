import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { LinuxDesktop } from '../platform/linux/linux-desktop.js';
import { failureResult, type ToolCallResult } from '../tools/call-result.js';
import type { SessionDirectory, SessionLease, ToolContext } from '../tools/context.js';
import { runTool } from '../tools/run.js';
import { ConfigStore } from '../tools/state/config-store.js';
import { SessionState } from '../tools/state/session-state.js';
import { TerminalRegistry } from '../tui/manager.js';
import { defaultSessionLimits, SessionRegistry, type SessionLimits } from './daemon/sessions.js';
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

/** The key of the CLI's anonymous session: not a valid session name, so no named session can collide with it. */
const anonymousSession = '(cli)';
/** The anonymous session's name inside (its terminals are scoped by it); a `session` argument naming it means that session. */
const anonymousName = 'cli';

/**
 * Every session of one process by name, each with its own snapshots, image mappings, config and terminals,
 * on the process's shared resources. A session is created on first use, kept while a call holds it, and
 * reclaimed (its terminals stopped) when idle past the limit or over the cap. The CLI's anonymous session
 * (no name) owns the global default config file, so `call set_config` then `call get_config` works in
 * separate processes, with or without the daemon; named sessions start from that file and keep their
 * changes to themselves.
 */
export class SessionTable implements SessionDirectory {
  private readonly registry: SessionRegistry<ToolContext>;

  constructor(
    private readonly shared: SharedResources,
    readonly limits: SessionLimits = defaultSessionLimits,
  ) {
    this.registry = new SessionRegistry(
      (key) => (key === anonymousSession ? this.create(anonymousName, true) : this.create(key, false)),
      limits,
      (key, context) => {
        shared.log(`dropped the session ${key} (idle or over the cap)`);
        shared.endSession(context.session).catch((error: unknown) => shared.log(`ending the session ${key} failed: ${(error as Error).message}`));
      },
    );
  }

  /** The session by name (none, or "cli", its name inside = the CLI's anonymous one), held until release(). */
  lease(name: string | undefined): SessionLease {
    const key = name === undefined || name === anonymousName ? anonymousSession : name;
    const context = this.registry.acquire(key);
    let released = false;
    return {
      context,
      release: () => {
        if (released) return;
        released = true;
        this.registry.release(key);
      },
    };
  }

  /**
   * Runs one call in the named session (held for the call), with the caller's cancellation and working
   * directory; a desktop started for the call is told in the result's notices, for the caller to hear.
   */
  async run(name: string | undefined, tool: string, args: unknown, options: { signal?: AbortSignal; cwd?: string } = {}): Promise<ToolCallResult> {
    let lease: SessionLease;
    try {
      lease = this.lease(name);
    } catch (error) {
      // Creating a session reads the config file; a broken one is the caller's to fix, not a server crash.
      return failureResult('tool', (error as Error).message, 'session_unavailable');
    }
    const noticeMark = this.shared.desktop.noticeMark();
    try {
      const context = { ...lease.context, ...(options.signal ? { signal: options.signal } : {}), ...(options.cwd ? { cwd: options.cwd } : {}) };
      const result = await runTool(tool, args, context);
      const notices = this.shared.desktop.noticesSince(noticeMark);
      return notices.length > 0 ? { ...result, notices } : result;
    } finally {
      lease.release();
    }
  }

  /** Ends a named session now (its client closed it): forgotten, and what it started (terminals) stopped. */
  async end(name: string): Promise<void> {
    const context = this.registry.remove(name);
    if (context) await this.shared.endSession(context.session);
  }

  /** Names, idle times and whether a call holds them, least recently used first. */
  list(): { id: string; idleMs: number; busy: boolean }[] {
    return this.registry.list().map((entry) => ({ ...entry, id: entry.id === anonymousSession ? '(anonymous cli)' : entry.id }));
  }

  private create(session: string, persistConfig: boolean): ToolContext {
    const configPath = persistedConfigPath();
    const config = new ConfigStore(persistConfig ? { readFrom: configPath, writeTo: configPath, followFile: true } : { readFrom: configPath });
    const shared = this.shared;
    return { session, sessions: this, cwd: process.cwd(), desktop: shared.desktop, state: new SessionState(config), terminals: shared.terminals.scope(session), log: shared.log };
  }
}

/** A context whose desktop is the Linux backend itself: tests and scripts also reach below the tools. */
export type LinuxToolContext = ToolContext & { desktop: LinuxDesktop };

/**
 * A one-off named session with resources of its own (tests, scripts); close it with `context.desktop.close()`.
 * persistConfig: true gives the CLI's anonymous session instead, which writes the global default config.
 */
export function createContext(options: { session: string; persistConfig: boolean }): LinuxToolContext {
  const shared = createSharedResources();
  const table = new SessionTable(shared);
  return { ...table.lease(options.persistConfig ? undefined : options.session).context, desktop: shared.desktop };
}
