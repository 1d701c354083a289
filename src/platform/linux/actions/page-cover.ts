// Whether another element of the same web page lies over an element where a real click would land on it (a sticky or
// fixed header, a cookie bar), and a point of the element that none covers: the window-level checks of point-cover.ts
// see one X window, and a page draws its header and its buttons in that one window.
import { setTimeout as sleep } from 'node:timers/promises';
import { largestUncovered } from '../../../cup/rect.js';
import type { CupRect } from '../../../cup/types.js';
import { ATSPI_ROLE } from '../../../cup/atspi/constants.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { ancestry, extents, readRole, scrollToPoint } from '../atspi/operations.js';
import { windowAt } from '../input/index.js';
import type { X11Connection } from '../x11/index.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { minimumSide, sameItemAfterScroll, visibleBox, type PlacedPoint } from './element-point.js';
import type { LiveElementTarget } from './live-target.js';

/** Pauses before each ask again of a hit test whose first answer is a guess; their sum bounds the wait for the true one. */
const trueAnswerPausesMs = [10, 30];

/**
 * What the app's hit test finds at the point when that is another object than the element, what it holds or what holds
 * it: an overlay, a banner or a dialog over the element, which a real click there reaches instead. Undefined when the
 * element is what lies there, or nothing can be told (no answer, another process's object). A toolkit whose first
 * answer is a guess (see hitTestLagsOneAsk) is asked again, up to twice, until its answer changes.
 */
export async function coverRefAt(desktop: LinuxDesktop, target: LiveElementTarget, point: PlacedPoint): Promise<ObjectRef | undefined> {
  const client = await desktop.atspi();
  const ask = () => desktop.accessibleAt(target.window, point.screenX, point.screenY).catch(() => undefined);
  let hit = await ask();
  if (hit && (await client.quirksOf(target.ref.bus).catch(() => undefined))?.hitTestLagsOneAsk) {
    // The true answer comes once the page has answered the first ask: a second ask at once still had the guess.
    for (const pause of trueAnswerPausesMs) {
      await sleep(pause);
      const again = await ask();
      if (again && again.path !== hit.path) {
        hit = again;
        break;
      }
    }
  }
  if (!hit || hit.bus !== target.ref.bus || hit.path === target.ref.path) return undefined;
  const [aroundHit, aroundTarget] = await Promise.all([ancestry(client, hit), ancestry(client, target.ref)]);
  if (aroundHit.paths.includes(target.ref.path) || aroundTarget.paths.includes(hit.path)) return undefined;
  return hit;
}

/** Covers stepped around (each a hit test and a box) before the element is scrolled clear of them. */
const coversPassed = 4;
/**
 * The middle of the largest part of the element's visible box that the page's covers leave free, stepping off each
 * cover the hit test finds (the deepest object there, a header's text, then the header around it); undefined when none
 * is left. A point under another X window (kept above) is no free point either.
 */
async function freePoint(desktop: LinuxDesktop, x: X11Connection, target: LiveElementTarget, point: PlacedPoint, cover: ObjectRef): Promise<PlacedPoint | undefined> {
  const box = await visibleBox(desktop, target);
  if ('why' in box) return undefined;
  let free: CupRect | undefined = box;
  let over: ObjectRef | undefined = cover;
  for (let pass = 0; over && pass < coversPassed; pass++) {
    const coverBox = await desktop.elementBounds(target.window, over);
    if (!coverBox) return undefined;
    free = largestUncovered(free, coverBox, minimumSide);
    if (!free) return undefined;
    const screenX = Math.round(free.x + free.w / 2);
    const screenY = Math.round(free.y + free.h / 2);
    const at = { ...point, screenX, screenY, windowX: screenX - point.window.bounds.x, windowY: screenY - point.window.bounds.y };
    if ((await windowAt(x, { x: screenX, y: screenY })).client !== point.window.id) return undefined;
    over = await coverRefAt(desktop, target, at);
    if (!over) return at;
  }
  return undefined;
}

/** The page's document the element lies in (Blink's and Gecko's document-web), whose box is the page's view. */
async function documentOf(desktop: LinuxDesktop, ref: ObjectRef): Promise<ObjectRef | undefined> {
  const client = await desktop.atspi();
  // The ancestors' paths in one walk up, then their roles asked together.
  const { paths } = await ancestry(client, ref);
  const roles = await Promise.all(paths.map((path) => readRole(client, { bus: ref.bus, path }).catch(() => undefined)));
  const at = roles.indexOf(ATSPI_ROLE.DOCUMENT_WEB);
  return at < 0 ? undefined : { bus: ref.bus, path: paths[at]! };
}

/**
 * Scrolls the page so that the element's middle comes to the middle of the page's view (Component.ScrollToPoint, which
 * Blink and Gecko carry out as a scroll by the difference): a header or footer kept on screen (sticky, fixed) lies at
 * an edge of the view, and the browsers' own scrolling into view stops at the edge, under it. True when it moved.
 */
async function scrollToMiddle(desktop: LinuxDesktop, target: LiveElementTarget): Promise<boolean> {
  const client = await desktop.atspi();
  const page = await documentOf(desktop, target.ref);
  if (!page) return false;
  // In the app's own screen units, as ScrollToPoint takes them: the element's top-left goes where its middle is to be.
  const [own, view] = await Promise.all([extents(client, target.ref), extents(client, page)]).catch(() => []);
  if (!own || !view) return false;
  const moved = await scrollToPoint(client, target.ref, own.x, Math.round(view.y + view.h / 2 - own.h / 2)).catch(() => false);
  const after = await extents(client, target.ref).catch(() => undefined);
  return moved || (after !== undefined && after.y !== own.y);
}

/**
 * Where a real click on an element of a web page reaches it: the point given when the page's hit test finds the
 * element there (or what it holds, or what holds it), the common case, one hit test (two more, 40 ms apart at most,
 * where the first answer is a guess); else the middle of the part of
 * its visible box that the page's covers leave free (a button half under a sticky header is clicked on its lower
 * half); else, with the element wholly under them, the page scrolled to bring it to the middle of its view and placed
 * again by `placeAgain`. A click on the element under a sticky header landed on the header, and the page heard
 * nothing. When nothing frees it (an overlay over the whole page), the point given, with the cover the hit test found
 * there (coveredBy): the click's read-back names the cover (see pointer.ts).
 */
export async function clearOfPageCover(
  desktop: LinuxDesktop,
  x: X11Connection,
  target: LiveElementTarget,
  point: PlacedPoint,
  placeAgain: () => Promise<PlacedPoint>,
): Promise<PlacedPoint> {
  if (!(await (await desktop.atspi()).quirksOf(target.ref.bus).catch(() => undefined))?.webEngine) return point;
  const cover = await coverRefAt(desktop, target, point);
  if (!cover) return point;
  const free = await freePoint(desktop, x, target, point, cover);
  if (free) return free;
  if (!(await scrollToMiddle(desktop, target))) return { ...point, coveredBy: cover };
  await sameItemAfterScroll(desktop, target);
  const placed = { ...(await placeAgain()), scrolledIntoView: true };
  const still = await coverRefAt(desktop, target, placed);
  if (!still) return placed;
  return (await freePoint(desktop, x, target, placed, still)) ?? { ...placed, coveredBy: still };
}
