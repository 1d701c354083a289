// Whether real pointer input at a point reaches the window it is meant for, with that window in front: another window
// can still lie over it (always on top, a dialog of it, another program's popup), and a screenshot of the window shows
// nothing of that.
import { intersectRect, largestUncovered } from '../../../cup/rect.js';
import type { CupRect } from '../../../cup/types.js';
import { oneLine } from '../../../cup/text.js';
import { ToolError } from '../../../errors.js';
import type { PointTarget } from '../../targets.js';
import { windowName, type DesktopWindow } from '../../windows.js';
import { windowAt, type WindowAtPoint } from '../input/index.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import type { X11Connection } from '../x11/index.js';
import { elementScreenPoint, minimumSide, visibleBox, type PlacedPoint } from './element-point.js';
import { clearOfPageCover } from './page-cover.js';
import type { LiveElementTarget } from './live-target.js';
import { indexedLabel } from '../../../cup/element-label.js';

/** A window lying over `window`, as a refusal names it: its id and title, whose it is, and why it stays over it. */
export function coverDescription(cover: DesktopWindow, window: DesktopWindow): string {
  const why = [
    cover.pid === window.pid ? 'of the same app' : `of another program, pid ${cover.pid}`,
    cover.above ? 'kept above other windows' : '',
    cover.transientFor === window.id ? `a dialog of window ${window.id}` : '',
  ];
  return `window ${cover.id} ${oneLine(windowName(cover))} (${why.filter(Boolean).join(', ')})`;
}

/**
 * Whether the override-redirect window at a point is the window's app's own popup (a menu, a drop-down list, a tool
 * tip of its), which takes a click meant for it: one of the app's X client, or one its process says it made
 * (_NET_WM_PID). Another program's (a notification bubble, an on-screen display, another app's tool tip) lies over
 * the window whatever is in front, unseen in its screenshot, and takes a real click meant for the window: a click on
 * HexChat's Nick name field under a notification-daemon bubble went to the bubble and read "no effect seen".
 */
export async function isOwnPopup(x: X11Connection, hit: WindowAtPoint, window: DesktopWindow): Promise<boolean> {
  if (!hit.overrideRedirect) return false;
  const mask = x.setup.resourceIdMask;
  if ((hit.topLevel & ~mask) === (window.id & ~mask)) return true;
  const pid = await x.getCardinals(hit.topLevel, '_NET_WM_PID').catch(() => null);
  return pid?.[0] !== undefined && pid[0] === window.pid;
}

/**
 * The X window whose widget under the point a sent (synthetic) pointer event goes to: the app's own popup lying there
 * (an open menu, drawn into the window's screenshot, takes the click meant for its item), else the window itself,
 * whatever else covers the point. Walked down from the root, a click went to xcalc lying over a Tk window; walked
 * down from the window alone, a click on an item of the Tk menu it had opened went to the canvas under it.
 */
export async function syntheticEventWindow(x: X11Connection, point: PointTarget): Promise<number> {
  const hit = await windowAt(x, { x: point.screenX, y: point.screenY });
  return hit.client !== point.window.id && (await isOwnPopup(x, hit, point.window)) ? hit.topLevel : point.window.id;
}

/**
 * Another program's popup (override-redirect: the window manager lists it nowhere), as a refusal names it: its X
 * window, title, process and kind (`_NET_WM_WINDOW_TYPE_NOTIFICATION` says "a notification").
 */
export async function popupDescription(x: X11Connection, topLevel: number): Promise<string> {
  const [title, pid, types] = await Promise.all([
    x.getString(topLevel, '_NET_WM_NAME').then((name) => name ?? x.getString(topLevel, 'WM_NAME')).catch(() => null),
    x.getCardinals(topLevel, '_NET_WM_PID').catch(() => null),
    x.getAtomList(topLevel, '_NET_WM_WINDOW_TYPE').catch(() => null),
  ]);
  const type = types?.[0] === undefined ? undefined : await x.getAtomName(types[0]).catch(() => undefined);
  const kind = type?.startsWith('_NET_WM_WINDOW_TYPE_') ? type.slice('_NET_WM_WINDOW_TYPE_'.length).toLowerCase().replaceAll('_', ' ') : undefined;
  const facts = [title ? `"${oneLine(title)}"` : '', pid?.[0] ? `pid ${pid[0]}` : '', kind ? `a ${kind}` : ''].filter(Boolean);
  return `a popup of another program (X window 0x${topLevel.toString(16)}${facts.length ? `, ${facts.join(', ')}` : ''})`;
}

