import type { Rect } from './visible-children.js';
import { placedExtents } from './visible-children.js';

/** How far a toolkit misplaces a tab page's content: what is to be taken off its box. */
export interface Offset {
  x: number;
  y: number;
}

/**
 * How far the content of a page tab is misplaced where the toolkit places it from the tab instead of from the tab bar
 * (ToolkitQuirks.placesTabContentFromTab: Java): by the tab's corner within its tab bar. Undefined when either is not
 * placed (a tab not shown) or the tab is at the bar's corner.
 */
export function tabContentOffset(tab: Rect | undefined, tabBar: Rect | undefined): Offset | undefined {
  const [placedTab, placedBar] = [placedExtents(tab), placedExtents(tabBar)];
  if (!placedTab || !placedBar) return undefined;
  const offset = { x: placedTab.x - placedBar.x, y: placedTab.y - placedBar.y };
  return offset.x === 0 && offset.y === 0 ? undefined : offset;
}

/** A box of a page tab's content moved back where it is; one with no place (a page not shown: -1,-1 -1x-1) is left as it is. */
export function placedBack(box: Rect, offset: Offset | undefined): Rect {
  return offset && placedExtents(box) ? { ...box, x: box.x - offset.x, y: box.y - offset.y } : box;
}
