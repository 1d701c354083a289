import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isAlive, waitFor } from './processes.js';
import { stateDirectory } from './state-dir.js';

/**
 * Serialises a start (a desktop, a daemon) across processes, so two driver processes started at once end
 * up sharing one instead of starting two. The lock is a file in the state directory holding the owner's
 * pid; a lock whose owner died is taken over.
 */
export async function withStartLock<T>(lockName: string, what: string, work: () => Promise<T>, timeoutMs = 30_000): Promise<T> {
  const lock = join(stateDirectory(), lockName);
  await waitFor(what, timeoutMs, () => {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx', mode: 0o600 });
      return true;
    } catch {
      let owner = Number.NaN;
      try {
        owner = Number(readFileSync(lock, 'utf8'));
      } catch {
        // Released between our attempt and this read: try again.
      }
      if (!Number.isInteger(owner) || !isAlive(owner)) rmSync(lock, { force: true });
      return undefined;
    }
  });
  try {
    return await work();
  } finally {
    rmSync(lock, { force: true });
  }
}
