// The order a person reads a layout's children in, where the toolkit lists them otherwise.
import { overlap } from '../rect.js';
import type { CupNode } from '../types.js';

/**
 * Containers whose children are laid out by the toolkit (GTK's boxes and grids, Qt's widgets): GTK3's grid lists its
 * children last added first, so Eye of GNOME's image properties read "985 bytes, PNG image, 200 × 300 pixels, ...,
 * File Size, Type, Size" and yad's form its last field first, and no value could be told to its label (a text's
 * compact line has no box).
 */
export const LAYOUT_ATSPI_ROLES: ReadonlySet<string> = new Set(['ROLE_PANEL', 'ROLE_FILLER']);
/** Past this many children the pairwise overlap check is not worth it: such a container is a list, read as listed. */
const maxLaidOut = 200;

/**
 * The children in reading order: in rows from the top (a row takes in every child that starts above the bottom of
 * what it holds so far, so a tall sidebar and what stands beside it are one row), each row left to right, and top to
 * bottom where children share a column. Only when every child has a place of its own, none over another: stacked
 * pages, popups and children with no box (hidden, or placed by the toolkit nowhere) keep the toolkit's order.
 */
export function inReadingOrder(children: readonly CupNode[]): CupNode[] | undefined {
  if (children.length < 2 || children.length > maxLaidOut) return undefined;
  const placed = (node: CupNode) => node.bounds !== undefined && node.bounds.w > 0 && node.bounds.h > 0 && !node.states?.includes('hidden');
  if (!children.every(placed)) return undefined;
  const boxes = children.map((child) => child.bounds!);
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) if (overlap(boxes[i]!, boxes[j]!)) return undefined;
  const byTop = children.map((child, index) => ({ child, box: boxes[index]!, index })).sort((a, b) => a.box.y - b.box.y || a.index - b.index);
  const rows: (typeof byTop)[] = [];
  let bottom = 0;
  for (const entry of byTop) {
    if (rows.length === 0 || entry.box.y >= bottom) {
      rows.push([entry]);
      bottom = entry.box.y + entry.box.h;
    } else {
      rows.at(-1)!.push(entry);
      bottom = Math.max(bottom, entry.box.y + entry.box.h);
    }
  }
  const ordered = rows.flatMap((row) => row.sort((a, b) => a.box.x - b.box.x || a.box.y - b.box.y || a.index - b.index)).map((entry) => entry.child);
  return ordered.some((child, index) => child !== children[index]) ? ordered : undefined;
}
