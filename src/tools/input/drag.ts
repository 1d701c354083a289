import { z } from 'zod';
import { ToolError } from '../../errors.js';
import { pidArgument, windowIdArgument } from '../schemas.js';
import { defineTool } from '../tool.js';
import { observeAction } from './action-diff.js';
import { targetResult } from './outcome.js';
import { actionOptions, actionResult, deliveryMode, deliveryModeArgument, elementIndexArgument, elementTokenArgument, modifierArgument } from './schemas.js';
import { resolveElement, resolvePoint, type AddressingArgs } from './targets.js';
import type { ElementTarget, PointTarget } from '../../platform/targets.js';
import type { ToolContext } from '../context.js';

export const drag = defineTool({
  name: 'drag',
  capability: 'input',
  title: 'Drag',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description:
    'Press, move and release from one place to another. Each end is an element (from_element_index / to_element_index of the latest ' +
    'snapshot of its window, or from_element_token / to_element_token: the centre of its visible box, scrolled into view first) or a point ' +
    '(from_x, from_y / to_x, to_y in window-local screenshot pixels of window_id, or of the last zoom with from_zoom). With to_window_id the ' +
    'to end is in that window (its screenshot pixels, or an element of its snapshot): a drag from one window to another (a file between two ' +
    'file manager windows), refused with nothing sent when the window being dragged from covers the drop point once in front. A drag is ' +
    'pointer motion, which GTK and Qt only take from real input: it runs in the foreground (the window is activated, then the previous window and the ' +
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
    to_window_id: windowIdArgument.optional().describe('The window the drop point lies in, when not the one dragged from; to_x, to_y are its screenshot pixels, to_element_index one of its elements.'),
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
    // The drop point of another window is in its own screenshot's pixels: the zoom was of the window dragged from.
    const toAddressing = args.to_window_id === undefined ? { ...addressing, window_id: from.window.id } : { window_id: args.to_window_id };
    const to = await dragEnd(context, 'to', toAddressing, { x: args.to_x, y: args.to_y, element_index: args.to_element_index, element_token: args.to_element_token }).catch((error: unknown) => {
      if (!(error instanceof ToolError) || error.code !== 'outside_window' || args.to_window_id !== undefined) throw error;
      throw new ToolError(`${error.message}; to drop on another window, give its window_id as to_window_id and the drop point in its screenshot's pixels`, 'outside_window');
    });
    const options = { durationMs: args.duration_ms ?? 500, steps: args.steps ?? 20, button: args.button ?? 'left', modifiers: args.modifier ?? [], mode, ...(context.signal ? { signal: context.signal } : {}) } as const;
    // A drag is judged by what its drop does: the diff is of the window dropped on.
    return observeAction(context, 'drag', args, to.window, async () => targetResult(await context.desktop.drag(from, to, options), from));
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
