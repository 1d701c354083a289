// Shared reading helpers for the structure heuristics: cached row text, visible backgrounds, and a mask
// of cells a heuristic has already explained so later ones (plain text last) skip them.
import { rowText, visibleBackground, type CellGrid, type RowText } from '../grid.js';
import type { Bounds, UINode } from '../ui-node.js';

/** A node under construction: ids and nesting are assigned once every heuristic has run. */
export interface Found extends Omit<UINode, 'id' | 'children' | 'bounds'> {
  bounds: Bounds;
  heuristic: string;
  children?: Found[];
  /**
   * The row a list's or table's cursor bar is on when other rows are marked (selected) and it is not: where
   * the keys act, so it takes focus, but not one of the items an operation on the selection acts on.
   */
  current?: boolean;
}

/** An area heuristics look at separately: the screen, or the inside of a box. */
export interface Region {
  rect: Bounds;
  /** The most common visible background inside; "highlighted" means different from this. */
  background: number;
  /** The box whose interior this is, if any. */
  box?: Found;
  /**
   * Set on regions split side by side without a box (splits.ts): a `window` of a split editor, whose edge
   * rows may hold its own status line, or a `column` of lists apart from its neighbours, whose highlight
   * is a selection (never a column header).
   */
  split?: 'window' | 'column';
}

export class ScreenScan {
  readonly claimed: Uint8Array;
  /** Index into `regions` of the innermost region each cell lies in. */
  readonly owner: Int32Array;
  regions: Region[] = [];
  private readonly rows: (RowText | undefined)[];
  /** Bumped on every claim touching a row, so cached region rows of it are read again. */
  private readonly rowVersions: Uint32Array;
  /** regionRow results by region and row, with the row version they were read at: most heuristics read the same rows. */
  private readonly regionRows = new Map<number, { version: number; value: { text: string; columnAt: number[] } }>();

  constructor(readonly grid: CellGrid) {
    this.claimed = new Uint8Array(grid.cols * grid.rows);
    this.owner = new Int32Array(grid.cols * grid.rows);
    this.rows = new Array(grid.rows);
    this.rowVersions = new Uint32Array(grid.rows);
  }

  /** Regions ordered from largest to smallest, so painting them in order leaves each cell with its innermost one. */
  setRegions(regions: Region[]): void {
    this.regions = regions;
    // Cached region rows are keyed by region index, which a new list renumbers.
    this.regionRows.clear();
    regions.forEach((region, index) => {
      const { x, y, w, h } = region.rect;
      for (let row = y; row < y + h; row++) this.owner.fill(index, row * this.grid.cols + x, row * this.grid.cols + x + w);
    });
  }

  /**
   * One row of a region as text: cells of inner regions and cells already explained by a heuristic read
   * as spaces, so a pattern can only match what this region still has to explain.
   */
  regionRow(regionIndex: number, y: number): { text: string; columnAt: number[] } {
    const key = regionIndex * this.grid.rows + y;
    const cached = this.regionRows.get(key);
    if (cached && cached.version === this.rowVersions[y]) return cached.value;
    const value = this.readRegionRow(regionIndex, y);
    this.regionRows.set(key, { version: this.rowVersions[y]!, value });
    return value;
  }

  private readRegionRow(regionIndex: number, y: number): { text: string; columnAt: number[] } {
    const region = this.regions[regionIndex]!;
    const { cols } = this.grid;
    let text = '';
    const columnAt: number[] = [];
    for (let x = region.rect.x; x < region.rect.x + region.rect.w; x++) {
      const index = y * cols + x;
      if (this.grid.widths[index] === 0) continue;
      const open = this.owner[index] === regionIndex && this.claimed[index] === 0;
      const char = open ? this.grid.chars[index] || ' ' : ' ';
      text += char;
      for (let unit = 0; unit < char.length; unit++) columnAt.push(x);
    }
    return { text, columnAt };
  }

  /** The column after the text units [start, end) of a regionRow result. */
  columnEnd(y: number, columnAt: readonly number[], end: number): number {
    const last = columnAt[end - 1]!;
    return last + Math.max(1, this.grid.widths[y * this.grid.cols + last]!);
  }

  row(y: number): RowText {
    let cached = this.rows[y];
    if (!cached) {
      cached = rowText(this.grid, y);
      this.rows[y] = cached;
    }
    return cached;
  }

  /** Row text between two columns, with the column of each UTF-16 unit. */
  slice(y: number, fromX: number, toX: number): { text: string; columnAt: ArrayLike<number> } {
    const row = this.row(y);
    if (fromX <= 0 && toX >= this.grid.cols) return row;
    let start = 0;
    while (start < row.text.length && row.columnAt[start]! < fromX) start++;
    let end = start;
    while (end < row.text.length && row.columnAt[end]! < toX) end++;
    return { text: row.text.slice(start, end), columnAt: row.columnAt.subarray(start, end) };
  }

  char(x: number, y: number): string {
    return this.grid.chars[y * this.grid.cols + x]!;
  }

  background(x: number, y: number): number {
    return visibleBackground(this.grid, y * this.grid.cols + x);
  }

  /** Forgets cached region rows of a rectangle whose claimed cells were set directly. */
  touch(rect: Bounds): void {
    for (let y = rect.y; y < rect.y + rect.h; y++) this.rowVersions[y]!++;
  }

