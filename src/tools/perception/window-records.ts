import type { ClientWindow } from '../../platform/linux/windows.js';
import type { ToolContext } from '../context.js';
import type { WindowResult } from '../schemas.js';
import { ToolError } from '../tool.js';

export function windowRecord(window: ClientWindow): WindowResult {
  return {
    window_id: window.id,
    pid: window.pid,
    app_name: window.appName,
    title: window.title,
    bounds: { ...window.bounds },
    z_index: window.zIndex,
    is_on_screen: window.isOnScreen,
    on_current_space: window.onCurrentSpace,
    minimized: window.minimized,
    active: window.active,
  };
}

export function formatWindowLine(window: ClientWindow): string {
  const flags = [window.active ? 'active' : '', window.minimized ? 'minimized' : '', window.isOnScreen ? '' : 'off-screen']
    .filter(Boolean)
    .join(', ');
  const { x, y, width, height } = window.bounds;
  return `${window.id} pid=${window.pid} z=${window.zIndex} ${x},${y} ${width}x${height} ${window.appName} "${window.title}"${flags ? ` (${flags})` : ''}`;
}

/** The window a call names, checked against the pid it names; errors say how to find a valid one. */
export async function resolveWindow(context: ToolContext, windowId: number, pid?: number): Promise<ClientWindow> {
  const windows = await context.desktop.windows();
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
