// The screen as a person sees it, in a compact JSON form: text lines plus style spans. Recorded screens in
// test/fixtures/tui are stored in this form and turned back into cell grids for the heuristic tests.
import { ATTR_NAMES, Attr, DEFAULT_COLOR, RGB_FLAG, emptyGrid, linkSpans, screenLines, type AttrName, type CellGrid, type Cursor, type LinkSpan } from './grid.js';

/** A palette index (0..255) or "#rrggbb". */
export type SpanColor = number | string;

export interface StyleSpan {
  row: number;
  col: number;
  /** Columns covered. */
  len: number;
  fg?: SpanColor;
  bg?: SpanColor;
  attrs?: AttrName[];
}

export interface VisualFrame {
  cols: number;
  rows: number;
  /** One string per row, right-trimmed; a wide character appears once although it covers two columns. */
  lines: string[];
  cursor: Cursor;
  /** Runs of cells whose colours or attributes are not the defaults. */
  spans: StyleSpan[];
  /** [row, col] of every wide character, so columns can be recovered from `lines`. */
  wide: [number, number][];
  /** The hyperlinks, row by row; absent when the screen has none. */
  links?: LinkSpan[];
  /** The rows that go on from the row above by the terminal's wrapping (CellGrid.wrapped); absent when none. */
  wrapped?: number[];
}

function colorOut(color: number): SpanColor | undefined {
  if (color === DEFAULT_COLOR) return undefined;
  if (color & RGB_FLAG) return `#${(color & 0xffffff).toString(16).padStart(6, '0')}`;
  return color;
}

function colorIn(color: SpanColor | undefined): number {
  if (color === undefined) return DEFAULT_COLOR;
  if (typeof color === 'number') return color;
  return RGB_FLAG | Number.parseInt(color.slice(1), 16);
}

function attrNames(flags: number): AttrName[] {
  return ATTR_NAMES.filter((name) => flags & Attr[name]);
}

export function toVisualFrame(grid: CellGrid): VisualFrame {
  const lines = screenLines(grid);
  const spans: StyleSpan[] = [];
  const wide: [number, number][] = [];
  const { cols } = grid;
  for (let y = 0; y < grid.rows; y++) {
    let start = -1;
    for (let x = 0; x <= cols; x++) {
      const index = y * cols + x;
      if (x < cols && grid.widths[index] === 2) wide.push([y, x]);
      const styled = x < cols && (grid.fg[index] !== DEFAULT_COLOR || grid.bg[index] !== DEFAULT_COLOR || grid.flags[index] !== 0);
      const sameAsStart =
        start >= 0 &&
        x < cols &&
        grid.fg[index] === grid.fg[y * cols + start] &&
        grid.bg[index] === grid.bg[y * cols + start] &&
        grid.flags[index] === grid.flags[y * cols + start];
      if (start >= 0 && !sameAsStart) {
        const first = y * cols + start;
        const span: StyleSpan = { row: y, col: start, len: x - start };
        const fg = colorOut(grid.fg[first]!);
        const bg = colorOut(grid.bg[first]!);
        if (fg !== undefined) span.fg = fg;
        if (bg !== undefined) span.bg = bg;
        if (grid.flags[first]) span.attrs = attrNames(grid.flags[first]!);
        spans.push(span);
        start = -1;
      }
      if (start < 0 && styled) start = x;
    }
  }
  const links = linkSpans(grid);
  const wrapped = [...grid.wrapped.keys()].filter((row) => grid.wrapped[row]);
  return { cols, rows: grid.rows, lines, cursor: { ...grid.cursor }, spans, wide, ...(links.length ? { links } : {}), ...(wrapped.length ? { wrapped } : {}) };
}

/** The inverse of toVisualFrame (up to trailing blanks, which become plain spaces). */
export function gridFromVisualFrame(frame: VisualFrame): CellGrid {
  const grid = emptyGrid(frame.cols, frame.rows);
  grid.cursor = { ...frame.cursor };
  const wide = new Set(frame.wide.map(([row, col]) => row * frame.cols + col));
  frame.lines.forEach((line, y) => {
    let x = 0;
    for (const char of line) {
      if (x >= frame.cols) break;
      const index = y * frame.cols + x;
      grid.chars[index] = char;
      if (wide.has(index) && x + 1 < frame.cols) {
        grid.widths[index] = 2;
        grid.chars[index + 1] = '';
        grid.widths[index + 1] = 0;
        x += 2;
      } else {
        x += 1;
      }
    }
  });
  for (const span of frame.spans) {
    const flags = (span.attrs ?? []).reduce((sum, name) => sum | Attr[name], 0);
    for (let x = span.col; x < span.col + span.len; x++) {
      const index = span.row * frame.cols + x;
      grid.fg[index] = colorIn(span.fg);
      grid.bg[index] = colorIn(span.bg);
      grid.flags[index] = flags;
    }
  }
  // Each run gets its own link number: two runs side by side were two links, or they would have been one run.
  (frame.links ?? []).forEach((span, number) => {
    grid.urls.set(number + 1, span.url);
    grid.links.fill(number + 1, span.row * frame.cols + span.col, span.row * frame.cols + span.col + span.len);
  });
  for (const row of frame.wrapped ?? []) if (row < frame.rows) grid.wrapped[row] = 1;
  return grid;
}
