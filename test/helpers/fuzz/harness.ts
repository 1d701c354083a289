// Runs generated calls against a real driver: `cup-driver mcp` on stdio through the official MCP client, and
// `cup-driver call` through the daemon and with --no-daemon. Everything runs on a private embedded desktop
// with one fixture app, in a sandbox folder that is the driver's working directory, HOME, TMPDIR and config
// home, so no call can reach a file, window or process the run did not make. Afterwards it checks what was
// left: the server still answers, no process, file handle or temporary file is left over, and files planted
// outside the sandboxed working directory are unchanged.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { statFields } from '../../../src/platform/linux/desktop/processes.js';
import { cliPath, TestDesktop } from '../desktop.js';
import { connectMcp } from '../mcp.js';
import { CallGenerator, type FuzzCall, type FuzzWorld, type ToolSchema } from './calls.js';
import { judge, SchemaOracle, type Answer, type Outcome } from './judge.js';
import { containsRaw, Random, serialise } from './values.js';

export interface FuzzOptions {
  seed: number;
  /** Calls over MCP. */
  mcpCalls: number;
  /** Calls through `cup-driver call` (half through the daemon, half with --no-daemon). */
  cliCalls: number;
  /** The longest valid wait a call may ask for. */
  maxDurationMs?: number;
  /** Prints progress lines. */
  log?: (line: string) => void;
  /** Only the tools whose names match (to bisect a finding by tool family); every tool when absent. */
  tools?: RegExp;
  /** CLI calls running at once (default 1: on two cores three at once measured no faster, as they take CPU from the MCP lane). */
  cliWorkers?: number;
}

export interface Finding {
  seed: number;
  index: number;
  path: 'mcp' | 'daemon' | 'no-daemon';
  tool: string;
  kind: string;
  field?: string;
  args: string;
  problem: string;
}

export interface FuzzReport {
  calls: number;
  elapsedMs: number;
  /** tool → outcome → count */
  outcomes: Record<string, Record<string, number>>;
  byKind: Record<string, number>;
  /** tool → milliseconds its MCP calls took (a CLI call's time is mostly starting node, which says nothing of the tool) */
  msByTool: Record<string, number>;
  refusalsChecked: number;
  violations: Finding[];
  notes: Finding[];
  leftovers: string[];
  /**
   * The MCP server's children and descriptors: before the calls (after a warm-up), when the calls are done (what the
   * sessions hold), and after every session was ended.
   */
  resources: { before: ProcessResources; held: ProcessResources; after: ProcessResources };
  /** What the server holds after the run that it did not before, each with the call it first appeared after. */
  grown: string[];
  /** The same when the calls were done, before the sessions were ended: what the sessions kept. */
  heldGrown: string[];
  /** The sessions the calls left, with what each owned, before they were ended. */
  sessionsAtEnd: string[];
  /** Where the run's time went: setup, warm-up, each lane, the end. */
  msByPhase: Record<string, number>;
  fixtureRestarts: number;
}

export interface ProcessResources {
  children: number;
  fds: number;
  /** The children as "pid command line", to tell what stayed. */
  commands: string[];
  /** The open descriptors as "N -> what it is" (a path, socket:[inode], pipe:[inode], anon_inode:...). */
  descriptors: string[];
}

/** Processes whose parent is pid, and its open file descriptors, from /proc. */
export function resourcesOf(pid: number): ProcessResources {
  const childPids = childrenOf(pid);
  let descriptors: string[] = [];
  let fds = -1;
  try {
    const entries = readdirSync(`/proc/${pid}/fd`);
    fds = entries.length;
    descriptors = entries.map((fd) => {
      try {
        return `${fd} -> ${readlinkSync(`/proc/${pid}/fd/${fd}`)}`;
      } catch {
        return `${fd} -> (closed while read)`;
      }
    });
  } catch {
    // The process is gone: -1 says so.
  }
  return { children: childPids.length, fds, commands: childPids.map((child) => `${child} ${readCommand(child)}`), descriptors };
}

/**
 * The processes whose parent is pid: each of its threads lists the children it started in /proc (0.1 ms, where a scan of
 * every process's stat takes 2-3 ms, which the MCP lane pays after every call); the scan where the kernel lacks that file.
 */