/**
 * Refuses a real click at a point of the window's screenshot that, with the window in front, another window still
 * lies over: one kept above the others (always on top), a dialog of the window, or, for a shaded window, whatever is
 * under its title bar. The screenshot shows the window's own pixels whatever covers it, so nothing in it warns of the
 * cover, and the click would reach the other window while its read-back looked at this one (an always-on-top Tk
 * window's button took such a click, read as confirmed in the Mousepad window under it). A menu or drop-down list of
 * the window's own X client there is drawn into its screenshot and takes the click as meant.
 */
export async function requirePointOnWindow(desktop: LinuxDesktop, x: X11Connection, point: PointTarget): Promise<void> {
  const hit = await windowAt(x, { x: point.screenX, y: point.screenY });
  if (hit.client === point.window.id) return;
  if (await isOwnPopup(x, hit, point.window)) return;
  const windows = await desktop.windows();
  const cover = hit.client === undefined ? undefined : windows.find((window) => window.id === hit.client);
  const { window } = point;
  const over =
    hit.topLevel === 0
      ? 'no window (the bare screen)'
      : hit.overrideRedirect
        ? await popupDescription(x, hit.topLevel)
        : cover
          ? coverDescription(cover, window)
          : `X window 0x${hit.topLevel.toString(16)}`;
  const target = cover ? ` with window_id ${cover.id}, if that is the window meant,` : '';
  throw new ToolError(
    `${over} lies at ${point.screenX},${point.screenY}, over window ${window.id} ${oneLine(windowName(window))} at (${Math.round(point.windowX)},${Math.round(point.windowY)}) even with it in front, ` +
      `so real pointer input there (a click, a hover) would reach that instead (window ${window.id}'s screenshot shows its own pixels, not the cover); nothing was sent. ` +
      `Move one of them apart (set_window_frame), act${target} on that window's own screenshot, or click an element of window ${window.id} in the background (delivery_mode "background"), which needs no free point`,
    'point_covered',
    { covered_by: hit.client ?? hit.topLevel },
  );
}

/**
 * What lies at a point instead of the window's app, with the window where it is: the bare screen ("no window"),
 * another program's window or popup (a notification bubble); undefined when the point is on a window of the app. The
 * app's own popup (a menu, an open drop-down: override-redirect, unmanaged; see isOwnPopup) counts as the app's, as
 * does any window of its process (its own dialog).
 */
export async function otherThanAppAt(desktop: LinuxDesktop, x: X11Connection, point: PointTarget): Promise<string | undefined> {
  const hit = await windowAt(x, { x: point.screenX, y: point.screenY });
  if (hit.client === point.window.id) return undefined;
  if (hit.overrideRedirect) return (await isOwnPopup(x, hit, point.window)) ? undefined : popupDescription(x, hit.topLevel);
  const owner = hit.client === undefined ? undefined : (await desktop.windows()).find((window) => window.id === hit.client);
  if (hit.topLevel !== 0 && (hit.client === undefined || owner?.pid === point.window.pid)) return undefined;
  return hit.topLevel === 0 ? 'no window' : `window ${hit.client}${owner ? ` ${windowName(owner)} of another program (pid ${owner.pid})` : ' of another program'}`;
}

/**
 * Refuses a real click whose point, with the window in front, lies on no window of the element's app (see
 * otherThanAppAt). A toolkit can report an element showing with a box that is nowhere: Qt 5 keeps a closed combo
 * box's items "showing" at the screen's corner (0,0), where a click hits whatever is there.
 */
export async function requireOnAppWindow(desktop: LinuxDesktop, x: X11Connection, target: LiveElementTarget, point: PointTarget): Promise<void> {
  const there = await otherThanAppAt(desktop, x, point);
  if (there === undefined) return;
  const label = `element ${indexedLabel(target.element)}`;
  throw new ToolError(
    `${label} is reported at ${point.screenX},${point.screenY}, where ${there} is, not window ${point.window.id}: its position is not a real one ` +
      '(Qt 5 reports the items of a closed combo box as showing at the screen\'s corner), or the window moved. Nothing was sent. ' +
      'Open what holds it first (click its combo box or menu), then call get_window_state again and click the item; or use delivery_mode "background", which needs no position.',
    'element_not_visible',
    { placement: 'off_window' },
  );
}

/** How many windows over an element a real click's point is moved away from before the element counts as covered. */
const coversPassed = 4;

