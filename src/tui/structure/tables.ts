// Heuristic "column-table": inside a box, vertical rules (│) running down most of its rows split it into
// columns: a file manager's panel, a process table drawn with separators. The first row of text is the
// header when it is drawn in another style than the row below it; every other row with text is a row of
// cells, and a row on another background than the box's is the selected one. Rows with nothing but rules
// are the table's empty space, not rows. Outside boxes, two or more rules running down the same rows make
// a table of those rows (visidata's sheet, a query result drawn with │ between its columns).
import type { Bounds } from '../ui-node.js';
import { inkForeground, markByColour, selectionCount, type ColouredItem } from './marks.js';
import { tidy, type Found, type ScreenScan } from './scan.js';

export const TABLE_HEURISTIC = 'column-table';

const RULES = new Set([...'│┃║|┆┊']);
/** A rule crossing a divider row (├───┼───┤) is the rule running on through it. */
const CROSSINGS = new Set([...'┼┿╂╋╪╫╬+']);
const LINE_ONLY = /^[│┃║|┆┊─━═┼┿╪╋+=-]+$/;
/** A rule must run down this share of the rows of the area, and at least MIN_ROWS rows. */
const RULE_SHARE = 0.6;
const MIN_ROWS = 3;

/** Whether a cell is still this region's to explain: not under a box drawn over it, not claimed. */
function open(scan: ScreenScan, regionIndex: number, index: number): boolean {
  return scan.owner[index] === regionIndex && scan.claimed[index] === 0;
}

/** Columns holding a rule on enough of the rows the region still shows there (a dialog may hide the rest), in order. */
function ruleColumns(scan: ScreenScan, regionIndex: number): number[] {
  const { rect } = scan.regions[regionIndex]!;
  if (rect.h < MIN_ROWS) return [];
  const columns: number[] = [];
  for (let x = rect.x + 1; x < rect.x + rect.w - 1; x++) {
    let count = 0;
    let shown = 0;
    for (let y = rect.y; y < rect.y + rect.h; y++) {
      const index = y * scan.grid.cols + x;
      if (!open(scan, regionIndex, index)) continue;
      shown++;
      if (RULES.has(scan.grid.chars[index]!) || CROSSINGS.has(scan.grid.chars[index]!)) count++;
    }
    if (count >= Math.max(MIN_ROWS, Math.ceil(shown * RULE_SHARE))) columns.push(x);
  }
  return columns;
}

interface TableRow {
  y: number;
  cells: { text: string; bounds: Bounds }[];
  /** The most common background of the row's cells, and whether it differs from the box's. */
  lit: boolean;
  /** Foreground and attributes of the first character, to tell a header from the rows below it. */
  style: string;
}

function readTableRow(scan: ScreenScan, regionIndex: number, y: number, edges: number[]): TableRow {
  const region = scan.regions[regionIndex]!;
  const cells: TableRow['cells'] = [];
  let litCells = 0;
  let cellCount = 0;
  let style = '';
  for (let i = 0; i + 1 < edges.length; i++) {
    const from = edges[i]! + 1;
    const to = edges[i + 1]!;
    let text = '';
    for (let x = from; x < to; x++) {
      const index = y * scan.grid.cols + x;
      if (!open(scan, regionIndex, index)) {
        text += ' ';
        continue;
      }
      if (scan.grid.widths[index] !== 0) text += scan.grid.chars[index] || ' ';
      cellCount++;
      if (scan.background(x, y) !== region.background) litCells++;
      if (!style && scan.grid.chars[index] !== ' ') style = `${scan.grid.fg[index]}/${scan.grid.flags[index]}`;
    }
    cells.push({ text: tidy(text), bounds: { x: from, y, w: to - from, h: 1 } });
  }
  return { y, cells, lit: cellCount > 0 && litCells * 2 > cellCount, style };
}

/** Outside a box, this many rules running down the same rows: one rule over a few rows is too little to tell from text. */
const MIN_UNBOXED_RULES = 2;

const isRule = (char: string) => RULES.has(char) || CROSSINGS.has(char);

/**
 * Outside boxes: runs of rule characters down at least MIN_ROWS rows, grouped by the rows they span; a group
 * of MIN_UNBOXED_RULES or more is a table of those rows, up to and with its
 * last rule (when nothing follows it, as after visidata's ║) or the region's edge. Every column between
 * rules must show text on some row, so a drawing of bars side by side (git's commit graph) is not a table.
 * The table starts at the region's edge: whatever is left of its first rule is its first column.
 */
function ruledBlocks(scan: ScreenScan, regionIndex: number): { rect: Bounds; rules: number[] }[] {
  const { rect } = scan.regions[regionIndex]!;
  const { cols, chars } = scan.grid;
  const groups = new Map<string, number[]>();
  for (let x = rect.x + 1; x < rect.x + rect.w - 1; x++) {
    let top = -1;
    for (let y = rect.y; y <= rect.y + rect.h; y++) {
      const index = y * cols + x;
      const on = y < rect.y + rect.h && open(scan, regionIndex, index) && isRule(chars[index]!);
      if (on && top < 0) top = y;
      if (on || top < 0) continue;
      if (y - top >= MIN_ROWS) {
        const key = `${top}:${y - 1}`;
        groups.set(key, [...(groups.get(key) ?? []), x]);
      }
      top = -1;
    }
  }
  const blocks: { rect: Bounds; rules: number[] }[] = [];
  for (const [key, rules] of groups) {
    if (rules.length < MIN_UNBOXED_RULES) continue;
    const [top, bottom] = key.split(':').map(Number) as [number, number];
    const text = (y: number, from: number, to: number) => scan.slice(y, from, to).text.trim() !== '';
    const rows = Array.from({ length: bottom - top + 1 }, (_, i) => top + i);
    const last = rules[rules.length - 1]!;
    const right = rows.some((y) => text(y, last + 1, rect.x + rect.w)) ? rect.x + rect.w : last + 1;
    const edges = [rect.x - 1, ...rules.filter((rule) => rule < right - 1), right];
    const filled = edges.slice(1).every((edge, i) => rows.some((y) => text(y, edges[i]! + 1, edge)));
    if (filled) blocks.push({ rect: { x: rect.x, y: top, w: right - rect.x, h: bottom - top + 1 }, rules });
  }
  return blocks;
}

