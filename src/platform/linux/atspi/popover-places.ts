// Where GTK 4.8's popovers really are: it reports each at its parent's place, not at its own surface's.
import type { AtspiRawNode } from '../../../cup/atspi/raw-node.js';
import type { CupRect } from '../../../cup/types.js';
import type { Popup } from '../popups.js';
import { ownSurfaceRoles } from './undrawn-places.js';

/** How far a popover and everything in it must move to lie where its surface is drawn. */
export interface Shift {
  dx: number;
  dy: number;
}

/**
 * The move that puts an object drawn on a surface of its own, reported at `box` (screen coordinates), onto the one
 * popup window of its size (GTK 4.8 sizes a popover's surface to the popover exactly); undefined when no window, or
 * several, have that size: the box is then all there is to go by.
 */
export function popoverShift(box: CupRect, popups: readonly Popup[]): Shift | undefined {
  const sized = popups.filter((popup) => popup.width === box.w && popup.height === box.h);
  if (sized.length !== 1) return undefined;
  return { dx: sized[0]!.x - box.x, dy: sized[0]!.y - box.y };
}

/** Whether an object of this role, placed so, may be a popover on a surface of its own (never the window itself). */
function mayBePopover(node: AtspiRawNode): node is AtspiRawNode & { extents: CupRect } {
  return ownSurfaceRoles.has(node.role) && node.extents !== undefined && !node.positionUnknown && node.extents.w > 0 && node.extents.h > 0;
}

/**
 * The tree with every popover, and what it holds, moved to where the popup window of its size lies. GTK 4.8 gives a
 * popover (its own override-redirect surface) the box of the widget it pops up from: Text Editor's main menu read
 * 126 px right of and 13 px above where it is drawn, its last items offscreen, and a real click on "Document
 * Properties" fell beside the menu and only closed it. `origin` is where the tree's window-relative boxes start on
 * screen. Nodes are copied where they move, never changed: a live mirror keeps the ones it was given.
 */
export function placePopovers(root: AtspiRawNode, origin: { x: number; y: number }, popups: readonly Popup[]): AtspiRawNode {
  if (popups.length === 0) return root;
  const place = (node: AtspiRawNode, inherited: Shift | undefined): AtspiRawNode => {
    const own = node !== root && mayBePopover(node)
      ? popoverShift({ ...node.extents, x: node.extents.x + origin.x, y: node.extents.y + origin.y }, popups)
      : undefined;
    const shift = own ?? inherited;
    const children = node.children.map((child) => place(child, shift));
    const moved = shift !== undefined && (shift.dx !== 0 || shift.dy !== 0) && node.extents !== undefined && !node.positionUnknown;
    if (!moved && children.every((child, index) => child === node.children[index])) return node;
    return { ...node, children, ...(moved ? { extents: { ...node.extents!, x: node.extents!.x + shift.dx, y: node.extents!.y + shift.dy } } : {}) };
  };
  return place(root, undefined);
}
