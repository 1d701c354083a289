import { z } from 'zod';
import type { DeliveryMode } from '../../platform/targets.js';
import { pidArgument, sessionArgument, windowIdArgument } from '../schemas.js';

/** Arguments and results shared by the input tools (seed 001's cross-tool contract). */

export const deliveryModeArgument = z
  .string()
  .optional()
  .describe(
    'background (default): never raise or focus the target; act through accessibility, or synthetic X events where the toolkit accepts them. ' +
      'foreground: activate the window, inject real input (XTEST), then restore the previously active window and the pointer. Unknown values mean background.',
  );

export { sessionArgument } from '../schemas.js';
export const elementIndexArgument = z.number().int().nonnegative().describe('Element index ([eN] in get_window_state) of the latest snapshot of window_id in this session.');
export const elementTokenArgument = z
  .string()
  .regex(/^s[0-9a-z]+:\d+$/, 'an element token looks like "<snapshot_id>:<index>", e.g. "smx3k9a1f2:14"')
  .describe('"<snapshot_id>:<index>": names one element of one snapshot exactly, whatever happened since.');
export const modifierArgument = z.array(z.string()).optional().describe('Modifier keys held during the action: ctrl, shift, alt, super.');

/** Addressing an element or its window, shared by the keyboard, value and scroll tools. */
export const elementAddressing = {
  pid: pidArgument.optional(),
  window_id: windowIdArgument.optional(),
  element_index: elementIndexArgument.optional(),
  element_token: elementTokenArgument.optional(),
  session: sessionArgument,
};

/** Unknown or missing values fall back to background: the safe choice that never steals focus. */
export function deliveryMode(value: string | undefined): DeliveryMode {
  return value === 'foreground' ? 'foreground' : 'background';
}

export const escalationResult = z.object({
  recommended: z.enum(['px', 'foreground']),
  reason: z.string(),
});

/** The action response shape of seed 001: the rung that ran, what was seen, and what to try next. */
export const actionResult = z.object({
  path: z.string(),
  effect: z.enum(['confirmed', 'unverifiable', 'suspected_noop']),
  verified: z.boolean(),
  evidence: z.array(z.string()).optional(),
  escalation: escalationResult.optional(),
  delivery_mode: z.enum(['background', 'foreground']),
  /** The action call was sent and got no reply within this many ms (the app may be running a modal dialog). */
  no_reply_ms: z.number().optional(),
  /** The element lay outside its list's or page's visible part and was scrolled into view before the real input. */
  scrolled_into_view: z.boolean().optional(),
  /** Top-level windows of the target's app that appeared while the action ran (a dialog it opened). */
  new_windows: z.array(z.object({ window_id: z.number(), title: z.string(), pid: z.number() })).optional(),
  target: z
    .object({
      pid: z.number(),
      window_id: z.number(),
      element_index: z.number().optional(),
      snapshot_id: z.string().optional(),
      role: z.string().optional(),
      name: z.string().optional(),
      x: z.number().optional(),
      y: z.number().optional(),
    })
    .optional(),
});

export type ActionResult = z.infer<typeof actionResult>;
