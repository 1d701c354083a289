// Real input on a surface the app draws itself (a game's board: AisleRiot's cards, Tetravex's tiles): the tree holds
// nothing of what it shows, so a move there changes nothing the app reports, and a tile dragged across Tetravex's
// board read "no effect seen" while the board was drawn anew. The surface's own pixels are read back too.
import { setTimeout as sleep } from 'node:timers/promises';
import { ATSPI_ROLE_NAMES } from '../../../cup/atspi/constants.js';
import { isDrawnSurfaceShape } from '../../../cup/atspi/raw-node.js';
import { decodeStateSet } from '../../../cup/atspi/states.js';
import { pixelChange, type PixelChange } from '../../../image/diff.js';
import type { Observation } from '../../action-outcome.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { childCount, children, readRole, readStates } from '../atspi/operations.js';
import { maxScrollAreaChildren, paintsBesideOwnBars, type RoleShape } from '../../../cup/atspi/scroll-areas.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import type { ClientWindow } from '../windows.js';
import type { SnapshotRef } from '../../targets.js';
import { atspiElement } from '../element-handle.js';
import { meaningful } from './synthetic-rung.js';

/** How long the surface is watched for its change after the app's own signs, in ms (observePixels' half second). */
const surfaceWatchMs = 500;

export interface DrawnSurface {
  /** Its box in the window's pixels, as a capture of the window holds it. */
  box: { x: number; y: number; w: number; h: number };
  /** What a change of its pixels means, for the evidence (default: the surface the app draws changed). */
  meaning?: string;
}

/**
 * The drawn surface an object is (the one under a point, the focus keys go to), as src/cup/atspi/convert.ts marks one
 * (isDrawnSurfaceShape, paintsBesideOwnBars), placed in the window.
 */
export async function drawnSurfaceOf(desktop: LinuxDesktop, window: ClientWindow, ref: ObjectRef | undefined): Promise<DrawnSurface | undefined> {
  if (!ref) return undefined;
  const client = await desktop.atspi();
  const [role, children, states] = await Promise.all([readRole(client, ref).catch(() => -1), childCount(client, ref).catch(() => -1), readStates(client, ref).catch(() => [])]);
  const decoded = decodeStateSet(states);
  const bounds = desktop.elementBounds(window, ref);
  const [box, drawn] = await Promise.all([bounds, isDrawnSurfaceShape(ATSPI_ROLE_NAMES[role] ?? '', children, decoded) || beside(desktop, window, ref, role, children, decoded, bounds)]);
  return drawn && box ? { box: { x: box.x - window.bounds.x, y: box.y - window.bounds.y, w: box.w, h: box.h } } : undefined;
}

/** How deep, and through how many objects, drawnSurfaceFilling looks inside the object keys go to. */
const fillingDepth = 4;
const fillingLooks = 16;
/** Objects holding more than this many are not looked into by drawnSurfaceFilling. */
const fillingChildren = 4;

/**
 * The drawn surface that fills the object keys go to (at least half its box): the object itself, or one inside it.
 * QTerminal reports the keyboard focus on the container of its terminal's screen, a filler holding the screen's
 * scroll area: a command typed there ran and read "no effect seen", nothing in the tree having changed.
 */
export async function drawnSurfaceFilling(desktop: LinuxDesktop, window: ClientWindow, ref: ObjectRef): Promise<DrawnSurface | undefined> {
  const client = await desktop.atspi();
  const own = await desktop.elementBounds(window, ref);
  if (!own) return undefined;
  let level = [ref];
  let looks = 0;
  for (let depth = 0; depth <= fillingDepth && level.length > 0 && looks < fillingLooks; depth++) {
    const found = await Promise.all(level.map((each) => drawnSurfaceOf(desktop, window, each)));
    looks += level.length;
    const filling = found.find((surface) => surface !== undefined && 2 * surface.box.w * surface.box.h >= own.w * own.h);
    if (filling) return filling;
    // Only into objects holding a few: a list's rows (thousands, some of them) are not asked for.
    const below = await Promise.all(level.map(async (each) => ((await childCount(client, each).catch(() => 0)) <= fillingChildren ? children(client, each).catch(() => []) : [])));
    level = below.flat().slice(0, fillingLooks - looks);
  }
  return undefined;
}

