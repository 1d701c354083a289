import { ToolError } from '../../errors.js';
import { findTool, type AnyTool } from '../registry.js';
import { maxWaitMs, STEP_TOOLS, waitStepInput, windowReference, type StepInput } from './step-schema.js';
import { escapeGuardWatchdogMs } from './cancellation.js';
import { formatArgumentErrors } from '../validation.js';
import { parseDesktopSelector } from '../perception/desktop-selector.js';
import { MAX_WAIT_FOR_TIMEOUT_MS } from '../perception/wait-for.js';


/** A step ready to run: its tool (undefined for `wait`) and its arguments with the plan's defaults filled in. */
export interface PreparedStep {
  index: number;
  tool: string;
  definition?: AnyTool;
  arguments: Record<string, unknown>;
  /** The index of the earlier step whose window this step acts in (window_id {"from_step": N}); its window_id and pid are filled in when it runs. */
  windowFrom?: number;
}

interface PlanDefaults {
  pid?: number;
  window_id?: number;
  /** How long a step's selector may wait to match, for steps that give a selector and no wait of their own. */
  selector_timeout_ms?: number;
}

/**
 * Every step checked before any runs: a step naming a tool a plan may not run, or arguments its schema refuses,
 * fails the whole plan with invalid_arguments naming the step, and nothing is sent. What only the desktop can
 * tell (an element index a previous step's snapshot will define) is checked when the step runs.
 */
export function prepareSteps(steps: readonly StepInput[], defaults: PlanDefaults): PreparedStep[] {
  checkStepWait({ selector_timeout_ms: defaults.selector_timeout_ms }, 'the plan\'s', undefined);
  return steps.map((step, index) => {
    const where = `steps[${index}]`;
    if (!(STEP_TOOLS as readonly string[]).includes(step.tool)) {
      throw new ToolError(`${where}.tool "${step.tool}" cannot run in a plan; a step is one of: ${STEP_TOOLS.join(', ')}`, 'invalid_arguments', { step: index });
    }
    const given = step.arguments ?? {};
    if (step.tool === 'wait') {
      const parsed = waitStepInput.safeParse(given);
      if (!parsed.success) throw new ToolError(`${where}: ${formatArgumentErrors('wait', parsed.error, given, waitStepInput)}`, 'invalid_arguments', { step: index });
      return { index, tool: 'wait', arguments: parsed.data };
    }
    // Every step tool but wait is a registered tool (test/unit/plan-steps checks it).
    const definition = findTool(step.tool)!;
    const shape = definition.input.shape as Record<string, unknown>;
    const args: Record<string, unknown> = { ...given };
    checkSelector(args.selector, where, index);
    checkStepWait(args, where, index);
    if (args.selector !== undefined && args.selector_timeout_ms === undefined && defaults.selector_timeout_ms !== undefined && 'selector_timeout_ms' in shape) {
      args.selector_timeout_ms = defaults.selector_timeout_ms;
    }
    const windowFrom = referencedStep(given.window_id, index, steps, where);
    if (windowFrom !== undefined) {
      // Known when the step runs: checked here with stand-ins, so a step's other arguments are still refused before anything is sent.
      delete args.window_id;
      const standIns = { window_id: 1, ...(args.pid === undefined || args.pid === null ? { pid: 0 } : {}) };
      if (args.pid === null) delete args.pid;
      const parsed = definition.input.safeParse({ ...args, ...standIns });
      if (!parsed.success) {
        throw new ToolError(`${where}: ${formatArgumentErrors(definition.name, parsed.error, { ...args, ...standIns }, definition.input)}`, 'invalid_arguments', { step: index });
      }
      return { index, tool: definition.name, definition, arguments: args, windowFrom };
    }
    // The plan's target fills in what the step leaves out, for tools that take it at all; an element_token
    // names its own window, and so does a window_id of the step's own, whose pid is that window's (the plan's pid
    // with another app's window was pid_mismatch). A null pid or window_id is the step saying "not the plan's": it
    // is dropped, not filled in, so a step for a window the plan opened (a dialog, reached by its pid) is not sent
    // to the plan's.
    const ownWindow = typeof args.window_id === 'number';
    for (const key of ['pid', 'window_id'] as const) {
      if (args[key] === null) delete args[key];
      else if (args.element_token === undefined && !ownWindow && defaults[key] !== undefined && key in shape && args[key] === undefined && !onlyTitled(step.tool, args)) args[key] = defaults[key];
    }
    const parsed = definition.input.safeParse(args);
    if (!parsed.success) {
      throw new ToolError(`${where}: ${formatArgumentErrors(definition.name, parsed.error, args, definition.input)}`, 'invalid_arguments', { step: index });
    }
    return { index, tool: definition.name, definition, arguments: args };
  });
}

