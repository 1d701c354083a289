import type { ToolError } from '../errors.js';
// The desktop as the tools see it. A backend (src/platform/linux/ for X11 and AT-SPI2) implements it; tool
// files map arguments to these calls and results to text, so another backend needs no change to a tool.
import type { CupNode, CupPlatform } from '../cup/types.js';
import type { RawImage } from '../image/raw-image.js';
import type { ActionOutcome } from './action-outcome.js';
import type { DesktopButtonHolds, DesktopClipboard, DesktopHealth, DesktopMenus, DesktopWindowFrames } from './desktop-services.js';
import type { InstalledApp, LaunchPlan, RunningApp } from './apps.js';
import type { BrowserPages } from './browser.js';
import type { DeliveryMode, ElementHandle, ElementTarget, PointerKind, PointerOptions, PointTarget, ScrollDirection, SnapshotRef } from './targets.js';
import type { DesktopWindow, WindowRect } from './windows.js';

export interface ScreenInfo {
  width: number;
  height: number;
  scale: number;
}

export interface TreeLimits {
  maxNodes: number;
  maxDepth: number;
  budgetMs: number;
  /**
   * When the call came in (performance.now() of this process): a reading of the same window and limits
   * that began since then is fresh enough for it and may be shared. Without it, only one begun after this.
   */
  since?: number;
  /** Read the whole window afresh, not from what the backend keeps of it (tests and benchmarks compare the two). */
  fresh?: boolean;
  /**
   * Where the backend keeps the window current from the app's events: re-read only what the events since its
   * last read named, and leave its checks for changes apps make without an event to the next read. Quicker
   * after a change; the reading's `current` then says which elements were read now.
   */
  eventsOnly?: boolean;
  /**
   * Where the backend checks boxes apps move without an event: leave that check to the next read. For the
   * reading right after an action, which comes before the toolkit's next layout (GTK3 lays out a frame later):
   * a box check then finds the old places and costs most of the reading's calls.
   */
  boxesLater?: boolean;
  /**
   * The caller shows only what is on screen: the backend may leave out what lies wholly outside the view of the
   * pane that scrolls it (a web page below the fold), counting it on its container (CUP platform fields'
   * unreadChildren) instead. Elements it reads keep the numbers a whole reading gives them.
   */
  visibleOnly?: boolean;
  /**
   * Leave what hidden containers hold (a stacked widget's pages behind the current one) unread, counted on them, as
   * visibleOnly does, in a reading that is otherwise whole. Where the backend walks the window on every reading
   * (no live mirror): the readings around an action, which a Qt or Java window with many hidden pages made
   * seconds long. Elements it reads keep the numbers a whole reading gives them.
   */
  hiddenContentUnread?: boolean;
}

/** One window's elements as CUP, with the handle of every node by its index ([eN]). */
export interface WindowReading {
  root?: CupNode;
  handles: ReadonlyMap<number, ElementHandle>;
  /**
   * Each node's object identity by its index: an opaque string that is the same in every reading for as long
   * as the app keeps the object (on Linux its AT-SPI bus name and object path), so two readings can be matched.
   */
  identities: ReadonlyMap<number, string>;
  /** The toolkit that drew the window, e.g. "GTK 3.24.38". */
  toolkit?: string;
  truncated: boolean;
  /** Why there is no tree (or only part of one), when that is so: the caller still has the screenshot. */
  missingReason?: string;
  /** The app stopped answering while it was read (hung or stopped): acting on it now would wait in vain too. */
  unresponsive?: boolean;
  /**
   * After a read with limits.eventsOnly that left part of the window as an earlier read found it: the indices
   * of the elements read from the app now. Absent when every element was read (or checked) now.
   */
  current?: ReadonlySet<number>;
}

