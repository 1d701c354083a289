// Desktop services beyond seeing and acting on one element: the clipboard, window frames, menus by path,
// mouse buttons held across calls, and the health of the desktop's parts. Part of the Desktop interface.
import type { ActionOutcome } from './action-outcome.js';
import type { PointTarget, SnapshotRef } from './targets.js';
import type { DesktopWindow, WindowRect } from './windows.js';

export interface ClipboardText {
  text: string;
  /** The form it was read in (UTF8_STRING, text/plain;charset=utf-8, STRING). */
  target: string;
}

/** The clipboard taken (SetSelectionOwner) since the watch began, heard from the X server. */
export interface ClipboardTakes {
  /** The processes whose windows took the clipboard so far (none when nobody did). */
  takers(): Promise<number[]>;
  /** Stops hearing for this watcher (the others go on). */
  close(): Promise<void>;
}

export interface DesktopClipboard {
  /**
   * Starts hearing each time a client takes the clipboard, as a copy does, even a client that owned it already: an
   * app's copy command often changes nothing else an accessibility tree shows.
   */
  watchClipboardTakes(): Promise<ClipboardTakes>;
  /** What the clipboard's owner offers (MIME types and X targets); undefined when nobody owns the clipboard. */
  clipboardTargets(): Promise<string[] | undefined>;
  /** undefined when nobody owns the clipboard or its owner offers no text. */
  readClipboardText(): Promise<ClipboardText | undefined>;
  /** The clipboard as `mimeType` bytes (e.g. image/png); undefined when the owner does not offer it. */
  readClipboardBytes(mimeType: string): Promise<Buffer | undefined>;
  /**
   * Puts text on the clipboard, owned by this process for as long as it runs and then, for keepAfterExitMs,
   * by a keeper process (0: only while this process runs). Returns the targets offered.
   */
  writeClipboardText(text: string, keepAfterExitMs: number): Promise<{ targets: string[] }>;
}

export interface FrameOutcome {
  /** The window's client area as it is afterwards (list_windows' bounds). */
  frame: WindowRect;
  by: 'window_manager' | 'x_server';
  /** States taken off first (maximized, fullscreen), which would make the window manager ignore the request. */
  unmaximized: string[];
}

export interface DesktopWindowFrames {
  /** Moves and resizes the window's client area, then reads back where it really is. */
  setWindowFrame(window: DesktopWindow, frame: WindowRect): Promise<FrameOutcome>;
}

export interface MenuOutcome {
  /** The item names along the path, as the app names them. */
  path: string[];
  /** The action performed on the last item. */
  action: string;
  /** Menus opened on the way because the toolkit builds their items only when shown. */
  opened: string[];
  /** What choosing the item did, as a click's result says it (the app's change events, the windows it opened). */
  outcome: ActionOutcome;
}

export interface DesktopMenus {
  /**
   * Activates the menu item at `path` (["File", "Save As..."]) of the window's menu bar through accessibility.
   * Throws menu_item_not_found naming the missing item and what its menu holds, no_menu_bar, or menu_item_disabled.
   */
  /** `signal` ends the wait for a tree not there yet (see invokeMenuPath) as the caller cancels. */
  invokeMenu(window: DesktopWindow, path: readonly string[], snapshot?: SnapshotRef, signal?: AbortSignal): Promise<MenuOutcome>;
  /**
   * Closes the window's app's own open menus (popups holding the keyboard), as Escape closes a person's; answers
   * whether any was open. Nothing is sent when none is, or when another app's menu is open too.
   */
  closeOwnMenus(window: DesktopWindow): Promise<boolean>;
}

export type MouseButton = 'left' | 'middle' | 'right';

/**
 * Mouse buttons held across calls (mouse_button_down ... mouse_button_up), by owner (a session): real input
 * through the X server. A hold ends by release, by the owner's release-all (session end, cancel), or by itself
 * after maxHoldMs, so no button stays down on the user's desktop.
 */
export interface DesktopButtonHolds {
  /** Presses `button` at `at` (the window is activated first), or where the pointer is. */
  pressButton(owner: string, button: MouseButton, at: PointTarget | undefined, maxHoldMs: number): Promise<{ x: number; y: number }>;
  /** Moves the real pointer to `to` in steps with the owner's buttons held; an abort releases them. */
  moveHeld(owner: string, to: PointTarget, options: { steps: number; durationMs: number; signal?: AbortSignal }): Promise<void>;
  /** Releases one button (or all) of the owner, at `at` when given; returns the buttons released. */
  releaseButtons(owner: string, button?: MouseButton, at?: PointTarget): Promise<MouseButton[]>;
  heldButtons(owner: string): MouseButton[];
}

export interface HealthCheck {
  /** x_server, xtest, window_manager, accessibility_bus, accessibility_enabled, apps_registered, ffmpeg. */
  name: string;
  ok: boolean;
  /** What was found ("Xvfb 21.1.7 on :99", "3 apps: gedit, ..."). */
  detail: string;
  /** How to fix it when not ok. */
  fix?: string;
  /** Only a warning: the driver works without it, with less (e.g. no video recording without ffmpeg). */
  optional?: boolean;
}

export interface DesktopHealth {
  /** Every check, each bounded in time; a failing part never throws, it is reported with its fix. */
  healthChecks(): Promise<HealthCheck[]>;
  /** Versions and connection state of the desktop's parts, for health_report. */
  healthFacts(): Promise<Record<string, unknown>>;
}
