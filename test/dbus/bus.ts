// Starts a private dbus-daemon for one test file, so tests never touch a real session bus.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestBus {
  /** The address the daemon printed, e.g. "unix:path=/tmp/cup-dbus-x/bus,guid=...". */
  readonly address: string;
  readonly pid: number;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 5000;
const STOP_TIMEOUT_MS = 3000;

/** `listen` is a dbus-daemon --address value; by default a socket file in a fresh temporary directory. */
export async function startBus(listen?: (dir: string) => string): Promise<TestBus> {
  const dir = mkdtempSync(join(tmpdir(), 'cup-dbus-'));
  const listenAddress = listen === undefined ? `unix:path=${join(dir, 'bus')}` : listen(dir);
  const child = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1', `--address=${listenAddress}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };

  try {
    const address = await new Promise<string>((resolve, reject) => {
      let stdout = '';
      const timer = setTimeout(() => reject(new Error(`dbus-daemon printed no address within ${START_TIMEOUT_MS} ms; stderr: ${stderr}`)), START_TIMEOUT_MS);
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const newline = stdout.indexOf('\n');
        if (newline !== -1) {
          clearTimeout(timer);
          resolve(stdout.slice(0, newline).trim());
        }
      });
      child.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`dbus-daemon exited with ${code} before printing its address; stderr: ${stderr}`));
      });
    });
    return { address, pid: child.pid!, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Rejects if `promise` does not settle within `ms`, so a broken test fails instead of hanging. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
