// The object under a point found in a window's tree, where the toolkit's hit test answered nothing.
import { ATSPI_STATE } from '../../../cup/atspi/constants.js';
import type { AtspiRawNode } from '../../../cup/atspi/raw-node.js';
import { hasState } from '../../../cup/atspi/states.js';
import type { ObjectRef } from './object-ref.js';

/**
 * The deepest object of a raw tree whose box (placed at origin) contains the point; later siblings paint on top.
 * With `unshownHoldsNothing` (a toolkit whose SHOWING tells what it draws), an object the toolkit says is not showing
 * holds nothing under any point: Firefox keeps a New Tab page ready in a frame of the same box after the page shown,
 * not showing, and that frame, taken as the later sibling, was clicked for the page's button.
 */
export function deepestContaining(node: AtspiRawNode, origin: { x: number; y: number }, x: number, y: number, unshownHoldsNothing: boolean): ObjectRef | undefined {
  if (unshownHoldsNothing && hasState(node.states, ATSPI_STATE.SHOWING) === false) return undefined;
  const box = node.extents;
  const inside =
    box !== undefined && !node.positionUnknown && box.w > 0 && box.h > 0 &&
    x >= box.x + origin.x && y >= box.y + origin.y && x < box.x + origin.x + box.w && y < box.y + origin.y + box.h;
  for (let i = node.children.length - 1; i >= 0; i--) {
    const found = deepestContaining(node.children[i]!, origin, x, y, unshownHoldsNothing);
    if (found) return found;
  }
  return inside ? { bus: node.bus, path: node.path } : undefined;
}
