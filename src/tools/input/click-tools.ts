import { z } from 'zod';
import type { ToolContext } from '../context.js';
import { pidArgument, windowIdArgument } from '../schemas.js';
import { defineTool } from '../tool.js';
import { ToolError } from '../../errors.js';
import { findGestureAction, focusElement, performAction, type PointerKind } from './accessible-actions.js';
import { actionOutcome, actionOutput, notDelivered } from './outcome.js';
import { click as pointerClick, syntheticClick } from '../../platform/linux/input/index.js';
import { toolkitName, withForeground } from './real-input.js';
import {
  actionResult,
  deliveryMode,
  deliveryModeArgument,
  elementIndexArgument,
  elementTokenArgument,
  modifierArgument,
  sessionArgument,
  type ActionResult,
} from './schemas.js';
import { actionable, resolveTarget, type ElementTarget, type PointTarget } from './targets.js';
import { elementScreenPoint, screenPointNow } from './element-point.js';
import type { ObjectRef } from '../../platform/linux/atspi/object-ref.js';
import { parentOf, readObject } from '../../platform/linux/atspi/operations.js';
import { itemGesture, itemOutcome, type ActionOn, type ItemGesture } from './item-gestures.js';
import { observePixels, syntheticEventsReach } from './synthetic-rung.js';
import { nameProbe, observe, stateProbe, statesProbe, type Probe } from './verification.js';

const buttons: Record<PointerKind, 'left' | 'right'> = { click: 'left', double_click: 'left', right_click: 'right' };
const gestureWords: Record<PointerKind, string> = { click: 'click', double_click: 'double-click', right_click: 'right-click (context menu)' };

const clickStates = ['checked', 'pressed', 'selected', 'expanded', 'focused'];

function probesFor(context: ToolContext, target: ElementTarget): Probe[] {
  const label = `[e${target.element.index}]`;
  return [nameProbe(context, target.element, label), statesProbe(context, target.element, label, clickStates)];
}

async function backgroundElement(context: ToolContext, target: ElementTarget, kind: PointerKind): Promise<ActionResult> {
  const element = actionable(target);
  const action = await findGestureAction(context, element, kind);
  const snapshot = target.snapshot;
  const item = await itemGesture(context, element, target.live.role, kind, action);
  if (item) {
    const probes = probesFor(context, target);
    if (item.selection.item !== target.element) probes.push(stateProbe(context, item.selection.item, `the item [e${target.element.index}] lies in`, 'selected'));
    return itemOutcome(context, target, target.element.bus, probes, item, snapshot);
  }
  if (action) {
    const observation = await observe(context, target.element.bus, probesFor(context, target), () => performAction(context, element, action), { snapshot });
    return actionOutcome({ path: 'x11_atspi', mode: 'background', target, observation });
  }
  // Clicking an editable field means putting the caret in it: focus is that click's whole effect.
  if (kind === 'click' && target.live.interfaces.includes('EditableText')) {
    const label = `[e${target.element.index}]`;
    const observation = await observe(context, target.element.bus, [stateProbe(context, target.element, label, 'focused')], async () => {
      if (!(await focusElement(context, element))) throw new ToolError('the application refused to focus the field', 'focus_refused');
    }, { snapshot });
    return actionOutcome({ path: 'x11_atspi', mode: 'background', target, observation });
  }
  const toolkit = await toolkitName(context, target.element.bus);
  const passive = !target.live.interfaces.includes('Action');
  return notDelivered(
    'background',
    target,
    passive
      ? `[e${target.element.index}] ${target.element.role} offers no accessibility action to ${gestureWords[kind]}; ${toolkit} ignores synthetic X events, so nothing was sent: retry with delivery_mode "foreground" (real input), or pick an actionable element`
      : `[e${target.element.index}] has no accessibility action for a ${gestureWords[kind]} and ${toolkit} ignores synthetic X events; nothing was sent: retry with delivery_mode "foreground" (real input)`,
  );
}

/** What performs a gesture at a point: an accessibility action, or a gesture on a list or tree item. */
type PointGesture = { ref: ObjectRef; name: string } & (ActionOn | ItemGesture);

/**
 * The object under a point that performs a gesture: the deepest object there, or the nearest ancestor
 * with the action, as a real click on a button's label lands on the button (or on a row's label selects the row).
 */
async function gestureAt(context: ToolContext, target: PointTarget, kind: PointerKind): Promise<PointGesture | undefined> {
  const client = await context.desktop.atspi();
  let ref = await context.desktop.accessibleAt(target.window, target.screenX, target.screenY).catch(() => undefined);
  for (let depth = 0; ref && depth < 4; depth++) {
    const live = await readObject(client, ref).catch(() => undefined);
    if (!live) return undefined;
    const candidate = { ref, interfaces: live.interfaces };
    const action = await findGestureAction(context, candidate, kind);
    const item = await itemGesture(context, candidate, live.role, kind, action);
    if (item) return { ref: item.selection.item, name: live.name, ...item };
    if (action) return { ref, name: live.name, action, candidate };
    ref = await parentOf(client, ref).catch(() => undefined);
  }
  return undefined;
}

