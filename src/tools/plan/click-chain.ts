import { z } from 'zod';
import { ToolError } from '../../errors.js';
import type { ToolContext } from '../context.js';
import type { ActionResult } from '../input/schemas.js';
import type { ToolOutput } from '../tool.js';
import { PlanCancellation } from './cancellation.js';
import { parseElementToken } from '../perception/window-snapshot.js';
import { beginPlanDiff } from './plan-diff.js';
import { cancelFields, cancelResult, failureDetail, runSteps, stepEntry } from './run-steps.js';
import type { StepInput } from './step-schema.js';
import { prepareSteps } from './steps.js';

/** The seed's chaining arguments of the click tools: what to type and which key to press after the click. */
export const chainArguments = {
  text: z.string().min(1).max(100_000).optional().describe('Type this after the click (into the clicked element, or the window\'s focused one after a point click).'),
  press_key: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe('Press this key last, e.g. "return", or with modifiers "ctrl+s". Click, type and press run in one call with one diff, and stop at a cancel or Escape.'),
};

export const chainResult = {
  /** The typing and the key press after the click, one entry each, as run_actions reports steps. */
  chain: z.array(stepEntry).optional(),
  cancelled: cancelFields.cancelled.optional(),
  cancel_reason: cancelFields.cancel_reason,
  cancel_latency_ms: cancelFields.cancel_latency_ms,
  // diff is the action result's own (src/tools/input/schemas.ts): one field, one shape, chained or not.
};

interface ChainArgs {
  pid?: number;
  window_id?: number;
  element_index?: number;
  element_token?: string;
  delivery_mode?: string;
  text?: string;
  press_key?: string;
  diff?: boolean;
}

/** "ctrl+s" is s with ctrl held; a lone "+" is the key itself. */
function splitKey(combination: string): { key: string; modifiers: string[] } {
  const parts = combination.length > 1 ? combination.split('+') : [combination];
  if (parts.some((part) => part === '')) return { key: combination, modifiers: [] };
  return { key: parts.at(-1)!, modifiers: parts.slice(0, -1) };
}

/** The steps after the click, aimed where the click was: the same element, or the window for a point click. */
function followUps(args: ChainArgs): StepInput[] {
  const target: Record<string, unknown> =
    args.element_token !== undefined
      ? { element_token: args.element_token }
      : { pid: args.pid, window_id: args.window_id, ...(args.element_index !== undefined ? { element_index: args.element_index } : {}) };
  if (args.delivery_mode !== undefined) target.delivery_mode = args.delivery_mode;
  const defined = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
  return [
    ...(args.text !== undefined ? [{ tool: 'type_text', arguments: defined({ ...target, text: args.text }) }] : []),
    ...(args.press_key !== undefined ? [{ tool: 'press_key', arguments: defined({ ...target, ...splitKey(args.press_key) }) }] : []),
  ];
}

/**
 * Click, then type, then press, inside one call (seed 004): one diff from before the click to after the key,
 * a cancellation checkpoint before each part, and the Escape guard armed throughout.
 */
export async function runClickChain<R extends ActionResult>(
  context: ToolContext,
  args: ChainArgs,
  click: () => Promise<ToolOutput<R>>,
): Promise<ToolOutput<R & Record<string, unknown>>> {
  const steps = prepareSteps(followUps(args), {});
  // The clicked window: named, or the one whose snapshot the element token comes from.
  const tokenWindow = args.element_token === undefined ? undefined : context.state.snapshots.get(parseElementToken(args.element_token).snapshotId)?.windowId;
  const planDiff = await beginPlanDiff(context, { pid: args.pid, window_id: args.window_id ?? tokenWindow, diff: args.diff });
  let clicked: ToolOutput<R>;
  let run;
  let cancel;
  let compared;
  try {
    const cancellation = await PlanCancellation.start(context);
    try {
      if (cancellation.cancelled) throw new ToolError('the click was cancelled before it was sent; nothing was sent', 'cancelled');
      clicked = await click();
      // A click that sent nothing focused nothing: what would be typed next would go wherever the focus is.
      run = clicked.structured.path === 'none' ? { entries: [] } : await runSteps(context, steps, cancellation, true);
    } finally {
      cancellation.end();
    }
    cancel = cancelResult(cancellation);
    // The click's own result names the windows it opened; the chain adds those the typing or the key opened.
    compared = await planDiff.finish((clicked.structured.new_windows ?? []).map((window) => ({ id: window.window_id, pid: window.pid })), cancellation.signal);
  } finally {
    planDiff.close();
  }
  const notRun = steps.slice(run.entries.length).map((step) => step.tool);
  const tail = [
    ...run.entries.map((entry) => `${entry.tool} ${entry.ok ? (entry.effect ?? 'ok') : `failed [${entry.error?.code}]`}`),
    ...(cancel.cancelled ? [`cancelled (${cancel.cancel_reason})${notRun.length ? `: ${notRun.join(', ')} not sent` : ''}`] : []),
    ...(!cancel.cancelled && notRun.length ? [`${notRun.join(', ')} not sent${run.entries.length === 0 && clicked.structured.path === 'none' ? ' (the click sent nothing)' : ''}`] : []),
  ];
  return {
    summary: `${clicked.summary}; then ${tail.join(', ')}`,
    body: [clicked.body, ...run.entries.map((entry) => `[${entry.tool}] ${entry.summary}${failureDetail(entry)}`), ...compared.lines].filter(Boolean).join('\n') || undefined,
    // The chain's diff spans click, typing and key (the click itself ran without one).
    structured: {
      ...clicked.structured,
      chain: run.entries,
      ...cancel,
      ...compared.fields,
      ...(clicked.structured.new_windows || compared.fields.new_windows ? { new_windows: [...(clicked.structured.new_windows ?? []), ...(compared.fields.new_windows ?? [])] } : {}),
    },
  };
}
