// Side-by-side regions that no box draws: windows of a split editor divided by a column of `|` or `│`
// (vim -O), and columns of a file manager set apart by blank gutters (ranger). Each becomes a region of its
// own, read separately by the heuristics, so no row spans two of them.
import type { Region, ScreenScan } from './scan.js';

const SEPARATOR = new Set(['|', '│', '┃', '║']);
/**
 * Where a divider across one side meets the edge (tmux's `├───` of a pane split below another beside a
 * third): the edge runs on through it, so it does not cut the edge into two runs each too short to count.
 */
const JUNCTIONS = new Set(['├', '┤', '┼', '┝', '┥', '┿', '┠', '┨', '╂', '┣', '┫', '╋', '╞', '╡', '╪', '╟', '╢', '╫', '╠', '╣', '╬']);
/** A separator runs down at least this share of the screen: a table's `|` over a few rows is not a window edge. */
const SEPARATOR_SHARE = 0.5;
const MIN_SEPARATOR_ROWS = 3;
/** Widest blank gutter between highlighted columns. */
const MAX_GUTTER = 2;

interface Cut {
  /** First and last column of the separator or gutter. */
  from: number;
  to: number;
  top: number;
  bottom: number;
  window: boolean;
}

/** Whether a cell of the screen region is still unexplained (not inside a box, not claimed). */
function open(scan: ScreenScan, x: number, y: number): boolean {
  const index = y * scan.grid.cols + x;
  return scan.owner[index] === 0 && scan.claimed[index] === 0;
}

function blank(scan: ScreenScan, x: number, y: number): boolean {
  const char = scan.char(x, y);
  return char === '' || char === ' ';
}

function inked(scan: ScreenScan, y: number, from: number, to: number): boolean {
  for (let x = from; x <= to; x++) if (open(scan, x, y) && !blank(scan, x, y)) return true;
  return false;
}

/** Columns of separator characters running down most of the screen with text on both sides (or down all of it). */
function separatorCuts(scan: ScreenScan): Cut[] {
  const { cols, rows } = scan.grid;
  const needed = Math.max(MIN_SEPARATOR_ROWS, Math.ceil(rows * SEPARATOR_SHARE));
  const cuts: Cut[] = [];
  for (let x = 1; x < cols - 1; x++) {
    let top = -1;
    for (let y = 0; y <= rows; y++) {
      const on = y < rows && open(scan, x, y) && (SEPARATOR.has(scan.char(x, y)) || (top >= 0 && JUNCTIONS.has(scan.char(x, y))));
      if (on && top < 0) top = y;
      if (on || top < 0) continue;
      const bottom = y - 1;
      if (bottom - top + 1 >= needed) {
        let left = false;
        let right = false;
        for (let row = top; row <= bottom && !(left && right); row++) {
          left ||= inked(scan, row, 0, x - 1);
          right ||= inked(scan, row, x + 1, cols - 1);
        }
        // Down the whole screen (a last row under it may be a status bar), one side may be blank: a window whose
        // program has printed nothing yet (tmux's pane running `bc -q` beside a REPL), still a window of its own.
        const wholeHeight = top === 0 && bottom >= rows - 2;
        if ((left && right) || (wholeHeight && (left || right))) cuts.push({ from: x, to: x, top, bottom, window: true });
      }
      top = -1;
    }
  }
  return cuts;
}

/**
 * Blank gutters between highlighted columns: a highlight that stops at a blank, unhighlighted column and
 * another that starts right after it (on the same row or another) belong to two lists side by side, when
 * the gutter stays blank on every row of the block. A selection bar never has a hole in it.
 */
function gutterCuts(scan: ScreenScan, background: number): Cut[] {
  const { cols, rows } = scan.grid;
  const lit = (x: number, y: number) => open(scan, x, y) && scan.background(x, y) !== background;
  const clear = (x: number, y: number) => open(scan, x, y) && blank(scan, x, y) && !lit(x, y);
  // Whether a row has ink anywhere: asked again for the same rows by every gutter looked at, so read once.
  const inkedRows: (boolean | undefined)[] = [];
  const rowInked = (row: number) => (inkedRows[row] ??= inked(scan, row, 0, cols - 1));
  /** The gutter [from, to] around row y, if it stays clear over two rows or more and a highlight starts after it. */
  const gutterAt = (from: number, to: number, y: number): Cut | undefined => {
    const gutterClear = (row: number) => {
      for (let column = from; column <= to; column++) if (!clear(column, row)) return false;
      return rowInked(row);
    };
    let top = y;
    let bottom = y;
    while (top > 0 && gutterClear(top - 1)) top--;
    while (bottom < rows - 1 && gutterClear(bottom + 1)) bottom++;
    if (bottom === top) return undefined;
    for (let row = top; row <= bottom; row++) if (lit(to + 1, row)) return { from, to, top, bottom, window: false };
    return undefined;
  };
  const cuts: Cut[] = [];
  const seen = new Set<string>();
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols - 2; x++) {
      if (!lit(x, y)) continue;
      const from = x + 1;
      for (let to = from; to < cols - 1 && to - x <= MAX_GUTTER && clear(to, y); to++) {
        const cut = gutterAt(from, to, y);
        if (!cut) continue;
        const key = `${from}:${cut.top}:${cut.bottom}`;
        if (!seen.has(key)) cuts.push(cut);
        seen.add(key);
        break;
      }
    }
  }
  return cuts;
}

