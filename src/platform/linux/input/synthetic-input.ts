import { encodeInputEvent, EventMask, type X11Connection } from '../x11/index.js';
import type { Point } from './checks.js';
import { buttons, wheelButtons, type ButtonName, type WheelDirection } from './pointer.js';
import { serverTime } from './server-time.js';

/** Button1Mask: held during the button's own release, as a real release reports it. */
const button1Mask = 0x100;
/** A crossing's detail for the pointer coming from (or going to) outside the window's ancestry: the parent's side. */
const notifyAncestor = 0;

/**
 * The innermost window of `top` under a screen point: toolkits without XInput2 (Xt, Xaw, Tk) take events on their
 * widgets' own windows. Looked for inside `top`, not from the root: whatever covers the point there (another app's
 * window) is not the window the click is for, and a click walked down from the root went to it (xcalc over a Tk
 * window took a background click meant for the Tk window's button).
 */
async function deepestWindowAt(x: X11Connection, top: number, point: Point): Promise<{ window: number; localX: number; localY: number }> {
  let window = top;
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
 * A click sent as X events to the window of `top` under the point (SendEvent): nothing moves, nothing is raised
 * or focused. Toolkits that read input through XInput2 (GTK, Qt) ignore such events; Xt/Xaw and Tk apps
 * act on them. The pointer is said to enter the widget first and leave it after, as a real click's pointer came
 * in before pressing: a Tk button runs its command on a release only inside the widget its pointer entered
 * (the press and release reached it and nothing ran), and the leave puts back its look of a widget with no pointer.
 * The events carry the server's time, one for the whole gesture: stamped 0 (CurrentTime), every click looked
 * simultaneous with the one before, and Tk took a click a second after another on the same button as a double click.
 */
export async function syntheticClick(x: X11Connection, top: number, point: Point, button: ButtonName, count: number): Promise<void> {
  await sendClicks(x, top, point, buttons[button], count);
}

/**
 * Wheel notches sent as X events to the window of `top` under the point: a notch is a press and release of
 * buttons 4 to 7, as the X server reports a real wheel to clients that do not read XInput2 (Tk, Xt).
 */
export async function syntheticWheel(x: X11Connection, top: number, point: Point, direction: WheelDirection, notches: number): Promise<void> {
  await sendClicks(x, top, point, wheelButtons[direction], notches);
}

async function sendClicks(x: X11Connection, top: number, point: Point, detail: number, count: number): Promise<void> {
  const [target, time] = await Promise.all([deepestWindowAt(x, top, point), serverTime(x)]);
  const fields = { root: x.screen.root, window: target.window, rootX: point.x, rootY: point.y, eventX: target.localX, eventY: target.localY, time };
  // Only buttons 1 to 5 have a mask bit (the bits past them are XKB's group).
  const held = detail <= 5 ? button1Mask << (detail - 1) : 0;
  await x.sendEvent(target.window, false, EventMask.EnterWindow, encodeInputEvent({ ...fields, type: 'EnterNotify', detail: notifyAncestor, state: 0 }));
  for (let click = 0; click < count; click++) {
    await x.sendEvent(target.window, false, EventMask.ButtonPress, encodeInputEvent({ ...fields, type: 'ButtonPress', detail, state: 0 }));
    await x.sendEvent(target.window, false, EventMask.ButtonRelease, encodeInputEvent({ ...fields, type: 'ButtonRelease', detail, state: held }));
  }
  await x.sendEvent(target.window, false, EventMask.LeaveWindow, encodeInputEvent({ ...fields, type: 'LeaveNotify', detail: notifyAncestor, state: 0 }));
  await x.sync();
}
