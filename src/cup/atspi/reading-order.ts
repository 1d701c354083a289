// The children of a layout container in the order they are read on screen, where the toolkit lists them against
// it. GTK3's GtkGrid lists its children last attached first, so a form attached top to bottom (Transmission's
// Preferences pages, every dialog laid out in a grid) read upside down: "Speed Limits" came last, under the fields it
// heads, and each label after its field. Only containers that lay out (CUP generics) are put in order, never a list,
// table, menu or tool bar, whose order means something, and only where the toolkit's order contradicts the boxes.
import { ATSPI_ROLE } from './constants.js';
import { unknownCoordinate, type AtspiRawNode } from './raw-node.js';

type Box = { x: number; y: number; w: number; h: number };

/** Containers that only lay out what they hold: GTK's boxes and grids (filler, panel). */
const layoutRoles: ReadonlySet<number> = new Set([ATSPI_ROLE.FILLER, ATSPI_ROLE.PANEL]);

/** A box the toolkit placed: known coordinates, some size (a page not shown has none). */
function placed(node: AtspiRawNode): Box | undefined {
  const box = node.extents;
  if (node.positionUnknown || !box || unknownCoordinate(box.x) || unknownCoordinate(box.y) || box.w <= 0 || box.h <= 0) return undefined;
  return box;
}

/** Some child is listed after one that lies wholly below it: the toolkit's order runs against the layout. */
function listedBottomFirst(boxes: readonly Box[]): boolean {
  return boxes.some((earlier, index) => boxes.slice(index + 1).some((later) => later.y + later.h <= earlier.y));
}

/**
 * Boxes in reading order: rows top to bottom, each left to right. A box starts a new row unless its middle lies
 * within the height of the row's shortest box, so a box as tall as several rows (a grid cell spanning them) does
 * not pull the rows beside it into one.
 */
function inRows<T extends { box: Box }>(items: readonly T[]): T[] {
  const byTop = [...items].sort((a, b) => a.box.y - b.box.y);
  const rows: { items: T[]; top: number; bottom: number }[] = [];
  for (const item of byTop) {
    const middle = item.box.y + item.box.h / 2;
    const row = rows.at(-1);
    if (row && middle >= row.top && middle <= row.bottom) {
      row.items.push(item);
      if (item.box.h < row.bottom - row.top) Object.assign(row, { top: item.box.y, bottom: item.box.y + item.box.h });
    } else rows.push({ items: [item], top: item.box.y, bottom: item.box.y + item.box.h });
  }
  return rows.flatMap((row) => row.items.sort((a, b) => a.box.x - b.box.x));
}

/** One container's children in reading order, or the same array when the toolkit's order does not run against it. */
function orderedChildren(node: AtspiRawNode, children: AtspiRawNode[]): AtspiRawNode[] {
  if (!layoutRoles.has(node.role) || children.length < 2) return children;
  const placedOnes = children.flatMap((child) => {
    const box = placed(child);
    return box ? [{ child, box }] : [];
  });
  if (placedOnes.length < 2 || !listedBottomFirst(placedOnes.map(({ box }) => box))) return children;
  // The placed children take the places the placed ones held; one with no place (hidden) stays where it was listed.
  const sorted = inRows(placedOnes).map(({ child }) => child);
  let next = 0;
  return children.map((child) => (placed(child) ? sorted[next++]! : child));
}

/**
 * The tree with each layout container's children in reading order (see above). Nodes on the way to a container put
 * in order are copied; the tree given is not changed, as a window's mirror keeps it.
 */
export function inReadingOrder(node: AtspiRawNode): AtspiRawNode {
  let changed = false;
  const children = node.children.map((child) => {
    const ordered = inReadingOrder(child);
    changed ||= ordered !== child;
    return ordered;
  });
  const ordered = orderedChildren(node, children);
  return changed || ordered !== children ? { ...node, children: ordered } : node;
}
