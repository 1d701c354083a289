// The terminal screen as plain data: one entry per cell, so structure heuristics can run on a live
// emulator and on recorded screens alike.

/** Cell attribute bits. */
export const Attr = {
  bold: 1,
  dim: 2,
  italic: 4,
  underline: 8,
  inverse: 16,
  invisible: 32,
  strikethrough: 64,
  blink: 128,
} as const;
export type AttrName = keyof typeof Attr;
export const ATTR_NAMES = Object.keys(Attr) as AttrName[];

/** Colour encoding in fg/bg: DEFAULT_COLOR, a palette index 0..255, or RGB_FLAG | 0xRRGGBB. */
export const DEFAULT_COLOR = -1;
export const RGB_FLAG = 0x1000000;

export type Rgb = readonly [number, number, number];
/** The colours of DEFAULT_COLOR: what screenshots paint and what the emulator tells programs that ask. */
export const DEFAULT_FOREGROUND: Rgb = [0xd8, 0xd8, 0xd8];
export const DEFAULT_BACKGROUND: Rgb = [0x00, 0x00, 0x00];

const BASE_16: Rgb[] = [
  [0x00, 0x00, 0x00], [0xcd, 0x00, 0x00], [0x00, 0xcd, 0x00], [0xcd, 0xcd, 0x00],
  [0x00, 0x00, 0xee], [0xcd, 0x00, 0xcd], [0x00, 0xcd, 0xcd], [0xe5, 0xe5, 0xe5],
  [0x7f, 0x7f, 0x7f], [0xff, 0x00, 0x00], [0x00, 0xff, 0x00], [0xff, 0xff, 0x00],
  [0x5c, 0x5c, 0xff], [0xff, 0x00, 0xff], [0x00, 0xff, 0xff], [0xff, 0xff, 0xff],
];

/** The xterm 256-colour palette: 16 base colours, a 6x6x6 cube, 24 greys. */
function paletteColor(index: number): Rgb {
  if (index < 16) return BASE_16[index]!;
  if (index < 232) {
    const level = (value: number) => (value === 0 ? 0 : 55 + value * 40);
    const n = index - 16;
    return [level(Math.floor(n / 36)), level(Math.floor(n / 6) % 6), level(n % 6)];
  }
  const grey = 8 + (index - 232) * 10;
  return [grey, grey, grey];
}

/** A cell colour (fg or bg encoding) as RGB; DEFAULT_COLOR as `fallback`. */
export function resolveColor(color: number, fallback: Rgb): Rgb {
  if (color === DEFAULT_COLOR) return fallback;
  if (color & RGB_FLAG) return [(color >> 16) & 0xff, (color >> 8) & 0xff, color & 0xff];
  return paletteColor(color);
}

export interface Cursor {
  x: number;
  y: number;
  visible: boolean;
}

export interface CellGrid {
  cols: number;
  rows: number;
  /** The character of each cell, row-major; '' for the right half of a wide character. */
  chars: string[];
  /** 1 for a normal cell, 2 for the left half of a wide character, 0 for its right half. */
  widths: Uint8Array;
  fg: Int32Array;
  bg: Int32Array;
  flags: Uint8Array;
  /**
   * The OSC 8 hyperlink of each cell: 0 for none, else a key of `urls`. Cells of one link share a number, so two
   * links side by side stay apart even when they have the same address.
   */
  links: Int32Array;
  urls: Map<number, string>;
  /**
   * 1 for a row that goes on from the row above because the terminal wrapped a line too long for it (xterm's
   * isWrapped), not because the program started a new line: the two rows show one line.
   */
  wrapped: Uint8Array;
  cursor: Cursor;
}

export function emptyGrid(cols: number, rows: number): CellGrid {
  const size = cols * rows;
  return {
    cols,
    rows,
    chars: new Array<string>(size).fill(' '),
    widths: new Uint8Array(size).fill(1),
    fg: new Int32Array(size).fill(DEFAULT_COLOR),
    bg: new Int32Array(size).fill(DEFAULT_COLOR),
    flags: new Uint8Array(size),
    links: new Int32Array(size),
    urls: new Map(),
    wrapped: new Uint8Array(rows),
    cursor: { x: 0, y: 0, visible: true },
  };
}

/** Marker for "the terminal's default foreground" when inverse video moves it to the background. */
const DEFAULT_FG_AS_BG = -2;

/**
 * The background a person sees at a cell: inverse video swaps the colours, so an inverse cell with
 * default colours shows the default foreground as its background.
 */
export function visibleBackground(grid: CellGrid, index: number): number {
  if (grid.flags[index]! & Attr.inverse) {
    const fg = grid.fg[index]!;
    return fg === DEFAULT_COLOR ? DEFAULT_FG_AS_BG : fg;
  }
  return grid.bg[index]!;
}

/**
 * One screen row as a string, with the cell column of every UTF-16 unit: wide characters take two
 * columns but one entry in the string, astral characters one column but two UTF-16 units.
 */
export interface RowText {
  text: string;
  /** Cell column of each UTF-16 unit of `text`. */
  columnAt: Int32Array;
}

export function rowText(grid: CellGrid, y: number, fromX = 0, toX = grid.cols): RowText {
  let text = '';
  const columns: number[] = [];
  for (let x = fromX; x < toX; x++) {
    const index = y * grid.cols + x;
    if (grid.widths[index] === 0) continue;
    const char = grid.chars[index] || ' ';
    text += char;
    for (let unit = 0; unit < char.length; unit++) columns.push(x);
  }
  return { text, columnAt: Int32Array.from(columns) };
}

/** Text of a rectangle, rows joined by newlines, each row right-trimmed. */
export function rectText(grid: CellGrid, rect: { x: number; y: number; w: number; h: number }): string {
  const lines: string[] = [];
  for (let y = rect.y; y < rect.y + rect.h && y < grid.rows; y++) {
    lines.push(rowText(grid, y, Math.max(0, rect.x), Math.min(grid.cols, rect.x + rect.w)).text.trimEnd());
  }
  return lines.join('\n');
}

/** The whole screen as text, one line per row, right-trimmed. */
export function screenLines(grid: CellGrid): string[] {
  const lines: string[] = [];
  for (let y = 0; y < grid.rows; y++) lines.push(rowText(grid, y).text.trimEnd());
  return lines;
}

/** A run of cells on one row that the program made one OSC 8 hyperlink. */
export interface LinkSpan {
  row: number;
  col: number;
  /** Columns covered. */
  len: number;
  url: string;
}

/** Runs of cells of one link on each row (a link wrapped onto the next row is a run on each). */
export function linkSpans(grid: CellGrid): LinkSpan[] {
  const spans: LinkSpan[] = [];
  for (let y = 0; y < grid.rows; y++) {
    for (let x = 0; x < grid.cols; ) {
      const link = grid.links[y * grid.cols + x]!;
      let end = x + 1;
      while (end < grid.cols && grid.links[y * grid.cols + end] === link) end++;
      if (link) spans.push({ row: y, col: x, len: end - x, url: grid.urls.get(link) ?? '' });
      x = end;
    }
  }
  return spans;
}
