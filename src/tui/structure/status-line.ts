// Heuristic "status-line": the first or last screen row drawn highlighted (less's file line, nano's title
// bar, a man page's footer) is a status bar, not the selected row of a list.
import { tidy, type Found, type ScreenScan } from './scan.js';

export const STATUS_HEURISTIC = 'status-line';

const HIGHLIGHTED_SHARE = 0.8;

export function findStatusLines(scan: ScreenScan, regionIndex: number): Found[] {
  const region = scan.regions[regionIndex]!;
  const found: Found[] = [];
  const edges = new Set([region.rect.y, region.rect.y + region.rect.h - 1]);
  for (const y of edges) {
    const { text, columnAt } = scan.regionRow(regionIndex, y);
    let ink = 0;
    let lit = 0;
    for (let i = 0; i < text.length; i++) {
      if (text[i] === ' ') continue;
      ink++;
      if (scan.background(columnAt[i]!, y) !== region.background) lit++;
    }
    if (ink === 0 || lit < ink * HIGHLIGHTED_SHARE) continue;
    const bounds = { x: region.rect.x, y, w: region.rect.w, h: 1 };
    found.push({ role: 'status', name: tidy(text), bounds, heuristic: STATUS_HEURISTIC });
    scan.claim(bounds);
  }
  return found;
}
