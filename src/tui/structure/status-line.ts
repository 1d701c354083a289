// Heuristic "status-line": the first or last screen row drawn highlighted (less's file line, nano's title
// bar, a man page's footer) is a status bar, not the selected row of a list.
import { isHighlighted, readRow, tidy, type Found, type ScreenScan } from './scan.js';

export const STATUS_HEURISTIC = 'status-line';

export function findStatusLines(scan: ScreenScan, regionIndex: number): Found[] {
  const region = scan.regions[regionIndex]!;
  const found: Found[] = [];
  const edges = new Set([region.rect.y, region.rect.y + region.rect.h - 1]);
  for (const y of edges) {
    const row = readRow(scan, regionIndex, y);
    if (!isHighlighted(row)) continue;
    const bounds = { x: region.rect.x, y, w: region.rect.w, h: 1 };
    found.push({ role: 'status', name: tidy(row.text), bounds, heuristic: STATUS_HEURISTIC });
    scan.claim(bounds);
  }
  return found;
}