function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((task) => readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !existsSync(`/proc/${pid}`)) return [];
    return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry) && statFields(Number(entry))?.[1] === String(pid)).map(Number);
  }
}

/**
 * Which call a descriptor or child of the server first appeared after: the MCP lane sends one call at a time, so
 * what is open after a call and was not before it came from that call (or from something it set going).
 */
class ResourceOrigins {
  private readonly firstSeen = new Map<string, string>();

  observe(resources: ProcessResources, label: string): void {
    const now = new Set([...resources.descriptors, ...resources.commands]);
    for (const key of this.firstSeen.keys()) if (!now.has(key)) this.firstSeen.delete(key);
    for (const key of now) if (!this.firstSeen.has(key)) this.firstSeen.set(key, label);
  }

  /** What after holds that before did not, each with the call it first appeared after. */
  grown(before: ProcessResources, after: ProcessResources): string[] {
    const had = new Set([...before.descriptors, ...before.commands]);
    return [...after.descriptors, ...after.commands].filter((key) => !had.has(key)).map((key) => `${key} (first seen after ${this.firstSeen.get(key) ?? 'the run'})`);
  }
}

/** Descriptors by kind (socket, pipe, anon_inode:[eventfd], a path), to compare counts where numbers and inodes change. */
export function descriptorKinds(resources: ProcessResources): Map<string, number> {
  const kinds = new Map<string, number>();
  for (const line of resources.descriptors) {
    const target = line.slice(line.indexOf(' -> ') + 4);
    const kind = /^(socket|pipe):/.test(target) ? target.slice(0, target.indexOf(':')) : target;
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
  }
  return kinds;
}

/** What `after` holds beyond `before`: more children, or more descriptors of some kind. Empty when nothing grew. */
export function resourcesGrown(before: ProcessResources, after: ProcessResources): string[] {
  const grown: string[] = [];
  if (after.children > before.children) grown.push(`${after.children - before.children} more child process(es): ${after.commands.join('; ')}`);
  const had = descriptorKinds(before);
  for (const [kind, count] of descriptorKinds(after)) if (count > (had.get(kind) ?? 0)) grown.push(`${count - (had.get(kind) ?? 0)} more ${kind} descriptor(s)`);
  return grown;
}

/**
 * The server's resources once what ends on its own has ended, within 6 s: a program's reaping after SIGKILL, and the
 * connection Node's fetch keeps for 4 s after check_for_update asked the registry (its keep-alive pool) are not leaks.
 * Returns as soon as nothing has grown over `before`.
 */
async function settledResources(pid: number, before: ProcessResources): Promise<ProcessResources> {
  const deadline = Date.now() + 6000;
  let now = resourcesOf(pid);
  while (resourcesGrown(before, now).length > 0 && Date.now() < deadline) {
    await sleep(100);
    now = resourcesOf(pid);
  }
  return now;
}

/** A "N -> socket:[inode] ..." line with what the socket is connected to, as ss(8) tells it (a Unix path, a TCP peer). */
function describeSocket(line: string): string {
  const inode = /socket:\[(\d+)\]/.exec(line)?.[1];
  if (!inode) return line;
  try {
    const unix = execFileSync('ss', ['-xan'], { encoding: 'utf8', timeout: 5000 }).split('\n').map((row) => row.trim().split(/\s+/));
    // Columns: Netid State Recv-Q Send-Q Local-path Local-inode Peer-path Peer-inode; a connected client's own path is "*".
    const own = unix.find((row) => row[5] === inode);
    if (own) {
      const peer = unix.find((row) => row[5] === own[7]);
      return `${line} [unix ${own[1]}, local ${own[4]}, peer ${peer?.[4] ?? own[6]}]`;
    }
    const tcp = execFileSync('ss', ['-tane'], { encoding: 'utf8', timeout: 5000 }).split('\n').find((row) => row.includes(`ino:${inode} `));
    if (tcp) return `${line} [tcp ${tcp.trim().split(/\s+/).slice(0, 5).join(' ')}]`;
  } catch {
    // ss missing or failing: the bare line still says which call made it.
  }
  return line;
}

