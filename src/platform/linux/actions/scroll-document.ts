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
 * Objects on the page whose places move with the scrolling: the deepest ones under a few points of the visible
 * part, then the document's first children; never the document itself, which stays where it is. Several, as one
 * of them may stay put: a sticky or fixed header (often the document's first child) keeps its place on screen,
 * and where the points fall on blank page only the children are left.
 */
async function anchorsIn(desktop: LinuxDesktop, document: ObjectRef, box: Box): Promise<ObjectRef[]> {
  const client = await desktop.atspi();
  const found: ObjectRef[] = [];
  const add = (ref: ObjectRef | undefined) => {
    if (ref && ref.path !== document.path && !found.some((known) => known.path === ref.path)) found.push(ref);
  };
  for (const [fx, fy] of [[0.5, 0.5], [0.25, 0.25], [0.5, 0.9], [0.1, 0.1]] as const) {
    add(await deepestAtPoint(client, document, Math.round(box.x + box.w * fx), Math.round(box.y + box.h * fy), 0));
  }
  for (const child of (await children(client, document).catch(() => [])).slice(0, 4)) add(child);
  return found;
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
  const anchors = await anchorsIn(desktop, document, box);
  const anchor = anchors[0];
  if (!anchor) {
    return { path: 'none', delivery_mode: 'background', effect: 'suspected_noop', verified: true, evidence: ['the page is empty: nothing on it to scroll'] };
  }
  const placeOf = async (ref: ObjectRef) => {
    const at = await extents(client, ref).catch(() => undefined);
    return at && (vertical ? at.y : at.x);
  };
  const placesBefore = await Promise.all(anchors.map(placeOf));
  // How far the content moved: the shift of the first anchor that moved, 0 while none has.
  const shift = async () => {
    const places = await Promise.all(anchors.map(placeOf));
    const moved = places.findIndex((at, i) => at !== undefined && placesBefore[i] !== undefined && at !== placesBefore[i]);
    return moved < 0 ? 0 : sign * (placesBefore[moved]! - places[moved]!);
  };
  const place: Probe = { label: `how far the page scrolled ${request.direction} (pixels)`, read: async () => String(await shift()) };
  const observation = await observe(desktop, document.bus, [place], async () => {
    const at = await extents(client, anchor);
    const moved = vertical ? await scrollToPoint(client, anchor, at.x, at.y - distance) : await scrollToPoint(client, anchor, at.x - distance, at.y);
    if (!moved) throw new Error('the application refused to scroll the page');
  }, { snapshot: request.snapshot, until: (values) => values[0] !== '0' });
  if ((await shift().catch(() => 0)) === 0) {
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