/** More children than this and an object is no widget painting on parts of its own beside its own scroll bars. */
const ownPartsAtMost = maxScrollAreaChildren;

/**
 * Whether the object paints what it shows on parts of its own beside scroll bars of its own (paintsBesideOwnBars):
 * QTermWidget's screen (QTerminal's, Konsole's) is a focusable filler holding its bar alone, and it was no drawn surface
 * here, though the tree marks it one: a command typed into it ran and read "no effect seen"; so did a search typed into
 * GHex's find bar, a hex view drawn on three drawing areas. Its few children are read as the tree reads them.
 */
async function beside(desktop: LinuxDesktop, window: ClientWindow, ref: ObjectRef, role: number, count: number, states: ReadonlySet<string>, bounds: ReturnType<LinuxDesktop['elementBounds']>): Promise<boolean> {
  if (!states.has('STATE_FOCUSABLE') || count <= 0 || count > ownPartsAtMost) return false;
  const client = await desktop.atspi();
  try {
    const shape = async (child: ObjectRef, depth: number): Promise<RoleShape & { extents?: { w: number; h: number } }> => {
      const [childRole, grandchildren, extents, childStates] = await Promise.all([readRole(client, child), childCount(client, child), depth === 0 ? desktop.elementBounds(window, child) : undefined, depth === 0 ? readStates(client, child) : undefined]);
      // A wrapper's one child says whether it wraps a scroll bar (isScrollBarOrWrapper).
      const inner = depth === 0 && grandchildren === 1 ? await Promise.all((await children(client, child)).slice(0, 1).map((each) => shape(each, 1))) : [];
      return { role: childRole, childCount: grandchildren, children: inner, ...(extents ? { extents } : {}), ...(childStates ? { states: childStates } : {}) };
    };
    const [own, held] = await Promise.all([bounds, children(client, ref).then((refs) => Promise.all(refs.slice(0, ownPartsAtMost).map((child) => shape(child, 0))))]);
    return paintsBesideOwnBars({ role, childCount: count, children: held, ...(own ? { extents: own } : {}) }, true);
  } catch {
    return false;
  }
}

/**
 * A control holding a number (a slider) that a drag moved, placed in the window: Chromium reports no value that a
 * pointer set (a range input's thumb dragged from 50 to 90 kept reading 50, pyatspi too, and the drag read "no
 * effect seen"), though it draws the thumb where it went.
 */
export async function valueControlSurface(desktop: LinuxDesktop, window: ClientWindow, ref: ObjectRef, label: string): Promise<DrawnSurface | undefined> {
  const bounds = await desktop.elementBounds(window, ref);
  const meaning = `${label} was drawn anew, though the value it reports stayed the same (its app does not report every value the pointer sets: read it in a screenshot)`;
  return bounds && { box: { x: bounds.x - window.bounds.x, y: bounds.y - window.bounds.y, w: bounds.w, h: bounds.h }, meaning };
}

/**
 * The views of a window's snapshot that draw items they expose none of (SnapshotElement.drawsItems), and the surfaces
 * it draws with no object at all (SnapshotElement.drawn), placed in the window as they are now. An accessibility
 * action's effect on what they draw shows in their pixels alone: baobab's Folder header, clicked, sorted the folders it
 * draws in such a view, and gpicview's Rotate Clockwise turned the picture it paints on a widget GAIL knows no role
 * for; each read "no effect seen" with advice to click again in the foreground, which would have undone or repeated it.
 */
