import { z } from 'zod';
import type { MouseButton } from '../../platform/desktop-services.js';
import type { PointTarget } from '../../platform/targets.js';
import type { ToolContext } from '../context.js';
import { pidArgument, windowIdArgument } from '../schemas.js';
import { defineTool } from '../tool.js';
import { resolvePoint } from './targets.js';

const buttonArgument = z.enum(['left', 'middle', 'right']).optional().describe('Default left.');
const heldResult = z.object({ held: z.array(z.string()), x: z.number().optional(), y: z.number().optional() });

/** A point when x and y are given (window-local screenshot pixels), else none: the pointer stays where it is. */
async function optionalPoint(context: ToolContext, args: { pid?: number; window_id?: number; x?: number; y?: number; from_zoom?: boolean }): Promise<PointTarget | undefined> {
  if (args.x === undefined && args.y === undefined) return undefined;
  return resolvePoint(context, args);
}

/** The session's holds are its resource: ending the session (or its idle reclaim) releases them. */
function trackHolds(context: ToolContext): void {
  const held = context.desktop.heldButtons(context.session);
  if (held.length === 0) {
    context.state.resources.release('mouse_buttons');
    return;
  }
  context.state.resources.hold('mouse_buttons', `${held.join(' and ')} mouse button held, released`, () => context.desktop.releaseButtons(context.session).then(() => undefined));
}

const pointArguments = {
  pid: pidArgument.optional(),
  window_id: windowIdArgument.optional(),
  x: z.number().optional().describe('Window-local screenshot X (with window_id or pid); omit x and y to stay where the pointer is.'),
  y: z.number().optional().describe('Window-local screenshot Y.'),
  from_zoom: z.boolean().optional(),
};

export const mouseButtonDown = defineTool({
  name: 'mouse_button_down',
  capability: 'input',
  title: 'Press a mouse button',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description:
    'Press and hold a mouse button, for gestures one call cannot express (press, mouse_drag along a path, mouse_button_up; a long press). ' +
    'Real input: with x, y (window-local screenshot pixels of window_id or pid\'s front window) the window is brought to the front and the ' +
    'real pointer moves there first; it is not restored afterwards, since the gesture continues in later calls. The button stays down until ' +
    'mouse_button_up, a cancelled mouse_drag, the end of the session, or held_button_max_s (set_config, default 60 s).',
  input: z.strictObject({ ...pointArguments, button: buttonArgument }),
  output: heldResult,
  async handle(args, context) {
    const at = await optionalPoint(context, args);
    const button: MouseButton = args.button ?? 'left';
    const maxHoldMs = context.state.config.get().held_button_max_s * 1000;
    const point = await context.desktop.pressButton(context.session, button, at, maxHoldMs);
    trackHolds(context);
    const held = context.desktop.heldButtons(context.session);
    return {
      summary: `✅ ${button} button down at ${point.x},${point.y} (screen); held: ${held.join(', ')}; released by mouse_button_up or after ${maxHoldMs / 1000} s`,
      structured: { held, x: point.x, y: point.y },
    };
  },
});

export const mouseDrag = defineTool({
  name: 'mouse_drag',
  capability: 'input',
  title: 'Move with buttons held',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description:
    'Move the real pointer to (x, y) (window-local screenshot pixels of window_id or pid\'s front window) through `steps` intermediate points ' +
    'over duration_ms, with the buttons held by mouse_button_down still down: one leg of a multi-call drag. Several calls draw a path. ' +
    'Cancelling the call releases the held buttons, so no button stays down. Fails with no_button_held when this session holds none (use drag ' +
    'for press, move and release in one call).',
  input: z.strictObject({
    pid: pidArgument.optional(),
    window_id: windowIdArgument.optional(),
    x: z.number().describe('Window-local screenshot X to move to.'),
    y: z.number().describe('Window-local screenshot Y to move to.'),
    from_zoom: z.boolean().optional(),
    duration_ms: z.number().int().min(0).max(10_000).optional().describe('Time the move takes. Default 500.'),
    steps: z.number().int().min(1).max(500).optional().describe('Intermediate motion events. Default 20.'),
  }),
  output: heldResult,
  async handle(args, context) {
    const to = await resolvePoint(context, args);
    await context.desktop.moveHeld(context.session, to, { steps: args.steps ?? 20, durationMs: args.duration_ms ?? 500, ...(context.signal ? { signal: context.signal } : {}) }).finally(() =>
      trackHolds(context),
    );
    const held = context.desktop.heldButtons(context.session);
    return { summary: `✅ moved to ${to.screenX},${to.screenY} (screen) with ${held.join(', ')} held`, structured: { held, x: to.screenX, y: to.screenY } };
  },
});

export const mouseButtonUp = defineTool({
  name: 'mouse_button_up',
  capability: 'input',
  title: 'Release a mouse button',
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  description:
    'Release a mouse button this session holds (button; default: every button it holds), at x, y when given (the pointer moves there first, ' +
    'window-local screenshot pixels). Idempotent: nothing held is reported, not an error.',
  input: z.strictObject({ ...pointArguments, button: z.enum(['left', 'middle', 'right']).optional().describe('Default: every held button.') }),
  output: heldResult.extend({ released: z.array(z.string()) }),
  async handle(args, context) {
    const at = await optionalPoint(context, args);
    const released = await context.desktop.releaseButtons(context.session, args.button, at);
    trackHolds(context);
    const held = context.desktop.heldButtons(context.session);
    return {
      summary: released.length ? `✅ released ${released.join(', ')}` : `✅ no ${args.button ?? ''}${args.button ? ' ' : ''}button was held by session "${context.session}"; nothing released`,
      structured: { released, held },
    };
  },
});

export const mouseButtonTools = [mouseButtonDown, mouseDrag, mouseButtonUp];
