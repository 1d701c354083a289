import { z } from 'zod';
import { ToolError } from '../../errors.js';
import { pidArgument, windowIdArgument } from '../schemas.js';
import { defineTool } from '../tool.js';
import { observeAction } from './action-diff.js';
import { targetResult } from './outcome.js';
import { actionOptions, actionResult, deliveryMode, deliveryModeArgument, modifierArgument } from './schemas.js';
import { resolvePoint } from './targets.js';

export const drag = defineTool({
  name: 'drag',
  capability: 'input',
  title: 'Drag',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description:
    'Press, move and release from (from_x, from_y) to (to_x, to_y), in window-local screenshot pixels of window_id (or the last zoom with ' +
    'from_zoom). With to_window_id, (to_x, to_y) are that window\'s screenshot pixels: a drag from one window to another (a file between two ' +
    'file manager windows), refused with nothing sent when the window being dragged from covers the drop point once in front. A drag is pointer ' +
    'motion, which GTK and Qt only take from real input: it runs in the foreground (the window is activated, then the previous window and the ' +
    'pointer are restored). In background mode nothing is sent and the result says so.',
  input: z.strictObject({
    pid: pidArgument.optional(),
    window_id: windowIdArgument.optional(),
    from_x: z.number(),
    from_y: z.number(),
    to_x: z.number(),
    to_y: z.number(),
    to_window_id: windowIdArgument.optional().describe('The window the drop point lies in, when not the one dragged from; to_x, to_y are its screenshot pixels.'),
    duration_ms: z.number().int().min(0).max(10_000).optional().describe('Time between press and release. Default 500.'),
    steps: z.number().int().min(1).max(500).optional().describe('Intermediate motion events. Default 20.'),
    button: z.enum(['left', 'middle', 'right']).optional().describe('Default left.'),
    modifier: modifierArgument,
    from_zoom: z.boolean().optional(),
    delivery_mode: deliveryModeArgument,
    ...actionOptions,
  }),
  output: actionResult,
  async handle(args, context) {
    const mode = deliveryMode(args.delivery_mode);
    const addressing = { pid: args.pid, window_id: args.window_id, from_zoom: args.from_zoom };
    const from = await resolvePoint(context, { ...addressing, x: args.from_x, y: args.from_y });
    // The drop point of another window is in its own screenshot's pixels: the zoom was of the window dragged from.
    const to = await resolvePoint(
      context,
      args.to_window_id === undefined ? { ...addressing, x: args.to_x, y: args.to_y, window_id: from.window.id } : { x: args.to_x, y: args.to_y, window_id: args.to_window_id },
    ).catch((error: unknown) => {
      if (!(error instanceof ToolError) || error.code !== 'outside_window' || args.to_window_id !== undefined) throw error;
      throw new ToolError(`${error.message}; to drop on another window, give its window_id as to_window_id and the drop point in its screenshot's pixels`, 'outside_window');
    });
    const options = { durationMs: args.duration_ms ?? 500, steps: args.steps ?? 20, button: args.button ?? 'left', modifiers: args.modifier ?? [], mode } as const;
    // A drag is judged by what its drop does: the diff is of the window dropped on.
    return observeAction(context, 'drag', args, to.window, async () => targetResult(await context.desktop.drag(from, to, options), from));
  },
});
