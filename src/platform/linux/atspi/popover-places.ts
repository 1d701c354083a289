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
 * How much larger than the popover its surface may be on the side facing its widget: GTK 4.8 sizes a popover's
 * surface to the popover exactly, plus its arrow where it has one (GtkDropDown's list: 6 px).
 */
const arrowAllowance = 16;

/** Where along one axis a popover's box of `size` lies in its surface, at `start` with `length`, pointing back to `from`. */
function placeAlong(from: number, size: number, start: number, length: number): number {
  // The arrow is on the side facing the widget the popover was reported at: a surface beyond it holds the popover at its far end.
  return start > from ? start + length - size : start;
}

/**
 * The move that puts an object drawn on a surface of its own, reported at `box` (screen coordinates), onto the one
 * popup window of its size, or of its size and an arrow on one side; undefined when no window, or several, fit: the
 * box is then all there is to go by.
 */
export function popoverShift(box: CupRect, popups: readonly Popup[]): Shift | undefined {
  const exact = popups.filter((popup) => popup.width === box.w && popup.height === box.h);
  const within = (extra: number) => extra >= 0 && extra <= arrowAllowance;
  const sized = exact.length > 0 ? exact : popups.filter((popup) => (popup.width === box.w && within(popup.height - box.h)) || (popup.height === box.h && within(popup.width - box.w)));
  if (sized.length !== 1) return undefined;
  const popup = sized[0]!;
  return { dx: placeAlong(box.x, box.w, popup.x, popup.width) - box.x, dy: placeAlong(box.y, box.h, popup.y, popup.height) - box.y };
}

/**
 * The type name GTK 4.8 gives an unnamed popover, whose role it leaves a filler: GtkDropDown's list popover
 * ("GtkPopover"), a GtkMenuButton's (any class ending so), never what it holds ("GtkPopoverContent").
 */
const popoverTypeName = /^[A-Z][A-Za-z0-9]*Popover$/;

/** Whether an object of this role and raw name may be drawn on a surface of its own: a menu, a window, or a popover. */
export function mayHaveOwnSurface(role: number, name: string): boolean {
  return ownSurfaceRoles.has(role) || popoverTypeName.test(name);
}

/** Whether an object, placed so, may be a popover on a surface of its own (never the window itself). */
function mayBePopover(node: AtspiRawNode): node is AtspiRawNode & { extents: CupRect } {
  return mayHaveOwnSurface(node.role, node.name) && node.extents !== undefined && !node.positionUnknown && node.extents.w > 0 && node.extents.h > 0;
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
    if (!moved && own === undefined && children.every((child, index) => child === node.children[index])) return node;
    return { ...node, children, ...(own !== undefined ? { ownSurface: true as const } : {}), ...(moved ? { extents: { ...node.extents!, x: node.extents!.x + shift.dx, y: node.extents!.y + shift.dy } } : {}) };
  };
  return place(root, undefined);
}
