// Heuristic "menu-bar": the screen's first row holding nothing but three or more capitalised words set
// apart by two or more blanks ("Left  File  Command  Options  Right", "File  Edit  View  Help") is a menu
// bar, each word a menu item; so is a highlighted first row of four or more such words one blank apart.
import { isHighlighted, readRow, type Found, type ScreenScan } from './scan.js';

export const MENU_HEURISTIC = 'menu-bar';

const ITEM = /^\p{Lu}[\p{L}\p{N}&_-]{0,15}$/u;
const MIN_ITEMS = 3;

/** Menu words one blank apart need a bar drawn under them, and this many of them: a title in capitals has fewer. */
const MIN_SPACED_ITEMS = 4;

export function findMenuBar(scan: ScreenScan, regionIndex: number): Found[] {
  const region = scan.regions[regionIndex]!;
  const y = region.rect.y;
  const { text, columnAt } = scan.regionRow(regionIndex, y);
  // Menu words one blank apart on a highlighted row are a bar too (emacs's "File Edit Options Buffers ...").
  const bar = isHighlighted(readRow(scan, regionIndex, y)) && text.trim().split(/\s+/).length >= MIN_SPACED_ITEMS;
  const items: Found[] = [];
  for (const match of text.matchAll(bar ? /\S+/g : /\S+(?: \S+)*/g)) {
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
