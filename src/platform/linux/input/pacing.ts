// Keeping typed keys only a little ahead of the app that reads them. XTEST hands keys to the X server far faster
// than an app works through them (a GTK entry takes one to two ms a key), and keys the app has been handed cannot
// be taken back: unpaced, 2000 characters are all sent within a fraction of a second, and a cancel would stop
// nothing while the app went on typing for seconds.
//
// The evidence is the app's _NET_WM_USER_TIME (see settle.ts), read from the X server, so pacing costs the app
// nothing. Only typing that can be cancelled (given a signal) is paced; apps that keep no user time are not.
// That evidence comes late from a busy app: Xlib sends a client's requests to the server when the events it has
// read run out (XPending), so GTK's new user time arrives once the app has worked through every key it had read.
// Where the app also reports the characters it handled (its text field's insertions, TypeTextOptions.handled), the
// pacing follows those reports instead, and keeps what the app has unread to unreadBudgetMs of its work at the pace
// it shows: waiting for the user time let the app run out of keys at each chunk, and a count of keys ahead took a
// loaded app far longer than 100 ms to work through after a cancel. Its reports wake the pacing; the user time is
// read only when they pause. Read every few ms besides, it cost this process a third of its CPU time while typing,
// which on a two-core machine the app typed into was short of.
import { setTimeout as sleep } from 'node:timers/promises';
import type { X11Connection } from '../x11/index.js';
import { abortable } from './keystrokes.js';
import { serverTime } from './server-time.js';
import { atOrAfter, userTimes, userTimeWindows } from './settle.js';

/**
 * Characters per chunk. The next chunk goes once the app's unread keys fit the allowance with it, so the app holds
 * the allowance less a chunk when this process is woken to send more: with 16, a GTK entry at 4 to 5 ms a key had
 * about 5 keys left, which a loaded machine's wake-up took longer than, and the app waited for keys (its span over 100
 * characters 0.86x to 0.98x that of `xdotool type`'s unpaced keys, in `node dist/scripts/bench-type.js`); with 8 it has
 * 13 left (1.09x to 1.18x).
 */
export const pacingChunk = 8;
/**
 * Where the app reports what it handled: how long the keys it has not handled yet may take it, in ms, at the pace it
 * has shown. A cancel stops the typing about this long after it; the app, a chunk or more ahead, does not run out
 * of keys while this process waits for its turn on a loaded machine.
 */
const unreadBudgetMs = 100;
/** ...and the keys it may have unread once the next chunk is sent until it has shown its pace. */
const firstAllowance = 32;
/** How many handled characters the app's pace is measured over (the latest ones). */
const paceOver = 32;
/**
 * Where only the user time tells: the keys the app may have unread once the next chunk is sent (60-120 ms of a GTK
 * entry's work on a quiet machine).
 */
const countAllowance = 64;
/** Looks at the app's progress kept for its pace (the latest; it is measured over paceOver characters). */
const progressKept = 256;
const pollMs = 4;
/** Where the app reports what it handled: how long its reports may pause before its user time is read. */
const reportPauseMs = 20;
/**
 * How long an app may leave its user time unchanged before the typing goes on unpaced: at first, when it may be
 * an app that does not stamp key presses; once it has stamped some of these keys, when it is stopped or hung. An
 * app that is slow but working through the keys is waited for.
 */
const stillLimitMs = { unproven: 2000, stamping: 10_000 };

/** What the app typed into reported handled so far (its text field's insertions), and a wait for its next report. */
export interface HandledReports {
  count(): number;
  /** Settles at the app's next report, or after timeoutMs. */
  next(timeoutMs: number): Promise<unknown>;
}

export class KeyPacer {
  /** Server times taken after each chunk sent (chunk i ends at character (i + 1) * pacingChunk). */
  private readonly marks: number[] = [];
  /** Chunks the app's user time shows read (a key sent after their end carried an earlier time than its own). */
  private readChunks = 0;
  /** The app's progress as seen at each look, for its pace: characters handled and when. */
  private readonly progress: { at: number; handled: number; sent: number }[] = [];
  private timeWindows: Promise<number[]> | undefined;
  private unpaced = false;
  /** The app's user times as first seen during this typing, and whether it has stamped keys since. */
  private firstSeen: string | undefined;
  private stamping = false;