export function findTables(scan: ScreenScan, regionIndex: number): Found[] {
  const region = scan.regions[regionIndex]!;
  if (!region.box) return ruledBlocks(scan, regionIndex).map(({ rect, rules }) => tableIn(scan, regionIndex, rect, rules)).filter((table) => table !== undefined);
  const rules = ruleColumns(scan, regionIndex);
  if (rules.length === 0) return [];
  const table = tableIn(scan, regionIndex, region.rect, rules);
  return table ? [table] : [];
}

/** The table of a rectangle of a region split into columns at `rules`. */
function tableIn(scan: ScreenScan, regionIndex: number, rect: Bounds, rules: number[]): Found | undefined {
  // A rule on the rectangle's last column closes the last column (visidata's ║).
  const edges = [rect.x - 1, ...rules.filter((rule) => rule < rect.x + rect.w - 1), rect.x + rect.w - (rules.includes(rect.x + rect.w - 1) ? 1 : 0)];
  const rows: TableRow[] = [];
  // The table spans the rows its rules run through (or a divider crosses); a status row below an ASCII
  // divider, where the rules stop, stays outside.
  const ruled = (y: number) => rules.every((x) => !open(scan, regionIndex, y * scan.grid.cols + x) || LINE_ONLY.test(scan.grid.chars[y * scan.grid.cols + x]!));
  const spanned: number[] = [];
  for (let y = rect.y; y < rect.y + rect.h; y++) if (ruled(y)) spanned.push(y);
  for (const y of spanned) {
    const row = readTableRow(scan, regionIndex, y, edges);
    // Rows of nothing but rules and line pieces (an ASCII "|----|---|" divider) separate rows; they are not rows.
    if (row.cells.some((cell) => cell.text !== '' && !LINE_ONLY.test(cell.text))) rows.push(row);
  }
  if (rows.length === 0) return undefined;
  const [first, second] = rows;
  // The header is drawn in another style than the row below it, or ruled off from the rows below by a
  // line of its own (sqlite's `.mode box`, psql, mysql).
  const ruledOff = (row: TableRow) => spanned.includes(row.y + 1) && !rows.some((other) => other.y === row.y + 1);
  const header = first && !first.lit && (second === undefined || second.style !== first.style || ruledOff(first)) ? first : undefined;
  const children: Found[] = [];
  const cellsOf = (row: TableRow, role: string) =>
    row.cells.map((cell) => ({ role, name: cell.text, bounds: cell.bounds, heuristic: TABLE_HEURISTIC }) satisfies Found);
  const rowBounds = (y: number): Bounds => ({ x: rect.x, y, w: rect.w, h: 1 });
  if (header) {
    children.push({ role: 'headerrow', name: tidy(header.cells.map((cell) => cell.text).join(' ')), bounds: rowBounds(header.y), heuristic: TABLE_HEURISTIC, children: cellsOf(header, 'columnheader') });
  }
  const coloured: ColouredItem[] = [];
  for (const row of rows) {
    if (row === header) continue;
    const node: Found = { role: 'row', name: tidy(row.cells.map((cell) => cell.text).join(' ')), bounds: rowBounds(row.y), heuristic: TABLE_HEURISTIC, children: cellsOf(row, 'cell') };
    if (row.lit) node.selected = true;
    children.push(node);
    const fg = inkForeground(scan, row.y, rect.x, rect.x + rect.w);
    if (fg !== undefined) coloured.push({ node, fg, bar: row.lit });
  }
  // A bar lighting most rows is the table's colour, not a selection.
  const lit = children.filter((child) => child.selected);
  if (lit.length > 1) for (const child of lit) delete child.selected;
  // Rows marked in a colour of their own beside the bar (mc's Insert), as many as the frame counts, are the selection.
  else {
    const box = scan.regions[regionIndex]!.box;
    const count = box && lit.length === 1 ? selectionCount(scan, box.bounds, new Set(spanned)) : undefined;
    if (count !== undefined) markByColour(coloured, count);
  }
  // What a box drawn over the table hides stays that box's to explain.
  for (const y of spanned) {
    for (let x = rect.x; x < rect.x + rect.w; x++) if (scan.owner[y * scan.grid.cols + x] === regionIndex) scan.claimed[y * scan.grid.cols + x] = 1;
  }
  const top = spanned[0]!;
  const bounds = { x: rect.x, y: top, w: rect.w, h: spanned[spanned.length - 1]! - top + 1 };
  scan.touch(bounds);
  return { role: 'table', name: header ? header.cells.map((cell) => cell.text).filter(Boolean).join(', ') : '', bounds, heuristic: TABLE_HEURISTIC, children };
}
