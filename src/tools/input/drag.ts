import { z } from 'zod';
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
    'from_zoom). A drag is pointer motion, which GTK and Qt only take from real input: it runs in the foreground (the window is activated, ' +
    'then the previous window and the pointer are restored). In background mode nothing is sent and the result says so.',
  input: z.strictObject({
    pid: pidArgument.optional(),
    window_id: windowIdArgument.optional(),
    from_x: z.number(),
    from_y: z.number(),
    to_x: z.number(),
    to_y: z.number(),
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
    const to = await resolvePoint(context, { ...addressing, x: args.to_x, y: args.to_y, window_id: from.window.id });
    const options = { durationMs: args.duration_ms ?? 500, steps: args.steps ?? 20, button: args.button ?? 'left', modifiers: args.modifier ?? [], mode } as const;
    return observeAction(context, 'drag', args, from.window, async () => targetResult(await context.desktop.drag(from, to, options), from));
  },
});