/** Perception: what is on the desktop and what a window shows. */
export interface DesktopPerception {
  readonly platform: CupPlatform;
  screen(): Promise<ScreenInfo>;
  /** The real pointer's position in screen pixels. */
  cursorPosition(): Promise<{ x: number; y: number }>;
  windows(): Promise<DesktopWindow[]>;
  /** `since`: when the call came in (as TreeLimits.since): a capture of the window begun since then may be shared. */
  captureWindow(window: DesktopWindow, since?: number): Promise<RawImage>;
  /**
   * The popups (menus, drop-down lists) the window's app shows now that reach past the window's edges and over none
   * of its other windows, in the window's pixels (so x or y may be negative): its capture cannot show those parts.
   */
  popupsBeyond(window: DesktopWindow): Promise<WindowRect[]>;
  /** Never throws for an unresponsive or inaccessible app: the reading then says why it has no tree. */
  readWindow(window: DesktopWindow, limits: TreeLimits): Promise<WindowReading>;
  /**
   * An element's own attributes as its toolkit states them (a web engine's `tag`, `id`, `class`), read now;
   * undefined when the element is gone or its app does not answer.
   */
  elementAttributes(handle: ElementHandle): Promise<Readonly<Record<string, string>> | undefined>;
  /**
   * Of these object identities (values of earlier readings' `identities`), those whose objects the app still keeps,
   * or is not known to have destroyed: hidden, scrolled out or closed is kept, destroyed is not. Asked within a short
   * budget; an object the app did not answer for in time counts as kept.
   */
  keptObjects(identities: readonly string[]): Promise<ReadonlySet<string>>;
}

/** What woke a change watch: an accessibility event of the watched process, or the window list (or, watched, a title) changing. */
export type ChangeReason = 'accessibility' | 'windows';

/** A process's changes as they happen, so a wait re-reads when something changed instead of polling. */
export interface ChangeWatch {
  /**
   * Resolves with what changed since the last call, at once when something already did; undefined when
   * nothing did within timeoutMs or the watch was closed.
   */
  next(timeoutMs: number): Promise<ChangeReason | undefined>;
  /**
   * When (Date.now()) the last change of content was heard; undefined while none was. A window gaining or losing
   * the activation, the focus or its place in the stacking order is not one: foreground input does that itself.
   */
  readonly lastChangeAt: number | undefined;
  /**
   * The process's windows whose trees the changes heard so far touched, among those the driver keeps a live
   * mirror of (a window read before), an object no mirror holds placed by its ancestors; windows it does not mirror
   * cannot be told apart this cheaply.
   */
  changedWindows(): Promise<number[]>;
  /**
   * Whether the watched process's main thread is running or waiting for a processor now: an app starved on a loaded
   * machine sends nothing for a while without having gone quiet (a dialog it fills on a 30 ms timer was read before
   * its last button, 100 ms of silence being its wait for the CPU). False for no process, or where it cannot be told.
   */
  atWork(): boolean;
  /** Stops watching; a pending next() resolves undefined. */
  close(): void;
}

/** Change notifications: what waits block on. */
export interface DesktopChanges {
  /**
   * Starts watching a process's accessibility events (the app's own changes; pid 0 none) and the desktop's window
   * list; with `titles`, every window's title as well.
   */
  watchChanges(pid: number, options?: { titles?: boolean }): Promise<ChangeWatch>;
  /**
   * Marks an action on the process as under way until the returned function is called: what the process changes
   * meanwhile (and a moment after) is the action's doing, never taken for what the app changes on its own; and the
   * platform's housekeeping that costs this process time waits for its end.
   */
  actionUnderway(pid: number): Promise<() => void>;
}

export interface KeyRequest {
  /** The window the keys go to; without an element, to its focused element. */
  window: DesktopWindow;
  element?: ElementTarget;
  /** Modifiers first, one key last, as validateKeys accepts them. */
  keys: readonly string[];
  /** Without an element, the window's latest snapshot: the evidence names the elements it holds by their index. */
  snapshot?: SnapshotRef;
  repeat: number;
  mode: DeliveryMode;
  /** The caller's cancel: no further press is sent once it aborts (the outcome says cancelled and how many went). */
  signal?: AbortSignal;
}

export interface TypeRequest {
  window: DesktopWindow;
  element?: ElementTarget;
  /** Without an element, the window's latest snapshot: the evidence names the elements it holds by their index. */
  snapshot?: SnapshotRef;
  text: string;
  /** Milliseconds between characters when real keys are typed. */
  delayMs: number;
  mode: DeliveryMode;
  /** The caller's cancel: typing stops before the next character once it aborts (the outcome says how many went). */
  signal?: AbortSignal;
  /**
   * Settled once the caller may have input sent (its reading before the action is done); rejected when the caller
   * refuses the action. Nothing is sent before it settles, and nothing at all when it rejects.
   */
  ready?: Promise<void>;
}