/** Processes that carry the run's tag in their environment: everything the driver started inherits it. */
function taggedProcesses(tag: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      if (pid === process.pid) return false;
      try {
        return readFileSync(`/proc/${pid}/environ`, 'latin1').includes(`CUP_FUZZ_TAG=${tag}`);
      } catch {
        return false;
      }
    });
}

function hashOf(path: string): string {
  return createHash('sha256').update(readFileSync(path)).digest('hex');
}

/** Temporary files a writer left behind (a crash or refusal between create and rename). */
function temporaryLeftovers(dir: string): string[] {
  const found: string[] = [];
  const walk = (current: string, depth: number) => {
    if (depth > 12) return;
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (/\.(tmp|partial)$|^cup-tui-|\.partial\b/.test(entry.name)) found.push(path);
      if (entry.isDirectory()) walk(path, depth + 1);
    }
  };
  walk(dir, 0);
  return found;
}

/**
 * The sandbox: root/a/b/c/d/cwd is the working directory, so `..` five times reaches root and no further; root/outside
 * holds a file symlinks point at; cwd holds the hostile things a path argument may name.
 */
export class Sandbox {
  readonly root = mkdtempSync(join(tmpdir(), 'cup-fuzz-'));
  readonly cwd = join(this.root, 'a', 'b', 'c', 'd', 'cwd');
  readonly home = join(this.root, 'home');
  readonly temp = join(this.root, 'tmp');
  readonly config = join(this.root, 'config');
  readonly outside = join(this.root, 'outside');
  readonly victim = join(this.outside, 'victim.txt');
  readonly foreign = join(this.cwd, 'foreign.png');
  private readonly hashes = new Map<string, string>();

  constructor() {
    for (const dir of [this.cwd, this.home, this.temp, join(this.config, 'cup-driver'), this.outside, join(this.cwd, 'dir'), join(this.cwd, 'trajectory')]) mkdirSync(dir, { recursive: true });
    writeFileSync(this.victim, 'the file outside must stay as it is\n');
    writeFileSync(this.foreign, 'not a png, and not the driver\'s\n');
    symlinkSync(this.victim, join(this.cwd, 'link-out.png'));
    symlinkSync('/dev/zero', join(this.cwd, 'link-dev.png'));
    symlinkSync(this.outside, join(this.cwd, 'link-dir'));
    symlinkSync('link-loop', join(this.cwd, 'link-loop'));
    execFileSync('mkfifo', [join(this.cwd, 'fifo')]);
    // A character device of our own (what /dev/zero is), so a writer that replaced a device would only replace this one.
    try {
      execFileSync('mknod', [join(this.cwd, 'dev-zero'), 'c', '1', '5'], { stdio: 'ignore' });
    } catch {
      writeFileSync(join(this.cwd, 'dev-zero'), '');
    }
    // Only the terminal programs the fuzzer can drive without harm: cat echoes what is typed, dialog draws boxes.
    writeFileSync(join(this.config, 'cup-driver', 'terminal-policy.json'), JSON.stringify({ programs: ['cat', 'dialog'], cwdRoots: [this.root] }));
    for (const path of [this.victim, this.foreign]) this.hashes.set(path, hashOf(path));
  }

  /** Paths for the file arguments; every one resolves inside the sandbox (writes) or names something only read. */
  paths(): string[] {
    return [
      'shot.png', 'ours.png', 'dir', 'dir/', 'dir/x.png', '.', '..', 'new/deep/er/x.png', '~/home-shot.png', 'foreign.png', 'link-out.png', 'link-dev.png',
      'link-dir', 'link-dir/through.png', 'link-loop', 'fifo', 'dev-zero', 'trajectory', '../../../../../outside/up.png', '../../../../../outside/victim.txt',
      `${this.cwd}/abs.png`, 'a\u0000b.png', 'x'.repeat(300), `${'d/'.repeat(200)}x.png`, 'é🙂.png', '\u202egnp.exe', ' ', 'rec', 'rec', 'rec2',
    ];
  }

