// A connection that carried an accessibility action is kept open for as long as its application lives, even past the
// driver's own process (a one-shot call, a daemon replaced or idle, an MCP server whose client left, a crash). The
// application may still be inside that action's dispatch, running the modal dialog the action opened, and the
// connection's hang-up arriving there freezes its accessibility for good (see AtspiClient.park). A keeper is a
// detached `tail --pid` (coreutils: one process that forks nothing and reads nothing) holding duplicates of the
// sockets as its fds 3 and up; it exits once the application's process is gone.
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';

/** How often a keeper looks whether the application still runs, in seconds. */
const POLL_S = 5;

/** Starts a keeper of `sockets` for the application process `pid`; the driver neither waits for it nor hears from it. */
export function keepOpenWhileAlive(sockets: readonly Socket[], pid: number): ChildProcess | undefined {
  if (!(pid > 0) || sockets.length === 0) return undefined;
  try {
    const keeper = spawn('tail', ['-s', String(POLL_S), '-f', `--pid=${pid}`, '/dev/null'], { detached: true, stdio: ['ignore', 'ignore', 'ignore', ...sockets] });
    keeper.on('error', () => undefined);
    keeper.unref();
    return keeper;
  } catch {
    // No keeper (no fd to share): the connections live as long as this process, as before.
    return undefined;
  }
}