export interface ScrollRequest {
  window: DesktopWindow;
  /** The element or its scrolling ancestor; without one, the only scrollable region of the window's latest snapshot. */
  element?: ElementTarget;
  /** A point of the window to turn the wheel over instead (a window with no tree, whose regions only its pixels show). */
  point?: PointTarget;
  snapshot?: SnapshotRef;
  direction: ScrollDirection;
  by: 'line' | 'page';
  amount: number;
  mode: DeliveryMode;
}

export interface DragOptions {
  durationMs: number;
  steps: number;
  button: 'left' | 'middle' | 'right';
  modifiers: readonly string[];
  mode: DeliveryMode;
  /** The caller's cancel: the motion stops where it is and the button is released there. */
  signal?: AbortSignal;
}

/**
 * Actions: each tries its delivery mode's rungs in order (accessibility, synthetic events, real input) and
 * reads the effect back; the outcome names the rung and the evidence. Element targets are checked live
 * first (stale_element when the object changed or went away).
 */
export interface DesktopActions {
  pointer(target: ElementTarget | PointTarget, kind: PointerKind, options: PointerOptions): Promise<ActionOutcome>;
  typeText(request: TypeRequest): Promise<ActionOutcome>;
  /** Throws invalid_key, naming the valid keys, for a name this backend cannot press. */
  validateKeys(keys: readonly string[]): void;
  pressKeys(request: KeyRequest): Promise<ActionOutcome>;
  /** A number, a text, a combo box's option by name, or "true"/"false" on a check box, set in the background. */
  setValue(target: ElementTarget, value: string): Promise<ActionOutcome>;
  scroll(request: ScrollRequest): Promise<ActionOutcome>;
  drag(from: ElementTarget | PointTarget, to: ElementTarget | PointTarget, options: DragOptions): Promise<ActionOutcome>;
  /**
   * Moves the real pointer over the target and leaves it there, then waits up to dwellMs for what the app shows on
   * hover (a tool tip, a menu); raises the window only when something else lies at the point.
   */
  hover(target: ElementTarget | PointTarget, options: { dwellMs: number; signal?: AbortSignal }): Promise<ActionOutcome>;
  /** Raises the window and gives it the keyboard focus; false when the window manager would not. */
  activateWindow(window: DesktopWindow): Promise<boolean>;
}

/** How an agent cursor looks: RGBA pixels, the pixel of them that marks the position, and its opacity (0 to 1). */
export interface AgentCursorLook {
  image: RawImage;
  hotspot: { x: number; y: number };
  opacity: number;
}

/**
 * The agent cursors: markers of where agents act, which never move the real pointer. Each id (a session,
 * or a cursor the caller names) has its own, so agents acting at once can be told apart.
 */
export interface AgentCursor {
  moveAgentCursor(id: string, to: { x: number; y: number }): Promise<{ visible: boolean }>;
  /** Hides cursor `id`; returns where it was last. */
  hideAgentCursor(id: string): Promise<{ x?: number; y?: number }>;
  /** Where cursor `id` points and whether it shows (never created: hidden at 0,0). */
  agentCursor(id: string): Promise<{ visible: boolean; x: number; y: number }>;
  /** Draws cursor `id` with this look from now on (undefined: the default arrow); a shown cursor keeps its point. */
  setAgentCursorLook(id: string, look: AgentCursorLook | undefined): Promise<void>;
  /** Destroys cursor `id` (its session ended). */
  removeAgentCursor(id: string): Promise<void>;
}

/** The program that encodes screen video (ffmpeg), where it is, and the command that would install it. */
export interface VideoEncoder {
  path?: string;
  installCommand: string[];
}

export interface ScreenRecordingRequest {
  /** The MP4 to write; it appears there only once the video is finished. */
  path: string;
  /** A rectangle of the screen (the whole screen, a window's place), or one window's own pixels wherever it moves. */
  region: { x: number; y: number; width: number; height: number } | { windowId: number };
  fps: number;
}

/** A video as its stop left it. */
export interface StoppedVideo {
  path: string;
  durationS?: number;
  stoppedBy: string;
  /** The encoder had ended by itself before the stop (the disk full, the window gone): why, in its words. */
  endedEarly?: string;
}

