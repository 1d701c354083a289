import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { LinuxDesktop } from '../platform/linux/linux-desktop.js';
import { failureResult, type ToolCallResult } from '../tools/call-result.js';
import type { SessionDirectory, SessionHost, SessionInfo, SessionLease, ToolContext } from '../tools/context.js';
import { removeCursor } from '../tools/cursor/agent-cursors.js';
import { stopAllRecordings } from '../tools/recording/recordings.js';
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
  /** Runs `hook` first when close() is called (a session table ends its sessions there, undoing what they own). */
  onClose(hook: () => Promise<void>): void;
  /** Stops everything the resources own; the process may exit afterwards. */
  close(): Promise<void>;
}

export function createSharedResources(options: { log?: (message: string) => void } = {}): SharedResources {
  const log = options.log ?? logToStderr;
  const desktop = new LinuxDesktop({ autoStartDesktop: true, log });
  const terminals = new TerminalRegistry({ policyPath: join(dirname(persistedConfigPath()), 'terminal-policy.json') });
  const closeHooks: (() => Promise<void>)[] = [];
  return {
    desktop,
    terminals,
    log,
    onClose: (hook) => void closeHooks.push(hook),
    async close() {
      for (const hook of closeHooks.splice(0)) await hook().catch((error: unknown) => log(`closing: ${(error as Error).message}`));
      // A recording's video is finished (so it plays) before the process goes.
      await Promise.all([terminals.stopAll(), stopAllRecordings(desktop)]);
      await desktop.releaseAllButtons().catch((error: unknown) => log(`releasing held mouse buttons failed: ${(error as Error).message}`));
      // What this process put on the clipboard stays pasteable after it exits (a small keeper process takes it over).
      await desktop.handOverClipboard().catch((error: unknown) => log(`handing the clipboard over failed: ${(error as Error).message}`));
      desktop.close();
    },
  };
}

/** The key of the CLI's anonymous session: not a valid session name, so no named session can collide with it. */
const anonymousSession = '(cli)';
/** The anonymous session's name inside (its terminals are scoped by it); a `session` argument naming it means that session. */
const anonymousName = 'cli';

/** One session of the table: its context and what list_sessions says of it. */
interface SessionRecord {
  context: ToolContext;
  declared: boolean;
  calls: number;
  createdAt: Date;
}

/**
 * Every session of one process by name, each with its own snapshots, image mappings, config and terminals,
 * on the process's shared resources. A session is created on first use, kept while a call holds it, and
 * reclaimed when idle past its limit (checked on a timer, so an idle daemon reclaims too) or over the cap,
 * or ended by end_session; then everything it owns (state.resources: terminals, its cursor, a held button,
 * a recording) is undone. The CLI's anonymous session (no name) owns the global default config file, so
 * `call set_config` then `call get_config` works in separate processes, with or without the daemon; named
 * sessions start from that file and keep their changes to themselves.
 */
export class SessionTable implements SessionDirectory {
  readonly host: SessionHost;
  private readonly registry: SessionRegistry<SessionRecord>;
  /** Sessions being ended: end() waits for their resources to be undone. */
  private readonly ending = new Map<string, Promise<{ label: string; error?: string }[]>>();
  private sweepTimer?: NodeJS.Timeout;
  private closed = false;

  constructor(
    private readonly shared: SharedResources,
    readonly limits: SessionLimits = defaultSessionLimits,
    host?: SessionHost,
  ) {
    this.host = host ?? { kind: 'in-process', pid: process.pid, startedAt: new Date().toISOString() };
    this.registry = new SessionRegistry<SessionRecord>(
      (key) => ({ context: key === anonymousSession ? this.create(anonymousName, true) : this.create(key, false), declared: false, calls: 0, createdAt: new Date() }),
      limits,
      (key, record) => {
        shared.log(`ending the session ${key}`);
        const done = record.context.state.resources.disposeAll(shared.log).finally(() => this.ending.delete(key));
        this.ending.set(key, done);
      },
    );
    shared.onClose(() => this.close());
  }

  /** The session by name (none, or "cli", its name inside = the CLI's anonymous one), held until release(). */
  lease(name: string | undefined): SessionLease {
    const key = keyOf(name);
    const record = this.registry.acquire(key);
    record.calls++;
    let released = false;
    return {
      context: record.context,
      release: () => {
        if (released) return;
        released = true;
        this.registry.release(key);
        this.scheduleSweep();
      },
    };
  }

