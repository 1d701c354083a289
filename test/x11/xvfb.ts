// Starts a private Xvfb for one test file on the first free display number from :90 up, and stops it again.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { after, before } from 'node:test';
import { X11Connection } from '../../src/platform/linux/x11/index.js';

export interface Xvfb {
  display: string;
  displayNumber: number;
  process: ChildProcess;
  stop(): Promise<void>;
}

export interface XvfbOptions {
  /** Extra Xvfb arguments (e.g. ['-auth', file]). */
  args?: string[];
  /** Display number to start searching from (default 90). */
  from?: number;
}

const startTimeoutMs = 10_000;
const running = new Set<ChildProcess>();

// A test file that crashes or is killed mid-run must not leave its server behind.
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

function displayTaken(n: number): boolean {
  return existsSync(`/tmp/.X11-unix/X${n}`) || existsSync(`/tmp/.X${n}-lock`);
}

/**
 * Xvfb writes the display number to -displayfd once it accepts connections: an exact readiness signal from our
 * own child. If another process grabbed the same number first, our child exits and the next number is tried.
 */
function tryStart(n: number, args: string[]): Promise<ChildProcess | undefined> {
  return new Promise((resolve, reject) => {
    const child = spawn('Xvfb', [`:${n}`, '-nolisten', 'tcp', '-screen', '0', '1024x768x24', '-displayfd', '3', ...args], {
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2000);
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`Xvfb :${n} did not become ready within ${startTimeoutMs} ms: ${stderr}`));
    }, startTimeoutMs);
    child.stdio[3]!.on('data', () => {
      clearTimeout(timer);
      resolve(child);
    });
    child.once('exit', () => {
      clearTimeout(timer);
      running.delete(child);
      resolve(undefined);
    });
    child.once('error', (error) => {
      clearTimeout(timer);
      running.delete(child);
      reject(error);
    });
  });
}

export async function startXvfb(options: XvfbOptions = {}): Promise<Xvfb> {
  for (let n = options.from ?? 90; n < 400; n++) {
    if (displayTaken(n)) continue;
    const child = await tryStart(n, options.args ?? []);
    if (!child) continue;
    return {
      display: `:${n}`,
      displayNumber: n,
      process: child,
      stop: () => stopChild(child),
    };
  }
  throw new Error('no free X display number between :90 and :399');
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => {
      clearTimeout(force);
      running.delete(child);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Registers hooks that start a private Xvfb and connect to it before the tests of this file (or describe
 * block), and close and stop both after them. The getters are for use inside the tests.
 */
export function useXvfbConnection(): { xvfb: () => Xvfb; conn: () => X11Connection } {
  let xvfb: Xvfb | undefined;
  let conn: X11Connection | undefined;
  before(async () => {
    xvfb = await startXvfb();
    // No home, so the user's Xauthority file cannot be what lets the connection in.
    conn = await X11Connection.connect({ display: xvfb.display, env: { HOME: '/nonexistent' } });
  });
  after(async () => {
    conn?.close();
    await xvfb?.stop();
  });
  return { xvfb: () => xvfb!, conn: () => conn! };
}
