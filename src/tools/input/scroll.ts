import { z } from 'zod';
import type { ObjectRef } from '../../platform/linux/atspi/object-ref.js';
import { children, extents, parentOf, readInterfaces, readRole, readValue, setValue } from '../../platform/linux/atspi/operations.js';
import type { ToolContext } from '../context.js';
import { resolveWindow } from '../perception/window-records.js';
import { defineTool } from '../tool.js';
import { ToolError } from '../../errors.js';
import { actionOutcome, actionOutput, describeTarget, notDelivered } from './outcome.js';
import { wheel as pointerWheel } from '../../platform/linux/input/index.js';
import { withForeground } from './real-input.js';
import { actionResult, deliveryMode, deliveryModeArgument, elementAddressing } from './schemas.js';
import { resolveElement, type ElementTarget } from './targets.js';
import { observe, valueProbe, type Probe } from './verification.js';
import { liveStates } from './live-states.js';

const ROLE_SCROLL_BAR = 48;
const ROLE_SCROLL_PANE = 49;
type Direction = 'up' | 'down' | 'left' | 'right';

/** The scroll pane that scrolls an element: the element itself or its nearest scrolling ancestor. */
async function scrollPaneOf(context: ToolContext, start: ObjectRef): Promise<ObjectRef | undefined> {
  const client = await context.desktop.atspi();
  let current: ObjectRef | undefined = start;
  for (let depth = 0; current && depth < 64; depth++) {
    if ((await readRole(client, current)) === ROLE_SCROLL_PANE) return current;
    current = await parentOf(client, current).catch(() => undefined);
  }
  return undefined;
}

/** The pane's scroll bar along an axis (GTK and Qt expose them as children with a Value). */
async function scrollBarOf(context: ToolContext, pane: ObjectRef, vertical: boolean): Promise<ObjectRef | undefined> {
  const client = await context.desktop.atspi();
  for (const child of await children(client, pane)) {
    if ((await readRole(client, child)) !== ROLE_SCROLL_BAR) continue;
    // GTK4's scroll bars carry no Value, so they cannot be moved through accessibility.
    if (!(await readInterfaces(client, child)).includes('Value')) continue;
    const states = await liveStates(context, child);
    if (states.has(vertical ? 'STATE_VERTICAL' : 'STATE_HORIZONTAL')) return child;
  }
  return undefined;
}

/** The only scroll pane in the window's latest snapshot, when the caller named none. */
function onlyScrollPane(context: ToolContext, pid: number, windowId: number): ObjectRef {
  const snapshot = context.state.snapshots.latest(pid, windowId);
  if (!snapshot) throw new ToolError(`no snapshot of window ${windowId}; call get_window_state, then pass the element_index of what to scroll`, 'no_snapshot');
  const panes = [...snapshot.elements.values()].filter((element) => element.atspiRole === ROLE_SCROLL_PANE);
  if (panes.length === 1) return panes[0]!;
  if (panes.length === 0) throw new ToolError(`window ${windowId} has no scrollable region in its accessibility tree; scroll with delivery_mode "foreground" at a point`, 'nothing_to_scroll');
  throw new ToolError(`window ${windowId} has ${panes.length} scrollable regions (${panes.map((pane) => `[e${pane.index}]`).join(', ')}); pass element_index`, 'ambiguous_scroll_target');
}

/**
 * Where the region's content sits: the boxes of what the pane holds, two levels down (pane, viewport,
 * content). Scrolling moves them; it is the read-back when the scroll bar has no Value (GTK4).
 */
function contentProbe(context: ToolContext, pane: ObjectRef): Probe {
  return {
    label: 'the position of the region\'s content',
    read: async () => {
      const client = await context.desktop.atspi();
      const levelOne = await children(client, pane);
      const levelTwo = (await Promise.all(levelOne.slice(0, 3).map((child) => children(client, child).catch(() => [])))).flat();
      const boxes = await Promise.all([...levelOne, ...levelTwo].slice(0, 6).map((ref) => extents(client, ref).catch(() => undefined)));
      return JSON.stringify(boxes);
    },
  };
}

