// The terminal programs of one driver session (an MCP connection, a CLI --session, a `session` argument): start, look up, stop, stop all.
import { basename } from 'node:path';
import { ToolError } from '../errors.js';
import { resolveWorkingDirectory } from './security/cwd.js';
import { prepareEnvironment } from './security/environment.js';
import { buildPolicy, loadPolicyFile, type LoadedPolicyFile, type TerminalPolicy } from './security/policy.js';
import { checkArguments, resolveProgram } from './security/program.js';
import { driverVariables, TerminalSession } from './session.js';

export const DEFAULT_SESSION = 'default';
/** Terminal programs one driver process runs at once, over all its sessions. */
export const MAX_SESSIONS = 32;

export interface StartRequest {
  session: string;
  command: string;
  args: string[];
  cwd?: string;
  /** The caller's working directory: relative cwd values are taken from it, and it is a default root. */
  callerDirectory?: string;
  env: Record<string, string>;
  cols: number;
  rows: number;
}

export interface TerminalPolicySource {
  /** The policy file (allowlist, argument patterns, cwd roots); defaults apply when it does not exist. */
  policyPath: string;
  /** The directory the driver started in: the default working directory and allowed root. */
  startDirectory?: string;
}

// Every live session of the process, so that an exiting driver can still kill them synchronously.
const live = new Set<TerminalSession>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const session of live) session.killNow();
  });
}

/**
 * Every terminal of one process, grouped by the tool session (caller) that started them, with the one
 * policy they all share. A caller's group is its TerminalManager; closing the process stops them all.
 */
export class TerminalRegistry {
  private readonly scopes = new Map<string, TerminalManager>();
  private policyFile?: LoadedPolicyFile;
  private readonly policies = new Map<string, TerminalPolicy>();
  readonly startDirectory: string;

  constructor(private readonly source: TerminalPolicySource) {
    this.startDirectory = source.startDirectory ?? process.cwd();
  }

  /**
   * The policy for a caller working in `callerDirectory` (by default roots, that directory and the temp
   * dir are where programs may run). The file is read once, on first use, and never re-read.
   */
  currentPolicy(callerDirectory = this.startDirectory): TerminalPolicy {
    this.policyFile ??= loadPolicyFile(this.source.policyPath);
    let policy = this.policies.get(callerDirectory);
    if (!policy) {
      policy = buildPolicy(this.policyFile.file, callerDirectory, this.policyFile.source);
      this.policies.set(callerDirectory, policy);
    }
    return policy;
  }

  /** The terminals of one caller session, created on first use. */
  scope(owner: string): TerminalManager {
    let manager = this.scopes.get(owner);
    if (!manager) {
      manager = new TerminalManager(this, owner);
      this.scopes.set(owner, manager);
    }
    return manager;
  }

  /**
   * The terminals a caller in session `owner` can reach by name: its own, and those started under a
   * `session` argument naming them (which live in the session of that name).
   */
  addressable(owner: string): { name: string; session: TerminalSession }[] {
    const found: { name: string; session: TerminalSession }[] = [];
    for (const [scope, manager] of this.scopes) {
      for (const name of manager.names()) {
        if (scope === owner || name === scope) found.push({ name, session: manager.require(name) });
      }
    }
    return found;
  }

  /** Terminal programs still running, in every caller's scope. */
  runningCount(): number {
    let count = 0;
    for (const manager of this.scopes.values()) count += manager.runningCount();
    return count;
  }

  /** Stops the terminals of one caller (for example when its connection closes). */
  async stopScope(owner: string): Promise<void> {
    const manager = this.scopes.get(owner);
    this.scopes.delete(owner);
    await manager?.stopAll();
  }

  async stopAll(): Promise<void> {
    const managers = [...this.scopes.values()];
    this.scopes.clear();
    await Promise.all(managers.map((manager) => manager.stopAll()));
  }
}

/** The terminal sessions of one caller, by name. */
export class TerminalManager {
  private readonly sessions = new Map<string, TerminalSession>();

  constructor(
    readonly registry: TerminalRegistry,
    readonly owner: string,
  ) {}

  currentPolicy(callerDirectory?: string): TerminalPolicy {
    return this.registry.currentPolicy(callerDirectory);
  }

  names(): string[] {
    return [...this.sessions.keys()];
  }

  /** The session, or the seed's no_driver error telling the caller to start one. */
  require(name: string): TerminalSession {
    const session = this.sessions.get(name);
    if (!session) {
      const others = this.names();
      throw new ToolError(
        `no terminal session "${name}"; call tui_start first${others.length ? ` (running sessions: ${others.join(', ')})` : ''}`,
        'no_driver',
        { session: name },
      );
    }
    return session;
  }

  runningCount(): number {
    return [...this.sessions.values()].filter((session) => !session.exitStatus).length;
  }

  async start(request: StartRequest): Promise<{ session: TerminalSession; strippedEnv: string[] }> {
    const existing = this.sessions.get(request.session);
    if (existing && !existing.exitStatus) {
      throw new ToolError(
        `session "${request.session}" is already running ${existing.spec.command} (pid ${existing.pid}); call tui_stop first or pass another session name`,
        'already_started',
        { session: request.session, pid: existing.pid },
      );
    }
    if (existing) await this.stop(request.session);
    if (this.registry.runningCount() >= MAX_SESSIONS) {
      throw new ToolError(`already ${MAX_SESSIONS} terminal programs run in this driver; stop one with tui_stop first`, 'too_many_sessions');
    }
    const callerDirectory = request.callerDirectory ?? this.registry.startDirectory;
    const policy = this.currentPolicy(callerDirectory);
    const file = resolveProgram(request.command, policy);
    checkArguments(basename(file), request.args, policy);
    const cwd = resolveWorkingDirectory(request.cwd, policy, callerDirectory);
    const { env, stripped } = prepareEnvironment(process.env, request.env, driverVariables());
    const session = new TerminalSession(request.session, {
      command: request.command,
      file,
      args: request.args,
      cwd,
      env,
      cols: request.cols,
      rows: request.rows,
    });
    installExitHook();
    live.add(session);
    this.sessions.set(request.session, session);
    return { session, strippedEnv: stripped };
  }

  /** Stops one session; resolves to the pids that survived (normally none). */
  async stop(name: string): Promise<number[]> {
    const session = this.sessions.get(name);
    if (!session) return [];
    this.sessions.delete(name);
    try {
      return await session.stop();
    } finally {
      live.delete(session);
    }
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.names().map((name) => this.stop(name)));
  }
}
