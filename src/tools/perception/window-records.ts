import { findWindow, windowName, type DesktopWindow } from '../../platform/windows.js';
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
  const windows = await context.desktop.windows();
  const closed = windows.some((window) => window.id === windowId) ? undefined : closedSinceRead(context, windowId);
  if (closed) throw new ToolError(closed.message, 'window_not_found', { pid: closed.pid });
  return findWindow(windows, windowId, pid);
}

/**
 * A window this session read that is gone now is named with what it was and why it is gone: its app exited (launch
 * it again), or closed it and still runs (its other windows). An app killed between two calls was answered "no
 * top-level window with window_id N" and other apps' windows, leaving the agent to guess the app had died.
 */
export function closedSinceRead(context: ToolContext, windowId: number): { message: string; pid: number } | undefined {
  const read = context.state.snapshots.latestForWindow(windowId);
  if (!read) return undefined;
  const title = read.elements.get(0)?.name;
  const what = `window ${windowId}${title ? ` "${oneLine(title)}"` : ''} (pid ${read.pid}), read in this session (snapshot ${read.id}), has closed`;
  const message = context.desktop.processAlive(read.pid)
    ? `${what}; its application still runs: call list_windows with pid ${read.pid} for the windows it has now`
    : `${what}: its application (pid ${read.pid}) has exited; start it again with launch_app and read its new window`;
  return { message, pid: read.pid };
}

/** no_such_process for a pid that runs no more, naming the window of it this session read, if any. */
export function exitedProcess(context: ToolContext, pid: number): ToolError {
  const read = context.state.snapshots.latestForPid(pid);
  const closed = read && closedSinceRead(context, read.windowId);
  return new ToolError(
    closed?.message ?? `no process has pid ${pid}: it has exited (or never ran); call list_apps for the running apps' pids, or start the app with launch_app`,
    'no_such_process',
  );
}

/**
 * A process's top-level windows, front-most first, its notification bubbles last (they stack over every window, yet a
 * call naming only the pid means the app's window to work in); window_not_found when it has none, no_such_process when
 * it has exited: type_text or press_key by the pid of an app killed since was told "pid N has no window; call
 * list_windows", which lists other apps' windows and leaves the agent to guess the app had died.
 */
export async function windowsOfProcess(context: ToolContext, pid: number): Promise<DesktopWindow[]> {
  const windows = (await context.desktop.windows())
    .filter((window) => window.pid === pid)
    .sort((a, b) => Number(a.notification ?? false) - Number(b.notification ?? false) || b.zIndex - a.zIndex);
  if (windows.length > 0) return windows;
  if (context.desktop.processAlive(pid)) throw new ToolError(`pid ${pid} has no window; call list_windows`, 'window_not_found');
  throw exitedProcess(context, pid);
}

/**
 * The window a call names: window_id, else pid's window. With pid alone and several windows, `several` says what the
 * call means: 'front-most' for a tool acting where the app's front window is (a page, a recording), 'refuse' for one
 * whose answer is about one window and whose indices belong to it (get_window_state): it takes the app's only window
 * (its notification bubbles aside) and refuses a choice among several, naming each (id, title) and asking for
 * window_id, where `{pid}` alone had been refused as an invalid argument with no word of the windows to choose from.
 */
export async function windowOfCall(
  context: ToolContext,
  args: { pid?: number | undefined; window_id?: number | undefined },
  tool: string,
  several: 'front-most' | 'refuse',
): Promise<DesktopWindow> {
  if (args.window_id !== undefined) return resolveWindow(context, args.window_id, args.pid);
  if (args.pid === undefined) throw new ToolError(`${tool} needs window_id (from list_windows) or pid`, 'missing_target');
  const windows = await windowsOfProcess(context, args.pid);
  if (several === 'front-most') return windows[0]!;
  const readable = windows.filter((window) => !window.notification);
  const candidates = readable.length > 0 ? readable : windows;
  if (candidates.length === 1) return candidates[0]!;
  const named = candidates.map((window) => `window_id ${window.id} ${oneLine(windowName(window))}`).join(', ');
  throw new ToolError(`pid ${args.pid} has ${candidates.length} windows: ${named}; pass window_id to say which one ${tool} reads`, 'missing_window_id');
}
