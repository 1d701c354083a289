// Bringing an element that is scrolled out of its list or page into view before a real click lands on it.
import { setTimeout as sleep } from 'node:timers/promises';
import type { ObjectRef } from '../atspi/object-ref.js';
import { extents, parentOf, placeInParent, readValue, scrollIntoView, setValue } from '../atspi/operations.js';
import { wheel } from '../input/index.js';
import type { X11Connection } from '../x11/index.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { contentProbe, scrollBarOf, scrollPaneOf } from './scroll.js';

/** Wheel notches tried at most, each followed by a look; the seed's bound. */
export const maxWheelSteps = 30;
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
  const bar = pane && (await scrollBarOf(desktop, pane, true));
  const parent = await parentOf(client, ref).catch(() => undefined);
  if (!pane || !bar || !parent) return false;
  const [range, place, paneBox] = await Promise.all([readValue(client, bar), placeInParent(client, ref, parent), extents(client, pane).catch(() => undefined)]);
  if (!(range.max > range.min) || !(place.count > 0) || place.index < 0) return false;
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
 * The last resort for toolkits whose scroll bars accessibility cannot move (GTK4): real wheel notches
 * over the pane, with the window in front, a look after each, at most maxWheelSteps in all. Down first;
 * when the content stops moving (the end), the rest go up.
 */
export async function wheelIntoView(desktop: LinuxDesktop, x: X11Connection, ref: ObjectRef, placed: PlacementProbe): Promise<boolean> {
  const client = await desktop.atspi();
  const pane = await scrollPaneOf(desktop, ref);
  if (!pane) return false;
  const box = await extents(client, pane).catch(() => undefined);
  if (!box || box.w <= 0 || box.h <= 0) return false;
  const centre = { x: Math.round(box.x + box.w / 2), y: Math.round(box.y + box.h / 2) };
  const content = contentProbe(desktop, pane);
  let direction: 'down' | 'up' = 'down';
  let before = await content.read();
  for (let step = 0; step < maxWheelSteps; step++) {
    await wheel(x, centre, direction, 1);
    if (await placedAfterMove(placed)) return true;
    const after = await content.read();
    if (after === before) {
      if (direction === 'up') return false;
      direction = 'up';
    }
    before = after;
  }
  return false;
}