  /** The planted files nothing may change, and where the sandbox allows no stray temporary file. */
  check(): string[] {
    const problems: string[] = [];
    for (const [path, hash] of this.hashes) if (hashOf(path) !== hash) problems.push(`${path} was changed`);
    if (lstatSync('/dev/zero').isCharacterDevice() === false) problems.push('/dev/zero is no longer a device');
    try {
      if (readlinkSync(join(this.cwd, 'link-out.png')) !== this.victim && lstatSync(join(this.cwd, 'link-out.png')).isSymbolicLink()) problems.push('link-out.png points elsewhere');
    } catch {
      // Replaced by a file of ours (rename replaces the link itself): allowed.
    }
    problems.push(...temporaryLeftovers(this.root).map((path) => `temporary file left: ${path}`));
    return problems;
  }

  remove(): void {
    rmSync(this.root, { recursive: true, force: true });
  }
}

/** How long a call may take: its own timeout where it has one, else the driver's longest read or launch. */
function boundMs(call: FuzzCall, valid: boolean): number {
  if (!valid) return 10_000;
  const args = call.args as Record<string, unknown>;
  const number = (value: unknown, fallback: number) => (typeof value === 'number' && Number.isFinite(value) ? Math.min(value, 60_000) : fallback);
  switch (call.tool) {
    case 'wait_for':
      return number(args.timeout_ms, 5000) + 15_000;
    case 'tui_wait_for':
      return number(args.timeoutMs, 5000) + 15_000;
    case 'launch_app':
      return 30_000;
    case 'run_actions': {
      const steps = Array.isArray(args.steps) ? (args.steps as { arguments?: Record<string, unknown> }[]) : [];
      return 20_000 + steps.reduce((sum, step) => sum + number(step?.arguments?.ms, 0) + number(step?.arguments?.timeout_ms, 5000) + 5000, 0);
    }
    case 'replay_trajectory':
      return 60_000;
    default:
      return 20_000;
  }
}

/** The SDK keeps the server's process private; the raw lines need its stdin. */
function serverStdin(transport: StdioClientTransport): ChildProcess['stdin'] | undefined {
  return (transport as unknown as { _process?: ChildProcess })._process?.stdin;
}

/** The MCP side: the SDK client for every call it can serialise, raw lines on the same stdio for deep JSON it cannot. */
class McpDriver {
  private rawId = 0;
  private readonly pendingRaw = new Map<string, (message: Record<string, unknown>) => void>();
  private constructor(
    readonly client: Client,
    private readonly transport: StdioClientTransport,
  ) {
    const forward = transport.onmessage!;
    // Responses to raw lines carry ids the SDK client never sent: answer them here, pass everything else on.
    transport.onmessage = (message) => {
      const id = (message as { id?: unknown }).id;
      const waiting = typeof id === 'string' ? this.pendingRaw.get(id) : undefined;
      if (waiting) {
        this.pendingRaw.delete(id as string);
        waiting(message as unknown as Record<string, unknown>);
      } else forward(message);
    };
  }

  static async start(env: NodeJS.ProcessEnv, cwd: string): Promise<McpDriver> {
    const { client, transport } = await connectMcp(env, ['mcp'], 'ignore', cwd);
    return new McpDriver(client, transport);
  }

  get pid(): number {
    return this.transport.pid ?? -1;
  }

  async call(call: FuzzCall, bound: number): Promise<Answer> {
    const started = Date.now();
    if (containsRaw(call.args)) return this.rawCall(call, bound);
    try {
      const result = (await this.client.callTool({ name: call.tool, arguments: call.args }, undefined, { timeout: bound })) as {
        isError?: boolean;
        structuredContent?: Record<string, unknown>;
        content: { type: string; text?: string }[];
      };
      return { kind: 'result', isError: result.isError === true, structured: result.structuredContent, text: result.content[0]?.text ?? '' };
    } catch (error) {
      const message = (error as Error).message;
      if (/timed out|Request timeout/i.test(message)) return { kind: 'timeout', afterMs: Date.now() - started };
      return { kind: 'transport', message };
    }
  }

