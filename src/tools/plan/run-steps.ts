import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { ToolError } from '../../errors.js';
import { errorCodeOf, failureResult, type ToolCallResult } from '../call-result.js';
import type { ToolContext } from '../context.js';
import { STEP_SETTLE } from '../input/settle.js';
import { runTool } from '../run.js';
import { abortableDelay, type PlanCancellation } from './cancellation.js';
import type { PreparedStep } from './steps.js';
import { stepWindow } from './step-windows.js';

export const stepEntry = z.object({
  index: z.number(),
  tool: z.string(),
  ok: z.boolean(),
  /** The step's own one-line summary. */
  summary: z.string(),
  /** For actions: the verdict and the rung, as the tool alone would report them. */
  effect: z.string().optional(),
  path: z.string().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  /**
   * Set when the cancel cut this step short: a wait, or an action whose input was still being sent or read back
   * (its result says how much went, e.g. typed_chars). An action the cancel found finished is not marked.
   */
  cancelled: z.boolean().optional(),
  /** With cancelled: the cancel came while the step waited its turn behind its app's earlier action, so none of it was sent. */
  waited_in_line: z.boolean().optional(),
  /** For a step whose window_id named an earlier step ({"from_step": N}): the window that was, when this step ran. */
  window_from_step: z.object({ from_step: z.number(), window_id: z.number(), pid: z.number() }).optional(),
  elapsed_ms: z.number(),
  /** The step's structured result (find_elements' matches, an action's evidence). */
  result: z.record(z.string(), z.unknown()).optional(),
});

export type StepEntry = z.infer<typeof stepEntry>;

export const cancelFields = {
  cancelled: z.boolean(),
  cancel_reason: z.enum(['client', 'escape_key', 'watchdog']).optional(),
  /** Milliseconds from the cancel to the plan's stop. */
  cancel_latency_ms: z.number().optional(),
};

export interface StepsRun {
  entries: StepEntry[];
  /** The index of the failed step the run stopped at (stop_on_error). */
  stoppedAt?: number;
}

async function waitStep(step: PreparedStep, signal: AbortSignal): Promise<{ result: ToolCallResult; cut: boolean; window?: undefined }> {
  const ms = step.arguments.ms as number;
  const started = performance.now();
  await abortableDelay(ms, signal);
  const waited = Math.round(performance.now() - started);
  const cut = signal.aborted && waited < ms;
  return { result: { ok: true, summary: cut ? `⏹️ waited ${waited} of ${ms} ms (cancelled)` : `✅ waited ${ms} ms`, images: [], structured: { waited_ms: waited } }, cut };
}

/**
 * Why an action that answered without an error sent nothing (its path is none: typing at a button in the
 * background), or undefined when it sent its input. A later step counts on the earlier ones having happened (a
 * Return after typing submits the form with its old text), so such a step fails the plan as an error does; one
 * that was sent and showed no effect (suspected_noop on a real path) may have worked unseen, and the plan goes on.
 */
function undelivered(result: ToolCallResult): string | undefined {
  // Nothing sent and confirmed is what the step asked for, already so (set_value of the value held): no failure.
  if (!result.ok || result.structured.path !== 'none' || result.structured.effect === 'confirmed') return undefined;
  const escalation = result.structured.escalation as { reason?: unknown } | undefined;
  if (typeof escalation?.reason !== 'string') return 'nothing was sent';
  // Most reasons say it themselves ("...; nothing was sent: retry with ...").
  return escalation.reason.includes('nothing was sent') ? escalation.reason : `nothing was sent: ${escalation.reason}`;
}

/**
 * A failed step's error on a line of its own under the step's line, when its one-line summary does not hold it
 * ("⚠️ hotkey: not delivered" says neither why nor what to try); empty for a step that did not fail.
 */
export function failureDetail(entry: StepEntry): string {
  return entry.error && !entry.summary.includes(entry.error.message) ? `\n    ${entry.error.code}: ${entry.error.message}` : '';
}

function entryOf(step: PreparedStep, result: ToolCallResult, elapsedMs: number, cut: boolean, window?: StepEntry['window_from_step']): StepEntry {
  const structured = result.structured;
  const notSent = undelivered(result);
  const code = notSent !== undefined ? 'not_delivered' : errorCodeOf(result);
  return {
    index: step.index,
    tool: step.tool,
    ok: result.ok && notSent === undefined,
    summary: result.summary.split('\n')[0]!,
    ...(typeof structured.effect === 'string' ? { effect: structured.effect } : {}),
    ...(typeof structured.path === 'string' ? { path: structured.path } : {}),
    ...(code !== undefined ? { error: { code, message: notSent ?? String(structured.message ?? result.summary) } } : {}),
    ...(cut ? { cancelled: true } : {}),
    ...(cut && structured.waited_in_line === true ? { waited_in_line: true } : {}),
    ...(window ? { window_from_step: window } : {}),
    elapsed_ms: Math.round(elapsedMs),
    ...(result.ok && step.tool !== 'wait' ? { result: structured } : {}),
  };
}

/** A tool step, in the window an earlier step produced when its window_id names one (resolved now, as it runs). */
async function toolStep(context: ToolContext, step: PreparedStep, entries: readonly StepEntry[]): Promise<{ result: ToolCallResult; cut: boolean; window?: StepEntry['window_from_step'] }> {
  if (step.windowFrom === undefined) return { result: await runTool(step.tool, step.arguments, context), cut: false };
  let window;
  try {
    window = await stepWindow(context, step, entries);
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    return { result: failureResult('tool', error.message, error.code, error.details), cut: false };
  }
  const args = { ...step.arguments, window_id: window.window_id, pid: step.arguments.pid ?? window.pid };
  return { result: await runTool(step.tool, args, context), cut: false, window };
}

/**
 * Runs the steps in order through the registry, in the caller's session, each with the plan's signal so its
 * waits end at a cancel. Between steps the plan stops at a cancel (nothing more is sent) and, with
 * `stopOnError`, at the first failed step: one that answered an error, or an action that sent nothing.
 */
export async function runSteps(context: ToolContext, steps: readonly PreparedStep[], cancellation: PlanCancellation, stopOnError: boolean): Promise<StepsRun> {
  const stepContext: ToolContext = { ...context, signal: cancellation.signal };
  const entries: StepEntry[] = [];
  for (const [position, step] of steps.entries()) {
    if (cancellation.cancelled) break;
    const started = performance.now();
    // A step another follows waits for its app to finish what it set off (the last one: the plan's diff settles).
    const followed = position < steps.length - 1 ? { ...stepContext, stepSettle: STEP_SETTLE } : stepContext;
    const { result, cut, window } = step.tool === 'wait' ? await waitStep(step, cancellation.signal) : await toolStep(followed, step, entries);
    const cancelled = cut || errorCodeOf(result) === 'cancelled' || result.structured.cancelled === true;
    const entry = entryOf(step, result, performance.now() - started, cancelled, window);
    entries.push(entry);
    if (!entry.ok && stopOnError && !cancellation.cancelled) return { entries, stoppedAt: step.index };
  }
  return { entries };
}

/** The cancel fields of a result: whether, why and how fast the plan stopped. */
export function cancelResult(cancellation: PlanCancellation): { cancelled: boolean; cancel_reason?: 'client' | 'escape_key' | 'watchdog'; cancel_latency_ms?: number } {
  if (!cancellation.cancelled) return { cancelled: false };
  return { cancelled: true, cancel_reason: cancellation.reason!, cancel_latency_ms: cancellation.latencyMs()! };
}
