import { performance } from 'node:perf_hooks';
import type { ToolContext } from '../context.js';

/** Who stopped a plan: the caller (MCP notifications/cancelled, Ctrl-C), the person at the machine, or the guard's watchdog. */
export type CancelReason = 'client' | 'escape_key' | 'watchdog';

/**
 * How long the Escape guard stays armed. Read literally, issue 10's "a watchdog releases the guard after
 * 30 s": when it does, the plan is cancelled with `watchdog` rather than left running where the person can no
 * longer stop it with Escape; nothing is sent unguarded.
 */
export const escapeGuardWatchdogMs = 30_000;

/** Who stopped a plan, in the words a step it cut ends its own message with. */
const stoppedBy: Record<CancelReason, string> = {
  client: 'by the caller',
  escape_key: 'by Escape pressed on the keyboard',
  watchdog: `by the plan's watchdog (a plan is stopped ${escapeGuardWatchdogMs / 1000} s after it starts; wait longer in a call of its own)`,
};

/** The abort reason of a plan's signal: a step it cut (a wait_for) says who stopped the plan, where it had said "the caller" for Escape and the watchdog too. */
class PlanCancelled extends Error {
  constructor(readonly by: CancelReason) {
    super(`cancelled ${stoppedBy[by]}`);
  }
}

/** Who cancelled a call, from its signal: the plan's reason for a plan's step, else the caller (MCP notifications/cancelled, Ctrl-C). */
export function cancelledBy(signal: AbortSignal | undefined): string {
  const reason: unknown = signal?.reason;
  return reason instanceof PlanCancelled ? stoppedBy[reason.by] : stoppedBy.client;
}

/**
 * One plan's stop switch: aborted by the caller's signal, by Escape on the real keyboard or by the watchdog,
 * whichever comes first. Steps run with `signal`, so waits inside them end at once; between steps the plan
 * checks `cancelled`. `end()` releases the guard and must be called however the plan ends.
 */
export class PlanCancellation {
  private readonly controller = new AbortController();
  private reasonGiven?: CancelReason;
  private cancelledAt?: number;
  private releaseGuard?: () => void;
  private ended = false;
  private readonly onCallerAbort = () => this.cancel('client');

  private constructor(private readonly caller: AbortSignal | undefined) {
    if (caller?.aborted) this.cancel('client');
    else caller?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  /** Arms the Escape guard for the length of the plan; a desktop that cannot watch the keyboard only loses that way to stop. */
  static async start(context: ToolContext): Promise<PlanCancellation> {
    const cancellation = new PlanCancellation(context.signal);
    try {
      const release = await context.desktop.guardEscape(
        { onEscape: () => cancellation.cancel('escape_key'), onWatchdog: () => cancellation.cancel('watchdog') },
        escapeGuardWatchdogMs,
      );
      if (cancellation.ended) release();
      else cancellation.releaseGuard = release;
    } catch (error) {
      context.log(`the Escape guard could not be armed (the plan runs without it): ${(error as Error).message}`);
    }
    return cancellation;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get cancelled(): boolean {
    return this.reasonGiven !== undefined;
  }

  get reason(): CancelReason | undefined {
    return this.reasonGiven;
  }

  /** Milliseconds from the cancel to now: how long the plan took to stop once told. */
  latencyMs(): number | undefined {
    return this.cancelledAt === undefined ? undefined : Math.round((performance.now() - this.cancelledAt) * 10) / 10;
  }

  cancel(reason: CancelReason): void {
    if (this.reasonGiven !== undefined || this.ended) return;
    this.reasonGiven = reason;
    this.cancelledAt = performance.now();
    this.controller.abort(new PlanCancelled(reason));
  }

  end(): void {
    this.ended = true;
    this.caller?.removeEventListener('abort', this.onCallerAbort);
    this.releaseGuard?.();
    this.releaseGuard = undefined;
  }
}

/** Waits `ms`, or less when `signal` aborts first; never rejects. */
export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
