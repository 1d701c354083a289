// Where a table's cells lie that the toolkit gives no place, from the places of their column's header and their row.
import type { CupNode } from '../types.js';

/**
 * Places the cells of a table that have no place while their column's header and their row have one: GTK3 gives a tree
 * view's cells out of its view sideways x and y of -2^31, while it places their column headers where those columns lie
 * (out of view too) and the row's other cells where the row is. Xarchiver's file list, wider than its pane, read each
 * row's Time, Permissions, Method, OS and Version cells as `{off}` lines with no box, 25 of them for 5 rows, beside
 * "# 5 more items — scroll right to see", which counted their headers only. Placed (the header's column across, the
 * row's cells' line down), they are counted with their headers as out of view to the right, as rows below the view
 * are. `children` are a table's converted children, in order: its column headers, then its cells, whose `colIndex`
 * (TableCell's column) counts the headers shown.
 */
export function placeCellsByColumn(children: readonly CupNode[]): void {
  const headers = children.filter((child) => child.role === 'columnheader' && !child.states?.includes('hidden'));
  if (!headers.some((header) => header.bounds)) return;
  const rows = new Map<number, CupNode>();
  for (const child of children) {
    const row = child.attributes?.rowIndex;
    if (child.role === 'cell' && child.bounds && row !== undefined && !rows.has(row)) rows.set(row, child);
  }
  for (const cell of children) {
    const { rowIndex, colIndex } = cell.attributes ?? {};
    if (cell.role !== 'cell' || cell.bounds || !cell.states?.includes('offscreen') || rowIndex === undefined || colIndex === undefined) continue;
    const column = headers[colIndex]?.bounds;
    const row = rows.get(rowIndex)?.bounds;
    if (column && row) cell.bounds = { x: column.x, y: row.y, w: column.w, h: row.h };
  }
}
