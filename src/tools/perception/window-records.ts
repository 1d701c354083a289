import { findWindow, type DesktopWindow } from '../../platform/windows.js';
import type { ToolContext } from '../context.js';
import type { WindowResult } from '../schemas.js';
import { ToolError } from '../../errors.js';
import { oneLine } from '../../cup/text.js';

export function windowRecord(window: DesktopWindow): WindowResult {
  return {
    window_id: window.id,
    pid: window.pid,
    app_name: window.appName,
    title: window.title,
    bounds: { x: window.bounds.x, y: window.bounds.y, w: window.bounds.width, h: window.bounds.height },
    z_index: window.zIndex,
    is_on_screen: window.isOnScreen,
    on_current_space: window.onCurrentSpace,
    minimized: window.minimized,
    active: window.active,
    ...(window.modal ? { modal: true } : {}),
    ...(window.transientFor !== undefined ? { dialog_of: window.transientFor } : {}),
    ...(window.splash ? { splash: true } : {}),
    ...(window.above ? { always_on_top: true } : {}),
    ...(window.shaded ? { shaded: true } : {}),
    ...(window.maximized ? { maximized: true } : {}),
    ...(window.fullscreen ? { fullscreen: true } : {}),
    ...(window.notification ? { notification: true } : {}),
  };
}

export function formatWindowLine(window: DesktopWindow): string {
  const flags = [
    window.active ? 'active' : '',
    window.minimized ? 'minimized' : '',
    window.shaded ? 'shaded' : '',
    window.maximized ? 'maximized' : '',
    window.fullscreen ? 'full screen' : '',
    window.isOnScreen ? '' : 'off-screen',
    window.modal ? 'modal' : '',
    window.transientFor !== undefined ? `dialog of ${window.transientFor}` : '',
    window.splash ? 'splash screen' : '',
    window.above ? 'always on top' : '',
    window.notification ? 'notification' : '',
  ]
    .filter(Boolean)
    .join(', ');
  const { x, y, width, height } = window.bounds;
  return `${window.id} pid=${window.pid} z=${window.zIndex} ${x},${y} ${width}x${height} ${window.appName} "${oneLine(window.title)}"${flags ? ` (${flags})` : ''}`;
}

/** The window a call names, checked against the pid it names; errors say how to find a valid one. */
export async function resolveWindow(context: ToolContext, windowId: number, pid?: number): Promise<DesktopWindow> {
  return findWindow(await context.desktop.windows(), windowId, pid);
}

/**
 * A process's top-level windows, front-most first, its notification bubbles last (they stack over every window, yet a
 * call naming only the pid means the app's window to work in); window_not_found when it has none.
 */
export async function windowsOfProcess(context: ToolContext, pid: number): Promise<DesktopWindow[]> {
  const windows = (await context.desktop.windows())
    .filter((window) => window.pid === pid)
    .sort((a, b) => Number(a.notification ?? false) - Number(b.notification ?? false) || b.zIndex - a.zIndex);
  if (windows.length === 0) throw new ToolError(`pid ${pid} has no window; call list_windows`, 'window_not_found');
  return windows;
}
