// Waiting until an app has read the keys sent so far, before the keyboard map changes under them.
//
// Nothing in X says when a client has read an event. But toolkits stamp _NET_WM_USER_TIME (EWMH) with the time of
// each key press they process, on the top-level window or on the window its _NET_WM_USER_TIME_WINDOW names (GTK 3
// and 4 measurably on the top-level itself), and they translate the key to a keysym while processing it. So: read
// the server time just before the last key press (`markNextKey`), and `settle` waits until the focused app's user
// time has reached it. Apps without a user time get a plain pause; every wait is bounded.
import { setTimeout as sleep } from 'node:timers/promises';
import type { X11Connection } from '../x11/index.js';
import { serverTime } from './server-time.js';

/** Default pause after the evidence (or instead of it), in ms. */
export const defaultSettleMs = 30;
/** How long to wait at most for a busy app to catch up, in ms. */
const catchUpLimitMs = 2000;
const pollMs = 10;

interface Mark {
  time: number;
  /** Windows whose _NET_WM_USER_TIME the app updates; empty when it keeps none. */
  timeWindows: number[];
}

export class InputSettler {
  private mark: Mark | undefined;

  constructor(
    private readonly x: X11Connection,
    private readonly settleMs: number,
  ) {}

  /** Call right before pressing a key that must be read before the next settle returns. */
  async markNextKey(): Promise<void> {
    // The earlier keys must carry an older time than the mark, or reaching it would not prove the next key was
    // read: let them be processed, and the server's millisecond clock move on.
    await this.x.sync();
    await sleep(2);
    // The top-level too while only its delegate has a user time: GTK 3 stamps the top-level from its first key on,
    // and waiting on the delegate alone ran into the 2 s bound on every first typing into a GTK 3 app.
    const [time, timeWindows] = await Promise.all([serverTime(this.x), userTimeWindows(this.x, true)]);
    this.mark = { time, timeWindows };
  }

  async settle(): Promise<void> {
    await this.x.sync();
    const mark = this.mark;
    this.mark = undefined;
    if (mark && mark.timeWindows.length > 0) {
      const deadline = Date.now() + catchUpLimitMs;
      while (Date.now() < deadline && !(await this.reached(mark))) await sleep(pollMs);
    }
    if (this.settleMs > 0) await sleep(this.settleMs);
  }

  private reached(mark: Mark): Promise<boolean> {
    return userTimeReached(this.x, mark.timeWindows, mark.time);
  }
}

/** Whether the app has processed input of server time `time` or later: its user time is at or after it. */
async function userTimeReached(x: X11Connection, timeWindows: readonly number[], time: number): Promise<boolean> {
  return (await userTimes(x, timeWindows)).some((userTime) => userTime !== undefined && atOrAfter(userTime, time));
}

/** The _NET_WM_USER_TIME of each window (undefined where it has none or is gone). */
export async function userTimes(x: X11Connection, timeWindows: readonly number[]): Promise<(number | undefined)[]> {
  return Promise.all(timeWindows.map(async (window) => (await x.getCardinals(window, '_NET_WM_USER_TIME').catch(() => null))?.[0]));
}

/** Server time is 32-bit and wraps: "at or after" is a difference of less than half the range. */
export function atOrAfter(time: number, mark: number): boolean {
  return ((time - mark) >>> 0) < 0x80000000;
}

/**
 * The focused top-level client's user-time windows (itself and _NET_WM_USER_TIME_WINDOW), if it keeps a user time.
 * `laterToo`: the client itself also when only its delegate has a user time so far (GTK 3 names a delegate, yet
 * stamps the top-level, which has none until its first key press).
 */
export async function userTimeWindows(x: X11Connection, laterToo = false): Promise<number[]> {
  const client = await focusedClient(x);
  if (client === undefined) return [];
  const [own, delegate] = await Promise.all([x.getCardinals(client, '_NET_WM_USER_TIME'), x.getWindowList(client, '_NET_WM_USER_TIME_WINDOW')]);
  const windows = own || (laterToo && delegate?.[0]) ? [client] : [];
  if (delegate?.[0]) windows.push(delegate[0]);
  return windows;
}

/** The window with WM_STATE at or above the input focus. */
async function focusedClient(x: X11Connection): Promise<number | undefined> {
  const wmState = await x.internAtom('WM_STATE');
  let window = (await x.getInputFocus()).focus;
  for (let depth = 0; window > 1 && window !== x.screen.root && depth < 32; depth++) {
    if ((await x.getProperty(window, wmState, { length: 0 })) !== null) return window;
    window = (await x.queryTree(window)).parent;
  }
  return undefined;
}
