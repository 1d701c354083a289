// Scrolling a web page in the background: a page has no scroll bar in the accessibility tree (Blink's and
// Gecko's documents scroll themselves), so an object on the page is moved by the distance to scroll.
import { actionOutcome, type ActionOutcome } from '../../action-outcome.js';
import type { SnapshotRef } from '../../targets.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { children, deepestAtPoint, extents, scrollToPoint } from '../atspi/operations.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { observe, type Probe } from './verification.js';

/** Pixels a line scrolls; a page is the document's visible height (or width) less one line, as browsers do. */
const linePixels = 40;

type Box = { x: number; y: number; w: number; h: number };

/**
 * An object on the page whose place moves with the scrolling: the deepest one under a few points of the
 * visible part, or the document's first child; never the document itself, which stays where it is.
 */
async function anchorIn(desktop: LinuxDesktop, document: ObjectRef, box: Box): Promise<ObjectRef | undefined> {
  const client = await desktop.atspi();
  for (const [fx, fy] of [[0.5, 0.5], [0.25, 0.25], [0.5, 0.9], [0.1, 0.1]] as const) {
    const hit = await deepestAtPoint(client, document, Math.round(box.x + box.w * fx), Math.round(box.y + box.h * fy), 0);
    if (hit && hit.path !== document.path) return hit;
  }
  return (await children(client, document).catch(() => []))[0];
}

/**
 * Scrolls a web document by lines or pages: an object on the page is moved by the distance with
 * ScrollToPoint (the browser clamps it to the content), and the object's new place is the read-back. A document already at
 * its end answers with a suspected no-op that says so.
 */
export async function scrollDocument(
  desktop: LinuxDesktop,
  document: ObjectRef,
  request: { direction: 'up' | 'down' | 'left' | 'right'; by: 'line' | 'page'; amount: number; snapshot?: SnapshotRef },
): Promise<ActionOutcome> {
  const client = await desktop.atspi();
  const box = await extents(client, document);
  const vertical = request.direction === 'up' || request.direction === 'down';
  const sign = request.direction === 'up' || request.direction === 'left' ? -1 : 1;
  const page = Math.max(linePixels, (vertical ? box.h : box.w) - linePixels);
  const distance = sign * (request.by === 'page' ? page : linePixels) * request.amount;
  const anchor = await anchorIn(desktop, document, box);
  if (!anchor) {
    return { path: 'none', delivery_mode: 'background', effect: 'suspected_noop', verified: true, evidence: ['the page is empty: nothing on it to scroll'] };
  }
  const place: Probe = {
    label: 'the position of the page\'s content',
    read: async () => {
      const at = await extents(client, anchor);
      return String(vertical ? at.y : at.x);
    },
  };
  const before = Number(await place.read());
  const observation = await observe(desktop, document.bus, [place], async () => {
    const at = await extents(client, anchor);
    const moved = vertical ? await scrollToPoint(client, anchor, at.x, at.y - distance) : await scrollToPoint(client, anchor, at.x - distance, at.y);
    if (!moved) throw new Error('the application refused to scroll the page');
  }, { snapshot: request.snapshot, until: (values) => Number(values[0]) !== before });
  if (Number(await place.read().catch(() => String(before))) === before) {
    return {
      path: 'x11_atspi',
      delivery_mode: 'background',
      effect: 'suspected_noop',
      verified: true,
      evidence: [`the page did not move: it is already scrolled to its ${sign < 0 ? 'start' : 'end'}`],
    };
  }
  return actionOutcome({ path: 'x11_atspi', mode: 'background', observation });
}
