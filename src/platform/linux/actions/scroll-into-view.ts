// Bringing an element that is scrolled out of its list or page into view before a real click lands on it.
import { hasRange } from '../../../cup/atspi/value-range.js';
import { unknownCoordinate } from '../../../cup/atspi/raw-node.js';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ObjectRef } from '../atspi/object-ref.js';
import { columnHeaderOf, extents, indexInParent, parentOf, placeInParent, readValue, scrollIntoView, setValue } from '../atspi/operations.js';
import { wheel } from '../input/index.js';
import type { X11Connection } from '../x11/index.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import type { ClientWindow } from '../windows.js';
import { contentProbe, scrollBarOf, scrollPaneOf } from './scroll.js';

/** Wheel steps tried at most, each followed by a look; the seed's bound. */
export const maxWheelSteps = 30;
/** Notches one step may send once the distance is known, so a long list is crossed in a few steps. */
const maxNotchesPerStep = 25;
/** Scroll bar positions tried around the estimate before giving up on the bar. */
const barProbes = 7;

/** Whether the element has a place to click now; asked after every move. */
export type PlacementProbe = () => Promise<boolean>;

/** How long a toolkit may take to lay out and mark what a move brought into view (GTK does it on its next frame). */
const settleMs = 500;
const lookEveryMs = 100;

/** Looks until the element shows or the toolkit had its time to lay the move out. */
async function placedAfterMove(placed: PlacementProbe): Promise<boolean> {
  const deadline = Date.now() + settleMs;
  for (;;) {
    // Looked at after a pause, not at once: the toolkit lays out at a lower priority than it answers
    // accessibility calls, so looking without pause would keep it from ever placing the element.
    await sleep(lookEveryMs);
    if (await placed()) return true;
    if (Date.now() >= deadline) return false;
  }
}

/**
 * Asks the toolkit, then the scroll bar, to bring the element into view, looking after each move; true
 * once it shows. Neither moves the pointer nor needs the window in front: the scroll bar is moved through
 * accessibility (Value), to where the element's place among its siblings says it is, then a page either
 * side of that, since rows are rarely all of one height.
 */
export async function scrollIntoViewQuietly(desktop: LinuxDesktop, ref: ObjectRef, placed: PlacementProbe): Promise<boolean> {
  const client = await desktop.atspi();
  // Some toolkits answer false and scroll anyway: the look decides.
  if (await scrollIntoView(client, ref).catch(() => false)) {
    if (await placedAfterMove(placed)) return true;
  } else if (await placed()) return true;
  const pane = await scrollPaneOf(desktop, ref);
  const parent = await parentOf(client, ref).catch(() => undefined);
  if (pane && parent && (await columnIntoView(desktop, ref, parent, pane, placed))) return true;
  const bar = pane && (await scrollBarOf(desktop, pane, true));
  if (!pane || !bar || !parent) return false;
  const [range, place, paneBox] = await Promise.all([readValue(client, bar), placeInParent(client, ref, parent), extents(client, pane).catch(() => undefined)]);
  if (!hasRange(range) || !(place.count > 0) || place.index < 0) return false;
  const span = range.max - range.min;
  // The scroll bar's maximum is the content's length less one page; the page is what the pane shows.
  const page = paneBox && paneBox.h > 0 ? paneBox.h : span / 10;
  const estimate = range.min + ((span + page) * place.index) / place.count - page / 2;
  const offsets = [0, ...Array.from({ length: barProbes - 1 }, (_, i) => Math.ceil((i + 1) / 2) * (i % 2 === 0 ? 1 : -1) * page * 0.8)];
  for (const offset of offsets) {
    const value = Math.min(range.max, Math.max(range.min, estimate + offset));
    await setValue(client, bar, value);
    if (await placedAfterMove(placed)) return true;
  }
  return false;
}

/**
 * Brings a table cell's column into view with the pane's horizontal bar, through accessibility, where the column's
 * header lies outside the pane sideways: GTK3 gives a tree view's cells out of view left or right no place at all, and
 * places their header where the column lies, out of view too. A real click on Xarchiver's Time cell, right of its
 * pane, was refused as having no position and as not scrolled into view: the vertical bar alone was tried. The bar is
 * moved so the header's middle meets the pane's; false where the cell is no table's or its column shows already.
 */
async function columnIntoView(desktop: LinuxDesktop, ref: ObjectRef, table: ObjectRef, pane: ObjectRef, placed: PlacementProbe): Promise<boolean> {
  const client = await desktop.atspi();
  const index = await indexInParent(client, ref).catch(() => undefined);
  const header = index === undefined ? undefined : await columnHeaderOf(client, table, index).catch(() => undefined);
  const [column, view] = await Promise.all([header && extents(client, header).catch(() => undefined), extents(client, pane).catch(() => undefined)]);
  if (!column || !view || column.w <= 0 || view.w <= 0 || unknownCoordinate(column.x)) return false;
  if (column.x >= view.x && column.x + column.w <= view.x + view.w) return false;
  const bar = await scrollBarOf(desktop, pane, false);
  const range = bar && (await readValue(client, bar).catch(() => undefined));
  if (!bar || !range || !hasRange(range)) return false;
  const move = column.x + column.w / 2 - (view.x + view.w / 2);
  await setValue(client, bar, Math.min(range.max, Math.max(range.min, range.current + move)));
  return placedAfterMove(placed);
}

/**
 * The last resort for toolkits whose scroll bars accessibility cannot move (GTK4): real wheel notches
 * over the pane, with the window in front, a look after each, at most maxWheelSteps in all. Each notch goes
 * towards where the element is, when the toolkit places it (GTK4 does, outside the visible part); one with
 * no place goes down until the content stops moving (the end), then up.
 */
export async function wheelIntoView(desktop: LinuxDesktop, x: X11Connection, window: ClientWindow, ref: ObjectRef, placed: PlacementProbe): Promise<boolean> {
  const pane = await scrollPaneOf(desktop, ref);
  if (!pane) return false;
  // On screen, as the pointer needs it (GTK4 gives boxes relative to its window).
  const box = await desktop.elementBounds(window, pane);
  if (!box) return false;
  const centre = { x: Math.round(box.x + box.w / 2), y: Math.round(box.y + box.h / 2) };
  const content = contentProbe(desktop, pane);
  let blindDirection: 'down' | 'up' = 'down';
  let before = await content.read();
  // Pixels one notch scrolls, learnt from the first: later steps send as many notches as the distance needs.
  let perNotch: number | undefined;
  let lastY: number | undefined;
  for (let step = 0; step < maxWheelSteps; step++) {
    const own = await desktop.elementBounds(window, ref);
    const distance = own ? own.y + own.h / 2 - centre.y : 0;
    if (own && lastY !== undefined && perNotch === undefined && own.y !== lastY) perNotch = Math.abs(own.y - lastY);
    lastY = own?.y;
    const direction = own ? (distance > 0 ? 'down' : 'up') : blindDirection;
    const notches = own && perNotch ? Math.min(maxNotchesPerStep, Math.max(1, Math.round(Math.abs(distance) / perNotch))) : 1;
    await wheel(x, centre, direction, notches);
    if (await placedAfterMove(placed)) return true;
    if (own) continue;
    const after = await content.read();
    if (after === before) {
      if (blindDirection === 'up') return false;
      blindDirection = 'up';
    }
    before = after;
  }
  return false;
}