/**
 * A step's selector parsed before any step runs: a typo in a later step's selector (an unknown field or role, an
 * unclosed quote) would otherwise be found only once the earlier steps had acted, leaving the app half-way through
 * what the plan meant to do. A selector that is no string is left to the schema check.
 */
function checkSelector(selector: unknown, where: string, index: number): void {
  if (typeof selector !== 'string') return;
  try {
    parseDesktopSelector(selector);
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    throw new ToolError(`${where}.selector: ${error.message}; no step ran`, error.code, { ...error.details, step: index });
  }
}

/**
 * A step's own wait (wait_for's timeout_ms, an action's selector_timeout_ms) no longer than a plan's `wait` may be:
 * the plan is stopped when its Escape guard's watchdog runs out, so a longer one was accepted and then cut there,
 * the step saying it was cancelled. Refused before anything runs, saying what works instead.
 */
function checkStepWait(args: Record<string, unknown>, where: string, index: number | undefined): void {
  for (const key of ['timeout_ms', 'selector_timeout_ms'] as const) {
    const ms = args[key];
    if (typeof ms !== 'number' || ms <= maxWaitMs) continue;
    throw new ToolError(
      `${where}${index === undefined ? ' ' : '.'}${key} ${ms} is longer than a step may wait: a plan is stopped ${escapeGuardWatchdogMs / 1000} s after it starts (its Escape guard's watchdog), so a step waits at most ${maxWaitMs} ms; ` +
        `wait longer with wait_for in a call of its own (up to ${MAX_WAIT_FOR_TIMEOUT_MS} ms), then run the rest of the plan. No step ran`,
      'invalid_arguments',
      index === undefined ? {} : { step: index },
    );
  }
}

/**
 * A wait_for step with no selector waits for a window title, which the window only scopes a selector for: given the
 * plan's window it would fail (window_not_found) when an earlier step closed that window, as clicking a dialog's
 * OK does before the plan waits for the dialog to be gone. Nor is it given the plan's pid, which would keep the title
 * to that process's windows: a plan waits for another app's window too (a zenity question), and a step names the pid
 * whose windows alone it means.
 */
function onlyTitled(tool: string, args: Record<string, unknown>): boolean {
  return tool === 'wait_for' && args.selector === undefined;
}

/**
 * The step a window_id reference names, as an absolute index; undefined when window_id is no reference. Refused
 * before anything runs: a reference to this step or a later one (not run yet), out of range, to a wait step
 * (which produces no window), or of another shape.
 */
function referencedStep(value: unknown, index: number, steps: readonly StepInput[], where: string): number | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const parsed = windowReference.safeParse(value);
  if (!parsed.success) {
    throw new ToolError(`${where}.window_id: ${JSON.stringify(value)} is no window id and no reference; a reference is {"from_step": N}, N an earlier step's index (or -1 for the step before)`, 'invalid_arguments', { step: index });
  }
  const given = parsed.data.from_step;
  const step = given < 0 ? index + given : given;
  if (step < 0 || step >= index) {
    throw new ToolError(
      `${where}.window_id {"from_step": ${given}} names ${step < 0 ? 'no step' : `step ${step}`}; a step can only use the window of an earlier step, which has run by then (${index === 0 ? 'the first step has none' : `0..${index - 1}, or -1..-${index}`})`,
      'invalid_arguments',
      { step: index },
    );
  }
  if (steps[step]!.tool === 'wait') {
    throw new ToolError(`${where}.window_id {"from_step": ${given}} names step ${step}, a wait, which produces no window; name the step that opens or waits for the window`, 'invalid_arguments', { step: index });
  }
  return step;
}
