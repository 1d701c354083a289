// Whether real pointer input at a point of a window's screenshot reaches that window: the screenshot shows the
// window's own pixels whatever covers it, so a window kept over it (always on top, a dialog of it) shows nowhere there.
import { oneLine } from '../../../cup/text.js';
import { ToolError } from '../../../errors.js';
import type { PointTarget } from '../../targets.js';
import type { DesktopWindow } from '../../windows.js';
import { windowAt } from '../input/index.js';
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
  const mask = x.setup.resourceIdMask;
  if (hit.overrideRedirect && (hit.topLevel & ~mask) === (point.window.id & ~mask)) return;
  const windows = await desktop.windows();
  const cover = hit.client === undefined ? undefined : windows.find((window) => window.id === hit.client);
  const { window } = point;
  const over =
    hit.topLevel === 0
      ? 'no window (the bare screen)'
      : hit.overrideRedirect
        ? `a popup of another program (X window 0x${hit.topLevel.toString(16)})`
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
