// Heuristic "highlighted-row-list": a block of adjacent text rows in which one row is drawn highlighted
// (inverse or another background) is a list or menu, and the highlighted row is its selected item. A
// full-width highlighted first row in another colour is the column header (htop, top).
import { Attr } from '../grid.js';
import type { Bounds } from '../ui-node.js';
import { alignedColumns, cellsOf } from './aligned-columns.js';
import { readMark } from './checkboxes.js';
import { markByGlyph, selectionCount } from './marks.js';
import { isHighlighted, readRow, tidy, type Found, type RowInfo, type ScreenScan } from './scan.js';

export const LIST_HEURISTIC = 'highlighted-row-list';

const RULE_ROW = /^\s*[-─━=═]{3,}(?:.*[-─━=═]{3,})?\s*$/u;
/** A rule with a short label before it ("5/5 (1) ─────", fzf's count over its list): the rule is most of the row. */
const LABELLED_RULE = /^\s*(\S.*?)\s*([-─━=═]{10,})\s*$/u;

/** A rule across the row, titled or labelled or not ("--- /home/ada ---", ncdu; fzf's count line): not an item. */
function isRuleRow(text: string): boolean {
  if (RULE_ROW.test(text)) return true;
  const labelled = LABELLED_RULE.exec(text);
  return labelled !== null && labelled[2]!.length > 2 * labelled[1]!.length;
}
/** A header highlight spans (nearly) the whole width. */
const HEADER_WIDTH_SHARE = 0.9;
/** Items of a list without header start within this many columns of the selected item. */
const ALIGNMENT_SLACK = 4;

/**
 * Every row of a list spans the list's full width: a selection bar usually reaches further than the text
 * of a row, and bounds (and so ids) must not change when the selection moves onto or off a row.
 */
function rowBounds(row: RowInfo, left: number, right: number): Bounds {
  return { x: left, y: row.y, w: right - left + 1, h: 1 };
}

/**
 * Glyphs a list draws in a column of its own before its items to point at the current one or mark chosen
 * ones (fzf's `>` pointer and marker, a prompt library's `❯`, git's `*`). Not `-` or `+`: a signed number
 * or a tree's expander starts a row's text.
 */
const POINTER_GLYPHS = new Set(['>', '»', '›', '❯', '❱', '▶', '▸', '►', '▷', '▹', '➜', '➤', '➔', '→', '⇒', '*', '•', '●']);

/** Where a row's text begins after the pointer glyphs (and blanks) that open it, if any open it. */
function afterPointer(scan: ScreenScan, regionIndex: number, row: RowInfo): { column: number; index: number } | undefined {
  const { text, columnAt } = scan.regionRow(regionIndex, row.y);
  let index = columnAt.indexOf(row.inkColumn);
  let glyphs = 0;
  for (; index >= 0 && index < text.length; index++) {
    const char = text[index]!;
    if (POINTER_GLYPHS.has(char)) glyphs++;
    else if (char !== ' ') break;
  }
  return glyphs > 0 && index >= 0 && index < text.length ? { column: columnAt[index]!, index } : undefined;
}

/**
 * The names of a list's items without a pointer or marker column: a row opened by pointer glyphs whose text
 * after them starts in the column where the unmarked rows' text starts is named by that text alone, so an
 * item keeps its name whether the pointer is on it or not. Rows are left as they are when every row is so
 * opened (bullets of a text) or the rest start elsewhere.
 */
function namesWithoutPointers(scan: ScreenScan, regionIndex: number, items: RowInfo[]): Map<RowInfo, string> {
  const names = new Map<RowInfo, string>();
  const pointed = items.map((row) => afterPointer(scan, regionIndex, row));
  const plainColumns = new Set(items.filter((_, index) => !pointed[index]).map((row) => row.inkColumn));
  items.forEach((row, index) => {
    const after = pointed[index];
    if (after && plainColumns.has(after.column)) names.set(row, scan.regionRow(regionIndex, row.y).text.slice(after.index));
  });
  return names;
}