  constructor(
    private readonly x: X11Connection,
    private readonly signal: AbortSignal | undefined,
    /** Characters the app has reported handled so far, when it reports them. */
    private readonly handled?: HandledReports,
  ) {}

  /**
   * Call after each chunk, with the characters sent so far: marks where it ends, and waits (until the signal aborts
   * at most) until the app has handled enough that, once the next chunk is sent, it has no more unread than its
   * allowance.
   */
  async chunkSent(sent: number): Promise<void> {
    if (this.unpaced || !this.signal) return;
    this.timeWindows ??= userTimeWindows(this.x, true).catch(() => []);
    const [windows, time] = await Promise.all([this.timeWindows, serverTime(this.x)]);
    if (windows.length === 0) {
      this.unpaced = true;
      return;
    }
    this.marks.push(time);
    let seen: string | undefined;
    let stillSince = Date.now();
    let times: (number | undefined)[] = [];
    for (;;) {
      // A user time at or after a chunk's mark is a key sent after it read: one more than the chunks' characters.
      const handled = Math.min(sent, Math.max(this.handled?.count() ?? 0, this.readChunks > 0 ? this.readChunks * pacingChunk + 1 : 0));
      this.progress.push({ at: Date.now(), handled, sent });
      if (this.progress.length > progressKept) this.progress.splice(0, this.progress.length - progressKept);
      if (this.signal.aborted || sent - handled + pacingChunk <= this.allowance()) return;
      // A pause in the reports is a key the field took without an insertion (a character it filters out, a Return),
      // or the app at a stop: its user time tells which.
      const reported = this.handled ? await this.unlessAborted(this.handled.next(reportPauseMs)) : undefined;
      if (reported === undefined) {
        times = await userTimes(this.x, windows);
        while (this.readChunks < this.marks.length && times.some((userTime) => userTime !== undefined && atOrAfter(userTime, this.marks[this.readChunks]!))) this.readChunks++;
      }
      // Either evidence moving is the app at work.
      const now = `${times.join()} ${this.handled?.count() ?? ''}`;
      this.firstSeen ??= now;
      if (now !== this.firstSeen) this.stamping = true;
      if (now !== seen) {
        seen = now;
        stillSince = Date.now();
      } else if (Date.now() - stillSince > stillLimitMs[this.stamping ? 'stamping' : 'unproven']) {
        this.unpaced = true;
        return;
      }
      if (!this.handled) await sleep(pollMs, undefined, abortable(this.signal)).catch(() => undefined);
    }
  }

  /** `wait`, ended early (undefined) by the signal aborting. */
  private unlessAborted(wait: Promise<unknown>): Promise<unknown> {
    const signal = this.signal!;
    if (signal.aborted) return Promise.resolve(undefined);
    let stop: () => void = () => undefined;
    const aborted = new Promise<undefined>((resolve) => {
      stop = () => resolve(undefined);
      signal.addEventListener('abort', stop, { once: true });
    });
    return Promise.race([wait, aborted]).finally(() => signal.removeEventListener('abort', stop));
  }

  /**
   * Keys the app may have unread once the next chunk is sent: where it reports what it handled, what it handles in
   * unreadBudgetMs, at least a chunk. Its pace is taken over the latest paceOver characters, from the spans between
   * looks that ended with keys still unread: the app was at work all along those, not waiting for more keys.
   */
  private allowance(): number {
    if (!this.handled) return countAllowance;
    let ms = 0;
    let characters = 0;
    for (let i = this.progress.length - 1; i > 0 && characters < paceOver; i--) {
      const [from, to] = [this.progress[i - 1]!, this.progress[i]!];
      if (from.handled === 0 || to.handled >= to.sent) continue;
      ms += to.at - from.at;
      characters += to.handled - from.handled;
    }
    if (characters < pacingChunk || ms <= 0) return firstAllowance;
    return Math.max(pacingChunk, Math.floor((unreadBudgetMs * characters) / ms));
  }
}