export const scroll = defineTool({
  name: 'scroll',
  capability: 'input',
  title: 'Scroll',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description:
    'Scroll a region by lines or pages. Target: element_index/element_token (the element or its scrolling ancestor), or window_id/pid alone ' +
    'when the window has exactly one scrollable region. Background (default) moves the region\'s scroll bar through accessibility (no pointer, ' +
    'no focus); foreground turns the real mouse wheel over the region.',
  input: z.strictObject({
    direction: z.enum(['up', 'down', 'left', 'right']),
    by: z.enum(['line', 'page']).optional().describe('line (default) or page.'),
    amount: z.number().int().min(1).max(100).optional().describe('How many lines or pages. Default 3.'),
    ...elementAddressing,
    delivery_mode: deliveryModeArgument,
  }),
  output: actionResult,
  async handle(args, context) {
    const mode = deliveryMode(args.delivery_mode);
    const amount = args.amount ?? 3;
    const by = args.by ?? 'line';
    const element: ElementTarget | undefined =
      args.element_index !== undefined || args.element_token !== undefined ? await resolveElement(context, args) : undefined;
    if (!element && args.window_id === undefined) throw new ToolError('scroll needs a target: element_index + window_id, element_token, or window_id', 'missing_target');
    const window = element?.window ?? (await resolveWindow(context, args.window_id!, args.pid));
    const pane = await scrollPaneOf(context, element?.element ?? onlyScrollPane(context, window.pid, window.id));
    if (!pane) throw new ToolError(`[e${element!.element.index}] is not inside a scrollable region`, 'nothing_to_scroll');
    const client = await context.desktop.atspi();
    const direction = args.direction as Direction;
    const vertical = direction === 'up' || direction === 'down';
    const bar = await scrollBarOf(context, pane, vertical);

    if (mode === 'foreground') {
      const box = await context.desktop.elementBounds(window, pane);
      if (!box) throw new ToolError('the scrollable region has no position on screen', 'element_not_visible');
      const notches = by === 'page' ? amount * 5 : amount;
      const centre = { x: Math.round(box.x + box.w / 2), y: Math.round(box.y + box.h / 2) };
      const probe = bar ? valueProbe(context, bar, 'the scroll position') : contentProbe(context, pane);
      const observation = await withForeground(context, window, (x) =>
        observe(context, pane.bus, [probe], async () => {
          await pointerWheel(x, centre, direction, notches);
        }),
      );
      return actionOutput('scroll', actionOutcome({ path: 'x11_pixel_fg', mode, target: element, observation }));
    }

    if (!bar) {
      return actionOutput(
        'scroll',
        notDelivered(mode, element, `the region has no ${vertical ? 'vertical' : 'horizontal'} scroll bar that accessibility can move (GTK4 exposes none); nothing was sent: retry with delivery_mode "foreground" (mouse wheel)`),
      );
    }
    const range = await readValue(client, bar);
    const paneBox = await extents(client, pane).catch(() => undefined);
    // A line is the toolkit's step; a page is what the region shows, less a line so context carries over.
    const line = range.step > 0 ? range.step : Math.max(1, (range.max - range.min) / 100);
    const page = paneBox ? Math.max(line, (vertical ? paneBox.h : paneBox.w) - line) : line * 10;
    const delta = (by === 'page' ? page : line) * amount * (direction === 'up' || direction === 'left' ? -1 : 1);
    const next = Math.min(range.max, Math.max(range.min, range.current + delta));
    if (next === range.current) {
      // Nothing can move: say so rather than claim a scroll.
      return actionOutput('scroll', {
        path: 'none',
        delivery_mode: mode,
        effect: 'suspected_noop',
        verified: true,
        evidence: [`already at the ${delta < 0 ? 'start' : 'end'}: scroll position ${range.current} of ${range.min}..${range.max}`],
        target: describeTarget(element),
      });
    }
    const observation = await observe(context, pane.bus, [valueProbe(context, bar, 'the scroll position')], () => setValue(client, bar, next), {
      snapshot: element?.snapshot,
      until: (values) => Number(values[0]) === next,
    });
    return actionOutput('scroll', actionOutcome({ path: 'x11_atspi', mode, target: element, observation }));
  },
});
