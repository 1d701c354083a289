// The active panel by its border: programs with several side-by-side panels and no visible cursor (calcurse)
// mark the panel that takes the keys by drawing its border in another colour than the others'. When no
// node has focus yet, that panel's selected item gets it, else the panel itself.
import { Attr } from '../grid.js';
import { SELECTABLE } from './assemble.js';
import type { DetectedBox } from './boxes.js';
import { contains, type Found, type ScreenScan } from './scan.js';

/** The other panels must agree on one colour, so "different" means something: at least this many. */
const MIN_OTHERS = 2;

function borderColour(scan: ScreenScan, box: Found): number {
  return scan.grid.fg[box.bounds.y * scan.grid.cols + box.bounds.x]!;
}

export function focusActiveBorder(scan: ScreenScan, boxes: readonly DetectedBox[], nodes: readonly Found[]): void {
  if (nodes.some((node) => node.focused)) return;
  // Panels side by side, not a box drawn inside another.
  const outer = boxes.map((box) => box.node).filter((node, _, all) => !all.some((other) => other !== node && contains(other.bounds, node.bounds)));
  if (outer.length < MIN_OTHERS + 1) return;
  const colours = outer.map((box) => borderColour(scan, box));
  const odd = outer.filter((_, i) => colours.filter((colour) => colour === colours[i]).length === 1);
  if (odd.length !== 1) return;
  const rest = colours.filter((colour) => colour !== borderColour(scan, odd[0]!));
  if (rest.length < MIN_OTHERS || rest.some((colour) => colour !== rest[0])) return;
  const active = odd[0]!;
  const selected = nodes.find((node) => node.selected && node.role !== 'button' && contains(active.bounds, node.bounds));
  (selected ?? active).focused = true;
}

/** Share of a status line's characters drawn bold for it to count as drawn bold. */
const BOLD_SHARE = 0.8;

function drawnBold(scan: ScreenScan, node: Found): boolean {
  let ink = 0;
  let bold = 0;
  const { x, y, w } = node.bounds;
  for (let column = x; column < x + w; column++) {
    const index = y * scan.grid.cols + column;
    if (scan.grid.chars[index]!.trim() === '') continue;
    ink++;
    if (scan.grid.flags[index]! & Attr.bold) bold++;
  }
  return ink > 0 && bold >= ink * BOLD_SHARE;
}

/**
 * The active window by its status line: programs that split the screen into windows side by side, each with
 * a status line, draw the active window's in bold and the others' plain (tig's `[diff]` title beside its
 * `[main]` one, vim's StatusLine beside StatusLineNC). With no visible cursor to tell, the selected item of the
 * one window whose status line alone is bold gets the focus: that is where the keys go.
 */
export function focusActiveWindow(scan: ScreenScan, nodes: readonly Found[]): void {
  if (nodes.some((node) => node.focused)) return;
  const windows = scan.regions.filter((region) => region.split === 'window');
  const statuses = nodes.filter((node) => node.role === 'status' && windows.some((window) => contains(window.rect, node.bounds)));
  if (statuses.length < 2) return;
  const bold = statuses.filter((node) => drawnBold(scan, node));
  if (bold.length !== 1) return;
  const active = windows.find((window) => contains(window.rect, bold[0]!.bounds))!;
  const selected = nodes.find((node) => node.selected && node.role !== 'button' && contains(active.rect, node.bounds));
  if (selected) selected.focused = true;
}

/**
 * The active column by the hidden cursor: a program showing columns side by side, each with its selected row
 * (ranger's parent, current and preview directories), hides the cursor but leaves it on the row the keys act on,
 * where screen readers look. When several rows are selected and exactly one holds the hidden cursor, it gets the focus.
 */
export function focusAtHiddenCursor(scan: ScreenScan, nodes: readonly Found[]): void {
  const { cursor } = scan.grid;
  if (cursor.visible || nodes.some((node) => node.focused)) return;
  const selected = nodes.filter((node) => node.selected && SELECTABLE.has(node.role));
  if (selected.length < 2) return;
  const atCursor = selected.filter((node) => contains(node.bounds, { x: cursor.x, y: cursor.y, w: 1, h: 1 }));
  if (atCursor.length === 1) atCursor[0]!.focused = true;
}