  claim(rect: Bounds): void {
    for (let y = rect.y; y < rect.y + rect.h; y++) {
      this.claimed.fill(1, y * this.grid.cols + rect.x, y * this.grid.cols + rect.x + rect.w);
      this.rowVersions[y]!++;
    }
  }

  /**
   * The most frequent visible background in a rectangle. With `frame` (the box around it), when no background
   * covers more than half of the rectangle and the frame's own background is one of them, the frame's: a
   * popup of two items, one lit, is the frame's colour with one lit row, however the count ties.
   */
  dominantBackground(rect: Bounds, frame?: Bounds): number {
    const counts = new Map<number, number>();
    let best = -1;
    let bestCount = 0;
    for (let y = rect.y; y < rect.y + rect.h; y++) {
      for (let x = rect.x; x < rect.x + rect.w; x++) {
        const color = this.background(x, y);
        const count = (counts.get(color) ?? 0) + 1;
        counts.set(color, count);
        if (count > bestCount) {
          best = color;
          bestCount = count;
        }
      }
    }
    if (!frame || bestCount * 2 > area(rect)) return best;
    const framed = this.dominantBackground({ ...frame, h: 1 });
    return counts.has(framed) ? framed : best;
  }
}

export interface RowInfo {
  y: number;
  text: string;
  /** Non-blank characters. */
  ink: number;
  /** Non-blank characters on a highlighted background. */
  litInk: number;
  /** All cells (blank or not) on a highlighted background. */
  litCells: number;
  /** The most common highlight colour on the row. */
  color: number;
  /** Extent of the row's text and highlight. */
  firstColumn: number;
  lastColumn: number;
  /** Column of the first non-blank character. */
  inkColumn: number;
  /** The last non-blank character, when it is not highlighted (a file manager's type mark after a highlighted name). */
  unlitLastInk?: string;
  /** Unlit line-drawing characters before the row's first other ink: a tree's guides ("├─", "│ └─") before a name. */
  guides: number;
}

/** Line-drawing characters, which a tree view draws its guides with. */
const LINE_DRAWING = /[\u2500-\u257f]/u;

/** Share of a row's characters that must be highlighted for the row to count as highlighted. */
const HIGHLIGHTED_SHARE = 0.8;

/** What a row of a region shows that is still unexplained: its ink and how much of it is highlighted. */
export function readRow(scan: ScreenScan, regionIndex: number, y: number): RowInfo {
  const region = scan.regions[regionIndex]!;
  const { text, columnAt } = scan.regionRow(regionIndex, y);
  let ink = 0;
  let litInk = 0;
  let litCells = 0;
  let firstColumn = -1;
  let lastColumn = -1;
  let inkColumn = -1;
  let unlitLastInk: string | undefined;
  let guides = 0;
  let guiding = true;
  const colors = new Map<number, number>();
  for (let i = 0; i < text.length; i++) {
    const x = columnAt[i]!;
    const index = y * scan.grid.cols + x;
    if (scan.owner[index] !== regionIndex || scan.claimed[index]) continue;
    const lit = scan.background(x, y) !== region.background;
    if (lit) {
      litCells++;
      const color = scan.background(x, y);
      colors.set(color, (colors.get(color) ?? 0) + 1);
      if (firstColumn < 0) firstColumn = x;
      lastColumn = Math.max(lastColumn, x);
    }
    if (text[i] !== ' ') {
      guiding &&= !lit && LINE_DRAWING.test(text[i]!);
      if (guiding) guides++;
      ink++;
      if (lit) litInk++;
      unlitLastInk = lit ? undefined : text[i];
      if (inkColumn < 0) inkColumn = x;
      if (firstColumn < 0 || x < firstColumn) firstColumn = x;
      lastColumn = Math.max(lastColumn, x);
    }
  }
  let color = region.background;
  let best = 0;
  for (const [candidate, count] of colors) if (count > best) [color, best] = [candidate, count];
  return { y, text, ink, litInk, litCells, color, firstColumn, lastColumn, inkColumn, guides, ...(unlitLastInk !== undefined ? { unlitLastInk } : {}) };
}

/** The marks `ls -F`, nnn and vifm put after a name to tell its type (directory, executable, link...), left unhighlighted. */
const TYPE_MARKS = '/*@|=>';

export function isHighlighted(row: RowInfo): boolean {
  // A tree's guides before a name are drawn unlit when its name is (ytree's "├─" before a lit "sub1").
  const ink = row.ink - (row.litInk > 0 ? row.guides : 0);
  if (ink > 0 && row.litInk >= ink * HIGHLIGHTED_SHARE) return true;
  // A short highlighted name followed by its type mark ("sub" lit, "/" not): all of it but the mark is lit.
  return row.litInk >= 2 && row.litInk === row.ink - 1 && row.unlitLastInk !== undefined && TYPE_MARKS.includes(row.unlitLastInk);
}

/** Whitespace runs folded to one space, ends trimmed: how names read. */
export function tidy(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function contains(outer: Bounds, inner: Bounds): boolean {
  return inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.w <= outer.x + outer.w && inner.y + inner.h <= outer.y + outer.h;
}

export function area(rect: Bounds): number {
  return rect.w * rect.h;
}
