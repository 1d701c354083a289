import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { actionResult, selectorTimeoutArgument } from '../input/schemas.js';
import { matchLine, type MatchResult } from '../perception/element-matches.js';
import { pidArgument, windowIdArgument } from '../schemas.js';
import { resolveWindow } from '../perception/window-records.js';
import { defineTool } from '../tool.js';
import { escapeGuardWatchdogMs, PlanCancellation } from './cancellation.js';
import { beginPlanDiff } from './plan-diff.js';
import { cancelFields, cancelResult, failureDetail, runSteps, stepEntry, type StepEntry } from './run-steps.js';
import { maxWaitMs, STEP_TOOLS, stepInput } from './step-schema.js';
import { prepareSteps } from './steps.js';

const maxSteps = 50;
/** A step's selector waits this long by default for what an earlier step makes appear (a row added, a dialog's button). */
const DEFAULT_STEP_SELECTOR_TIMEOUT_MS = 5000;

/** A find_elements or wait_for step's matches shown under its line, at most this many. */
const SHOWN_MATCHES = 10;

/**
 * A step's line, and under a find_elements or wait_for step the elements it matched, as the tool alone prints them:
 * a plan that ends by reading what it did (the field's value after typing) told a client that reads the text only
 * how many elements matched, not their values, states or tokens.
 */
function stepLine(entry: StepEntry): string {
  const matches = entry.ok && (entry.tool === 'find_elements' || entry.tool === 'wait_for') && Array.isArray(entry.result?.matches) ? (entry.result.matches as MatchResult[]) : [];
  const shown = matches.slice(0, SHOWN_MATCHES).map((match) => `\n    ${matchLine(match)}`).join('');
  const more = matches.length > SHOWN_MATCHES ? `\n    and ${matches.length - SHOWN_MATCHES} more (in the step's structured result)` : '';
  return `[${entry.index}] ${entry.tool}: ${entry.summary}${failureDetail(entry)}${shown}${more}`;
}

/**
 * What a stop on a failed step left undone. Steps count from 0, as the entries do: "step 3 failed; stopped after 4 of 4
 * steps" read as if a fifth had been held back, where the failed step was the last and nothing was stopped.
 */
function stoppedTail(failedAt: number, total: number): string {
  const left = total - failedAt - 1;
  return left === 0 ? `it was the last of the ${total} steps` : `the ${left === 1 ? 'step' : `${left} steps`} after it ${left === 1 ? 'was' : 'were'} not run (${failedAt + 1} of ${total} ran)`;
}

/**
 * The window every step names by number, when the plan names none: that plan works on one window all the same, and
 * its diff is that window's. A new user's three steps in GNOME Calendar's event dialog, each naming its window_id, read
 * "no diff: the plan names no window". Undefined when a step names another, or none of its own (a from_step, a pid).
 */
function stepsWindow(steps: readonly { arguments?: Record<string, unknown> }[]): number | undefined {
  const named = new Set(steps.map((step) => step.arguments?.window_id));
  const [only] = named;
  return named.size === 1 && typeof only === 'number' ? only : undefined;
}

