import { encodeInputEvent, EventMask, type X11Connection } from '../x11/index.js';
import type { Point } from './checks.js';
import { buttons, type ButtonName } from './pointer.js';

/** Button1Mask: held during the button's own release, as a real release reports it. */
const button1Mask = 0x100;

/** The innermost window under a screen point: toolkits without XInput2 (Xt, Xaw, Tk) take events on their widgets' own windows. */
async function deepestWindowAt(x: X11Connection, point: Point): Promise<{ window: number; localX: number; localY: number }> {
  let window = x.screen.root;
  let local = { x: point.x, y: point.y };
  for (let depth = 0; depth < 32; depth++) {
    const step = await x.translateCoordinates(x.screen.root, window, point.x, point.y);
    local = { x: step.x, y: step.y };
    if (!step.child) break;
    window = step.child;
  }
  return { window, localX: local.x, localY: local.y };
}

/**
 * A click sent as X events to the window under the point (SendEvent): nothing moves, nothing is raised
 * or focused. Toolkits that read input through XInput2 (GTK, Qt) ignore such events; Xt/Xaw and Tk apps
 * act on them.
 */
export async function syntheticClick(x: X11Connection, point: Point, button: ButtonName, count: number): Promise<void> {
  const target = await deepestWindowAt(x, point);
  const fields = { root: x.screen.root, window: target.window, rootX: point.x, rootY: point.y, eventX: target.localX, eventY: target.localY };
  const detail = buttons[button];
  for (let click = 0; click < count; click++) {
    await x.sendEvent(target.window, false, EventMask.ButtonPress, encodeInputEvent({ ...fields, type: 'ButtonPress', detail, state: 0 }));
    await x.sendEvent(target.window, false, EventMask.ButtonRelease, encodeInputEvent({ ...fields, type: 'ButtonRelease', detail, state: button1Mask << (detail - 1) }));
  }
  await x.sync();
}
