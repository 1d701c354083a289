// Clients that go away in the middle of a call, and what the daemon holds before and after: the test of issue
// 13's disconnect fault (50 rounds) and `npm run faults` (1000) share this. The kernel is the oracle: the
// daemon's open file descriptors and sockets (/proc/PID/fd) and its child processes (/proc/*/stat).
import { spawn } from 'node:child_process';
import { readdirSync, readlinkSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { isAlive, processIds, statFields } from '../../src/platform/linux/desktop/processes.js';
import { DaemonConnection } from '../../src/server/daemon/connection.js';
import { daemonSocketPath } from '../../src/server/daemon/socket-path.js';
import { cliPath, repositoryRoot } from './desktop.js';

export interface ProcessFacts {
  fds: number;
  sockets: number;
  children: number;
}

export function processFacts(pid: number): ProcessFacts {
  const links = readdirSync(`/proc/${pid}/fd`).map((fd) => {
    try {
      return readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      return '';
    }
  });
  return {
    fds: links.length,
    sockets: links.filter((link) => link.startsWith('socket:')).length,
    children: processIds().filter((other) => statFields(other)?.[1] === String(pid)).length,
  };
}

async function until(what: string, timeoutMs: number, check: () => boolean): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !check(); await sleep(10)) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
  }
}

/** The session the killed clients' calls run in, so list_sessions tells whether one is still running. */
export const DISCONNECTED_SESSION = 'disconnected';

/** A call that runs until its client goes: a wait for an element that never comes, far longer than a round. */
export function endlessWait(pid: number): { tool: string; arguments: Record<string, unknown> } {
  return { tool: 'wait_for', arguments: { pid, selector: 'role=button name="Never there"', timeout_ms: 50_000, session: DISCONNECTED_SESSION } };
}

/**
 * A client connection dropped while the daemon runs its call, as the socket of a killed process drops,
 * without the cost of starting a process per round.
 */
export async function socketDroppedMidCall(socketPath: string, call: { tool: string; arguments: Record<string, unknown> }): Promise<void> {
  const connection = await DaemonConnection.open(socketPath, 5000);
  connection.request({ op: 'call', tool: call.tool, arguments: call.arguments, origin: 'cli' }, 60_000, call.tool).catch(() => undefined);
  await sleep(40);
  connection.close();
}

/**
 * A CLI call killed with SIGKILL while the daemon runs it: started, seen connected (the CLI, whose stdio is
 * /dev/null, holds a socket: its connection to the daemon), given a moment to send its call, then killed.
 * Resolves once the CLI process is gone.
 */
export async function cliKilledMidCall(env: NodeJS.ProcessEnv, call: { tool: string; arguments: Record<string, unknown> }): Promise<void> {
  const cli = spawn(process.execPath, [cliPath, 'call', call.tool, JSON.stringify(call.arguments)], { env, stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => cli.once('exit', () => resolve()));
  const connected = () => {
    try {
      return processFacts(cli.pid!).sockets > 0;
    } catch {
      return false;
    }
  };
  try {
    await until('the CLI connects to the daemon', 20_000, () => connected() || cli.exitCode !== null);
    if (cli.exitCode !== null) throw new Error(`the CLI exited (${cli.exitCode}) before the daemon took its call`);
    await sleep(60);
  } finally {
    cli.kill('SIGKILL');
    await exited;
  }
}

/**
 * An MCP client killed while its server (`cup-driver mcp`, the client's child, as agents run it) runs a
 * call: the server sees its stdin close and must end by itself. Resolves with the server's pid once it is gone;
 * rejects when it outlives `boundMs`.
 */
export async function mcpClientKilledMidCall(env: NodeJS.ProcessEnv, call: { tool: string; arguments: Record<string, unknown> }, boundMs = 10_000): Promise<{ server: number; exitMs: number }> {
  // The client: the official SDK's stdio client in a process of its own, which says "called" once the call is sent.
  const script = `
    import { Client } from '@modelcontextprotocol/sdk/client/index.js';
    import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
    const transport = new StdioClientTransport({ command: process.execPath, args: [${JSON.stringify(cliPath)}, 'mcp'], env: process.env, stderr: 'inherit' });
    const client = new Client({ name: 'fault-client', version: '1.0.0' });
    await client.connect(transport);
    console.log('server', transport.pid);
    client.callTool({ name: ${JSON.stringify(call.tool)}, arguments: ${JSON.stringify(call.arguments)} }, undefined, { timeout: 600000 }).catch(() => {});
    setTimeout(() => console.log('called'), 300);
  `;
  const client = spawn(process.execPath, ['--input-type=module', '-e', script], { env, cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  client.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => client.once('exit', () => resolve()));
  try {
    await until('the MCP client sends its call', 30_000, () => output.includes('called') || client.exitCode !== null);
  } finally {
    client.kill('SIGKILL');
    await exited;
  }
  const killedAt = Date.now();
  const server = Number(/server (\d+)/.exec(output)?.[1]);
  if (!Number.isInteger(server)) throw new Error(`the MCP client never started its server: ${output}`);
  await until(`the MCP server (pid ${server}) ends after its client was killed`, boundMs, () => !isAlive(server));
  return { server, exitMs: Date.now() - killedAt };
}

export interface DisconnectReport {
  rounds: number;
  /** Of the rounds: CLI processes killed with SIGKILL, MCP clients killed (the rest dropped their socket). */
  cliRounds: number;
  mcpRounds: number;
  before: ProcessFacts;
  after: ProcessFacts;
  /** The slowest an MCP server took to end after its client was killed. */
  slowestMcpExitMs: number;
  elapsedMs: number;
}

/**
 * `rounds` clients gone mid-call against the daemon: in every ten, eight connections dropped, one CLI process
 * killed with SIGKILL and one MCP client killed (its own server must end), after a warm-up that opens what the daemon keeps (its connections to the
 * display and the accessibility bus, the app's channel). The facts after are taken once the last round's
 * connection is gone.
 */
export async function disconnectRounds(env: NodeJS.ProcessEnv, daemonPid: number, appPid: number, rounds: number, progress?: (round: number) => void): Promise<DisconnectReport> {
  const call = endlessWait(appPid);
  const settle = async (sockets: number) => until('the daemon lets go of the killed clients', 10_000, () => processFacts(daemonPid).sockets <= sockets);
  for (let i = 0; i < 3; i++) {
    await cliKilledMidCall(env, call);
    await sleep(200);
  }
  const before = processFacts(daemonPid);
  const started = Date.now();
  let mcpRounds = 0;
  let cliRounds = 0;
  let slowestMcpExitMs = 0;
  for (let round = 1; round <= rounds; round++) {
    if (round % 10 === 0) {
      const { exitMs } = await mcpClientKilledMidCall(env, call);
      slowestMcpExitMs = Math.max(slowestMcpExitMs, exitMs);
      mcpRounds++;
    } else if (round % 10 === 5) {
      await settle(before.sockets);
      await cliKilledMidCall(env, call);
      cliRounds++;
    } else {
      await socketDroppedMidCall(daemonSocketPath(env), call);
    }
    progress?.(round);
  }
  await settle(before.sockets);
  // Descriptors close a moment after the sockets: give the daemon the time it takes, bounded.
  for (const deadline = Date.now() + 5000; processFacts(daemonPid).fds > before.fds && Date.now() < deadline; ) await sleep(50);
  return { rounds, cliRounds, mcpRounds, before, after: processFacts(daemonPid), slowestMcpExitMs, elapsedMs: Date.now() - started };
}
