// Heuristic "progress-bar": bracketed meters such as htop's "Mem[|||||   1.2G/7.7G]", runs of block
// characters such as "█████░░░░ 55%", and a one-row gauge box that shows only a percentage (dialog
// --gauge, whose filled part is drawn in reverse video).
import { tidy, type Found, type ScreenScan } from './scan.js';

export const PROGRESS_HEURISTIC = 'progress-bar';

const SIZE = String.raw`\d+(?:\.\d+)?[KMGTP]?i?B?`;
const METER = new RegExp(String.raw`([A-Za-z0-9]{0,12})\[([|#=*>█▉▊▋▌▍▎▏:. -]{3,}?)(\d{1,3}(?:\.\d+)?%|${SIZE}\/${SIZE})?\]`, 'g');
const FILL = /[|#=*>█▉▊▋▌▍▎▏]/g;
const HAS_FILL = /[|#=*>█▉▊▋▌▍▎▏]/;
const BLOCKS = /([█▉▊▋▌▍▎▏]+)([░▒]*)/g;
const PERCENT = /(\d{1,3}(?:\.\d+)?)%/;
const GAUGE_ROW = /^\s*(\d{1,3})%\s*$/;

const UNITS: Record<string, number> = { '': 1, K: 2 ** 10, M: 2 ** 20, G: 2 ** 30, T: 2 ** 40, P: 2 ** 50 };

function bytes(size: string): number {
  const match = /^(\d+(?:\.\d+)?)([KMGTP]?)/.exec(size)!;
  return Number(match[1]) * UNITS[match[2]!]!;
}

function round(value: number): string {
  return `${Math.round(value * 10) / 10}%`;
}

/** The meter's reading: its own percentage, or used/total as one, or else how much of it is filled. */
function meterValue(fill: string, reading: string | undefined): string {
  if (reading?.endsWith('%')) return reading;
  if (reading) {
    const [used, total] = reading.split('/') as [string, string];
    return bytes(total) > 0 ? `${reading} (${round((100 * bytes(used)) / bytes(total))})` : reading;
  }
  const filled = fill.match(FILL)?.length ?? 0;
  return round((100 * filled) / fill.length);
}

export function findProgressBars(scan: ScreenScan, regionIndex: number): Found[] {
  const region = scan.regions[regionIndex]!;
  const found: Found[] = [];
  for (let y = region.rect.y; y < region.rect.y + region.rect.h; y++) {
    const { text, columnAt } = scan.regionRow(regionIndex, y);
    const add = (start: number, end: number, name: string, value: string) => {
      const x = columnAt[start]!;
      const bounds = { x, y, w: scan.columnEnd(y, columnAt, end) - x, h: 1 };
      found.push({ role: 'progressbar', name, value, bounds, heuristic: PROGRESS_HEURISTIC });
      scan.claim(bounds);
    };
    const gauge = region.box && region.rect.h === 1 ? GAUGE_ROW.exec(text) : null;
    if (gauge) {
      add(0, text.length, '', `${gauge[1]}%`);
      continue;
    }
    if (text.includes('[')) {
      for (const match of text.matchAll(METER)) {
        const inner = match[2]! + (match[3] ?? '');
        if (inner.length < 5 || (!match[3] && !HAS_FILL.test(match[2]!))) continue;
        add(match.index, match.index + match[0].length, match[1]!, meterValue(match[2]!, match[3]));
      }
    }
    for (const match of text.matchAll(BLOCKS)) {
      if (match[0].length < 5) continue;
      const end = match.index + match[0].length;
      const after = PERCENT.exec(text.slice(end, end + 12));
      if (!after && match[2] === '') continue;
      const value = after ? `${after[1]}%` : round((100 * match[1]!.length) / match[0].length);
      add(match.index, after ? end + after.index + after[0].length : end, tidy(text.slice(Math.max(0, match.index - 16), match.index)).split(' ').pop() ?? '', value);
    }
  }
  return found;
}
