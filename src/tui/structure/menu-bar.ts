// Heuristic "menu-bar": the screen's first row holding nothing but three or more capitalised words set
// apart by two or more blanks ("Left  File  Command  Options  Right", "File  Edit  View  Help") is a menu
// bar, each word a menu item.
import { type Found, type ScreenScan } from './scan.js';

export const MENU_HEURISTIC = 'menu-bar';

const ITEM = /^\p{Lu}[\p{L}\p{N}&_-]{0,15}$/u;
const MIN_ITEMS = 3;

export function findMenuBar(scan: ScreenScan, regionIndex: number): Found[] {
  const region = scan.regions[regionIndex]!;
  const y = region.rect.y;
  const { text, columnAt } = scan.regionRow(regionIndex, y);
  const items: Found[] = [];
  for (const match of text.matchAll(/\S+(?: \S+)*/g)) {
    // One blank inside a run joins words into one piece that is not a single menu word.
    if (!ITEM.test(match[0])) return [];
    const x = columnAt[match.index]!;
    items.push({ role: 'menuitem', name: match[0], bounds: { x, y, w: scan.columnEnd(y, columnAt, match.index + match[0].length) - x, h: 1 }, heuristic: MENU_HEURISTIC });
  }
  if (items.length < MIN_ITEMS) return [];
  const bounds = { x: region.rect.x, y, w: region.rect.w, h: 1 };
  scan.claim(bounds);
  return [{ role: 'menubar', name: '', bounds, heuristic: MENU_HEURISTIC, children: items }];
}
