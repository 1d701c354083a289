// Heuristic "numbered-text": rows that open with consecutive line numbers in a gutter of their own colour
// are a text buffer (an editor's, or a pager's with numbers on), not a list: micro, vim with `number`. The
// editor's current-line highlight would otherwise make the row under the cursor a "selected item", and an
// empty line's lit gutter number another. The buffer is a text area when the cursor is in it, a document
// when not; each line is a text node named by its text without the number, the cursor's line focused.
import type { Found, ScreenScan } from './scan.js';

export const NUMBERED_TEXT_HEURISTIC = 'numbered-text';

/** Fewer numbered rows than this say too little to tell a gutter from a column of figures. */
const MIN_NUMBERED_ROWS = 2;

interface GutterRow {
  y: number;
  /** The line number; undefined for a wrapped line's continuation (blank gutter). */
  number?: number;
  /** Column just past the number's last digit. */
  digitsEnd: number;
  /** Index into the region row's text where the line's text starts (after the blank past the number). */
  textIndex: number;
  /** The row's number stands after marks in a sign column (gdb's `B+>`). */
  marked?: true;
}

/**
 * A row opening with a number then a blank (or ending at the number): its number and where the text starts. Marks
 * of up to three glyphs may stand before the number, apart from it, in a sign column: gdb's source window marks its
 * breakpoints and the line it stopped at (`B+>     2  int add(...)`), vim its signs. The first glyph is no digit, so
 * two numbers are not read as marks and a number.
 */
function numberedRow(scan: ScreenScan, regionIndex: number, y: number): GutterRow | undefined {
  const { text, columnAt } = scan.regionRow(regionIndex, y);
  const match = /^( *)(?:([^\s\d]\S{0,2}) +)?(\d{1,7})(?= |$)/.exec(text);
  if (!match) return undefined;
  const end = match[0].length;
  const row: GutterRow = { y, number: Number(match[3]), digitsEnd: scan.columnEnd(y, columnAt, end), textIndex: Math.min(end + 1, text.length) };
  if (match[2] !== undefined) row.marked = true;
  return row;
}

/** Cell style, to tell a gutter's digits from the text beside them: foreground, visible background, attributes. */
function styleAt(scan: ScreenScan, x: number, y: number): string {
  const index = y * scan.grid.cols + x;
  return `${scan.grid.fg[index]}/${scan.background(x, y)}/${scan.grid.flags[index]}`;
}

/** The digits are drawn unlike the text on most rows that have text: a gutter, not figures in the text. */
function gutterStandsApart(scan: ScreenScan, regionIndex: number, rows: readonly GutterRow[]): boolean {
  let withText = 0;
  let apart = 0;
  for (const row of rows) {
    const { text, columnAt } = scan.regionRow(regionIndex, row.y);
    const first = text.slice(row.textIndex).search(/\S/);
    if (first < 0) continue;
    withText++;
    if (styleAt(scan, row.digitsEnd - 1, row.y) !== styleAt(scan, columnAt[row.textIndex + first]!, row.y)) apart++;
  }
  return withText > 0 && apart * 2 >= withText;
}

/** Rules a ruled table draws between its columns (tables.ts reads the same). */
const COLUMN_RULES = /^[│┃║┆┊|]/;

/**
 * Every numbered row goes on, past the blank after its number, with a column rule in one same column: the
 * numbers are the first column of a ruled table (pspg's `id` column drawn in its own colour), not a gutter.
 */
function ruledColumn(scan: ScreenScan, regionIndex: number, rows: readonly GutterRow[]): boolean {
  let column: number | undefined;
  for (const row of rows) {
    const { text, columnAt } = scan.regionRow(regionIndex, row.y);
    const first = text.slice(row.textIndex).search(/\S/);
    if (first < 0 || !COLUMN_RULES.test(text.slice(row.textIndex + first))) return false;
    const x = columnAt[row.textIndex + first]!;
    if (column !== undefined && x !== column) return false;
    column = x;
  }
  return true;
}

function bufferFrom(scan: ScreenScan, regionIndex: number, rows: GutterRow[]): Found {
  const region = scan.regions[regionIndex]!;
  const { cursor } = scan.grid;
  const top = rows[0]!.y;
  const bottom = rows[rows.length - 1]!.y;
  const left = region.rect.x;
  const right = region.rect.x + region.rect.w;
  const textX = rows[0]!.digitsEnd + 1;
  const bounds = { x: left, y: top, w: right - left, h: bottom - top + 1 };
  const editing = cursor.visible && cursor.y >= top && cursor.y <= bottom && cursor.x >= textX - 1 && cursor.x < right;
  const children: Found[] = rows.map((row) => {
    const line: Found = {
      role: 'text',
      name: scan.regionRow(regionIndex, row.y).text.slice(row.textIndex).trim(),
      bounds: { x: textX, y: row.y, w: Math.max(1, right - textX), h: 1 },
      heuristic: NUMBERED_TEXT_HEURISTIC,
    };
    if (editing && row.y === cursor.y) line.focused = true;
    return line;
  });
  scan.claim(bounds);
  return { role: editing ? 'textarea' : 'document', name: '', bounds, heuristic: NUMBERED_TEXT_HEURISTIC, children };
}

function lastNumbered(run: readonly GutterRow[]): GutterRow | undefined {
  for (let index = run.length - 1; index >= 0; index--) if (run[index]!.number !== undefined) return run[index];
  return undefined;
}

export function findNumberedText(scan: ScreenScan, regionIndex: number): Found[] {
  const region = scan.regions[regionIndex]!;
  const found: Found[] = [];
  let run: GutterRow[] = [];
  const flush = () => {
    // A wrapped line's continuation after the last number belongs to it only if text follows; blank rows do not.
    while (run.length && run[run.length - 1]!.number === undefined) run.pop();
    const numbered = run.filter((row) => row.number !== undefined);
    // A sign column is blank on most rows: rows that all open with a word before a number are a list of them.
    const unmarked = numbered.filter((row) => !row.marked).length;
    if (unmarked >= MIN_NUMBERED_ROWS && unmarked * 2 > numbered.length && gutterStandsApart(scan, regionIndex, numbered) && !ruledColumn(scan, regionIndex, numbered)) found.push(bufferFrom(scan, regionIndex, run));
    run = [];
  };
  for (let y = region.rect.y; y < region.rect.y + region.rect.h; y++) {
    const row = numberedRow(scan, regionIndex, y);
    const last = lastNumbered(run);
    if (row && last && row.digitsEnd === last.digitsEnd && row.number === last.number! + 1) {
      run.push(row);
      continue;
    }
    // A wrapped line goes on under a blank gutter, its text where the numbered lines' text starts.
    if (!row && last) {
      const { text, columnAt } = scan.regionRow(regionIndex, y);
      const first = text.search(/\S/);
      if (first >= 0 && columnAt[first]! >= last.digitsEnd + 1) {
        run.push({ y, digitsEnd: last.digitsEnd, textIndex: Math.max(0, columnAt.indexOf(last.digitsEnd + 1)) });
        continue;
      }
    }
    flush();
    if (row) run.push(row);
  }
  flush();
  return found;
}