/**
 * Where a real click on the element reaches it with its window in front: the point given, or, when another window
 * still lies over it there (another program's kept above the others, always on top, or its popup, such as a
 * notification bubble; a dialog of the app that the
 * element reaches past), the middle of the largest part of the element's visible box that window leaves free, as a person clicks the part that shows (a Mousepad text
 * area whose middle an always-on-top window covered was refused as a position "not a real one"). An element that such
 * windows cover wholly is refused (point_covered), naming them; nothing was sent. A point on a window of the app (its
 * dialog or menu holding the element), on no window, or outside the window is left to requireOnAppWindow.
 */
export async function uncoveredElementPoint(desktop: LinuxDesktop, x: X11Connection, target: LiveElementTarget, point: PlacedPoint): Promise<PlacedPoint> {
  const { window } = point;
  const inWindow = { x: window.bounds.x, y: window.bounds.y, w: window.bounds.width, h: window.bounds.height };
  let shown: CupRect | undefined;
  let free: CupRect | undefined;
  let at = point;
  const covers: { id: number; description: string }[] = [];
  for (let pass = 0; pass < coversPassed; pass++) {
    const hit = await windowAt(x, { x: at.screenX, y: at.screenY });
    if (hit.topLevel === 0 || hit.client === window.id) return at;
    // Another program's popup (a notification bubble) stays over the window in front, as a window kept above does.
    const popup = hit.overrideRedirect && !(await isOwnPopup(x, hit, window));
    if (hit.overrideRedirect && !popup) return at;
    const cover = popup || hit.client === undefined ? undefined : (await desktop.windows()).find((other) => other.id === hit.client);
    const inside = at.screenX >= inWindow.x && at.screenX < inWindow.x + inWindow.w && at.screenY >= inWindow.y && at.screenY < inWindow.y + inWindow.h;
    if ((!popup && !cover) || !inside) return at;
    if (!shown) {
      const box = await visibleBox(desktop, target);
      if ('why' in box) return at;
      shown = intersectRect(box, inWindow);
    }
    const frame = await x.getGeometry(hit.topLevel);
    const over = { x: frame.x, y: frame.y, w: frame.width + 2 * frame.borderWidth, h: frame.height + 2 * frame.borderWidth };
    // An element of the app's own popup or dialog read through this window lies wholly in it, and is clicked there. One
    // reaching past it is this window's, under its dialog: the GTK3 fixture's Increment, half under its non-modal
    // dialog, had the dialog's Close button clicked in its place, read as confirmed by the dialog closing.
    const common = intersectRect(shown, over);
    if (cover?.pid === window.pid && common.w === shown.w && common.h === shown.h) return at;
    covers.push(cover ? { id: cover.id, description: coverDescription(cover, window) } : { id: hit.topLevel, description: await popupDescription(x, hit.topLevel) });
    free = largestUncovered(free ?? shown, over, minimumSide);
    if (!free) break;
    const screenX = Math.round(free.x + free.w / 2);
    const screenY = Math.round(free.y + free.h / 2);
    at = { ...point, screenX, screenY, windowX: screenX - window.bounds.x, windowY: screenY - window.bounds.y };
  }
  const names = [...new Map(covers.map((cover) => [cover.id, cover.description])).values()].join(', ');
  const label = `element ${indexedLabel(target.element)}`;
  throw new ToolError(
    `${label} is covered by ${names} even with window ${window.id} in front: no part of it shows, so a real click would reach that window; nothing was sent. ` +
      `Move one of them apart (set_window_frame), or click [e${target.element.index}] in the background (delivery_mode "background"), which reaches it through accessibility`,
    'point_covered',
    { covered_by: covers[0]?.id ?? 0 },
  );
}

/**
 * Where real pointer input for the target goes once its window is in front: an element's point moved off windows
 * covering it (uncoveredElementPoint), checked to lie on its app's windows, and moved off what a web page draws over
 * it (clearOfPageCover); a point checked to be uncovered.
 * Refuses (point_covered, element_not_visible) before anything is sent.
 */
export async function reachablePoint(desktop: LinuxDesktop, x: X11Connection, target: LiveElementTarget | PointTarget, placed: PlacedPoint): Promise<PlacedPoint> {
  if (target.kind !== 'element') {
    await requirePointOnWindow(desktop, x, placed);
    return placed;
  }
  const onWindow = async (at: PlacedPoint) => {
    const point = await uncoveredElementPoint(desktop, x, target, at);
    await requireOnAppWindow(desktop, x, target, point);
    return point;
  };
  // Then off what the page itself draws over it (a sticky header), scrolled clear of it when it is wholly under it.
  return clearOfPageCover(desktop, x, target, await onWindow(placed), async () => onWindow(await elementScreenPoint(desktop, target, x)));
}
