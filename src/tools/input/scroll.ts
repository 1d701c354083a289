import { z } from 'zod';
import type { ElementTarget } from '../../platform/targets.js';
import { resolveWindow } from '../perception/window-records.js';
import { readSnapshot, wholeWindowLimits } from '../perception/window-snapshot.js';
import { defineTool } from '../tool.js';
import { ToolError } from '../../errors.js';
import { observeAction } from './action-diff.js';
import { targetResult } from './outcome.js';
import { actionOptions, actionResult, deliveryMode, deliveryModeArgument, elementAddressing, pointAddressing } from './schemas.js';
import { resolveElement, resolvePoint } from './targets.js';

export const scroll = defineTool({
  name: 'scroll',
  capability: 'input',
  title: 'Scroll',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description:
    'Scroll a region by lines or pages. Target: element_index/element_token (the element or its scrolling ancestor), or window_id/pid alone ' +
    'when the window has exactly one scrollable region. Background (default) moves the region\'s scroll bar through accessibility (no pointer, ' +
    'no focus); foreground turns the real mouse wheel over the region, or, where the tree shows none (an app that draws its view itself), ' +
    'over the element given or the window\'s middle, read back by the window\'s scroll bars or its pixels. x, y (window-local screenshot pixels) turn the wheel ' +
    'over that point instead, for a window whose regions only its screenshot shows (no accessibility tree): sent as X wheel events in the background ' +
    'to an app that takes them (Tk, Xt/Xaw), real in the foreground.',
  input: z.strictObject({
    direction: z.enum(['up', 'down', 'left', 'right']),
    by: z.enum(['line', 'page']).optional().describe('line (default) or page.'),
    amount: z.number().int().min(1).max(100).optional().describe('How many lines or pages. Default 3.'),
    ...elementAddressing,
    ...pointAddressing,
    delivery_mode: deliveryModeArgument,
    ...actionOptions,
  }),
  output: actionResult,
  async handle(args, context) {
    const mode = deliveryMode(args.delivery_mode);
    const amount = args.amount ?? 3;
    const by = args.by ?? 'line';
    const byElement = args.element_index !== undefined || args.element_token !== undefined;
    const byPoint = args.x !== undefined || args.y !== undefined;
    if (byElement && byPoint) throw new ToolError('give either an element (element_index or element_token) or a point (x, y), not both', 'conflicting_target');
    const element: ElementTarget | undefined = byElement ? await resolveElement(context, args) : undefined;
    const point = byPoint ? await resolvePoint(context, args) : undefined;
    if (!element && !point && args.window_id === undefined) throw new ToolError('scroll needs a target: element_index + window_id, element_token, selector + window_id (or pid), x + y + window_id, or window_id', 'missing_target');
    const window = element?.window ?? point?.window ?? (await resolveWindow(context, args.window_id!, args.pid));
    // Without an element, the window's latest snapshot says which region there is to scroll; a window not read yet in
    // this session is read for it, as a selector's window is (scrolling Pluma's document right after launch_app, or
    // after the daemon was replaced, was refused with no_snapshot).
    const latest = element || point ? undefined : context.state.snapshots.latest(window.pid, window.id);
    const snapshot = element || point ? undefined : (latest ?? (await readSnapshot(context, window, wholeWindowLimits)).snapshot);
    const request = { window, element, ...(point ? { point } : {}), snapshot, direction: args.direction, by, amount, mode };
    return observeAction(context, 'scroll', args, window, async () => targetResult(await context.desktop.scroll(request), element));
  },
});
