// Moving and resizing a top-level window through the window manager (EWMH _NET_MOVERESIZE_WINDOW), then reading
// back where it really went: a window manager may clamp to the screen, keep a minimum size or size increments.
import { setTimeout as sleep } from 'node:timers/promises';
import type { WindowRect } from '../windows.js';
import { hasWindowManager, removeWindowStates, substructureMask } from './input/window-manager.js';
import { encodeClientMessage, type X11Connection } from './x11/index.js';

export interface FrameResult {
  /** The client area as it is after the request, in the same terms as list_windows' bounds. */
  frame: WindowRect;
  /** Who carried it out. */
  by: 'window_manager' | 'x_server';
  /** Maximized or fullscreen states that were taken off first (a maximized window ignores moves). */
  unmaximized: string[];
}

// _NET_MOVERESIZE_WINDOW's first item: gravity in bits 0-7 (StaticGravity: x, y are the client window's own
// position, so they mean what list_windows reports), which of x/y/width/height are given in bits 8-11, and the
// source in bits 12-13 (2: a pager or tool acting for the user, honoured without second-guessing).
const staticGravity = 10;
const allFields = 0xf << 8;
const sourcePager = 2 << 12;
/** A window manager that moved the window answers in a few ms; the bound covers a busy machine. */
const settleTimeoutMs = 2000;
/** The geometry is taken as final when it has not changed for this long. */
const stableMs = 150;

async function clientArea(x: X11Connection, window: number): Promise<WindowRect> {
  const [geometry, origin] = await Promise.all([x.getGeometry(window), x.translateCoordinates(window, x.screen.root, 0, 0)]);
  return { x: origin.x, y: origin.y, width: geometry.width, height: geometry.height };
}

function same(a: WindowRect, b: WindowRect): boolean {
  return a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
}

/** Moves and resizes `window`'s client area to `wanted`; resolves with the area it got once it stopped changing. */
export async function setWindowFrame(x: X11Connection, window: number, wanted: WindowRect): Promise<FrameResult> {
  const root = x.screen.root;
  const managed = await hasWindowManager(x);
  const unmaximized: string[] = [];
  if (managed) {
    const names = ['_NET_WM_STATE_MAXIMIZED_VERT', '_NET_WM_STATE_MAXIMIZED_HORZ', '_NET_WM_STATE_FULLSCREEN'];
    const [atoms, states, moveResize] = await Promise.all([
      x.atoms(names),
      x.getAtomList(window, '_NET_WM_STATE'),
      x.internAtom('_NET_MOVERESIZE_WINDOW'),
    ]);
    for (const name of names) {
      if (!states?.includes(atoms[name]!)) continue;
      await removeWindowStates(x, window, [atoms[name]!]);
      unmaximized.push(name.replace('_NET_WM_STATE_', '').toLowerCase());
    }
    const message = encodeClientMessage(window, moveResize, 32, [staticGravity | allFields | sourcePager, wanted.x, wanted.y, wanted.width, wanted.height]);
    await x.sendEvent(root, false, substructureMask, message);
  } else {
    // No window manager: the X server moves the window itself, exactly.
    await x.checked(() => x.configureWindow(window, { x: wanted.x, y: wanted.y, width: wanted.width, height: wanted.height }));
  }
  const deadline = Date.now() + settleTimeoutMs;
  let last = await clientArea(x, window);
  let stableSince = Date.now();
  while (Date.now() < deadline) {
    if (same(last, wanted)) break;
    await sleep(20);
    const now = await clientArea(x, window);
    if (!same(now, last)) {
      last = now;
      stableSince = Date.now();
    } else if (Date.now() - stableSince >= stableMs && Date.now() - (deadline - settleTimeoutMs) >= 4 * stableMs) {
      // Unchanged for a while after the window manager had time to act: this is what it chose.
      break;
    }
  }
  return { frame: last, by: managed ? 'window_manager' : 'x_server', unmaximized };
}
