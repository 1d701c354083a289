// Heuristic "grid-menu": candidates laid out in aligned columns, several to a row, exactly one of them drawn
// lit over its own text and nothing else lit: a completion menu a shell draws under its command line (zsh's
// menu-select, fish's pager), the lit one the candidate Enter takes. Without this each row read as plain text
// runs (two candidates two blanks apart as one) and nothing said which candidate was chosen; a highlighted-row
// list cannot see it, as the highlight covers one cell of the row, not the row. The items are in reading
// order; the arrow keys move through them in two dimensions (focus.ts).
import type { Bounds } from '../ui-node.js';
import { readRow, type Found, type ScreenScan } from './scan.js';

export const GRID_MENU_HEURISTIC = 'grid-menu';

/** Fewer candidates, or fewer columns, and one lit word among words is more likely a search hit in text. */
const MIN_ITEMS = 3;
const MIN_COLUMNS = 2;

interface Item {
  y: number;
  /** First column of the text, and the column after its last character. */
  x: number;
  end: number;
  name: string;
}

/** A row's runs of text two or more blanks apart. */
function itemsOf(scan: ScreenScan, regionIndex: number, y: number): Item[] {
  const { text, columnAt } = scan.regionRow(regionIndex, y);
  const items: Item[] = [];
  for (const run of text.matchAll(/\S+(?: \S+)*/g)) {
    items.push({ y, x: columnAt[run.index]!, end: scan.columnEnd(y, columnAt, run.index + run[0].length), name: run[0] });
  }
  return items;
}

/** Whether the cells [from, to) of a row are all lit. */
function litBetween(scan: ScreenScan, regionIndex: number, y: number, from: number, to: number): boolean {
  const { background } = scan.regions[regionIndex]!;
  for (let x = from; x < to; x++) if (scan.background(x, y) === background) return false;
  return true;
}

/**
 * The one item of a row lit over all its text, every lit cell of the row within the room it has up to the
 * next item: a menu's chosen candidate (its highlight may pad it to its column's width).
 */
function litItem(scan: ScreenScan, regionIndex: number, items: readonly Item[]): Item | undefined {
  const { y } = items[0]!;
  const row = readRow(scan, regionIndex, y);
  if (row.litCells === 0) return undefined;
  const region = scan.regions[regionIndex]!;
  const index = items.findIndex((item) => litBetween(scan, regionIndex, y, item.x, item.end));
  if (index < 0) return undefined;
  const item = items[index]!;
  const room = items[index + 1]?.x ?? region.rect.x + region.rect.w;
  // Every lit cell of the row lies in the item's room.
  return row.litCells <= room - item.x && litBetween(scan, regionIndex, y, item.x, item.x + row.litCells) ? item : undefined;
}

/** Rows that hold items starting at the block's columns only, from its left edge, with nothing lit. */
function fits(scan: ScreenScan, regionIndex: number, items: readonly Item[], columns: ReadonlySet<number>, left: number): boolean {
  if (items.length === 0 || items[0]!.x !== left || !items.every((item) => columns.has(item.x))) return false;
  return readRow(scan, regionIndex, items[0]!.y).litCells === 0;
}

export function findGridMenus(scan: ScreenScan, regionIndex: number): Found[] {
  const region = scan.regions[regionIndex]!;
  const { cursor } = scan.grid;
  const found: Found[] = [];
  const top = region.rect.y;
  const bottom = region.rect.y + region.rect.h;
  for (let y = top; y < bottom; y++) {
    if (cursor.visible && cursor.y === y) continue;
    const row = itemsOf(scan, regionIndex, y);
    if (row.length < MIN_COLUMNS) continue;
    const lit = litItem(scan, regionIndex, row);
    if (!lit) continue;
    const columns = new Set(row.map((item) => item.x));
    const left = row[0]!.x;
    const rows: Item[][] = [row];
    const usable = (other: number) => other >= top && other < bottom && !(cursor.visible && cursor.y === other);
    for (let up = y - 1; usable(up); up--) {
      const items = itemsOf(scan, regionIndex, up);
      if (!fits(scan, regionIndex, items, columns, left)) break;
      rows.unshift(items);
    }
    for (let down = y + 1; usable(down); down++) {
      const items = itemsOf(scan, regionIndex, down);
      if (!fits(scan, regionIndex, items, columns, left)) break;
      rows.push(items);
    }
    const items = rows.flat();
    if (items.length < MIN_ITEMS) continue;
    // Each item has the room up to the next column (or the widest text in the last one).
    const starts = [...columns].sort((a, b) => a - b);
    const right = Math.max(...items.map((item) => item.end));
    const width = (item: Item) => (starts[starts.indexOf(item.x) + 1] ?? right) - item.x;
    const children: Found[] = items.map((item) => {
      const node: Found = { role: 'listitem', name: item.name, bounds: { x: item.x, y: item.y, w: width(item), h: 1 }, heuristic: GRID_MENU_HEURISTIC };
      if (item === lit) node.selected = true;
      return node;
    });
    const bounds: Bounds = { x: left, y: rows[0]![0]!.y, w: right - left, h: rows.length };
    scan.claim(bounds);
    found.push({ role: 'list', name: '', bounds, heuristic: GRID_MENU_HEURISTIC, children });
    y = bounds.y + bounds.h - 1;
  }
  return found;
}
