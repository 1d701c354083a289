// What GTK 4.8 does not draw: what it stopped drawing but still places (found by its hit test, the one thing that
// tells), and what it never gave a size (nor anything inside it).
import { ATSPI_ROLE } from '../../../cup/atspi/constants.js';
import type { AtspiRawNode } from '../../../cup/atspi/raw-node.js';
import type { ObjectRef } from './object-ref.js';

type Box = { x: number; y: number; w: number; h: number };

/**
 * Surfaces of their own (a popover, a menu, a dialog): the window's hit test never reaches into them, so it cannot
 * say whether they are drawn, and they lie over what they overlap by design.
 */
export const ownSurfaceRoles: ReadonlySet<number> = new Set([
  ATSPI_ROLE.MENU, ATSPI_ROLE.POPUP_MENU, ATSPI_ROLE.DIALOG, ATSPI_ROLE.WINDOW, ATSPI_ROLE.TOOL_TIP, ATSPI_ROLE.ALERT, ATSPI_ROLE.FRAME,
]);

/** A box with an area: an object of no size is drawn nowhere, which its size already says. */
function sized(box: Box | undefined): Box | undefined {
  return box && box.w > 0 && box.h > 0 ? box : undefined;
}

/** Where a child is: its own box, or for an object with none (GTK4's GtkStackPage holds its page), its one child's. */
function placeOf(node: AtspiRawNode): Box | undefined {
  if (node.positionUnknown) return undefined;
  if (node.extents) return sized(node.extents);
  return node.children.length === 1 ? placeOf(node.children[0]!) : undefined;
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/** The points a person might click an object at: its middle first, then the middles of its quarters. */
function samplePoints(box: Box): { x: number; y: number }[] {
  const at = (fx: number, fy: number) => ({ x: Math.floor(box.x + box.w * fx), y: Math.floor(box.y + box.h * fy) });
  return [at(0.5, 0.5), at(0.25, 0.25), at(0.75, 0.25), at(0.25, 0.75), at(0.75, 0.75)];
}

/**
 * Marks `undrawn` the children that GTK 4.8 no longer draws while it still places them where they were drawn last: a
 * stack's page switched away (Clocks' World page under its Timer page, both 'visible' at one place), a list or grid
 * view's row scrolled out and not yet reused (a font grid's first cells over the ones now shown). GTK 4.8 sets no
 * SHOWING and sends no event for either, and its boxes never overlap where both are drawn, outside popovers (surfaces
 * of their own). So where siblings' boxes overlap, the window's hit test (which picks only what is drawn) is asked at
 * a few points of each: a sibling it finds at one of them is drawn; one it never finds, while it finds another of them
 * there, is not. Points it answers nothing for (GTK4 answers nothing for much of its UI) decide nothing, nor does a
 * group none of whose members the hit test finds. `hit` answers the deepest object at a point in the tree's own
 * coordinates (GTK4's, relative to the window).
 */
export async function markUndrawnOverlaps(root: AtspiRawNode, hit: (x: number, y: number) => Promise<ObjectRef | undefined>): Promise<void> {
  const parents = new Map<string, AtspiRawNode>();
  const byKey = new Map<string, AtspiRawNode>();
  const key = (ref: ObjectRef) => `${ref.bus} ${ref.path}`;
  const groups: AtspiRawNode[][] = [];
  for (const stack = [root]; stack.length > 0; ) {
    const node = stack.pop()!;
    byKey.set(key(node), node);
    for (const child of node.children) parents.set(key(child), node);
    stack.push(...node.children);
    const placed = node.children.filter((child) => !ownSurfaceRoles.has(child.role) && placeOf(child));
    const overlapping = placed.filter((child) => placed.some((other) => other !== child && overlaps(placeOf(child)!, placeOf(other)!)));
    if (overlapping.length > 1) groups.push(overlapping);
  }
  /** The member of the group that holds the object, or null when none does (the hit is in the parent or elsewhere). */
  const memberHolding = (ref: ObjectRef, members: ReadonlySet<AtspiRawNode>): AtspiRawNode | null | undefined => {
    let node = byKey.get(key(ref));
    // An object the read did not reach decides nothing.
    if (!node) return undefined;
    for (; node; node = parents.get(key(node))) if (members.has(node)) return node;
    return null;
  };
  await Promise.all(groups.map(async (group) => {
    const members = new Set(group);
    const verdicts = await Promise.all(group.map(async (member) => {
      let elsewhere = false;
      for (const point of samplePoints(placeOf(member)!)) {
        const found = await hit(point.x, point.y).catch(() => undefined);
        const holder = found && memberHolding(found, members);
        if (holder === member) return 'drawn';
        if (holder) elsewhere = true;
      }
      return elsewhere ? 'covered' : 'unknown';
    }));
    if (!verdicts.includes('drawn')) return;
    group.forEach((member, i) => {
      if (verdicts[i] === 'covered') member.undrawn = true;
    });
  }));
}

/**
 * Marks `undrawn` the outermost objects that GTK 4.8 has given no size, nor anything inside them: a widget never
 * allocated (a stack's page never shown, a folded leaflet's page, an alarm's ringing panel) reports a box of no size
 * and no SHOWING, as one drawn would not. At the window's corner that box read as no place at all, and the compact
 * view listed Clocks' hidden second header bar's Close, and its Stop and Snooze, as offscreen buttons beside the Close
 * that shows; elsewhere such a button read as shown.
 */
export function markUnplaced(root: AtspiRawNode): void {
  const unplaced = new Set<AtspiRawNode>();
  const look = (node: AtspiRawNode): boolean => {
    let none = !node.positionUnknown && !sized(node.extents);
    // Every child is looked at, so each has its verdict when its parent has a place.
    for (const child of node.children) if (!look(child)) none = false;
    if (none) unplaced.add(node);
    return none;
  };
  look(root);
  // A surface of its own (a popover, a menu) is placed when it opens: what a closed one holds is told elsewhere.
  const mark = (node: AtspiRawNode): void => {
    if (ownSurfaceRoles.has(node.role)) return;
    if (node.extents !== undefined && unplaced.has(node)) node.undrawn = true;
    else node.children.forEach(mark);
  };
  root.children.forEach(mark);
}
