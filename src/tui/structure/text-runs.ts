// Heuristic "text-run": whatever text no other heuristic explained, one node per run of words on a row
// (runs separated by three or more blanks, or standing in a listing's columns), so columns of a layout
// stay apart; a line the terminal wrapped onto the next rows is one run over them.
import { segments } from './checkboxes.js';
import { PROMPT_MARK } from './input.js';
import { listingCuts } from './listing-columns.js';
import type { Found, ScreenScan } from './scan.js';

export const TEXT_HEURISTIC = 'text-run';

/** Runs made only of punctuation or line pieces (vim's "~" filler rows, rulers) say nothing. */
const MEANINGFUL = /[\p{L}\p{N}]/u;

/**
 * A run ending with a comma or a colon goes on across the gap when the next starts with a figure: a number padded
 * to the width of its field (top's `Tasks: 146 total,   4 running,  12 sleeping`, `MiB Swap:      0.0 total,`), one
 * phrase whose gaps change with the numbers, not columns of a layout.
 */
function joinPaddedNumbers(text: string, runs: [number, number][]): [number, number][] {
  const joined: [number, number][] = [];
  for (const run of runs) {
    const last = joined[joined.length - 1];
    if (last && /[,:]$/.test(text.slice(last[0], last[1])) && /^[-+]?\d/.test(text.slice(run[0], run[1]))) last[1] = run[1];
    else joined.push([run[0], run[1]]);
  }
  return joined;
}

/** A run cut at the listing columns that fall inside it, where a blank precedes the column. */
function cutAtColumns(text: string, columnAt: readonly number[], runs: [number, number][], columns: ReadonlySet<number> | undefined): [number, number][] {
  if (!columns) return runs;
  const cut: [number, number][] = [];
  for (const [start, end] of runs) {
    let from = start;
    for (let index = start + 1; index < end; index++) {
      if (text[index - 1] !== ' ' || text[index] === ' ' || !columns.has(columnAt[index]!)) continue;
      cut.push([from, text.slice(from, index).trimEnd().length + from]);
      from = index;
    }
    cut.push([from, end]);
  }
  return cut;
}

/**
 * A prompt opening the row goes with the line typed after it however far the line is indented (python's
 * continuation "...     return x", sqlite3's "   ...>   2", as "sqlite> select 1," reads), and the line is text
 * whatever it holds: the prompt alone (python's "..." that ended a block), or punctuation after it (node's
 * "... }"), is what the REPL was given.
 */
function joinPrompt(text: string, runs: [number, number][]): { runs: [number, number][]; prompted: boolean } {
  const first = runs[0];
  if (!first || !PROMPT_MARK.test(text.slice(first[0], first[1]).split(' ')[0]!)) return { runs, prompted: false };
  const second = runs[1];
  const alone = first[1] - first[0] === text.slice(first[0], first[1]).split(' ')[0]!.length;
  return { runs: second && alone ? [[first[0], second[1]], ...runs.slice(2)] : runs, prompted: true };
}

/** Blanks between two runs beyond which they are two columns of a layout (segments' three). */
const RUN_GAP = 3;

export function findTextRuns(scan: ScreenScan, regionIndex: number): Found[] {
  const region = scan.regions[regionIndex]!;
  const { cols } = scan.grid;
  const cuts = listingCuts(scan, regionIndex);
  // Only a region as wide as the screen has the rows the terminal wraps a line onto.
  const fullWidth = region.rect.x === 0 && region.rect.w === cols;
  const found: Found[] = [];
  /** Runs a prompt opens: text whatever they hold. */
  const lines = new Set<Found>();
  /** The last run of the row above when it ends by the right edge: a line the terminal may have wrapped. */
  let open: { node: Found; end: number } | undefined;
  for (let y = region.rect.y; y < region.rect.y + region.rect.h; y++) {
    const { text, columnAt } = scan.regionRow(regionIndex, y);
    const { runs, prompted } = joinPrompt(text, joinPaddedNumbers(text, cutAtColumns(text, columnAt, segments(text), cuts.get(y))));
    let last: { node: Found; end: number } | undefined;
    runs.forEach(([start, end], index) => {
      const run = text.slice(start, end);
      const x = columnAt[start]!;
      const right = scan.columnEnd(y, columnAt, end);
      const gap = open ? cols - open.end + x : RUN_GAP;
      if (index === 0 && open && scan.grid.wrapped[y] && gap < RUN_GAP) {
        // The row goes on with the line above: one run over both rows, read as the program printed it.
        const { node } = open;
        const left = Math.min(node.bounds.x, x);
        node.name += ' '.repeat(gap) + run;
        node.bounds = { x: left, y: node.bounds.y, w: Math.max(node.bounds.x + node.bounds.w, right) - left, h: y - node.bounds.y + 1 };
        last = { node, end: right };
        return;
      }
      last = { node: { role: 'text', name: run, bounds: { x, y, w: right - x, h: 1 }, heuristic: TEXT_HEURISTIC }, end: right };
      found.push(last.node);
      if (index === 0 && prompted) lines.add(last.node);
    });
    open = fullWidth && last && cols - last.end < RUN_GAP ? last : undefined;
  }
  return found.filter((node) => MEANINGFUL.test(node.name) || lines.has(node));
}
