import { z } from 'zod';
import type { ElementTarget } from '../../platform/targets.js';
import { resolveWindow } from '../perception/window-records.js';
import { defineTool } from '../tool.js';
import { ToolError } from '../../errors.js';
import { observeAction } from './action-diff.js';
import { targetResult } from './outcome.js';
import { actionOptions, actionResult, deliveryMode, deliveryModeArgument, elementAddressing } from './schemas.js';
import { resolveElement } from './targets.js';

export const scroll = defineTool({
  name: 'scroll',
  capability: 'input',
  title: 'Scroll',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description:
    'Scroll a region by lines or pages. Target: element_index/element_token (the element or its scrolling ancestor), or window_id/pid alone ' +
    'when the window has exactly one scrollable region. Background (default) moves the region\'s scroll bar through accessibility (no pointer, ' +
    'no focus); foreground turns the real mouse wheel over the region, or, where the tree shows none (an app that draws its view itself), ' +
    'over the element given or the window\'s middle, read back by the window\'s scroll bars or its pixels.',
  input: z.strictObject({
    direction: z.enum(['up', 'down', 'left', 'right']),
    by: z.enum(['line', 'page']).optional().describe('line (default) or page.'),
    amount: z.number().int().min(1).max(100).optional().describe('How many lines or pages. Default 3.'),
    ...elementAddressing,
    delivery_mode: deliveryModeArgument,
    ...actionOptions,
  }),
  output: actionResult,
  async handle(args, context) {
    const mode = deliveryMode(args.delivery_mode);
    const amount = args.amount ?? 3;
    const by = args.by ?? 'line';
    const element: ElementTarget | undefined =
      args.element_index !== undefined || args.element_token !== undefined ? await resolveElement(context, args) : undefined;
    if (!element && args.window_id === undefined) throw new ToolError('scroll needs a target: element_index + window_id, element_token, selector + window_id (or pid), or window_id', 'missing_target');
    const window = element?.window ?? (await resolveWindow(context, args.window_id!, args.pid));
    // Without an element, the window's latest snapshot says which region there is to scroll.
    const snapshot = element ? undefined : context.state.snapshots.latest(window.pid, window.id);
    const request = { window, element, snapshot, direction: args.direction, by, amount, mode };
    return observeAction(context, 'scroll', args, window, async () => targetResult(await context.desktop.scroll(request), element));
  },
});