export async function itemViewsOf(desktop: LinuxDesktop, window: ClientWindow, snapshot: SnapshotRef | undefined): Promise<DrawnSurface[]> {
  const views = [...(snapshot?.elements.values() ?? [])].filter((element) => (element.drawsItems || element.drawn) && !element.states?.includes('hidden'));
  const placed = await Promise.all(
    views.map(async (view): Promise<DrawnSurface | undefined> => {
      const bounds = await desktop.elementBounds(window, atspiElement(view.handle)).catch(() => undefined);
      const meaning = view.drawsItems
        ? `the items [e${view.index}] ${view.role} draws without exposing them changed (read them in a screenshot)`
        : `what [e${view.index}] ${view.role} draws, with no object for it, changed (read it in a screenshot)`;
      return bounds && { box: { x: bounds.x - window.bounds.x, y: bounds.y - window.bounds.y, w: bounds.w, h: bounds.h }, meaning };
    }),
  );
  return placed.filter((view): view is DrawnSurface => view !== undefined);
}

type Box = DrawnSurface['box'];

/** The smallest box of whole pixels holding all of `boxes`, within the window's. */
function around(boxes: readonly Box[], window: { width: number; height: number }): Box {
  const left = Math.max(0, Math.floor(Math.min(...boxes.map((box) => box.x))));
  const top = Math.max(0, Math.floor(Math.min(...boxes.map((box) => box.y))));
  const right = Math.min(window.width, Math.ceil(Math.max(...boxes.map((box) => box.x + box.w))));
  const bottom = Math.min(window.height, Math.ceil(Math.max(...boxes.map((box) => box.y + box.h))));
  return { x: left, y: top, w: Math.max(0, right - left), h: Math.max(0, bottom - top) };
}

function inside(inner: Box, outer: Box): boolean {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.w <= outer.x + outer.w && inner.y + inner.h <= outer.y + outer.h;
}

/**
 * The tree's observation of the input, and, when it saw nothing, the surfaces' pixels: captured before `observeTree`
 * runs the input, and again until one of them changes by more than a caret's blink, for half a second at most.
 * `acted`: the box (window pixels) of what the input acted on, when it may lie in a surface (a tree view's column
 * header): a change within it alone is its press drawn (GTK 4 shows a button activated for 250 ms), no effect.
 */
export async function withSurfacePixels(
  desktop: LinuxDesktop,
  window: ClientWindow,
  surfaces: DrawnSurface | readonly DrawnSurface[],
  observeTree: () => Promise<Observation>,
  acted?: Box,
): Promise<Observation> {
  const watched = Array.isArray(surfaces) ? (surfaces as readonly DrawnSurface[]) : [surfaces as DrawnSurface];
  // Only the box around the surfaces is read, and the boxes compared are placed in it.
  const area = around(watched.map((surface) => surface.box), window.bounds);
  const inArea = (box: Box): Box => ({ ...box, x: box.x - area.x, y: box.y - area.y });
  const capture = () => desktop.captureWindowBox(window, area).catch(() => undefined);
  // The pixels are evidence besides the tree's: a window that cannot be read (its app killed as the action came: X's
  // BadDrawable) is told by the tree's reading, and the result says the window is gone, not an internal error.
  const before = await capture();
  if (!before) return observeTree();
  const observed = await observeTree();
  if (observed.changed || observed.cancelled || observed.unanswered || observed.stoppedAnswering) return observed;
  const actedHere = acted && inArea(acted);
  let found: { surface: DrawnSurface; change: PixelChange } | undefined;
  for (const deadline = Date.now() + surfaceWatchMs; ; await sleep(40)) {
    const after = await capture();
    if (!after) break;
    found = watched
      .map((surface) => ({ surface, change: pixelChange(before, after, inArea(surface.box)) }))
      .find(({ change }) => meaningful(change) && !(actedHere && inside(change.box!, actedHere)));
    if (found || Date.now() >= deadline) break;
  }
  if (!found) return observed;
  const { surface, change } = found;
  const { w, h } = change.box!;
  const [x, y] = [change.box!.x + area.x, change.box!.y + area.y];
  return { ...observed, changed: true, evidence: [`${surface.meaning ?? 'the surface the app draws changed'}: ${change.count} pixels in ${x},${y} ${w}x${h} (window pixels)`, ...observed.evidence] };
}
