// Heuristic "osc8-link": runs of cells the program made a hyperlink with OSC 8 (ls --hyperlink, gcc's warning
// options, systemctl), one link node per run on a row, named by its text, with the address as `url`. The address
// is in the cells, not in the text, so links are laid over what the other heuristics found instead of claiming
// cells: a plain text node that is exactly the link becomes it, any other node holding it gets it as a child.
import { linkSpans } from '../grid.js';
import { flattenNodes } from '../ui-node.js';
import { area, contains, tidy, type Found, type ScreenScan } from './scan.js';

export const LINK_HEURISTIC = 'osc8-link';

/** Adds the screen's links to `found` (in place), and returns the links no found node holds. */
export function placeLinks(scan: ScreenScan, found: readonly Found[]): Found[] {
  const spans = linkSpans(scan.grid);
  if (spans.length === 0) return [];
  const all = flattenNodes(found as Found[]);
  const loose: Found[] = [];
  for (const span of spans) {
    const { text, columnAt } = scan.slice(span.row, span.col, span.col + span.len);
    const name = tidy(text);
    if (!name) continue;
    // The bounds of the link's text, blanks at its ends left out, as a text run's are.
    const first = text.length - text.trimStart().length;
    const last = text.trimEnd().length - 1;
    const x = columnAt[first]!;
    const end = columnAt[last]! + Math.max(1, scan.grid.widths[span.row * scan.grid.cols + columnAt[last]!]!);
    const bounds = { x, y: span.row, w: end - x, h: 1 };
    const holder = all.filter((node) => contains(node.bounds, bounds)).sort((a, b) => area(a.bounds) - area(b.bounds))[0];
    const exact = holder && holder.role === 'text' && !holder.children?.length && holder.bounds.x === bounds.x && holder.bounds.w === bounds.w && holder.bounds.h === 1;
    if (exact) {
      Object.assign(holder, { role: 'link', name, url: span.url, heuristic: LINK_HEURISTIC });
      continue;
    }
    const link: Found = { role: 'link', name, url: span.url, bounds, heuristic: LINK_HEURISTIC };
    if (holder) (holder.children ??= []).push(link);
    else loose.push(link);
  }
  return loose;
}
