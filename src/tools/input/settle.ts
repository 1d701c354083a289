import type { ChangeWatch } from '../../platform/desktop.js';

/** An app that never stops (an animation, a clock) is read after this long all the same. */
export const SETTLE_MAX_MS = 1500;
/** How soon an app silent for the quiet asked, but running or waiting for a processor, is looked at again. */
const starvedLookMs = 10;

/**
 * Apps go on changing a moment after the input that caused it: a search field re-filters its view about
 * 150 ms after the last key (GTK's search entry waits that long on purpose), a click starts a timer. The
 * reading after an action waits until the app has sent nothing for `quietMs` (the session's diff_settle_ms),
 * at most `maxMs` (SETTLE_MAX_MS), so such a change lands in the diff; returns the milliseconds waited. An app that sent nothing since the watch began is not waited for at all: with no
 * change under way there is nothing to wait for, unless `quietSince` (Date.now()) says when the quiet to wait for began
 * (a window just opened, whose app may not have started filling it). An app silent that long while running or waiting
 * for a processor (ChangeWatch.atWork: a loaded machine) is waited for still. A cancel (`signal`) ends the wait at once.
 */
export async function settle(watch: ChangeWatch, quietMs: number, signal?: AbortSignal, maxMs = SETTLE_MAX_MS, quietSince?: number): Promise<number> {
  // No settle asked: nothing is waited, whatever the clock does between two readings of it on a loaded machine.
  if (quietMs <= 0) return 0;
  const started = Date.now();
  const deadline = started + maxMs;
  const aborted = signal ? new Promise<undefined>((resolve) => signal.addEventListener('abort', () => resolve(undefined), { once: true })) : undefined;
  // Until the first wait, nothing was waited, however far the clock moved between two readings on a loaded machine.
  let waited = false;
  const waitedMs = () => (waited ? Date.now() - started : 0);
  for (;;) {
    const last = watch.lastChangeAt ?? quietSince;
    const now = Date.now();
    if (last === undefined || signal?.aborted) return waitedMs();
    const quietFor = now - last;
    if (now >= deadline) return waitedMs();
    // Silent while it waits for the processor is not quiet: looked at again a moment later.
    const starved = quietFor >= quietMs && watch.atWork();
    if (quietFor >= quietMs && !starved) return waitedMs();
    waited = true;
    const next = watch.next(Math.min(starved ? starvedLookMs : quietMs - quietFor, deadline - now));
    if ((await (aborted ? Promise.race([next, aborted]) : next)) !== undefined) continue;
    if (signal?.aborted) return waitedMs();
    // Nothing within the rest of the quiet window (the watch reads the I/O that came as it ran out), or the deadline,
    // or a closed watch: done, unless a change of the window list came meanwhile, or the app is at work still.
    if (watch.lastChangeAt === last && !watch.atWork()) return waitedMs();
  }
}

/**
 * Between a plan's steps: the quiet an action waits for after its effect when another step follows, and how long
 * at most. The next step must find the app done with what the last one set off (a search field re-filters 150 ms
 * after its last key: a step reading or clicking its results right away met the unfiltered list); a clock that never
 * stops costs a step this much at most. The seed's plans leave 100 ms between input events.
 */
export const STEP_SETTLE = { quietMs: 200, maxMs: 600 };
