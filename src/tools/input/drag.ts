import { z } from 'zod';
import { pidArgument, windowIdArgument } from '../schemas.js';
import { defineTool } from '../tool.js';
import { observeAction } from './action-diff.js';
import { targetResult } from './outcome.js';
import { actionOptions, actionResult, deliveryMode, deliveryModeArgument, elementIndexArgument, elementTokenArgument, modifierArgument } from './schemas.js';
import { resolveElement, resolvePoint, type AddressingArgs } from './targets.js';
import { ToolError } from '../../errors.js';
import type { ElementTarget, PointTarget } from '../../platform/targets.js';
import type { ToolContext } from '../context.js';

export const drag = defineTool({
  name: 'drag',
  capability: 'input',
  title: 'Drag',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description:
    'Press, move and release from one place to another of window_id. Each end is an element (from_element_index / to_element_index of ' +
    'the window\'s latest snapshot, or from_element_token / to_element_token: the centre of its visible box, scrolled into view first) or a ' +
    'point (from_x, from_y / to_x, to_y in window-local screenshot pixels, or of the last zoom with from_zoom). A drag is pointer motion, ' +
    'which GTK and Qt only take from real input: it runs in the foreground (the window is activated, then the previous window and the ' +
    'pointer are restored). In background mode nothing is sent and the result says so.',
  input: z.strictObject({
    pid: pidArgument.optional(),
    window_id: windowIdArgument.optional(),
    from_x: z.number().optional(),
    from_y: z.number().optional(),
    to_x: z.number().optional(),
    to_y: z.number().optional(),
    from_element_index: elementIndexArgument.optional(),
    from_element_token: elementTokenArgument.optional(),
    to_element_index: elementIndexArgument.optional(),
    to_element_token: elementTokenArgument.optional(),
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
    const from = await dragEnd(context, 'from', addressing, { x: args.from_x, y: args.from_y, element_index: args.from_element_index, element_token: args.from_element_token });
    const to = await dragEnd(context, 'to', { ...addressing, window_id: from.window.id }, { x: args.to_x, y: args.to_y, element_index: args.to_element_index, element_token: args.to_element_token });
    if (to.window.id !== from.window.id) throw new ToolError(`drag: the to element is in window ${to.window.id}, the from end in window ${from.window.id}; a drag stays in one window; nothing was sent`, 'conflicting_target');
    const options = { durationMs: args.duration_ms ?? 500, steps: args.steps ?? 20, button: args.button ?? 'left', modifiers: args.modifier ?? [], mode } as const;
    return observeAction(context, 'drag', args, from.window, async () => targetResult(await context.desktop.drag(from, to, options), from));
  },
});

/** One end of a drag: an element (by index or token) or a point, never both. */
async function dragEnd(
  context: ToolContext,
  end: 'from' | 'to',
  addressing: Pick<AddressingArgs, 'pid' | 'window_id' | 'from_zoom'>,
  given: { x?: number; y?: number; element_index?: number; element_token?: string },
): Promise<ElementTarget | PointTarget> {
  const element = given.element_index !== undefined || given.element_token !== undefined;
  const point = given.x !== undefined || given.y !== undefined;
  if (element && point) throw new ToolError(`drag: give the ${end} end as ${end}_element_index/${end}_element_token or as ${end}_x + ${end}_y, not both; nothing was sent`, 'conflicting_target');
  if (!element && !point) throw new ToolError(`drag: the ${end} end is missing: give ${end}_element_index (with window_id), ${end}_element_token, or ${end}_x + ${end}_y; nothing was sent`, 'missing_coordinate');
  if (element) return resolveElement(context, { ...addressing, element_index: given.element_index, element_token: given.element_token });
  return resolvePoint(context, { ...addressing, x: given.x, y: given.y });
}