export interface ScreenRecording {
  readonly path: string;
  /** Where the encoder writes until the video is finished (renamed to `path` then). */
  readonly partialPath: string;
  readonly pid: number;
  /** Ends the video so that it plays; the same promise for every call. Rejects when the file could not be finished. */
  stop(): Promise<StoppedVideo>;
}

/** Screen video: the recorder of start_recording's record_video. */
export interface ScreenRecorder {
  videoEncoder(): VideoEncoder;
  /** Runs the encoder's install command; its exit status and the end of its output. */
  installVideoEncoder(timeoutMs: number): Promise<{ status: number | null; output: string; command: string[] }>;
  /** Resolves once the first frame is grabbed; rejects with the encoder's own words when it cannot start. */
  startScreenRecording(request: ScreenRecordingRequest): Promise<ScreenRecording>;
  /** A video file's length in seconds, read back from the file (undefined when it cannot be read). */
  videoDuration(path: string): number | undefined;
  /**
   * A video whose recording process died (killed) before it finished it: waits (bounded) for the encoder to end,
   * then renames the partial file to `path` when it plays (the encoder finished it), else leaves it as it is.
   */
  finishAbandonedVideo(partialPath: string, path: string, timeoutMs: number): Promise<AbandonedVideo>;
}

/** What became of a video whose recording process died: finished and put in place, unfinished, or absent. */
export type AbandonedVideo =
  | { state: 'finalised'; path: string; durationS: number }
  | { state: 'unfinished'; path: string; why: string }
  | { state: 'absent' };

export interface DesktopApps {
  /** The installed applications, and the running ones behind these windows (matched to the installed ones). */
  applications(windows: readonly DesktopWindow[]): { installed: InstalledApp[]; running: RunningApp[] };
  /** How a name (app name, id or program) would be started; throws app_not_found, or urls_not_opened for urls the matched app cannot take. */
  /** debuggingPort opens a browser's debugging protocol on that port (0: the browser picks one). */
  planLaunch(name: string, urls: readonly string[], extraArgs: readonly string[], options?: { debuggingPort?: number }): LaunchPlan;
  processAlive(pid: number): boolean;
  /**
   * Whether the process draws with a toolkit that has no accessibility at all (Motif, Tk, Xt/Xaw, told by its
   * libraries): its windows will never have a tree, however long one is awaited.
   */
  processWithoutAccessibility(pid: number): boolean;
  /** Whether pid is ancestor or one of its descendants (an app that re-executes itself). */
  processDescendsFrom(pid: number, ancestor: number): boolean;
  /**
   * Why the driver must never signal pid (init, a kernel thread, the driver or a process it runs under, the caller's
   * own chain when callerPid is given, the desktop's X server, bus or window manager), or undefined when it may.
   */
  processProtection(pid: number, callerPid?: number): string | undefined;
}

export interface EscapeHandlers {
  /** The person pressed Escape while the guard was armed. Called at most once per arming. */
  onEscape(): void;
  /** The watchdog released the guard: it stayed armed for its whole time. */
  onWatchdog(): void;
}

/** The person at the machine stopping what the driver does (seed 004: Esc kills the chain). */
export interface InterruptGuard {
  /**
   * Watches the real keyboard for Escape (keys the driver sends itself do not count) until the returned release
   * is called, or until a watchdog releases it after `watchdogMs`. Resolves once presses are being seen.
   */
  guardEscape(handlers: EscapeHandlers, watchdogMs: number): Promise<() => void>;
}

export interface Desktop
  extends DesktopPerception, DesktopChanges, DesktopActions, AgentCursor, ScreenRecorder, DesktopApps, InterruptGuard, BrowserPages,
    DesktopClipboard, DesktopWindowFrames, DesktopMenus, DesktopButtonHolds, DesktopHealth {
  /** Releases the backend's connections (a one-off context's end). */
  close(): void;
  /**
   * What an unexpected failure from inside a call means to its caller, when the backend can tell: a lost or
   * silent display server, a lost accessibility bus, an app that exited or did not answer. Undefined otherwise.
   */
  explainFailure(error: unknown): ToolError | undefined;
}
