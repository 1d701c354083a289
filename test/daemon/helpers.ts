import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { commandLine, isAlive } from '../../src/platform/linux/desktop/processes.js';
import { daemonSocketPath } from '../../src/server/daemon/socket-path.js';
import { cliPath } from '../helpers/desktop.js';

export interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs the real CLI as its own process (async, so several can race), bounded at 60 s. */
export function runCli(args: string[], env: NodeJS.ProcessEnv, cwd?: string): Promise<CliRun> {
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(process.execPath, [cliPath, ...args], { env, cwd, timeout: 60_000, maxBuffer: 64 << 20, encoding: 'utf8' }, (error, stdout, stderr) => {
      const status = error ? (typeof error.code === 'number' ? error.code : null) : 0;
      resolve({ status, stdout, stderr, ms: Date.now() - started });
    });
  });
}

/** Processes running `cup-driver serve` for this socket: how a test sees how many daemons there are. */
export function daemonProcesses(socketPath: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map(Number)
    .filter((pid) => {
      const argv = commandLine(pid);
      return argv.includes('serve') && argv.includes(socketPath) && isAlive(pid);
    });
}

export async function waitUntil(what: string, timeoutMs: number, check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting until ${what}`);
    await sleep(50);
  }
}

/** Stops the daemon of this environment the way a user would, then makes sure no daemon process is left. */
export async function stopDaemon(env: NodeJS.ProcessEnv): Promise<void> {
  const socketPath = daemonSocketPath(env);
  await runCli(['daemon', 'stop'], env);
  for (const pid of daemonProcesses(socketPath)) process.kill(pid, 'SIGKILL');
  await waitUntil('every daemon process is gone', 5000, () => daemonProcesses(socketPath).length === 0);
}

/** A result with its snapshot id replaced, so results of two runs of the same read compare equal. */
export function withoutSnapshotId<T>(value: T, snapshotId: unknown): T {
  if (typeof snapshotId !== 'string' || snapshotId === '') return value;
  return JSON.parse(JSON.stringify(value).split(snapshotId).join('<snapshot>')) as T;
}

/** `cup-driver call <tool> <args> --json` as its own process: the exit status, structuredContent and stderr. */
export async function callCliJson(env: NodeJS.ProcessEnv, tool: string, args: Record<string, unknown>, extra: string[] = []): Promise<{ status: number | null; json: Record<string, unknown>; stderr: string }> {
  const run = await runCli(['call', tool, JSON.stringify(args), '--json', ...extra], env);
  const output = run.stdout.trim() ? (JSON.parse(run.stdout) as { structuredContent?: Record<string, unknown> }) : {};
  return { status: run.status, json: output.structuredContent ?? {}, stderr: run.stderr };
}
