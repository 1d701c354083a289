import { z } from 'zod';
import { defineTool } from '../tool.js';
import { observeAction } from './action-diff.js';
import { targetResult } from './outcome.js';
import { actionOptions, actionResult, elementAddressing, pointAddressing } from './schemas.js';
import { resolveTarget } from './targets.js';

/** Long enough for GTK's tool tips (shown 500 ms after the pointer stops) on a loaded machine. */
const DEFAULT_DWELL_MS = 600;
const MAX_DWELL_MS = 5000;

export const hover = defineTool({
  name: 'hover',
  capability: 'input',
  title: 'Hover',
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  description:
    'Move the real mouse pointer over an element (element_index + window_id, element_token, or selector: the centre of its visible part) or a point ' +
    '(x, y in window-local screenshot pixels) and leave it there, to reveal what shows only under the pointer: a tool tip, a web page\'s ' +
    ':hover menu, a highlight. Waits up to dwell_ms for the app\'s reaction; the result\'s evidence names the tool tips that appeared ' +
    'and what the app changed, new_windows a popup window it opened, and the diff the window\'s new elements. Nothing is clicked and the ' +
    'keyboard focus stays where it is; the window is raised (and left in front) only when another window covers the point. The pointer is ' +
    'not put back: moving it away would hide what the hover showed.',
  input: z.strictObject({
    ...elementAddressing,
    ...pointAddressing,
    dwell_ms: z
      .number()
      .int()
      .min(0)
      .max(MAX_DWELL_MS)
      .optional()
      .describe(`How long to wait for the app's reaction once the pointer is there, in ms. Default ${DEFAULT_DWELL_MS} (GTK shows a tool tip after 500); 0..${MAX_DWELL_MS}.`),
    ...actionOptions,
  }),
  output: actionResult,
  async handle(args, context) {
    const target = await resolveTarget(context, args);
    const dwellMs = args.dwell_ms ?? DEFAULT_DWELL_MS;
    // Real input: an app that does not answer its accessibility still gets the pointer (its pixels are then the read-back).
    return observeAction(context, 'hover', { ...args, delivery_mode: 'foreground' }, target.window, async () =>
      targetResult(await context.desktop.hover(target, { dwellMs, ...(context.signal ? { signal: context.signal } : {}) }), target),
    );
  },
});
