// Heuristic "status-line": the first or last screen row drawn highlighted (less's file line, nano's title
// bar, a man page's footer) is a status bar, not the selected row of a list. So is the highlighted row just
// above a blank last row (tig's title line, nvim's window status over its empty command line) or a
// full-width one above the last one or two rows of plain text (mg's mode line over its echo area, lynx's
// message row over its help lines), and a
// full-width row in the same colour as such a bottom status between rows of plain text: the status line
// of a window stacked above another (vim and nvim -o). On a terminal without colours a mode line is drawn
// with rules instead of a highlight: a bottom row across the width that starts and ends with dashes around
// its words (hexedit's `---  file  --0x0/0x258--0%----`, emacs's mode line in monochrome) is a status too.
import { isHighlighted, readRow, tidy, type Found, type Region, type RowInfo, type ScreenScan } from './scan.js';

export const STATUS_HEURISTIC = 'status-line';

/** Rows of plain text under a status line at the bottom (an echo area, help lines) it can have. */
const MESSAGE_ROWS = 2;
/** A window's status line spans (nearly) the whole width. */
const FULL_WIDTH_SHARE = 0.9;
/** Items aligned with a highlighted top row within this many columns make it a list's selection, not a title. */
const ALIGNMENT_SLACK = 4;

function rowIsBlank(scan: ScreenScan, y: number): boolean {
  return scan.row(y).text.trim() === '';
}

/**
 * Whether row y of a region lies in a box drawn across the region's whole width: the box is a window of its own
 * (gdb's source window over its status bar and command lines), so the region's own rows start below it or end
 * above it, and a bar there is the region's first or last row.
 */
function acrossBox(scan: ScreenScan, region: Region, y: number): boolean {
  const { x, w } = region.rect;
  return scan.regions.some(({ box }) => box !== undefined && box.bounds.y <= y && y < box.bounds.y + box.bounds.h && box.bounds.x <= x && box.bounds.x + box.bounds.w >= x + w);
}

export function findStatusLines(scan: ScreenScan, regionIndex: number): Found[] {
  const region = scan.regions[regionIndex]!;
  const found: Found[] = [];
  let top = region.rect.y;
  let bottom = region.rect.y + region.rect.h - 1;
  while (top < bottom && acrossBox(scan, region, top)) top++;
  while (bottom > top && acrossBox(scan, region, bottom)) bottom--;
  if (bottom > top + 1 && rowIsBlank(scan, bottom)) bottom--;
  const status = (row: RowInfo) => {
    const bounds = { x: region.rect.x, y: row.y, w: region.rect.w, h: 1 };
    found.push({ role: 'status', name: tidy(row.text), bounds, heuristic: STATUS_HEURISTIC });
    scan.claim(bounds);
  };
  let last = readRow(scan, regionIndex, bottom);
  // Message lines under the status line (mg's and emacs's echo area, vifm's, lynx's two help lines): the
  // full-width highlighted row just above the last one or two rows of plain text is the status line,
  // unless it is shaped like the row above it, as a list's selection bar on its last visible item is, or,
  // over two rows, like the row below it, as a list's selection bar over its next items is.
  for (let rows = 1, plain = last; rows <= MESSAGE_ROWS && bottom - rows > top && plain.ink > 0 && !isHighlighted(plain); rows++) {
    const above = readRow(scan, regionIndex, bottom - rows);
    if (isHighlighted(above)) {
      const wide = above.litCells >= region.rect.w * FULL_WIDTH_SHARE;
      if (wide && !selectionBelow(scan, regionIndex, above) && (rows === 1 || !selectionOnTop(scan, regionIndex, above))) {
        bottom -= rows;
        last = above;
      }
      break;
    }
    plain = above;
  }
  const lastIsStatus = bottom !== top && (isHighlighted(last) || ruledModeLine(last, region.rect.w));
  const first = readRow(scan, regionIndex, top);
  // A window split off beside another need not have a status line of its own for its lit top row to be a list's
  // selection over rows shaped like it (cmus's artist column, its first artist current under the screen's title bar).
  const listOnTop = (lastIsStatus || region.split === 'window') && selectionOnTop(scan, regionIndex, first);
  const titled = isHighlighted(first) && !listOnTop && !(lastIsStatus && currentLineOfWindow(region, first, last));
  if (titled) status(first);
  if (!lastIsStatus) return found;
  status(last);
  if (last.litCells < region.rect.w * FULL_WIDTH_SHARE) return found;
  const stacked = stackedBar(scan, regionIndex, last, top);
  if (stacked) status(stacked);
  // The same under a title bar, between bars at both ends: a bar in another colour not shaped like the row
  // below it (lnav's breadcrumbs under its clock) is a second title bar, not a list's selected first item.
  const second = titled && bottom - top > 3 ? readRow(scan, regionIndex, top + 1) : undefined;
  if (second && isHighlighted(second) && second.color !== first.color && second.litCells >= region.rect.w * FULL_WIDTH_SHARE && !selectionOnTop(scan, regionIndex, second)) status(second);
  for (let y = top + 1; y < bottom - 1; y++) {
    const row = readRow(scan, regionIndex, y);
    if (!isHighlighted(row) || row.color !== last.color || row.litCells < region.rect.w * FULL_WIDTH_SHARE) continue;
    const above = readRow(scan, regionIndex, y - 1);
    const below = readRow(scan, regionIndex, y + 1);
    if (above.ink > 0 && below.ink > 0 && !isHighlighted(above) && !isHighlighted(below) && sameLayout(row.text, last.text)) status(row);
  }
  return found;
}

