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
  /**
   * Of a window with no title: the name its accessible top-level object has (a GTK3 message dialog with none is named
   * by its kind, "Warning"). Results name the window by it (windowName); title stays what the window manager knows.
   */
  accessibleName?: string;
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
  /**
   * A modal dialog (_NET_WM_STATE_MODAL on X11, or a dialog of a window whose accessible top level says STATE_MODAL, as
   * Java's are: accessible-window-facts.ts): the window it is a dialog of, or all its app's when it names none, waits on it.
   */
  modal?: true;
  /**
   * The window it is a dialog of (WM_TRANSIENT_FOR on X11). Java marks its modal dialogs only so on X11, never
   * _NET_WM_STATE_MODAL, and so does GTK 4 its file chooser dialog (gnome-text-editor's Save As), which says nothing
   * modal to accessibility either; GTK 4's modal windows are marked modal.
   */
  transientFor?: number;
  /** Kept above the other windows (_NET_WM_STATE_ABOVE on X11): activating another window leaves it over that one. */
  above?: true;
  /** Rolled up into its title bar (_NET_WM_STATE_SHADED on X11): its client area shows nothing and takes no click. */
  shaded?: true;
  /** Maximized both ways (_NET_WM_STATE_MAXIMIZED_VERT and _HORZ on X11): it fills the work area (set_window_frame restores it first). */
  maximized?: true;
  /** Full screen (_NET_WM_STATE_FULLSCREEN on X11): no frame, over every panel. */
  fullscreen?: true;
  /** A splash screen (_NET_WM_WINDOW_TYPE_SPLASH on X11): shown while the app starts, never the app's window to work in. */
  splash?: true;
  /**
   * Kept off the taskbar and out of the window manager's frame while a dialog of no window (_NET_WM_STATE_SKIP_TASKBAR
   * and _MOTIF_WM_HINTS with no decorations on X11): how a toolkit with no splash type shows a splash screen (Java's
   * JWindow: jEdit's), and no window an app is worked in.
   */
  bare?: true;
  /**
   * A notification bubble (an override-redirect window typed _NET_WM_WINDOW_TYPE_NOTIFICATION on X11): no window manager
   * manages it, so it is never activated or raised, and it stays over every window.
   */
  notification?: true;
}

/**
 * A window as results name it: its title, quoted; a window with no title by its accessible name where it has one
 * (`"Warning" (no title; its accessible name)`), as list_windows gives it: HexChat's untitled warning was named
 * `""` in the action's evidence and its new_windows line.
 */
export function windowName(window: { title: string; accessibleName?: string; accessible_name?: string }): string {
  const name = window.accessibleName ?? window.accessible_name;
  return window.title.trim() === '' && name ? `"${name}" (no title; its accessible name)` : `"${window.title}"`;
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

/** What tells one window from another over time: its id alone does not (see `seenBefore`). */
export type WindowIdentity = Pick<DesktopWindow, 'id' | 'pid'>;

/**
 * Whether a window is one of those listed before. The X server hands a closed client's range of resource ids to
 * the next client that connects, so an app started right after another was killed gets the dead app's window ids:
 * a listing taken before the X server had dropped the dead window names the new app's window. A window is the same
 * only when its id and its pid both match.
 */
export function seenBefore(before: readonly WindowIdentity[]): (window: WindowIdentity) => boolean {
  const keys = new Set(before.map((window) => `${window.id}/${window.pid}`));
  return (window) => keys.has(`${window.id}/${window.pid}`);
}

/**
 * The modal dialog that keeps a person from using the window: one of the same app, shown, marked modal, and a dialog
 * of this window, of a window this one is the owner of (through any number of dialogs), or of none (modal to the whole
 * app). A dialog blocks its owner's owners too, in every toolkit (Qt's window-modal blocks the parent and grandparents,
 * Java's and GTK's modality reaches further still): Java tells X11 only one window a modal dialog blocks, chaining the
 * others, so with two frames up its owner-less message box (JOptionPane with a null parent) was a dialog of the second
 * frame, the second frame a dialog of the first, and clicks on the first ran under the message box. A dialog only
 * transient for the window, not marked modal (by the window manager's state, or by its accessible top level where
 * that says nothing, as Java's), may be a tool window beside it (a GTK 4 palette), so it blocks nothing here. Nor does a modal window the window is itself a dialog of
 * (through any number of dialogs): LibreOffice's Document Recovery, modal to the whole app, asks its question in a
 * modal dialog of its own, and a click on that question's Yes was refused as waiting on the Document Recovery window
 * under it.
 */
export function modalDialogOver<W extends DesktopWindow>(window: DesktopWindow, windows: readonly W[]): W | undefined {
  const owners = ownersOf(window, windows);
  return windows
    .filter((other) => other.id !== window.id && other.pid === window.pid && other.modal && !other.minimized && !owners.has(other.id) && (other.transientFor === undefined || ownersOf(other, windows).has(window.id)))
    .sort((a, b) => b.zIndex - a.zIndex)[0];
}

/** The windows `window` is a dialog of, its owner's owner and so on (WM_TRANSIENT_FOR), by id; a cycle ends the chain. */
function ownersOf(window: DesktopWindow, windows: readonly DesktopWindow[]): Set<number> {
  const owners = new Set<number>();
  for (let owner = window.transientFor; owner !== undefined && owner !== window.id && !owners.has(owner); owner = windows.find((each) => each.id === owner)?.transientFor) {
    owners.add(owner);
  }
  return owners;
}