  /**
   * Runs one call in the named session (held for the call), with the caller's cancellation and working
   * directory; a desktop started for the call is told in the result's notices, for the caller to hear.
   */
  async run(name: string | undefined, tool: string, args: unknown, options: { signal?: AbortSignal; cwd?: string; callerPid?: number; calledAt?: number } = {}): Promise<ToolCallResult> {
    let lease: SessionLease;
    try {
      lease = this.lease(name);
    } catch (error) {
      // Creating a session reads the config file; a broken one is the caller's to fix, not a server crash.
      return failureResult('tool', (error as Error).message, 'session_unavailable');
    }
    const noticeMark = this.shared.desktop.noticeMark();
    try {
      const context = { ...lease.context, ...(options.signal ? { signal: options.signal } : {}), ...(options.cwd ? { cwd: options.cwd } : {}), ...(options.callerPid ? { callerPid: options.callerPid } : {}), ...(options.calledAt !== undefined ? { calledAt: options.calledAt } : {}) };
      const result = await runTool(tool, args, context);
      const notices = this.shared.desktop.noticesSince(noticeMark);
      return notices.length > 0 ? { ...result, notices } : result;
    } finally {
      lease.release();
    }
  }

  declare(name: string, idleLimitMs?: number): void {
    const key = keyOf(name);
    const record = this.registry.peek(key);
    if (!record) return;
    record.declared = true;
    this.registry.touch(key, idleLimitMs);
    this.scheduleSweep();
  }

  async end(name: string): Promise<{ label: string; error?: string }[] | undefined> {
    const key = keyOf(name);
    if (!this.registry.end(key)) return this.ending.get(key);
    return this.ending.get(key) ?? [];
  }

  info(name: string): SessionInfo | undefined {
    return this.list().find((entry) => entry.session === displayName(keyOf(name)));
  }

  /** Every session, least recently used first. */
  list(): SessionInfo[] {
    return this.registry.list().flatMap((entry) => {
      const record = this.registry.peek(entry.id);
      if (!record) return [];
      return [{
        session: displayName(entry.id),
        declared: record.declared,
        busy: entry.busy,
        idleMs: entry.idleMs,
        idleLimitMs: entry.idleLimitMs,
        calls: record.calls,
        createdAt: record.createdAt.toISOString(),
        resources: record.context.state.resources.list(),
      }];
    });
  }

  /** Ends every session (the process is stopping): held buttons are released, recordings stopped, terminals ended. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.sweepTimer);
    for (const entry of this.registry.list()) this.registry.end(entry.id);
    await Promise.all([...this.ending.values()]);
  }

  /** Reclaims idle sessions on time, even when no call comes to notice them; the timer never keeps the process alive. */
  private scheduleSweep(): void {
    clearTimeout(this.sweepTimer);
    if (this.closed) return;
    const next = this.registry.sweep();
    if (next === undefined) return;
    this.sweepTimer = setTimeout(() => this.scheduleSweep(), Math.max(10, next + 5));
    this.sweepTimer.unref();
  }

  private create(session: string, persistConfig: boolean): ToolContext {
    const configPath = persistedConfigPath();
    const config = new ConfigStore(persistConfig ? { readFrom: configPath, writeTo: configPath, followFile: true } : { readFrom: configPath });
    const shared = this.shared;
    const state = new SessionState(config);
    const terminals = shared.terminals.scope(session);
    // Every session may start terminal programs and draw its agent cursor (named after it): both end with it.
    state.resources.hold('terminals', 'its terminal programs (tui_start), stopped', () => shared.terminals.stopScope(session));
    state.resources.hold('agent_cursor', `its agent cursor "${session}", hidden`, () => removeCursor(shared.desktop, session));
    return { session, sessions: this, cwd: process.cwd(), desktop: shared.desktop, state, terminals, log: shared.log };
  }
}

function keyOf(name: string | undefined): string {
  return name === undefined || name === anonymousName ? anonymousSession : name;
}

function displayName(key: string): string {
  return key === anonymousSession ? '(anonymous cli)' : key;
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
