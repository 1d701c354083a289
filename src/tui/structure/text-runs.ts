// Heuristic "text-run": whatever text no other heuristic explained, one node per run of words on a row
// (runs separated by three or more blanks), so columns of a layout stay apart.
import { segments } from './checkboxes.js';
import type { Found, ScreenScan } from './scan.js';

export const TEXT_HEURISTIC = 'text-run';

/** Runs made only of punctuation or line pieces (vim's "~" filler rows, rulers) say nothing. */
const MEANINGFUL = /[\p{L}\p{N}]/u;

export function findTextRuns(scan: ScreenScan, regionIndex: number): Found[] {
  const region = scan.regions[regionIndex]!;
  const found: Found[] = [];
  for (let y = region.rect.y; y < region.rect.y + region.rect.h; y++) {
    const { text, columnAt } = scan.regionRow(regionIndex, y);
    for (const [start, end] of segments(text)) {
      const run = text.slice(start, end);
      if (!MEANINGFUL.test(run)) continue;
      const x = columnAt[start]!;
      found.push({ role: 'text', name: run, bounds: { x, y, w: scan.columnEnd(y, columnAt, end) - x, h: 1 }, heuristic: TEXT_HEURISTIC });
    }
  }
  return found;
}