  private async rawCall(call: FuzzCall, bound: number): Promise<Answer> {
    const id = `raw-${++this.rawId}`;
    const line = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"tools/call","params":{"name":${JSON.stringify(call.tool)},"arguments":${serialise(call.args)}}}\n`;
    const answer = new Promise<Record<string, unknown>>((resolve) => this.pendingRaw.set(id, resolve));
    serverStdin(this.transport)?.write(line);
    const timer = sleep(bound).then(() => undefined);
    const message = await Promise.race([answer, timer]);
    if (!message) {
      this.pendingRaw.delete(id);
      return { kind: 'timeout', afterMs: bound };
    }
    if (message.error) return { kind: 'transport', message: JSON.stringify(message.error).slice(0, 300) };
    const result = message.result as { isError?: boolean; structuredContent?: Record<string, unknown>; content: { text?: string }[] };
    return { kind: 'result', isError: result.isError === true, structured: result.structuredContent, text: result.content[0]?.text ?? '' };
  }

  async alive(): Promise<boolean> {
    try {
      const { tools } = await this.client.listTools(undefined, { timeout: 10_000 });
      return tools.length > 0;
    } catch {
      return false;
    }
  }

  close(): Promise<void> {
    return this.client.close();
  }
}

/** One `cup-driver call <tool> - --json` process, the arguments on stdin (a 1 MB argument does not fit in argv). */
function cliCall(call: FuzzCall, env: NodeJS.ProcessEnv, cwd: string, noDaemon: boolean, bound: number): Promise<Answer> {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [cliPath, 'call', call.tool, '-', '--json', ...(noDaemon ? ['--no-daemon'] : [])], { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdin.on('error', () => undefined);
    child.stdin.end(serialise(call.args));
    // Starting node and the CLI costs a few seconds on a loaded machine; --no-daemon also connects to the desktop.
    const limit = bound + (noDaemon ? 15_000 : 8000);
    const timer = setTimeout(() => child.kill('SIGKILL'), limit);
    child.on('close', (status, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL') return resolve({ kind: 'timeout', afterMs: Date.now() - started });
      try {
        const parsed = JSON.parse(stdout) as { isError: boolean; structuredContent?: Record<string, unknown>; content: { text: string }[] };
        resolve({ kind: 'result', isError: parsed.isError, structured: parsed.structuredContent, text: parsed.content[0]?.text ?? '' });
      } catch {
        resolve({ kind: 'transport', message: `exit ${status}, no JSON result; stderr: ${stderr.slice(0, 400)}` });
      }
    });
  });
}

function describeArgs(args: Record<string, unknown>): string {
  const text = serialise(args);
  return text.length > 300 ? `${text.slice(0, 300)}... (${text.length} chars)` : text;
}

/** Runs a fuzz campaign and returns what it saw; the caller asserts on the report. */
export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const log = options.log ?? (() => undefined);
  const started = Date.now();
  const sandbox = new Sandbox();
  const desktop = await TestDesktop.start();
  const tag = `${options.seed}-${process.pid}-${Date.now()}`;
  const env = desktop.env({
    CUP_FUZZ_TAG: tag,
    HOME: sandbox.home,
    TMPDIR: sandbox.temp,
    XDG_CONFIG_HOME: sandbox.config,
    CUP_DRIVER_IDLE_TIMEOUT: '120',
  });
  delete env.CUP_DRIVER_DEBUG;
  let fixture = await desktop.launchFixture('gtk3');
  let fixtureRestarts = 0;
  const mcp = await McpDriver.start(env, sandbox.cwd);
  const report: FuzzReport = {
    calls: 0,
    elapsedMs: 0,
    outcomes: {},
    byKind: {},
    msByTool: {},
    refusalsChecked: 0,
    violations: [],
    notes: [],
    leftovers: [],
    resources: { before: resourcesOf(mcp.pid), held: resourcesOf(mcp.pid), after: resourcesOf(mcp.pid) },
    grown: [],
    heldGrown: [],
    sessionsAtEnd: [],
    msByPhase: { setup: Date.now() - started },
    fixtureRestarts: 0,
  };
  try {
    const all = (await mcp.client.listTools()).tools as unknown as ToolSchema[];
    const listed = options.tools ? all.filter((tool) => options.tools!.test(tool.name)) : all;
    const oracle = new SchemaOracle(all);
    const schemas = new Map(all.map((tool) => [tool.name, tool]));
    const pidMax = Number(readFileSync('/proc/sys/kernel/pid_max', 'utf8'));
    const tokens = async (): Promise<string[]> => {
      const answer = await mcp.call({ tool: 'find_elements', args: { pid: fixture.window.pid, window_id: fixture.window.id, selector: 'role=button' }, kind: 'valid' }, 20_000);
      const matches = answer.kind === 'result' ? ((answer.structured?.matches as { element_token?: string }[] | undefined) ?? []) : [];
      return matches.map((match) => match.element_token).filter((token): token is string => typeof token === 'string');
    };
    // The fixture's tree is readable a moment after its window maps.
    let elementTokens: string[] = [];
    for (let attempt = 0; attempt < 30 && elementTokens.length === 0; attempt++) {
      elementTokens = await tokens();
      if (elementTokens.length === 0) await sleep(300);
    }
    const protectedPids = [0, 1, 2, mcp.pid, process.pid, process.ppid, desktop.state.pids.xvfb, desktop.state.pids.dbus, desktop.state.pids.windowManager];
    const world: FuzzWorld = {
      pids: [fixture.window.pid, fixture.window.pid, 1, mcp.pid, pidMax + 1, 2 ** 31 - 1],
      // The fixture first (a relaunch replaces it), then what must be refused, and pids no process has.
      killPids: [fixture.window.pid, ...protectedPids, pidMax + 1, 2 ** 31 - 1],
      windowIds: [fixture.window.id, fixture.window.id, 1, 0x3ffffff],
      tokens: elementTokens,
      paths: sandbox.paths(),
      menuPaths: [['File'], ['File', 'Quit'], ['Edit', 'Paste'], ['Nope'], ['File', 'Nope', 'Deeper']],
      sessions: ['fz1', 'fz-2', 'default', 'fz.3'],
      maxDurationMs: options.maxDurationMs ?? 1500,
    };
    // A menu's Quit or a close is the fixture's own business; the run goes on with a fresh one (one relaunch for both lanes).
    let relaunching: Promise<void> | undefined;
    const keepFixture = async () => {
      if (fixture.process.exitCode === null && fixture.process.signalCode === null) return;
      relaunching ??= (async () => {
        fixture = await desktop.launchFixture('gtk3');
        fixtureRestarts++;
        world.pids.splice(0, 2, fixture.window.pid, fixture.window.pid);
        world.windowIds.splice(0, 2, fixture.window.id, fixture.window.id);
        world.killPids[0] = fixture.window.pid;
        world.tokens.splice(0, world.tokens.length, ...(await tokens()));
      })().finally(() => (relaunching = undefined));
      await relaunching;
    };

    const warmUpStarted = Date.now();
    // A warm-up: one call of every tool, so connections the driver opens once (X, the bus, a terminal) count as the baseline.
    for (const tool of all) {
      if (tool.name === 'kill_app' || tool.name === 'launch_app' || tool.name === 'install_ffmpeg' || tool.name === 'check_for_update') continue;
      await mcp.call({ tool: tool.name, args: {}, kind: 'valid' }, 20_000);
    }
    await mcp.call({ tool: 'end_session', args: { session: 'default' }, kind: 'valid' }, 20_000);
    report.resources.before = resourcesOf(mcp.pid);
    report.msByPhase['warm-up'] = Date.now() - warmUpStarted;
    log(`the server after the warm-up: ${report.resources.before.descriptors.filter((line) => line.includes('socket:')).map(describeSocket).join(', ')}`);
    const origins = new ResourceOrigins();
    origins.observe(report.resources.before, 'the warm-up');

    /**
     * One lane of calls, each from its own seeded generator: the MCP lane, and the CLI lane (alternating daemon and
     * --no-daemon) that runs beside it, as separate clients of one desktop do. Indices are per lane (mcp#N, cli#N).
     */
    let daemonKnown = false;
    const lane = async (name: 'mcp' | 'cli', count: number, random: Random, workers: number) => {
      const laneStarted = Date.now();
      const generator = new CallGenerator(listed, world, random);
      let next = 0;
      let stopped = false;
      // Workers share the lane's indices (a machine with cores to spare may run several CLI calls at once); the generator
      // is asked in index order whichever worker takes the index, so a seed still makes the same calls.
      const worker = async () => {
        while (!stopped && next < count) {
          const index = next++;
          const call = generator.next();
          const path: Finding['path'] = name === 'mcp' ? 'mcp' : index % 2 === 0 ? 'daemon' : 'no-daemon';
          const check = oracle.check(call.tool, JSON.parse(serialise(call.args)));
          const bound = boundMs(call, check.valid);
          const callStarted = Date.now();
          const answer = path === 'mcp' ? await mcp.call(call, bound) : await cliCall(call, env, sandbox.cwd, path === 'no-daemon', bound);
          if (path === 'mcp') report.msByTool[call.tool] = (report.msByTool[call.tool] ?? 0) + Date.now() - callStarted;
          if (path === 'mcp') origins.observe(resourcesOf(mcp.pid), `mcp#${index} ${call.tool} ${call.kind}${call.field ? ` ${call.field}` : ''} ${describeArgs(call.args).slice(0, 200)}`);
          // Once the CLI has started the daemon, kill_app may be aimed at it too (it must be refused: it is the driver).
          if (path === 'daemon' && !daemonKnown) {
            const daemon = taggedProcesses(tag).find((pid) => readCommand(pid).includes(' serve'));
            if (daemon !== undefined) {
              world.killPids.push(daemon);
              daemonKnown = true;
            }
          }
          const verdict = judge(call, check, answer, Object.keys(schemas.get(call.tool)?.inputSchema.properties ?? {}));
          report.calls++;
          report.byKind[call.kind] = (report.byKind[call.kind] ?? 0) + 1;
          const perTool = (report.outcomes[call.tool] ??= {});
          const outcome: Outcome = verdict.outcome;
          perTool[outcome] = (perTool[outcome] ?? 0) + 1;
          if (outcome.startsWith('refused:')) report.refusalsChecked++;
          const finding = (problem: string): Finding => ({ seed: options.seed, index, path, tool: call.tool, kind: call.kind, ...(call.field ? { field: call.field } : {}), args: describeArgs(call.args), problem });
          for (const problem of verdict.violations) report.violations.push(finding(problem));
          for (const note of verdict.notes) report.notes.push(finding(note));
          if (verdict.violations.length > 0) log(`${name}#${index} ${path} ${call.tool} ${call.kind}${call.field ? ` ${call.field}` : ''}: ${verdict.violations.join('; ')}`);
          if (answer.kind !== 'result' && !(await mcp.alive())) {
            report.violations.push(finding('the MCP server stopped answering tools/list'));
            stopped = true;
            return;
          }
          await keepFixture();
          if ((index + 1) % 250 === 0) log(`${name}: ${index + 1}/${count} calls, ${report.violations.length} violations so far, ${Math.round((Date.now() - started) / 1000)} s`);
        }
      };
      await Promise.all(Array.from({ length: workers }, worker));
      report.msByPhase[`${name} lane`] = Date.now() - laneStarted;
    };
    await Promise.all([
      lane('mcp', options.mcpCalls, new Random(options.seed), 1),
      lane('cli', options.cliCalls, new Random(options.seed ^ 0x5bd1e995), options.cliWorkers ?? 1),
    ]);
    const endStarted = Date.now();
    if (!(await mcp.alive())) report.violations.push({ seed: options.seed, index: -1, path: 'mcp', tool: 'tools/list', kind: 'after', args: '', problem: 'the MCP server does not answer tools/list after the run' });
    // What the sessions own (terminals, recordings, held buttons) is let go when they end, as a client does before leaving.
    // Every session the calls made is ended, not only the world's: a `session` argument such as "-0" or "Infinity"
    // passes the name pattern and makes a session that keeps its terminals until it ends or idles out (30 minutes).
    report.resources.held = resourcesOf(mcp.pid);
    report.heldGrown = origins.grown(report.resources.before, report.resources.held).map((line) => describeSocket(line));
    const listedSessions = await mcp.call({ tool: 'list_sessions', args: {}, kind: 'valid' }, 20_000);
    const named = listedSessions.kind === 'result' ? ((listedSessions.structured?.sessions as { session: string; owns: { label: string }[] }[] | undefined) ?? []) : [];
    report.sessionsAtEnd = named.map(({ session, owns }) => `${session}${owns.length ? ` (${owns.map((item) => item.label).join('; ')})` : ''}`);
    for (const session of new Set([...named.map((item) => item.session), ...world.sessions, 'default'])) {
      await mcp.call({ tool: 'end_session', args: { session }, kind: 'valid' }, 20_000);
    }
    report.resources.after = await settledResources(mcp.pid, report.resources.before);
    report.grown = origins.grown(report.resources.before, report.resources.after).map((line) => describeSocket(line));
    report.msByPhase['ending sessions, settling'] = Date.now() - endStarted;
  } finally {
    const teardownStarted = Date.now();
    report.fixtureRestarts = fixtureRestarts;
    await mcp.close().catch(() => undefined);
    await stopCliDaemon(env);
    await desktop.stop();
    // The driver's helpers (a clipboard keeper, a recorder) end with their X server at the latest.
    const deadline = Date.now() + 10_000;
    let left = taggedProcesses(tag);
    while (left.length > 0 && Date.now() < deadline) {
      await sleep(200);
      left = taggedProcesses(tag);
    }
    report.leftovers.push(...left.map((pid) => `process ${pid} (${readCommand(pid)}) still runs after the run`));
    for (const pid of left) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
    report.leftovers.push(...sandbox.check());
    sandbox.remove();
    report.msByPhase.teardown = Date.now() - teardownStarted;
    report.elapsedMs = Date.now() - started;
  }
  return report;
}

