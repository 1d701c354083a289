// Where a table's cells lie that the toolkit gives no place, from the places of their column and of their row.
import type { CupNode, CupRect } from '../types.js';

/**
 * Places the cells of a table that have no place (x and y of -2^31, size kept) by their column and their row, so the
 * compact view counts them as out of view where they lie, as it does rows a list places below its view:
 * - GTK3 gives a tree view's cells out of its view sideways no place, while it places their column headers where the
 *   columns lie, out of view too, and the row's other cells where the row is: Xarchiver's file list, wider than its
 *   pane, read each row's Time, Permissions, Method, OS and Version cells as `{off}` lines with no box beside
 *   "# 5 more items — scroll right to see", which counted their headers only.
 * - GTK 2 (GAIL) gives every row out of view no place: LXAppearance's font chooser listed the 30 families above and
 *   below its pane as `{off}` lines. Rows lie one under another a row's pitch apart, which two placed rows give.
 * A cell's column is its header's place (the headers shown, in order: TableCell's column counts those), else that of a
 * placed cell of its column; its row's line is a placed cell's of its row, else counted from the placed rows.
 * `children` are a table's converted children.
 */
export function placeUnplacedCells(children: readonly CupNode[]): void {
  const cells = children.filter((child) => child.role === 'cell' && child.attributes?.rowIndex !== undefined && child.attributes.colIndex !== undefined);
  // A hidden cell is not one the toolkit left unplaced: Qt hides the rows scrolled out of a table's view and keeps their
  // true boxes, which pyatspi reads (Cherry's 99 pixels, where its header's column made 100).
  const unplaced = cells.filter((cell) => !cell.bounds && cell.states?.includes('offscreen') && !cell.states.includes('hidden'));
  if (unplaced.length === 0) return;
  const headers = children.filter((child) => child.role === 'columnheader' && !child.states?.includes('hidden'));
  const columns = new Map<number, CupRect>();
  const rows = new Map<number, CupRect>();
  for (const cell of cells) {
    if (!cell.bounds) continue;
    if (!columns.has(cell.attributes!.colIndex!)) columns.set(cell.attributes!.colIndex!, cell.bounds);
    if (!rows.has(cell.attributes!.rowIndex!)) rows.set(cell.attributes!.rowIndex!, cell.bounds);
  }
  const placedRows = [...rows.keys()].sort((a, b) => a - b);
  const [first, last] = [placedRows[0], placedRows.at(-1)];
  const pitch = first !== undefined && last !== undefined && last > first ? (rows.get(last)!.y - rows.get(first)!.y) / (last - first) : undefined;
  const lineOf = (row: number): { y: number; h: number } | undefined => {
    const placed = rows.get(row);
    if (placed) return placed;
    return pitch === undefined ? undefined : { y: Math.round(rows.get(first!)!.y + (row - first!) * pitch), h: rows.get(first!)!.h };
  };
  for (const cell of unplaced) {
    const column = headers[cell.attributes!.colIndex!]?.bounds ?? columns.get(cell.attributes!.colIndex!);
    const line = lineOf(cell.attributes!.rowIndex!);
    if (column && line) cell.bounds = { x: column.x, y: line.y, w: column.w, h: line.h };
  }
}
