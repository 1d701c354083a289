import { z } from 'zod';
import type { ActionOutcome } from '../../platform/action-outcome.js';
import type { DeliveryMode } from '../../platform/targets.js';
import { desktopSelectorArgument } from '../perception/desktop-selector.js';
import { pidArgument, windowIdArgument } from '../schemas.js';

/** Arguments and results shared by the input tools (seed 001's cross-tool contract). */

export const deliveryModeArgument = z
  .string()
  .optional()
  .describe(
    'background (default): never raise or focus the target; act through accessibility, or synthetic X events where the toolkit accepts them. ' +
      'foreground: activate the window, inject real input (XTEST), then restore the previously active window and the pointer. Unknown values mean background.',
  );

export const elementIndexArgument = z.number().int().nonnegative().describe('Element index ([eN] in get_window_state) of the latest snapshot of window_id in this session (with pid and no window_id: of the one window of that process read in this session).');
export const elementTokenArgument = z
  .string()
  .regex(/^s[0-9a-z]+:\d+$/, 'an element token looks like "<snapshot_id>:<index>", e.g. "smx3k9a1f2:14"')
  .describe('"<snapshot_id>:<index>": names one element of one snapshot exactly, whatever happened since.');
export const elementSelectorArgument = desktopSelectorArgument.describe(
  'Instead of element_index or element_token: a selector as in find_elements (e.g. role=textbox name="Name"), matched in window_id ' +
    '(or every window of pid) when the call runs; it must match exactly one element ([index=N] picks one of several). ' +
    'Lets a call (or a run_actions step) act on an element no snapshot has shown yet, e.g. in a dialog an earlier step opened.',
);

/** The longest wait for a selector to match, as wait_for's longest wait. */
export const MAX_SELECTOR_TIMEOUT_MS = 50_000;
export const selectorTimeoutArgument = z
  .number()
  .int()
  .min(0)
  .max(MAX_SELECTOR_TIMEOUT_MS)
  .describe(
    'With selector: wait up to this long (ms) for an element to match, as wait_for does (woken by the app\'s events), before nothing is sent ' +
      'with not_found. Default 0 in a call of its own; a run_actions step takes its plan\'s selector_timeout_ms (default 5000).',
  );

/** What the result says about an element chosen by selector: the selector and the element it named. */
export const selectedResult = z
  .object({
    selector: z.string(),
    element_token: z.string(),
    window_id: z.number(),
    index: z.number(),
    role: z.string(),
    name: z.string(),
  })
  .describe('The element the selector matched when the call ran (its token names it in that window\'s snapshot).');
export type Selected = z.infer<typeof selectedResult>;

export const modifierArgument = z.array(z.string()).optional().describe('Modifier keys held during the action: ctrl, shift, alt, super.');

/** Addressing an element or its window, shared by the keyboard, value and scroll tools. */
export const elementAddressing = {
  pid: pidArgument.optional(),
  window_id: windowIdArgument.optional(),
  element_index: elementIndexArgument.optional(),
  element_token: elementTokenArgument.optional(),
  selector: elementSelectorArgument.optional(),
  selector_timeout_ms: selectorTimeoutArgument.optional(),
};

/** Addressing a point of a window in screenshot (or zoom) pixels, shared by the pointer tools. */
export const pointAddressing = {
  x: z.number().optional().describe('Window-local screenshot X (pixels of the latest get_window_state screenshot).'),
  y: z.number().optional().describe('Window-local screenshot Y.'),
  from_zoom: z.boolean().optional().describe('x and y are pixels of the last zoom image of this pid.'),
};

/** Options every action tool takes (added to each tool's arguments with a spread, so the wording lives here once). */
export const actionOptions = {
  diff: z
    .boolean()
    .optional()
    .describe(
      'Default: read the window before and after the action and return what changed (diff), with the window\'s new snapshot_id, ' +
        'whose element indices the diff uses; skipped for a window whose last reading took over 700 ms (the result says so). ' +
        'true always reads; false skips both reads (faster) and keeps the current snapshot.',
    ),
};

/** Unknown or missing values fall back to background: the safe choice that never steals focus. */
export function deliveryMode(value: string | undefined): DeliveryMode {
  return value === 'foreground' ? 'foreground' : 'background';
}

export const escalationResult = z.object({
  recommended: z.enum(['px', 'foreground']),
  reason: z.string(),
});

const diffNode = z.object({ index: z.number(), role: z.string(), name: z.string(), value: z.string().optional(), states: z.array(z.string()).optional() });
const textChange = z.object({ from: z.string(), to: z.string() });

/** What changed in the target window's tree (src/cup/diff.ts), entries cut to the lines shown inline when it is long. */
export const diffResult = z.object({
  changed: z.array(
    diffNode.extend({
      changes: z.object({
        name: textChange.optional(),
        value: textChange.optional(),
        description: textChange.optional(),
        states: z.object({ added: z.array(z.string()), removed: z.array(z.string()) }).optional(),
        /** By the CUP envelope's attribute key (sort, level, valueMax, ...); a side is absent where the node lacked it. */
        attributes: z.record(z.string(), z.object({ from: z.union([z.string(), z.number(), z.boolean()]).optional(), to: z.union([z.string(), z.number(), z.boolean()]).optional() })).optional(),
      }),
    }),
  ),
  added: z.array(diffNode),
  /** Gone from the window: was_index is the index it had in the snapshot before the action. */
  removed: z.array(z.object({ was_index: z.number(), role: z.string(), name: z.string(), value: z.string().optional() })),
  moved: z.object({ count: z.number(), notable: z.array(diffNode.extend({ reparented: z.boolean() })) }),
  /** Pages a modal dialog opened over: their nodes left the tree while it is open (counted here, not removed). */
  inert: z.array(z.object({ dialog: diffNode, count: z.number() })).optional(),
  /** Pages back since the modal dialog over them closed (was_index: the dialog's old index): their nodes kept their old indices (counted here, not added). */
  back: z.array(z.object({ dialog: z.object({ was_index: z.number(), role: z.string(), name: z.string() }), count: z.number() })).optional(),
  counts: z.object({ changed: z.number(), added: z.number(), removed: z.number(), moved: z.number() }),
  /** Lines the whole diff has; truncated when only the first of them are inline (the rest are in diff_file). */
  lines: z.number(),
  truncated: z.boolean(),
  /** A reading stopped at its node limit or time budget: nodes past the cut may show as added or removed. */
  partial: z.boolean().optional(),
});

