// Heuristic "text-run": whatever text no other heuristic explained, one node per run of words on a row
// (runs separated by three or more blanks), so columns of a layout stay apart.
import { segments } from './checkboxes.js';
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

export function findTextRuns(scan: ScreenScan, regionIndex: number): Found[] {
  const region = scan.regions[regionIndex]!;
  const found: Found[] = [];
  for (let y = region.rect.y; y < region.rect.y + region.rect.h; y++) {
    const { text, columnAt } = scan.regionRow(regionIndex, y);
    for (const [start, end] of joinPaddedNumbers(text, segments(text))) {
      const run = text.slice(start, end);
      if (!MEANINGFUL.test(run)) continue;
      const x = columnAt[start]!;
      found.push({ role: 'text', name: run, bounds: { x, y, w: scan.columnEnd(y, columnAt, end) - x, h: 1 }, heuristic: TEXT_HEURISTIC });
    }
  }
  return found;
}