function itemNode(row: RowInfo, selected: boolean, left: number, right: number, ownText = row.text): Found {
  const text = tidy(ownText);
  const mark = readMark(text);
  const node: Found = mark
    ? { role: mark.role, name: mark.label, checked: mark.checked, bounds: rowBounds(row, left, right), heuristic: LIST_HEURISTIC }
    : { role: 'listitem', name: text, bounds: rowBounds(row, left, right), heuristic: LIST_HEURISTIC };
  if (selected) node.selected = true;
  return node;
}

/** Column names are words apart by two blanks or more: at least this many of them. */
const MIN_COLUMNS = 3;

/**
 * Column names are words, not figures: a row with a cell that starts with a digit ("1 N  Nov 24  8  First
 * story", newsboat's first article under its selection bar) holds data.
 */
function namesColumns(text: string): boolean {
  const cells = text.trim().split(/\s{2,}/);
  return cells.length >= MIN_COLUMNS && !cells.some((cell) => /^\d/.test(cell));
}

/**
 * The header row: highlighted across the width, with at least two rows below it, and nothing but
 * highlighted rows (tabs, a title) above it in the block, so a full-width selection bar in the middle
 * of a list is not taken for one. A highlighted row in another colour must follow (the selection), or the
 * row must name columns.
 */
function findHeader(block: RowInfo[], lit: RowInfo[], width: number): RowInfo | undefined {
  for (let index = 0; index < block.length - 2; index++) {
    const row = block[index]!;
    if (!lit.includes(row)) return undefined;
    if (row.litCells < width * HEADER_WIDTH_SHARE) continue;
    // The only highlighted row of a block is its selection (a curses list with its first item chosen),
    // unless it names columns (top's "PID USER PR ..."); otherwise a header needs a selection bar in
    // another colour below it to stand apart from.
    const below = lit.filter((other) => other.y > row.y);
    if (below.length === 0 ? namesColumns(row.text) : below[0]!.color !== row.color) return row;
  }
  return undefined;
}

/**
 * Column names underlined one by one, the blanks between them not (taskwarrior's `ID Age Description Urg`, one
 * blank apart): each underlined run is a column's name, at least MIN_COLUMNS of them, and all of the row's text.
 */
function underlinedApart(scan: ScreenScan, row: RowInfo): boolean {
  let runs = 0;
  let inRun = false;
  for (let x = row.firstColumn; x <= row.lastColumn; x++) {
    const index = row.y * scan.grid.cols + x;
    const underlined = (scan.grid.flags[index]! & Attr.underline) !== 0;
    if (!underlined && scan.grid.chars[index]!.trim() !== '') return false;
    if (underlined && !inRun) runs++;
    inRun = underlined;
  }
  return runs >= MIN_COLUMNS;
}

/** Attributes that set a header row apart from the rows under it. */
const HEADER_ATTRS = Attr.bold | Attr.underline;

/**
 * A plain first row that names columns in bold or underlined type, over rows drawn without (cfdisk's
 * "Device Boot Start End ..." over its partitions), is the list's column header, not its first item.
 */
function styledHeader(scan: ScreenScan, block: RowInfo[], lit: RowInfo[]): RowInfo | undefined {
  const [first, ...rest] = block;
  if (!first || rest.length === 0 || lit.includes(first) || !(namesColumns(first.text) || underlinedApart(scan, first))) return undefined;
  const attrs = (row: RowInfo) => scan.grid.flags[row.y * scan.grid.cols + row.inkColumn]! & HEADER_ATTRS;
  const own = attrs(first);
  return own !== 0 && rest.every((row) => (attrs(row) & own) !== own) ? first : undefined;
}

/**
 * Items marked by a glyph in a column of their own, as many as a count on a row outside the list says (mutt's
 * `*` on tagged messages, its status line's "Tag:1"): selected beside the bar's row, which stays current.
 */