/** The action response shape of seed 001: the rung that ran, what was seen, and what to try next. */
export const actionResult = z.object({
  path: z
    .string()
    .describe(
      'The rung that delivered the action (seed 001\'s names): x11_atspi, through the app\'s accessibility interfaces (AT-SPI), in the background; ' +
        'key_events, X key events sent to the window, in the background; x11_pixel, synthetic X pointer events sent to the window, in the background; ' +
        'devtools, a web page\'s field through the browser\'s debugging connection; key_events_fg and x11_pixel_fg, real keys and pointer input (XTEST) ' +
        'with the window activated; key_events_grab, a real key to the app whose open menu holds the keyboard; none, nothing was sent.',
    ),
  effect: z.enum(['confirmed', 'unverifiable', 'suspected_noop']),
  verified: z.boolean(),
  evidence: z.array(z.string()).optional(),
  escalation: escalationResult.optional(),
  /**
   * The target's own read-back shows the action did not do what was asked (the typed text is not in the field):
   * other changes of the app meanwhile (a title marked modified) are in evidence and do not confirm it.
   */
  refuted: z.boolean().optional(),
  delivery_mode: z.enum(['background', 'foreground']),
  /** The action call was sent and got no reply within this many ms (the app may be running a modal dialog). */
  no_reply_ms: z.number().optional(),
  /** With no_reply_ms: the accessibility call that got no reply (DoAction, SelectChild, a text or value call). */
  no_reply_call: z.string().optional(),
  /**
   * With no_reply_ms: the window id of the app's dialog that opened while the call went unanswered; its toolkit runs
   * it inside the call and answers once it closes (the action's effect, not an app that hangs).
   */
  reply_held_by_dialog: z.number().optional(),
  /** The element lay outside its list's or page's visible part and was scrolled into view before the real input. */
  scrolled_into_view: z.boolean().optional(),
  /**
   * The call was cancelled (MCP notifications/cancelled, Ctrl-C, Escape or the watchdog in run_actions) while its
   * input was being sent or read back: nothing more was sent, held keys were released, and the window and pointer
   * were restored.
   */
  cancelled: z.boolean().optional(),
  /** With cancelled, type_text: the characters sent before the cancel (the app receives each of them). */
  typed_chars: z.number().optional(),
  /** With cancelled, press_key: the presses sent before the cancel. */
  key_presses: z.number().optional(),
  /** Top-level windows of the target's app that appeared while the action ran (a dialog it opened), each with its tree. */
  new_windows: z
    .array(
      z.object({
        window_id: z.number(),
        title: z.string(),
        /** Of a window with no title (title ""): the name its accessible top-level object has ("Warning"). */
        accessible_name: z.string().optional(),
        pid: z.number(),
        /** A dialog of the app: modal, or transient for another window. */
        dialog: z.boolean().optional(),
        /** Its compact tree, bounded; [eN] are element indices of snapshot_id (with this window_id). */
        tree: z.string().optional(),
        snapshot_id: z.string().optional(),
        /** Why there is no tree (the app did not expose one in time). */
        tree_error: z.string().optional(),
      }),
    )
    .optional(),
  /**
   * Other windows of the app (not new ones) whose trees the action changed, as far as the driver mirrors them
   * (windows read before): read them with get_window_state to see how.
   */
  other_windows_changed: z.array(z.object({ window_id: z.number(), title: z.string(), accessible_name: z.string().optional() })).optional(),
  /** How long the reading after the action waited for the app to stop changing (0: it sent nothing to wait for). */
  settled_ms: z.number().optional(),
  /** The snapshot the action took of the target window after it ran: the diff's indices are its element indices. */
  snapshot_id: z.string().optional(),
  diff: diffResult.optional(),
  /** The whole diff, one line per node, when it was too long to return inline. */
  diff_file: z.string().optional(),
  /** Why there is no diff (the window has no accessibility tree, or it closed). */
  diff_unavailable: z.string().optional(),
  selected: selectedResult.optional(),
  target: z
    .object({
      pid: z.number(),
      window_id: z.number(),
      element_index: z.number().optional(),
      snapshot_id: z.string().optional(),
      role: z.string().optional(),
      name: z.string().optional(),
      description: z.string().optional().describe('An unnamed element\'s description (tool tip, aria-describedby), which tells it apart.'),
      x: z.number().optional(),
      y: z.number().optional(),
    })
    .optional(),
});

export type ActionResult = z.infer<typeof actionResult>;

/**
 * What a backend's outcome carries for the tool layer beside the result's fields (ActionOutcome.unlisted), taken out
 * before the result is returned.
 */
export type Unlisted = Pick<ActionOutcome, 'unlisted'>;
