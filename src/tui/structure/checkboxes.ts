// Heuristic "checkbox-mark": "[x] label" and "[ ] label" are checkboxes, "(*) label" and "( ) label"
// radio buttons; a mark other than a space means checked.
import { tidy, type Found, type ScreenScan } from './scan.js';

export const CHECKBOX_HEURISTIC = 'checkbox-mark';

const MARK = /^(?:\[([ xX*✓✔])\]|\(([ *•xXo])\))\s+(\S.*)$/u;

export interface Mark {
  role: 'checkbox' | 'radio';
  checked: boolean;
  label: string;
}

/** The mark at the start of a piece of text, if there is one. */
export function readMark(text: string): Mark | undefined {
  const match = MARK.exec(text.trim());
  if (!match) return undefined;
  const mark = match[1] ?? match[2]!;
  return { role: match[1] !== undefined ? 'checkbox' : 'radio', checked: mark !== ' ', label: tidy(match[3]!) };
}

/** Runs of text separated by three or more spaces, as [start, end) offsets. */
export function segments(text: string): [number, number][] {
  const runs: [number, number][] = [];
  const pattern = /\S+(?: {1,2}\S+)*/g;
  for (const match of text.matchAll(pattern)) runs.push([match.index, match.index + match[0].length]);
  return runs;
}

export function findCheckboxes(scan: ScreenScan, regionIndex: number): Found[] {
  const region = scan.regions[regionIndex]!;
  const found: Found[] = [];
  for (let y = region.rect.y; y < region.rect.y + region.rect.h; y++) {
    const { text, columnAt } = scan.regionRow(regionIndex, y);
    if (!text.includes('[') && !text.includes('(')) continue;
    for (const [start, end] of segments(text)) {
      const mark = readMark(text.slice(start, end));
      if (!mark) continue;
      const x = columnAt[start]!;
      const bounds = { x, y, w: scan.columnEnd(y, columnAt, end) - x, h: 1 };
      found.push({ role: mark.role, name: mark.label, checked: mark.checked, bounds, heuristic: CHECKBOX_HEURISTIC });
      scan.claim(bounds);
    }
  }
  return found;
}
