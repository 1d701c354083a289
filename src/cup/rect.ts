// Rectangle arithmetic shared by the pruning pass and the platform code that places elements.
import type { CupRect } from './types.js';

/** The part of `a` that lies inside `b`; zero wide or high (at the nearer corner) when they do not overlap. */
export function intersectRect(a: CupRect, b: CupRect): CupRect {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const w = Math.max(0, Math.min(a.x + a.w, b.x + b.w) - x);
  const h = Math.max(0, Math.min(a.y + a.h, b.y + b.h) - y);
  return { x, y, w, h };
}

/** The area two rectangles share, or undefined when they share none. */
export function overlap(a: CupRect, b: CupRect): CupRect | undefined {
  const common = intersectRect(a, b);
  return common.w > 0 && common.h > 0 ? common : undefined;
}

/**
 * Which way a rectangle lies wholly outside a view (sharing only an edge counts as outside), checked up, down, left,
 * right. A box of no width or height (GTK 4 parks a hidden scroll bar as 0x0 at its pane's top-left corner) lies
 * outside only past an edge: on the edge it is inside, as nothing scrolling could do would bring more of it into view.
 */
export type ClipDirection = 'up' | 'down' | 'left' | 'right';

export function clipDirection(bounds: CupRect, viewport: CupRect): ClipDirection | undefined {
  const flat = bounds.w === 0 || bounds.h === 0 ? 1 : 0;
  if (bounds.y + bounds.h + flat <= viewport.y) return 'up';
  if (bounds.y >= viewport.y + viewport.h + flat) return 'down';
  if (bounds.x + bounds.w + flat <= viewport.x) return 'left';
  if (bounds.x >= viewport.x + viewport.w + flat) return 'right';
  return undefined;
}

/**
 * The largest part of `box` that `cover` leaves free, as one rectangle: the widest of the strips beside the cover
 * (above, below, left, right of it, each as long as the box), or undefined when the cover leaves no strip of at
 * least `min` pixels each way. What a person does with a control half under another window: click the part that shows.
 */
export function largestUncovered(box: CupRect, cover: CupRect, min = 2): CupRect | undefined {
  if (!overlap(box, cover)) return box;
  const right = box.x + box.w;
  const bottom = box.y + box.h;
  const strips: CupRect[] = [
    { x: box.x, y: box.y, w: box.w, h: cover.y - box.y },
    { x: box.x, y: cover.y + cover.h, w: box.w, h: bottom - (cover.y + cover.h) },
    { x: box.x, y: box.y, w: cover.x - box.x, h: box.h },
    { x: cover.x + cover.w, y: box.y, w: right - (cover.x + cover.w), h: box.h },
  ].filter((strip) => strip.w >= min && strip.h >= min);
  return strips.sort((a, b) => b.w * b.h - a.w * a.h)[0];
}
