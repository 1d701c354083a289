// Talking to the window manager: whether one runs (EWMH), and a barrier that waits until it has handled
// everything sent before. A window manager answers every MappingNotify by re-reading the keyboard and re-grabbing
// its shortcuts (openbox takes about 40 ms each), so after a burst of temporary key bindings it can lag for
// seconds, and an activation requested meanwhile would be carried out late, in the middle of later input.
import { encodeClientMessage, EventMask, type X11Connection } from '../x11/index.js';
import { helperWindow, nextPropertyNotify } from './helper-window.js';

export const substructureMask = EventMask.SubstructureRedirect | EventMask.SubstructureNotify;

/**
 * Asks the window manager to take states off a window (_NET_WM_STATE's remove action, up to two states at once;
 * source 2, a tool acting for the user, as for activation).
 */
export async function removeWindowStates(x: X11Connection, window: number, states: readonly [number] | readonly [number, number]): Promise<void> {
  const message = encodeClientMessage(window, await x.internAtom('_NET_WM_STATE'), 32, [0, states[0], states[1] ?? 0, 2]);
  await x.sendEvent(x.screen.root, false, substructureMask, message);
}

export async function hasWindowManager(x: X11Connection): Promise<boolean> {
  const check = await x.getWindowList(x.screen.root, '_NET_SUPPORTING_WM_CHECK');
  return check !== null && check.length > 0 && check[0] !== 0;
}

/**
 * Resolves once the window manager has processed every event that reached it before this call: it answers a
 * _NET_REQUEST_FRAME_EXTENTS by setting _NET_FRAME_EXTENTS, and handles its events in order. Resolves false
 * when there is no window manager that supports it, or it did not answer within `timeoutMs`.
 */
export async function windowManagerBarrier(x: X11Connection, timeoutMs: number): Promise<boolean> {
  const [managed, supported, request, extents, window] = await Promise.all([
    hasWindowManager(x),
    x.getAtomList(x.screen.root, '_NET_SUPPORTED'),
    x.internAtom('_NET_REQUEST_FRAME_EXTENTS'),
    x.internAtom('_NET_FRAME_EXTENTS'),
    helperWindow(x),
  ]);
  if (!managed || !supported?.includes(request)) return false;
  const message = encodeClientMessage(window, request, 32, []);
  try {
    await nextPropertyNotify(x, window, extents, () => x.sendEvent(x.screen.root, false, substructureMask, message), timeoutMs, 'the window manager');
    return true;
  } catch {
    return false;
  }
}
