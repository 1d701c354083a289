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
