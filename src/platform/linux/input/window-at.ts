// Which top-level window a screen point belongs to: the window that would receive a click there. Tells whether a
// point inside a window's bounds is really its own or covered by another window (or a menu, or a tooltip).
import type { X11Connection } from '../x11/index.js';
import { screenPoint, type Point } from './checks.js';

export interface WindowAtPoint {
  /** The root's child at the point: a window manager frame, an override-redirect window, or 0 for the bare root. */
  topLevel: number;
  /** The client window (the one with WM_STATE, as list_windows names it) in `topLevel`, if any. */
  client: number | undefined;
  /** The top-level is override-redirect: a menu, tooltip or popup the window manager does not manage. */
  overrideRedirect: boolean;
}

// Frames put the client a level or two down; a bound keeps a strange tree from costing many round trips.
const clientSearchDepth = 4;

/**
 * The top-level window at `point`. The server decides, as it does for a click: stacking order, mapped state and
 * the SHAPE bounding and input regions (so the agent cursor, whose input region is empty, is never the answer).
 */
export async function windowAt(x: X11Connection, point: Point): Promise<WindowAtPoint> {
  const { x: px, y: py } = screenPoint(x, point, 'the point');
  const root = x.screen.root;
  const topLevel = (await x.translateCoordinates(root, root, px, py)).child;
  if (topLevel === 0) return { topLevel: 0, client: undefined, overrideRedirect: false };
  const [attributes, client] = await Promise.all([x.getWindowAttributes(topLevel), findClient(x, topLevel)]);
  return { topLevel, client, overrideRedirect: attributes.overrideRedirect };
}

/** ICCCM: the client window is the one carrying WM_STATE, the top-level itself or a descendant of its frame. */
async function findClient(x: X11Connection, topLevel: number): Promise<number | undefined> {
  const wmState = await x.internAtom('WM_STATE');
  let level = [topLevel];
  for (let depth = 0; depth < clientSearchDepth && level.length > 0; depth++) {
    const states = await Promise.all(level.map((window) => x.getProperty(window, wmState, { length: 0 }).catch(() => null)));
    const found = level.find((_, index) => states[index] !== null);
    if (found !== undefined) return found;
    const trees = await Promise.all(level.map((window) => x.queryTree(window).catch(() => undefined)));
    level = trees.flatMap((tree) => tree?.children ?? []);
  }
  return undefined;
}