function readCommand(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim().slice(0, 120);
  } catch {
    return '?';
  }
}

async function stopCliDaemon(env: NodeJS.ProcessEnv): Promise<void> {
  await new Promise<void>((resolve) => {
    const child = spawn(process.execPath, [cliPath, 'daemon', 'stop'], { env, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.on('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

/** The report as lines: counts per tool and outcome, then the first findings. */
export function formatReport(report: FuzzReport, maxFindings = 30): string {
  const lines = [`${report.calls} calls in ${(report.elapsedMs / 1000).toFixed(1)} s; kinds ${JSON.stringify(report.byKind)}; ${report.refusalsChecked} refusals checked; fixture restarts ${report.fixtureRestarts}`];
  const { before, held, after } = report.resources;
  lines.push(`time by phase: ${Object.entries(report.msByPhase).map(([phase, ms]) => `${phase} ${(ms / 1000).toFixed(1)} s`).join(', ')}`);
  lines.push(`server resources before: ${before.children} children, ${before.fds} fds; at the end of the calls: ${held.children} children, ${held.fds} fds; after ending every session: ${after.children} children, ${after.fds} fds`);
  if (report.sessionsAtEnd.length > 0) lines.push(`sessions the calls left (ended): ${report.sessionsAtEnd.join(', ')}`.slice(0, 3000));
  for (const held of report.heldGrown.slice(0, 40)) lines.push(`  HELD BY A SESSION ${held}`);
  for (const grown of report.grown) lines.push(`  NOT THERE BEFORE ${grown}`);
  for (const [tool, outcomes] of Object.entries(report.outcomes).sort()) {
    lines.push(`  ${tool.padEnd(26)} ${((report.msByTool[tool] ?? 0) / 1000).toFixed(1).padStart(6)} s  ${Object.entries(outcomes).sort().map(([outcome, count]) => `${outcome}=${count}`).join(' ')}`);
  }
  lines.push(`${report.violations.length} violations, ${report.notes.length} notes, ${report.leftovers.length} leftovers`);
  for (const finding of report.violations.slice(0, maxFindings)) lines.push(`  VIOLATION #${finding.index} ${finding.path} ${finding.tool} ${finding.kind} ${finding.field ?? ''}: ${finding.problem}\n    args ${finding.args}`);
  for (const leftover of report.leftovers) lines.push(`  LEFTOVER ${leftover}`);
  return lines.join('\n');
}
