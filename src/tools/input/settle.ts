import type { ChangeWatch } from '../../platform/desktop.js';

/**
 * Apps go on changing a moment after the input that caused it: a search field re-filters its view about
 * 150 ms after the last key (GTK's search entry waits that long on purpose), a click starts a timer. The
 * reading after an action waits until the app has been quiet this long, so such a change lands in the diff.
 */
export const SETTLE_QUIET_MS = 250;
/** An app that never stops (an animation, a clock) is read after this long all the same. */
export const SETTLE_MAX_MS = 1500;

/**
 * Waits until the watched app has sent nothing for SETTLE_QUIET_MS, at most SETTLE_MAX_MS; returns the
 * milliseconds waited. An app that sent nothing since the watch began is not waited for at all: with no
 * change under way there is nothing to wait for. A cancel (`signal`) ends the wait at once.
 */
export async function settle(watch: ChangeWatch, signal?: AbortSignal): Promise<number> {
  const started = Date.now();
  const deadline = started + SETTLE_MAX_MS;
  const aborted = signal ? new Promise<undefined>((resolve) => signal.addEventListener('abort', () => resolve(undefined), { once: true })) : undefined;
  for (;;) {
    const last = watch.lastChangeAt;
    const now = Date.now();
    if (last === undefined || signal?.aborted) return now - started;
    const quietFor = now - last;
    if (quietFor >= SETTLE_QUIET_MS || now >= deadline) return now - started;
    const next = watch.next(Math.min(SETTLE_QUIET_MS - quietFor, deadline - now));
    // Nothing within the rest of the quiet window (or the deadline, or a cancel, or a closed watch): done.
    if ((await (aborted ? Promise.race([next, aborted]) : next)) === undefined) return Date.now() - started;
  }
}
