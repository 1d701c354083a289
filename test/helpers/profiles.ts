// A browser profile the test made, removed once no process uses it: a killed Chromium's helper processes go on
// writing into it for a while (longer on a loaded machine), and removing it under them fails with ENOTEMPTY.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** The pids of the processes whose command line names the path. */
function processesUsing(path: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(path);
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

/** Waits (at most 15 s) until no process names the profile, then removes it. */
export async function removeProfile(path: string): Promise<void> {
  for (const deadline = Date.now() + 15_000; processesUsing(path).length > 0 && Date.now() < deadline; ) await sleep(100);
  rmSync(path, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
}
