// Keeping typed keys only a little ahead of the app that reads them. XTEST hands keys to the X server far faster
// than an app works through them (a GTK entry takes one to two ms a key), and keys the app has been handed cannot
// be taken back: unpaced, 2000 characters are all sent within a fraction of a second, and a cancel would stop
// nothing while the app went on typing for seconds.
//
// The evidence is the app's _NET_WM_USER_TIME (see settle.ts), read from the X server, so pacing costs the app
// nothing. Only typing that can be cancelled (given a signal) is paced; apps that keep no user time are not.
import { setTimeout as sleep } from 'node:timers/promises';
import type { X11Connection } from '../x11/index.js';
import { abortable } from './keystrokes.js';
import { serverTime } from './server-time.js';
import { atOrAfter, userTimes, userTimeWindows } from './settle.js';

/** Characters per chunk. */
export const pacingChunk = 16;
/**
 * Chunks the app may have unread: four (64 keys, 60-120 ms of a GTK entry's work) keep it busy while this
 * process waits for its turn on a loaded machine (with two, the app ran dry between chunks and typing took a
 * fifth longer than xdotool's unpaced burst), and still stop typing a moment after a cancel.
 */
const chunksAhead = 4;
const pollMs = 4;
/**
 * How long an app may leave its user time unchanged before the typing goes on unpaced: at first, when it may be
 * an app that does not stamp key presses; once it has stamped some of these keys, when it is stopped or hung. An
 * app that is slow but working through the keys is waited for.
 */
const stillLimitMs = { unproven: 2000, stamping: 10_000 };

export class KeyPacer {
  /** Server times taken after each chunk sent: keys sent later carry that time or a later one. */
  private readonly marks: number[] = [];
  private timeWindows: Promise<number[]> | undefined;
  private unpaced = false;
  /** The app's user times as first seen during this typing, and whether it has stamped keys since. */
  private firstSeen: string | undefined;
  private stamping = false;

  constructor(
    private readonly x: X11Connection,
    private readonly signal: AbortSignal | undefined,
  ) {}

  /**
   * Call after each chunk: marks where it ends, and waits (until the signal aborts at most) until the app has read
   * a key sent after the chunk `chunksAhead - 1` chunks before this one ended: at most `chunksAhead` chunks are
   * unread once the next one is sent.
   */
  async chunkSent(): Promise<void> {
    if (this.unpaced || !this.signal) return;
    this.timeWindows ??= userTimeWindows(this.x, true).catch(() => []);
    const [windows, time] = await Promise.all([this.timeWindows, serverTime(this.x)]);
    if (windows.length === 0) {
      this.unpaced = true;
      return;
    }
    this.marks.push(time);
    if (this.marks.length < chunksAhead) return;
    const mark = this.marks.shift()!;
    let seen: string | undefined;
    let stillSince = Date.now();
    while (!this.signal.aborted) {
      const times = await userTimes(this.x, windows);
      if (times.some((userTime) => userTime !== undefined && atOrAfter(userTime, mark))) return;
      const now = times.join();
      this.firstSeen ??= now;
      if (now !== this.firstSeen) this.stamping = true;
      if (now !== seen) {
        seen = now;
        stillSince = Date.now();
      } else if (Date.now() - stillSince > stillLimitMs[this.stamping ? 'stamping' : 'unproven']) {
        this.unpaced = true;
        return;
      }
      await sleep(pollMs, undefined, abortable(this.signal)).catch(() => undefined);
    }
  }
}
