// The columns of a list under a header row that names them (top's and htop's process tables, cfdisk's
// partitions): no rule divides them, but the names stand over their values and every row leaves blank the
// cells between two columns. Reading the cells lets an agent take one field of a row (a process's %CPU)
// rather than parse the row's whole text.
import type { Bounds } from '../ui-node.js';
import { tidy, type Found, type RowInfo, type ScreenScan } from './scan.js';

/** Fewer columns than this is a caption over a list, not a table's header. */
const MIN_COLUMNS = 3;

interface Span {
  from: number;
  to: number;
}

/** A cell showing nothing (the right half of a wide character shows its left half's). */
function blank(scan: ScreenScan, index: number): boolean {
  return scan.grid.widths[index] !== 0 && scan.grid.chars[index]!.trim() === '';
}

/**
 * Arrows a header draws beside the name of the column it sorts by, in the gap after it (htop's `PID△USER`,
 * `CPU%▽MEM%`): they end that name rather than join it to the next.
 */
const SORT_ARROWS = new Set([...'▲▼△▽▴▾▵▿↑↓⏶⏷']);

/** Runs of non-blank cells of a row between two columns; a sort arrow ends the run it is in. */
function words(scan: ScreenScan, y: number, left: number, right: number): Span[] {
  const spans: Span[] = [];
  let open = false;
  for (let x = left; x <= right; x++) {
    const index = y * scan.grid.cols + x;
    if (blank(scan, index)) {
      open = false;
      continue;
    }
    const last = spans[spans.length - 1];
    if (open && last) last.to = x + 1;
    else spans.push({ from: x, to: x + 1 });
    open = !SORT_ARROWS.has(scan.grid.chars[index]!);
  }
  return spans;
}

/**
 * The columns the header's words stand over, from `left` to `right` (inclusive): between two words, a column
 * of cells blank on the header and on every row ends one and starts the next (values may reach under the gap
 * from either side, as right-aligned numbers do). Words with no such column between them are one column's name
 * ("Modify time") or values run together, and stay one column. Undefined when fewer than three columns remain.
 */
export function alignedColumns(scan: ScreenScan, header: RowInfo, items: readonly RowInfo[], left: number, right: number): Span[] | undefined {
  const names = words(scan, header.y, left, right);
  if (names.length < MIN_COLUMNS) return undefined;
  const rows = [header, ...items];
  const arrowAt = (x: number) => SORT_ARROWS.has(scan.grid.chars[header.y * scan.grid.cols + x]!);
  // A sort arrow over blank values is a gap too; the cut goes after it, so the arrow stays with its name.
  const blankDown = (x: number) => rows.every((row) => blank(scan, row.y * scan.grid.cols + x) || (row === header && arrowAt(x)));
  const cuts: number[] = [];
  for (let i = 0; i + 1 < names.length; i++) {
    for (let x = names[i]!.to - (arrowAt(names[i]!.to - 1) ? 1 : 0); x < names[i + 1]!.from; x++) {
      if (blankDown(x)) {
        cuts.push(arrowAt(x) ? x + 1 : x);
        break;
      }
    }
  }
  if (cuts.length + 1 < MIN_COLUMNS) return undefined;
  const edges = [left, ...cuts, right + 1];
  return edges.slice(1).map((to, i) => ({ from: edges[i]!, to }));
}

/**
 * The cells of one row in those columns, named by their text; `textFrom` is where the row's own text starts after
 * a pointer opening it (cfdisk's `>>`), which is no part of its first cell's name, as it is none of the item's.
 */
export function cellsOf(scan: ScreenScan, y: number, columns: readonly Span[], role: 'cell' | 'columnheader', heuristic: string, textFrom = 0): Found[] {
  return columns.map(({ from, to }) => {
    const bounds: Bounds = { x: from, y, w: to - from, h: 1 };
    return { role, name: tidy(scan.slice(y, Math.max(from, textFrom), to).text), bounds, heuristic };
  });
}
