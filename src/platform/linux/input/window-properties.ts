// PropertyChange selected on other clients' windows (a window's title, a paste's INCR property): an X client has one
// event mask per window, so every user of it on one connection shares it, and the last to be done clears it.
import { EventMask, type X11Connection } from '../x11/index.js';

const holders = new WeakMap<X11Connection, Map<number, number>>();

/**
 * Selects PropertyChange on `window` for this connection until the returned function is called; the changes are
 * then heard through x.onEvent (PropertyNotify). A window that is gone is an X error, which the caller handles.
 */
export async function selectWindowProperties(x: X11Connection, window: number): Promise<() => Promise<void>> {
  let counts = holders.get(x);
  if (!counts) holders.set(x, (counts = new Map()));
  const held = counts.get(window) ?? 0;
  counts.set(window, held + 1);
  if (held === 0) {
    try {
      await x.checked(() => x.changeWindowAttributes(window, { eventMask: EventMask.PropertyChange }));
    } catch (error) {
      counts.delete(window);
      throw error;
    }
  }
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    const left = (counts.get(window) ?? 1) - 1;
    if (left > 0) return void counts.set(window, left);
    counts.delete(window);
    // A window gone meanwhile has no mask left to clear.
    await x.changeWindowAttributes(window, { eventMask: 0 }).catch(() => undefined);
  };
}
