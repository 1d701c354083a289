// A title bar over panes set side by side without a box (vifm's two file lists, each under its directory's
// path): a top status row whose words break where the panes do, one run of text over each pane starting at
// its left edge, is the panes' titles, not one status of the screen. Each run names the list in its pane.
import { tidy, type Found, type ScreenScan } from './scan.js';

/** A pane's title starts within this many columns of the pane's left edge. */
const TITLE_SLACK = 2;

/**
 * Takes the status rows that title two or more columns of lists right under them: each column's list is
 * named by the run over it, and the status row is dropped. Returns what is left of `found`.
 */
export function namePanesByTitles(scan: ScreenScan, found: Found[]): Found[] {
  const columns = scan.regions.filter((region) => region.split === 'column');
  const consumed = new Set<Found>();
  for (const status of found) {
    if (status.role !== 'status') continue;
    const { y } = status.bounds;
    const panes = columns.filter((region) => region.rect.y === y + 1).sort((a, b) => a.rect.x - b.rect.x);
    if (panes.length < 2) continue;
    const lists = panes.map((pane) => found.find((node) => node.role === 'list' && node.bounds.y === pane.rect.y && node.bounds.x >= pane.rect.x && node.bounds.x + node.bounds.w <= pane.rect.x + pane.rect.w));
    if (lists.some((list) => list === undefined)) continue;
    // Each pane's share of the row runs to where the next pane starts: the gutter between them must be blank.
    const ends = [...panes.slice(1).map((pane) => pane.rect.x), status.bounds.x + status.bounds.w];
    const before = scan.slice(y, status.bounds.x, panes[0]!.rect.x).text;
    const titles = panes.map((pane, index) => scan.slice(y, pane.rect.x, ends[index]!).text);
    const gutters = panes.map((pane, index) => scan.slice(y, pane.rect.x + pane.rect.w, ends[index]!).text);
    const startsAtEdge = (title: string) => title.trim() !== '' && title.search(/\S/) <= TITLE_SLACK;
    if (before.trim() !== '' || !titles.every(startsAtEdge) || gutters.some((gutter) => gutter.trim() !== '')) continue;
    lists.forEach((list, index) => (list!.name = tidy(titles[index]!)));
    consumed.add(status);
  }
  return consumed.size ? found.filter((node) => !consumed.has(node)) : found;
}
