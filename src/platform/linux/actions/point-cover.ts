// Whether real pointer input at a point of a window's screenshot reaches that window: the screenshot shows the
// window's own pixels whatever covers it, so a window kept over it (always on top, a dialog of it) shows nowhere there.
import { oneLine } from '../../../cup/text.js';
import { ToolError } from '../../../errors.js';
import type { PointTarget } from '../../targets.js';
import type { DesktopWindow } from '../../windows.js';
import { windowAt, type WindowAtPoint } from '../input/index.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import type { X11Connection } from '../x11/index.js';

/** A window lying over `window`, as a refusal names it: its id and title, whose it is, and why it stays over it. */
export function coverDescription(cover: DesktopWindow, window: DesktopWindow): string {
  const why = [
    cover.pid === window.pid ? 'of the same app' : `of another program, pid ${cover.pid}`,
    cover.above ? 'kept above other windows' : '',
    cover.transientFor === window.id ? `a dialog of window ${window.id}` : '',
  ];
  return `window ${cover.id} "${oneLine(cover.title)}" (${why.filter(Boolean).join(', ')})`;
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
    `${over} lies at ${point.screenX},${point.screenY}, over window ${window.id} "${oneLine(window.title)}" at (${Math.round(point.windowX)},${Math.round(point.windowY)}) even with it in front, ` +
      `so real pointer input there (a click, a hover) would reach that instead (window ${window.id}'s screenshot shows its own pixels, not the cover); nothing was sent. ` +
      `Move one of them apart (set_window_frame), act${target} on that window's own screenshot, or click an element of window ${window.id} in the background (delivery_mode "background"), which needs no free point`,
    'point_covered',
    { covered_by: hit.client ?? hit.topLevel },
  );
}
