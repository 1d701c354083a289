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
  'invoke_menu',
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
  arguments: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      'The tool\'s arguments; pid and window_id default to the plan\'s, and null for either means "not the plan\'s" (the step then names its own target, e.g. a dialog the plan opened by its pid). ' +
        'window_id {"from_step": N} is the window step N produced (a dialog an action opened, the window a wait_for matched; N < 0 counts back, -1 the step before), with its pid; ' +
        'with selector instead of element_index the step\'s element is found in it when the step runs.',
    ),
});

/**
 * A step's window named by an earlier step: the window that step produced, known only once it ran (a dialog a
 * click opened). `from_step` is a step index, or counts back from this step when negative.
 */
export const windowReference = z.strictObject({
  from_step: z.number().int().describe('The index of an earlier step (0 is the first), or a negative count back from this step (-1: the step before).'),
});

export type StepInput = z.infer<typeof stepInput>;
