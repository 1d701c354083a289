// Items marked by colour: a file manager draws the items marked for an operation (mc's Insert) in a
// foreground colour of their own, apart from its cursor bar, and says how many are marked on the list's
// frame (mc's "10 B in 2 files"). The colour alone does not tell marks from the colours a file list gives
// by type (mc's brown for documents, green for executables), nor which of two colours is the marks' when
// marks outnumber the rest, so the count decides: of the foreground colours of the items beside the bar,
// the one drawn on exactly that many items (the bar's row counted when drawn in it) is the marks'.
import type { Bounds } from '../ui-node.js';
import type { Found, ScreenScan } from './scan.js';

export interface ColouredItem {
  node: Found;
  /** The most common foreground of the item's text. */
  fg: number;
  /** Whether it is the one row the selection bar lights. */
  bar: boolean;
}

/** Glyphs a file list puts before a name to tell its type (mc's `/` directory, `*` executable, `@` link...). */
const TYPE_GLYPHS = new Set([...'/*@~=|!']);

function sameTypeGlyph(group: readonly ColouredItem[]): boolean {
  const lead = group[0]!.node.name[0] ?? '';
  return TYPE_GLYPHS.has(lead) && group.every((item) => item.node.name.startsWith(lead));
}

/** The most common foreground of the non-blank cells of one row between two columns. */
export function inkForeground(scan: ScreenScan, y: number, fromX: number, toX: number): number | undefined {
  const counts = new Map<number, number>();
  for (let x = fromX; x < toX; x++) {
    const index = y * scan.grid.cols + x;
    if (scan.grid.chars[index]!.trim() === '') continue;
    counts.set(scan.grid.fg[index]!, (counts.get(scan.grid.fg[index]!) ?? 0) + 1);
  }
  let best: number | undefined;
  let bestCount = 0;
  for (const [fg, count] of counts) if (count > bestCount) [best, bestCount] = [fg, count];
  return best;
}

/** How a list's frame or status line counts its marked items: "10 B in 2 files" (mc), "3 selected", "2 marked", mutt's "Tag:1". */
const SELECTION_COUNT = /\bin\s+(\d+)\s+(?:files?|items?|entries|directories)\b|\b(\d+)\s+(?:selected|marked|tagged)\b|\bTag(?:ged)?:\s*(\d+)/i;

/** The count of marked items written on a box's rows other than the list's (its divider, its bottom edge), if any. */
export function selectionCount(scan: ScreenScan, box: Bounds, listRows: ReadonlySet<number>): number | undefined {
  for (let y = box.y; y < box.y + box.h; y++) {
    if (listRows.has(y)) continue;
    const match = SELECTION_COUNT.exec(scan.slice(y, box.x, box.x + box.w).text);
    if (match) return Number(match[1] ?? match[2] ?? match[3]);
  }
  return undefined;
}

/**
 * Marks the items drawn in the marks' colour as selected: the one colour, of those of the items beside the
 * bar, drawn on exactly `count` items (the bar's row counted when drawn in it too, as mc draws a marked item
 * under its bar), and on fewer than all of them. The bar's row is selected only when drawn in that colour;
 * otherwise it is the current row, which keeps the focus. Returns whether any item was marked.
 */
export function markByColour(items: readonly ColouredItem[], count: number): boolean {
  const bars = items.filter((item) => item.bar);
  if (bars.length !== 1 || count <= 0) return false;
  const bar = bars[0]!;
  const byColour = new Map<number, ColouredItem[]>();
  for (const item of items) if (!item.bar) byColour.set(item.fg, [...(byColour.get(item.fg) ?? []), item]);
  const sizeOf = (fg: number, group: ColouredItem[]) => group.length + (bar.fg === fg ? 1 : 0);
  let fitting = [...byColour].filter(([fg, group]) => sizeOf(fg, group) === count && group.length < items.length - 1);
  // As many directories as marks: a colour whose items all open with one type glyph is that type's.
  if (fitting.length > 1) fitting = fitting.filter(([, group]) => !sameTypeGlyph(group));
  // None fits (marks scrolled out of sight) or several do: the colour is not known, and a wrong selection is worse than none.
  if (fitting.length !== 1) return false;
  const [fg, group] = fitting[0]!;
  for (const item of group) item.node.selected = true;
  if (bar.fg === fg) bar.node.selected = true;
  else {
    delete bar.node.selected;
    bar.node.current = true;
  }
  return true;
}

/** Glyphs a list draws in a column of its own on the items marked for an operation (mutt's tagged messages' `*`). */
const MARK_GLYPHS = new Set([...'*+✓✔']);

export interface GlyphItem {
  node: Found;
  /** The item's row and its extent on it. */
  y: number;
  left: number;
  right: number;
  /** Whether it is the one row the selection bar lights. */
  bar: boolean;
}

/**
 * Items marked by a glyph: a list (mutt's index) puts a mark such as `*` in a column of its own, blank on both
 * sides, on the items marked for an operation, and says how many on its status line ("Tag:1"). A `*` also opens
 * names (an executable in a file list), so the count decides: the one column holding a lone mark glyph on exactly
 * `count` items and blank on the others holds the marks. Those items are selected; the bar's row keeps the focus
 * as the current row (it stays selected when it is marked too). Returns whether any item was marked.
 */
export function markByGlyph(scan: ScreenScan, items: readonly GlyphItem[], count: number): boolean {
  const bars = items.filter((item) => item.bar);
  if (bars.length !== 1 || count <= 0 || count >= items.length) return false;
  const at = (x: number, y: number) => scan.grid.chars[y * scan.grid.cols + x] ?? ' ';
  const blank = (x: number, y: number) => at(x, y).trim() === '';
  const byColumn = new Map<number, GlyphItem[]>();
  for (const item of items) {
    for (let x = item.left; x <= item.right; x++) {
      if (MARK_GLYPHS.has(at(x, item.y)) && (x === item.left || blank(x - 1, item.y)) && blank(x + 1, item.y)) byColumn.set(x, [...(byColumn.get(x) ?? []), item]);
    }
  }
  const fitting = [...byColumn].filter(([x, marked]) => marked.length === count && items.every((item) => marked.includes(item) || blank(x, item.y)));
  if (fitting.length !== 1) return false;
  const marked = fitting[0]![1];
  for (const item of marked) item.node.selected = true;
  const bar = bars[0]!;
  if (!marked.includes(bar)) {
    delete bar.node.selected;
    bar.node.current = true;
  }
  return true;
}
