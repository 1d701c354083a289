// The active panel by its border: programs with several side-by-side panels and no visible cursor (calcurse)
// mark the panel that takes the keys by drawing its border in another colour than the others'. When no
// node has focus yet, that panel's selected item gets it, else the panel itself.
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