/**
 * Whether row y under a window edge holds the status lines of the windows on either side: highlighted on
 * both sides, and marking the edge, as each window's own status line does (vim -O draws the active one in
 * another style, and starts the next one's name right after the edge). One bar drawn alike across the
 * edge, with nothing starting there, is a line of the whole screen (tmux's status bar under its panes).
 */
function statusUnderEdge(scan: ScreenScan, cut: Cut, y: number, background: number): boolean {
  const { cols } = scan.grid;
  if (scan.background(cut.from - 1, y) === background || scan.background(cut.to + 1, y) === background) return false;
  const under = y * cols + cut.to;
  const after = under + 1;
  const { fg, bg, flags } = scan.grid;
  const styleChanges = fg[under] !== fg[after] || bg[under] !== bg[after] || flags[under] !== flags[after];
  return styleChanges || (blank(scan, cut.to, y) && !blank(scan, cut.to + 1, y));
}

/**
 * Cuts whose rows overlap split the same block, over the rows they share (a gutter may reach a row above
 * the block where a longer title runs past the other one); the row under a window's edge holds its status line.
 */
function regionsFrom(scan: ScreenScan, cuts: Cut[], background: number): Region[] {
  const regions: Region[] = [];
  const groups: { top: number; bottom: number; cuts: Cut[] }[] = [];
  // Taller cuts first: a window edge down the whole screen (weechat's buffer list beside its chat) is cut
  // before a shorter one inside one of its sides (the chat's "time | message" rule), which then splits only
  // that side, over its own rows.
  const byHeight = [...cuts].sort((a, b) => b.bottom - b.top - (a.bottom - a.top));
  const nested = (outer: { top: number; bottom: number }, inner: Cut) => outer.top < inner.top - 1 || outer.bottom > inner.bottom + 1;
  for (const cut of byHeight) {
    const group = groups.find((other) => Math.max(other.top, cut.top) < Math.min(other.bottom, cut.bottom) && !(cut.window && nested(other, cut)));
    if (!group) groups.push({ top: cut.top, bottom: cut.bottom, cuts: [cut] });
    else if (!group.cuts.some((other) => other.to >= cut.from - 1 && other.from <= cut.to + 1)) {
      group.top = Math.max(group.top, cut.top);
      group.bottom = Math.min(group.bottom, cut.bottom);
      group.cuts.push(cut);
    }
  }
  const placed: Cut[] = [];
  for (const { top, bottom: last, cuts: group } of groups) {
    group.sort((a, b) => a.from - b.from);
    const { window } = group[0]!;
    // Within the side of a taller window edge placed before, when the group lies inside one.
    const around = placed.filter((outer) => outer.window && outer.top <= top && outer.bottom >= last);
    let bottom = last;
    // A window's status line runs under its edge, across the windows side by side; a rule inside one side of
    // a taller edge has the rows under it in that side (weechat's status bar under its "time | message" rule).
    if (window && around.length === 0 && bottom + 1 < scan.grid.rows && group.every((cut) => statusUnderEdge(scan, cut, bottom + 1, background))) bottom++;
    let left = Math.max(0, ...around.filter((outer) => outer.to < group[0]!.from).map((outer) => outer.to + 1));
    const right = Math.min(scan.grid.cols, ...around.filter((outer) => outer.from > group[group.length - 1]!.to).map((outer) => outer.from));
    placed.push(...group);
    for (const cut of [...group, { from: right, to: right }]) {
      if (cut.from > left) {
        const rect = { x: left, y: top, w: cut.from - left, h: bottom - top + 1 };
        regions.push({ rect, background: scan.dominantBackground(rect), split: window ? 'window' : 'column' });
      }
      left = cut.to + 1;
    }
    if (window) for (const cut of group) scan.claim({ x: cut.from, y: top, w: cut.to - cut.from + 1, h: last - top + 1 });
  }
  return regions;
}

/** Regions of the screen's unboxed area split side by side; scan.regions must hold the screen and the boxes. */
export function findSplits(scan: ScreenScan): Region[] {
  const background = scan.regions[0]!.background;
  const windows = separatorCuts(scan);
  return regionsFrom(scan, windows.length ? windows : gutterCuts(scan, background), background);
}
