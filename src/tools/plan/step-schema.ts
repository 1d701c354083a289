import { z } from 'zod';

// What a plan step is, apart from the registry: run_actions' schema is built from it when the registry loads.

/** The tools a plan step may name: every action, the waits and finds that let later steps see what earlier ones did, and `wait`. */
export const STEP_TOOLS = [
  'click',
  'double_click',
  'right_click',
  'type_text',
  'press_key',
  'hotkey',
  'set_value',
  'scroll',
  'drag',
  'hover',
  'move_cursor',
  'wait_for',
  'find_elements',
  'wait',
] as const;

/** A plan's own pause; long enough for an app to load, short of the Escape guard's watchdog. */
export const maxWaitMs = 25_000;

export const waitStepInput = z.strictObject({
  ms: z.number().int().min(0).max(maxWaitMs).describe(`Milliseconds to pause (at most ${maxWaitMs}); ends at once when the plan is cancelled.`),
});

export const stepInput = z.strictObject({
  tool: z.string().min(1).describe(`One of: ${STEP_TOOLS.join(', ')}.`),
  arguments: z.record(z.string(), z.unknown()).optional().describe('The tool\'s arguments; pid and window_id default to the plan\'s, and null for either means "not the plan\'s" (the step then names its own target, e.g. a dialog the plan opened by its pid).'),
});

export type StepInput = z.infer<typeof stepInput>;