async function backgroundPoint(context: ToolContext, target: PointTarget, kind: PointerKind): Promise<ActionResult> {
  const found = await gestureAt(context, target, kind);
  if (found) {
    const label = found.name ? `"${found.name}"` : 'the element under the point';
    const probes = [nameProbe(context, found.ref, label), statesProbe(context, found.ref, label, clickStates)];
    if ('selection' in found) return itemOutcome(context, target, found.ref.bus, probes, found);
    const observation = await observe(context, found.ref.bus, probes, () => performAction(context, found.candidate, found.action));
    return actionOutcome({ path: 'x11_atspi', mode: 'background', target, observation });
  }
  const synthetic = await syntheticEventsReach(context, target.window);
  if (synthetic.accepted) return syntheticPointer(context, target, kind);
  const toolkit = synthetic.toolkit;
  return notDelivered(
    'background',
    target,
    `nothing under (${Math.round(target.windowX)},${Math.round(target.windowY)}) offers an accessibility action for a ${gestureWords[kind]}, and ${toolkit} ignores synthetic X events; nothing was sent: retry with delivery_mode "foreground"`,
  );
}

/**
 * The x11_pixel rung: a click sent as X events, verified by the window's pixels. A double click is two
 * clicks with the same timestamp, which X toolkits count as one multi-click.
 */
async function syntheticPointer(context: ToolContext, target: PointTarget, kind: PointerKind): Promise<ActionResult> {
  const x = await context.desktop.x11();
  const clicks = kind === 'double_click' ? 2 : 1;
  const observation = await observePixels(context, target.window, () => syntheticClick(x, { x: target.screenX, y: target.screenY }, buttons[kind], clicks));
  return actionOutcome({ path: 'x11_pixel', mode: 'background', target, observation });
}

async function foreground(context: ToolContext, target: ElementTarget | PointTarget, kind: PointerKind, modifiers: string[]): Promise<ActionResult> {
  // An element with nowhere to click is refused before the window is touched; a minimized window has no
  // geometry until it is restored, so its targets are placed once it is active.
  let early: PointTarget | undefined;
  if (!target.window.minimized) early = target.kind === 'element' ? await elementScreenPoint(context, target) : target;
  const probes = target.kind === 'element' ? probesFor(context, target) : [];
  const observation = await withForeground(context, target.window, async (x) => {
    const point = early ?? (await screenPointNow(context, target));
    const app = target.kind === 'element' ? target.element.bus : await context.desktop.accessibleAt(point.window, point.screenX, point.screenY).then((hit) => hit?.bus).catch(() => undefined);
    const click = async () => {
      await pointerClick(x, { x: point.screenX, y: point.screenY }, { button: buttons[kind], count: kind === 'double_click' ? 2 : 1, modifiers });
    };
    // No accessibility for the app under the point: its pixels are the read-back.
    if (!app) return observePixels(context, point.window, click);
    return observe(context, app, probes, click, { snapshot: target.kind === 'element' ? target.snapshot : undefined });
  });
  return actionOutcome({ path: 'x11_pixel_fg', mode: 'foreground', target, observation });
}

function pointerTool(name: PointerKind, title: string, description: string) {
  return defineTool({
    name,
    capability: 'input',
    title,
    annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
    description,
    input: z.strictObject({
      pid: pidArgument.optional(),
      window_id: windowIdArgument.optional(),
      element_index: elementIndexArgument.optional(),
      element_token: elementTokenArgument.optional(),
      x: z.number().optional().describe('Window-local screenshot X (pixels of the latest get_window_state screenshot).'),
      y: z.number().optional().describe('Window-local screenshot Y.'),
      from_zoom: z.boolean().optional().describe('x and y are pixels of the last zoom image of this pid.'),
      modifier: modifierArgument,
      delivery_mode: deliveryModeArgument,
      session: sessionArgument,
      ...(name === 'click' ? { count: z.number().int().min(1).max(3).optional().describe('Clicks (pixel or foreground path). Default 1; 2 is a double click.') } : {}),
    }),
    output: actionResult,
    async handle(args, context) {
      const mode = deliveryMode(args.delivery_mode);
      const target = await resolveTarget(context, args);
      const count = 'count' in args ? (args.count as number | undefined) : undefined;
      const kind: PointerKind = name === 'click' && count === 2 ? 'double_click' : name;
      const modifiers = args.modifier ?? [];
      let result: ActionResult;
      if (mode === 'foreground') result = await foreground(context, target, kind, modifiers);
      else if (modifiers.length > 0) {
        result = notDelivered(mode, target, 'a click with held modifier keys needs real input; nothing was sent: retry with delivery_mode "foreground"');
      } else result = target.kind === 'element' ? await backgroundElement(context, target, kind) : await backgroundPoint(context, target, kind);
      return actionOutput(name, result);
    },
  });
}

export const click = pointerTool(
  'click',
  'Click',
  'Left-click an element (element_index + window_id, or element_token) or a point (x, y in window-local screenshot pixels). ' +
    'Background (default) performs the element\'s accessibility action (found by name: click/press/activate...), or selects a list, tree or ' +
    'table item through its container, which works on covered or minimized windows without moving the pointer or focus; foreground uses real input. The result says which rung ran, whether the effect ' +
    'was read back (confirmed), and what to try when not.',
);

export const doubleClick = pointerTool(
  'double_click',
  'Double-click',
  'Double-click an element or a point. Background uses an accessibility action that means it (double click, open, activate), selecting ' +
    'a list or tree item first as a real double click does; apps that take synthetic X events (Xaw, Motif, Tk) get two X clicks; otherwise ' +
    'the result recommends foreground, which sends two real clicks within the double-click time.',
);

export const rightClick = pointerTool(
  'right_click',
  'Right-click',
  'Right-click (open the context menu of) an element or a point. Background uses the element\'s menu action (ShowMenu/popup) where it has ' +
    'one; foreground sends a real right button click.',
);
