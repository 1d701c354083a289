import { ToolError } from '../errors.js';

/** A window's place on the screen, in screen pixels, top-left origin. */
export interface WindowRect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A top-level window as every backend describes it (the X11 client window on Linux). */
export interface DesktopWindow {
  id: number;
  pid: number;
  title: string;
  /** The application's class name (e.g. "gnome-calculator"), else its process name. */
  appName: string;
  /** The client area in screen coordinates, without the window manager's frame. */
  bounds: WindowRect;
  /** Position in the stacking order, bottom = 0; higher is in front. */
  zIndex: number;
  isOnScreen: boolean;
  onCurrentSpace: boolean;
  minimized: boolean;
  active: boolean;
}

/** The window a call names, checked against the pid it names; errors say how to find a valid one. */
export function findWindow<W extends DesktopWindow>(windows: readonly W[], windowId: number, pid?: number): W {
  const window = windows.find((candidate) => candidate.id === windowId);
  if (!window) {
    const known = windows.slice(0, 8).map((w) => `${w.id} (pid ${w.pid}, "${w.title}")`).join(', ');
    throw new ToolError(
      `no top-level window with window_id ${windowId}; call list_windows for current ids${known ? ` (some: ${known})` : ''}`,
      'window_not_found',
    );
  }
  if (pid !== undefined && window.pid !== pid) {
    throw new ToolError(
      `window ${windowId} belongs to pid ${window.pid}, not pid ${pid}; pass pid ${window.pid} or pick another window from list_windows`,
      'pid_mismatch',
    );
  }
  return window;
}