export const runActions = defineTool({
  name: 'run_actions',
  capability: 'input',
  title: 'Run several actions in one call',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description:
    `Run steps in order inside one call: each step is {tool, arguments} with tool one of ${STEP_TOOLS.join(', ')} ` +
    '(wait takes {ms}). pid and window_id default to the plan\'s for every step whose tool takes them (a plan given only window_id gives its steps that window\'s pid) (a wait_for without selector takes neither: it waits for a title of any app\'s window, or of pid\'s windows alone when the step gives pid); a step\'s window_id (or pid) of null ' +
    'means "not the plan\'s", for a step aimed elsewhere (a dialog an earlier step opened, by its pid, with window_id: null); an element_index in a later step ' +
    'refers to the latest snapshot, which an earlier step (wait_for, find_elements) may have refreshed. For a window an earlier step produced ' +
    '(a dialog it opened, the window a wait_for matched by window_title), a step gives window_id {"from_step": N} (-1: the step before) and ' +
    'selector instead of element_index, e.g. [click {selector: "role=button name=\'Save As…\'"}, wait_for {window_title: "Save As"}, ' +
    'type_text {window_id: {from_step: 1}, selector: "role=textbox name=\'Name:\'", text: "a.txt"}, click {window_id: {from_step: 1}, selector: "role=button name=Save"}]; ' +
    'resolved when the step runs (no_step_window when that step produced none or several). A step\'s selector waits for its element to ' +
    'appear (selector_timeout_ms, default 5000), so a step may act on what the step before makes appear; a step waits at most ' +
    `${maxWaitMs} ms (wait ms, wait_for timeout_ms, selector_timeout_ms), as a plan is stopped ${escapeGuardWatchdogMs / 1000} s after it starts. All steps' arguments are checked ` +
    'before the first runs. With stop_on_error (default true) the plan stops at the first failed step: an error, or an action that sent nothing (path none, error not_delivered; not one confirmed as already so, such as set_value of the value held). The result has one entry per step ' +
    'that ran (its summary, effect and error), completed_steps, one diff over the plan (read once the app has settled), the windows ' +
    'its steps opened (new_windows, with their trees) and the app\'s other windows they changed (other_windows_changed). The plan stops within ms when the caller cancels ' +
    '(MCP notifications/cancelled, Ctrl-C on the CLI) or the person at the machine presses Escape, also in the middle of a step typing ' +
    'text or repeating a key (its result then says typed_chars or key_presses); nothing more is sent and the result ' +
    'says cancelled, why (client, escape_key, watchdog: the Escape guard is released after 30 s and the plan with it) and which steps ran.',
  input: z.strictObject({
    pid: pidArgument.optional(),
    window_id: windowIdArgument.optional(),
    steps: z.array(stepInput).min(1).max(maxSteps).describe(`The steps, at most ${maxSteps}.`),
    stop_on_error: z.boolean().optional().describe('Stop at the first step that fails (default true); false runs every step and reports each.'),
    diff: z.boolean().optional().describe('Default true: one diff of the plan\'s window from before the first step to after the last (needs pid or window_id, or every step naming the same window_id); false skips it.'),
    // The bound a step's wait has in a plan, not a lone call's: the schema said 50000 and the handler refused over 25000.
    selector_timeout_ms: selectorTimeoutArgument
      .max(maxWaitMs)
      .default(DEFAULT_STEP_SELECTOR_TIMEOUT_MS)
      .describe(
        `How long a step's selector waits for an element to match (an element an earlier step makes appear), unless the step gives its own ` +
          `selector_timeout_ms; default ${DEFAULT_STEP_SELECTOR_TIMEOUT_MS}, 0 fails at once, at most ${maxWaitMs} (a plan is stopped ${escapeGuardWatchdogMs / 1000} s after it starts).`,
      ),
  }),
  output: z.object({
    steps: z.array(stepEntry),
    completed_steps: z.number(),
    total_steps: z.number(),
    failed_steps: z.number(),
    stopped_at_step: z.number().optional(),
    ...cancelFields,
    ...actionResult.pick({ snapshot_id: true, diff: true, diff_file: true, diff_unavailable: true, new_windows: true, other_windows_changed: true }).shape,
    elapsed_ms: z.number(),
  }),
  async handle(args, context) {
    const started = performance.now();
    // A plan given its window alone gives its steps that window's pid too: wait_for and find_elements take a pid.
    const pid = args.pid ?? (args.window_id === undefined ? undefined : (await resolveWindow(context, args.window_id)).pid);
    const defaults = { pid, window_id: args.window_id };
    const steps = prepareSteps(args.steps, { ...defaults, selector_timeout_ms: args.selector_timeout_ms });
    const planDiff = await beginPlanDiff(context, { ...defaults, ...(pid === undefined ? { window_id: stepsWindow(args.steps) } : {}), diff: args.diff });
    let run;
    let cancel;
    let compared;
    try {
      const cancellation = await PlanCancellation.start(context);
      try {
        run = await runSteps(context, steps, cancellation, args.stop_on_error ?? true);
      } finally {
        cancellation.end();
      }
      cancel = cancelResult(cancellation);
      compared = await planDiff.finish([], cancellation.signal);
    } finally {
      planDiff.close();
    }
    const completed = run.entries.filter((entry) => !entry.cancelled).length;
    const failed = run.entries.filter((entry) => !entry.ok).length;
    const total = steps.length;
    // A step cancelled before its turn in its app's line came sent nothing: "after 0 of 3 steps" said nothing of why.
    const inLine = run.entries.find((entry) => entry.cancelled && entry.waited_in_line);
    const summary = cancel.cancelled
      ? inLine
        ? `⏹️ run_actions cancelled (${cancel.cancel_reason}) while ${inLine.index === 0 ? 'its first step' : `step ${inLine.index}`} waited for the app's earlier action to end; nothing of it was sent` +
          (completed > 0 ? ` (${completed} of ${total} steps ran before)` : '')
        : `⏹️ run_actions cancelled (${cancel.cancel_reason}) after ${completed} of ${total} steps; stopped ${cancel.cancel_latency_ms} ms after the cancel`
      : run.stoppedAt !== undefined
        ? `⚠️ run_actions: step ${run.stoppedAt} (${steps[run.stoppedAt]!.tool}) failed${run.entries.at(-1)?.error ? ` [${run.entries.at(-1)!.error!.code}]` : ''}; ${stoppedTail(run.stoppedAt, total)}`
        : failed > 0
          ? `⚠️ run_actions: ${completed} of ${total} steps ran, ${failed} failed`
          : `✅ run_actions: ${completed} of ${total} steps ran`;
    return {
      summary,
      body: [...run.entries.map(stepLine), ...compared.lines].join('\n'),
      structured: {
        steps: run.entries,
        completed_steps: completed,
        total_steps: total,
        failed_steps: failed,
        ...(run.stoppedAt !== undefined ? { stopped_at_step: run.stoppedAt } : {}),
        ...cancel,
        ...compared.fields,
        elapsed_ms: Math.round(performance.now() - started),
      },
    };
  },
});
