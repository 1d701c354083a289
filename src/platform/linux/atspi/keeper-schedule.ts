// When keepers start (see connection-keeper.ts): at a quiet moment of this process. Starting a process holds this
// one's thread for milliseconds (8 ms and more on a loaded machine), and a keeper due while an action ran landed in
// it: in a real typing the pacing then fed the app late, and the give-back and the reading after came late. A
// keeper waits for the actions under way to end, though never past a bound: until it starts, a crash of this
// process hangs up the connections it would hold.

/** How long after a connection is parked it gets its keeper, with those parked meanwhile, when no action runs then. */
const KEEPER_AFTER_MS = 1000;
/** How long after that a keeper waits at most for the actions under way to end. */
const KEEPER_LATEST_MS = 5000;

interface Due {
  start: () => void;
  /** When it starts whatever runs (ms since the epoch). */
  latest: number;
  timer: NodeJS.Timeout | undefined;
  /** Whether it came due during an action and waits for the actions' end (or the bound). */
  waiting: boolean;
}

export class KeeperSchedule {
  private readonly due = new Map<string, Due>();
  private underway = 0;

  /** Starts `start` for `key` (an application) KEEPER_AFTER_MS from now or after, unless one is due already. */
  schedule(key: string, start: () => void): void {
    if (this.due.has(key)) return;
    const due: Due = { start, latest: Date.now() + KEEPER_AFTER_MS + KEEPER_LATEST_MS, timer: undefined, waiting: false };
    this.due.set(key, due);
    this.fireIn(key, due, KEEPER_AFTER_MS);
  }

  /** Forgets what is due for `key`: it was started, or its application is gone. */
  cancel(key: string): void {
    clearTimeout(this.due.get(key)?.timer);
    this.due.delete(key);
  }

  /** Marks an action as under way until the returned function is called: keepers due meanwhile wait for its end. */
  actionUnderway(): () => void {
    this.underway++;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.underway--;
      // A next action that follows at once (a plan's next step) holds them off again when they fire.
      if (this.underway === 0) for (const [key, due] of this.due) if (due.waiting) this.fireIn(key, due, 0);
    };
  }

  private fireIn(key: string, due: Due, ms: number): void {
    clearTimeout(due.timer);
    due.waiting = false;
    due.timer = setTimeout(() => this.fire(key, due), ms).unref();
  }

  private fire(key: string, due: Due): void {
    if (this.due.get(key) !== due) return;
    if (this.underway > 0 && Date.now() < due.latest) {
      // At the bound, or sooner at the actions' end.
      this.fireIn(key, due, due.latest - Date.now());
      due.waiting = true;
      return;
    }
    this.due.delete(key);
    due.start();
  }
}