/** A mode line drawn without a highlight closes with a rule, and has words before it. */
const RULED_CLOSE = /[\p{L}\p{N}].*[-─=]{3,}$/u;
/**
 * It opens with a rule too, which may carry marks (hexedit's `-**` and emacs's `-UUU:**--` for a changed
 * buffer): a first word that starts with a rule character and holds another rule character or mark after it,
 * unlike a bullet's lone `-` or a negative number's `-5`.
 */
const RULED_OPEN = /^[-─=]\S*[-─=*%]/u;

/**
 * A plain row across the region's width whose words stand between rules at both ends is a mode line drawn
 * without colour; a row of text that merely contains dashes neither starts nor ends with them.
 */
function ruledModeLine(row: RowInfo, width: number): boolean {
  const text = row.text.trim();
  return row.ink > 0 && row.lastColumn - row.inkColumn + 1 >= width * FULL_WIDTH_SHARE && RULED_OPEN.test(text) && RULED_CLOSE.test(text);
}

/**
 * A full-width bar in another colour right on top of the bottom status line, under a row with no letter or
 * digit (blank, or only a scroll bar's or a frame's rule), is a second status bar (lnav's "Files :: Text
 * Filters" over its "L2 100%"), not a list's selected last item: that would have items shaped like it above.
 */
function stackedBar(scan: ScreenScan, regionIndex: number, last: RowInfo, top: number): RowInfo | undefined {
  const region = scan.regions[regionIndex]!;
  if (last.y - 2 <= top) return undefined;
  const bar = readRow(scan, regionIndex, last.y - 1);
  if (!isHighlighted(bar) || bar.color === last.color || bar.litCells < region.rect.w * FULL_WIDTH_SHARE) return undefined;
  const above = readRow(scan, regionIndex, last.y - 2);
  return /[\p{L}\p{N}]/u.test(above.text) ? undefined : bar;
}

/**
 * With a status line at the bottom already, a highlighted top row in another colour over rows that start
 * where it starts is the selected first row of a list (tig's newest commit), not a title bar.
 */
function selectionOnTop(scan: ScreenScan, regionIndex: number, first: RowInfo): boolean {
  return shapedLikePlainRow(scan, regionIndex, first, first.y + 1);
}

/**
 * A split window's status line is at its bottom; a highlighted top row in another colour than that status line
 * is the window's current line (tig's diff view beside its commit list, its cursor on the `commit` line), not
 * a second title. A title bar drawn over a window is in its status line's colour (weechat's title and status bars).
 */
function currentLineOfWindow(region: Region, first: RowInfo, last: RowInfo): boolean {
  return region.split === 'window' && first.color !== last.color;
}

/** A highlighted row under a plain row shaped like it is a list's selected item, not a status line. */
function selectionBelow(scan: ScreenScan, regionIndex: number, row: RowInfo): boolean {
  return shapedLikePlainRow(scan, regionIndex, row, row.y - 1);
}

/** The row at `y` is plain text that starts where `row` starts and is shaped like it: the two are rows of one list. */
function shapedLikePlainRow(scan: ScreenScan, regionIndex: number, row: RowInfo, y: number): boolean {
  const other = readRow(scan, regionIndex, y);
  return other.ink > 0 && !isHighlighted(other) && Math.abs(other.inkColumn - row.inkColumn) <= ALIGNMENT_SLACK && SAME_SHAPE <= shapeMatch(row.text, other.text);
}

/** Share of columns where two rows of one list show the same kind of character (digit, letter, blank, sign). */
const SAME_SHAPE = 0.7;

function kind(char: string | undefined): number {
  if (char === undefined || char === ' ') return 0;
  if (/\d/.test(char)) return 1;
  return /\p{L}/u.test(char) ? 2 : 3;
}

function shapeMatch(a: string, b: string): number {
  const length = Math.min(a.trimEnd().length, b.trimEnd().length);
  if (length === 0) return 0;
  let same = 0;
  for (let i = 0; i < length; i++) if (kind(a[i]) === kind(b[i])) same++;
  return same / length;
}

/** Runs of text (three blanks apart) with their first and last column. */
function runs(text: string): { start: number; end: number }[] {
  return [...text.matchAll(/\S+(?: {1,2}\S+)*/g)].map((match) => ({ start: match.index, end: match.index + match[0].length }));
}

/**
 * Status lines of stacked windows are drawn alike: the first run starts in the same column and further
 * runs (a ruler, a position) end in the same columns.
 */
function sameLayout(a: string, b: string): boolean {
  const one = runs(a);
  const other = runs(b);
  if (one.length === 0 || one.length !== other.length || one[0]!.start !== other[0]!.start) return false;
  return one.slice(1).every((run, index) => run.end === other[index + 1]!.end);
}
