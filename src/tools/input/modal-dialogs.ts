import { ToolError } from '../../errors.js';
import { modalDialogOver, windowName, type DesktopWindow } from '../../platform/windows.js';

/**
 * Refuses an action on a window while its modal dialog is up (`_NET_WM_STATE_MODAL`, a dialog of it or of the whole
 * app), or on the dialog `front` when the caller named no window and the app's front window is one (`front: true`
 * for tools that then act on what lies under it, as a menu bar does). A person cannot reach such a window; through
 * accessibility the action would run all the same, under the dialog: invoke_menu's Save As opened a second one, and a
 * click by index on FileZilla's Site Manager OK, under its message box, opened a second message box. Nothing is sent.
 */
export function refuseUnderModalDialog(tool: string, window: DesktopWindow, windows: readonly DesktopWindow[], front = false): void {
  const dialog = front && window.modal ? window : modalDialogOver(window, windows);
  if (!dialog) return;
  const blocked = dialog === window ? `pid ${window.pid}'s front window ${window.id} ${windowName(window)} is a modal dialog` : `window ${window.id} ${windowName(window)} waits on its modal dialog ${dialog.id} ${windowName(dialog)}`;
  throw new ToolError(
    `${tool}: ${blocked}, and its app takes no input there until the dialog is answered or closed; act in the dialog first (window_id ${dialog.id}; press_key escape there closes most). Nothing was sent.`,
    'blocked_by_modal_dialog',
    { window_id: window.id, dialog_window_id: dialog.id, dialog_title: dialog.title },
  );
}