function markTagged(scan: ScreenScan, items: RowInfo[], children: Found[], selected: RowInfo[], left: number, right: number): void {
  if (selected.length !== 1) return;
  const screen = { x: 0, y: 0, w: scan.grid.cols, h: scan.grid.rows };
  const count = selectionCount(scan, screen, new Set(items.map((row) => row.y)));
  if (count === undefined) return;
  markByGlyph(scan, items.map((row, index) => ({ node: children[index]!, y: row.y, left, right, bar: selected.includes(row) })), count);
}

/**
 * The colour of the selection bar among a block's lit rows: the first one's, unless the rows are lit in two
 * colours, one on a single row and the other on all the rest: a popup menu drawn in a face of its own with its
 * current item in another (emacs's F10 menus, blue with the current item red), whose one row is the selection.
 */
function selectionColour(lit: readonly RowInfo[]): number | undefined {
  const counts = new Map<number, number>();
  for (const row of lit) counts.set(row.color, (counts.get(row.color) ?? 0) + 1);
  const single = [...counts].filter(([, count]) => count === 1);
  if (counts.size === 2 && single.length === 1 && lit.length > 2) return single[0]![0];
  return lit[0]?.color;
}

/**
 * Rows a band colour lights alternate with unlit ones, in a block of four rows or more: two or more rows lit alike,
 * every other row from the first of them to the last and none between (a line after the table, a shell's prompt,
 * may follow unlit).
 */
const MIN_STRIPED_ROWS = 4;

function striped(items: readonly RowInfo[], lit: readonly RowInfo[]): boolean {
  if (items.length < MIN_STRIPED_ROWS || lit.length < 2) return false;
  const indexes = lit.map((row) => items.indexOf(row));
  return indexes.every((index, i) => i === 0 || index === indexes[i - 1]! + 2);
}

/**
 * Where a table with nothing lit starts in a block: at a row naming columns in bold or underlined type over plain
 * rows whose values stand under those names (mtr's "Host  Loss%  Snt  Last ..." over its hops, systemctl's
 * "UNIT  LOAD  ACTIVE ..."), the lines above it (mtr's title and key help) no part of it. Without a selection bar
 * such rows read as text runs, the header's names two blanks apart as one ("Avg  Best  Wrst StDev"), and no
 * value said which column it is in.
 */
function plainTableStart(scan: ScreenScan, block: RowInfo[]): number | undefined {
  for (let index = 0; index + 1 < block.length; index++) {
    const rows = block.slice(index);
    const header = styledHeader(scan, rows, []);
    if (!header) continue;
    const left = Math.min(...rows.map((row) => row.firstColumn));
    const right = Math.max(...rows.map((row) => row.lastColumn));
    if (alignedColumns(scan, header, rows.slice(1), left, right)) return index;
  }
  return undefined;
}

function listFromBlock(scan: ScreenScan, regionIndex: number, whole: RowInfo[]): Found | undefined {
  const region = scan.regions[regionIndex]!;
  const lit = whole.filter(isHighlighted);
  const start = lit.length === 0 ? plainTableStart(scan, whole) : 0;
  if (start === undefined) return undefined;
  const block = whole.slice(start);
  // A column beside another is read as any block: htop's Sort by panel and the process list beside it each
  // open with a title in the header colour, and findHeader takes one only with a row lit otherwise below it,
  // so a column whose selection is its first row (ranger's) keeps that row as its selection.
  const header = findHeader(block, lit, region.rect.w) ?? styledHeader(scan, block, lit);
  let items = header ? block.filter((row) => row.y > header.y) : block;
  const selectedColour = selectionColour(lit.filter((row) => items.includes(row)));
  let selected = items.filter((row) => isHighlighted(row) && row.color === selectedColour);
  // Stripes: every other row lit alike is a table's banding (taskwarrior's report), not rows chosen.
  if (striped(items, selected)) {
    if (!header) return undefined;
    selected = [];
  }
  if (!header) {
    if (selected.length === 0 || selected.length >= items.length) return undefined;
    // Without a header, the list is the run of rows aligned with the selected one: a caption line
    // directly above a menu is not one of its items.
    const anchor = selected[0]!;
    const aligned = (row: RowInfo) => Math.abs(row.inkColumn - anchor.inkColumn) <= ALIGNMENT_SLACK;
    let from = items.indexOf(anchor);
    let to = from;
    while (from > 0 && aligned(items[from - 1]!)) from--;
    while (to < items.length - 1 && aligned(items[to + 1]!)) to++;
    items = items.slice(from, to + 1);
    selected = selected.filter((row) => items.includes(row));
    // Every row of the run lit alike is a popup's colour (a completion menu before one is chosen), not a selection.
    if (selected.length >= items.length) return undefined;
    // Several rows lit alike, with no row lit otherwise, are marks in a text (less's search hits on short
    // lines), not a selection: a list's cursor is one row, and rows it has marked are drawn unlike it.
    if (selected.length > 1 && lit.every((row) => row.color === selectedColour)) return undefined;
  }
  // Under a header one row is a list (a table of one partition); without one it takes two to make a list.
  if (items.length < (header ? 1 : 2)) return undefined;
  const rows = header ? [header, ...items] : items;
  const left = Math.min(...rows.map((row) => row.firstColumn));
  const right = Math.max(...rows.map((row) => row.lastColumn));
  const names = namesWithoutPointers(scan, regionIndex, items);
  const children = items.map((row) => itemNode(row, selected.includes(row), left, right, names.get(row)));
  markTagged(scan, items, children, selected, left, right);
  if (header) {
    const headerNode: Found = { role: 'header', name: tidy(header.text), bounds: rowBounds(header, left, right), heuristic: LIST_HEURISTIC };
    // Values standing under the column names they belong to: each row's cells, as a ruled table's.
    const columns = alignedColumns(scan, header, items, left, right);
    if (columns) {
      headerNode.children = cellsOf(scan, header.y, columns, 'columnheader', LIST_HEURISTIC);
      children.forEach((child, index) => {
        const row = items[index]!;
        const textFrom = names.has(row) ? afterPointer(scan, regionIndex, row)?.column : undefined;
        if (child.role === 'listitem') child.children = cellsOf(scan, row.y, columns, 'cell', LIST_HEURISTIC, textFrom);
      });
    }
    children.unshift(headerNode);
  }
  const top = rows[0]!.y;
  const bounds = { x: left, y: top, w: right - left + 1, h: rows[rows.length - 1]!.y - top + 1 };
  for (const row of rows) scan.claim({ x: region.rect.x, y: row.y, w: region.rect.w, h: 1 });
  return { role: 'list', name: header ? tidy(header.text) : '', bounds, heuristic: LIST_HEURISTIC, children };
}

function promptUnder(scan: ScreenScan, regionIndex: number, row: RowInfo, block: readonly RowInfo[]): boolean {
  const { cursor } = scan.grid;
  if (block.length === 0 || !cursor.visible || cursor.y !== row.y || cursor.x <= row.lastColumn || isHighlighted(row)) return false;
  // The last text of the region: a question asked above a table (top's `Which user`) is no such prompt.
  const { rect } = scan.regions[regionIndex]!;
  for (let y = row.y + 1; y < rect.y + rect.h; y++) if (readRow(scan, regionIndex, y).ink > 0) return false;
  return true;
}

export function findLists(scan: ScreenScan, regionIndex: number): Found[] {
  const region = scan.regions[regionIndex]!;
  const lists: Found[] = [];
  let block: RowInfo[] = [];
  const flush = () => {
    if (block.length >= 2) {
      const list = listFromBlock(scan, regionIndex, block);
      if (list) lists.push(list);
    }
    block = [];
  };
  for (let y = region.rect.y; y < region.rect.y + region.rect.h; y++) {
    const row = readRow(scan, regionIndex, y);
    // A rule across the row ends a block like a blank row; so does a prompt waiting under the rows, unlit with
    // the cursor past its text and nothing below (a shell's `$ ` under the table a command printed): an input line.
    if (row.ink === 0 || isRuleRow(row.text) || promptUnder(scan, regionIndex, row, block)) flush();
    else block.push(row);
  }
  flush();
  return lists;
}
