import { ATSPI_STATE } from '../../cup/atspi/constants.js';
import { atspiToCup } from '../../cup/atspi/convert.js';
import { unknownCoordinate, type AtspiRawNode, type RawTreeContext } from '../../cup/atspi/raw-node.js';
import type { CupRect } from '../../cup/types.js';
import { hasState } from '../../cup/atspi/states.js';
import type { ActionOutcome } from '../action-outcome.js';
import type { BrowserPage, PageEndpoint } from '../browser.js';
import type { InstalledApp, LaunchPlan, RunningApp } from '../apps.js';
import { requirePointOnWindow } from './actions/point-cover.js';
import type { AbandonedVideo, AgentCursorLook, ChangeWatch, Desktop, DragOptions, EscapeHandlers, KeyRequest, ScreenRecording, ScreenRecordingRequest, ScrollRequest, TreeLimits, TypeRequest, VideoEncoder, WindowReading } from '../desktop.js';
import type { ClipboardTakes, ClipboardText, FrameOutcome, HealthCheck, MenuOutcome, MouseButton } from '../desktop-services.js';
import type { WindowRect } from '../windows.js';
import type { ElementHandle, ElementTarget, PointerKind, PointerOptions, PointTarget, SnapshotRef } from '../targets.js';
import type { DesktopWindow } from '../windows.js';
import { dragAction } from './actions/drag.js';
import { hoverAction } from './actions/hover.js';
import { appNotResponding } from './actions/unresponsive.js';
import { invokeMenuPath } from './actions/menu-path.js';
import { escapeOwnMenus } from './actions/menu-grab.js';
import { ClipboardTakeWatch } from './clipboard/clipboard-takes.js';
import { Clipboard } from './clipboard/clipboard.js';
import { healthChecks, healthFacts } from './health.js';
import { ButtonHolds } from './input/button-holds.js';
import { setWindowFrame } from './window-frame.js';
import { PageConnections } from './browser/page-connections.js';
import { pressKeysAction } from './actions/keys.js';
import { pointerAction } from './actions/pointer.js';
import { parseKeys } from './actions/real-input.js';
import { scrollAction } from './actions/scroll.js';
import { setValueAction } from './actions/set-value.js';
import { typeTextAction } from './actions/typing.js';
import { runningApplications } from './applications.js';
import { installedApplications } from './desktop-entries.js';
import { atspiElement, elementHandle, objectIdentity } from './element-handle.js';
import { descendsFrom, planLaunch, startDetached } from './launcher.js';
import { offersDirectRendering } from './desktop/gl-rendering.js';
import { intersectRect } from '../../cup/rect.js';
import { accessibilityBusAddress } from './atspi/bus-address.js';
import { AtspiClient } from './atspi/client.js';
import { keptObjects } from './atspi/kept-objects.js';
import { quirksFor, type ToolkitInfo, type ToolkitQuirks } from './atspi/toolkit.js';
import type { ObjectRef } from './atspi/object-ref.js';
import { deepestAtPoint, extents, readAttributes } from './atspi/operations.js';
import { anchorBox } from './atspi/link-anchor.js';
import { withFocusOutsideTree } from './atspi/focus-outside-tree.js';
import { accnameBuses } from './atspi/accname-buses.js';
import { hitTestFilled, readTreeFilled } from './atspi/filling-cache.js';
import { deepestContaining } from './atspi/point-in-tree.js';
import { blinkSwitchedOff } from './atspi/blink-switched-off.js';
import type { ReadTreeOptions, ReadTreeResult } from './atspi/tree-reader.js';
import { openPopupMenus } from './atspi/open-popups.js';
import { popupsBeyond, popupsOver, type Popup } from './popups.js';
import { placePopovers } from './atspi/popover-places.js';
import { WindowMirror, type MirrorPolicy, type MirrorRead } from './atspi/window-mirror.js';
import { matchWindow, type WindowMatch } from './atspi/window-matcher.js';
import type { RawImage } from '../../image/raw-image.js';
import { ReadCoalescer } from './read-coalescer.js';
import { RecentCaptures } from './recent-captures.js';
import { captureWindowBox, captureWindowPixels } from './capture.js';
import { watchProcessChanges } from './change-watch.js';
import { heldAncestor } from './atspi/held-ancestor.js';
import { adoptDesktopSessionBus, desktopEnvironment, desktopNamedBy, enableAccessibility, ensureDisplay, listDesktops, restartDeadDesktop } from './desktop/virtual-desktop.js';
import { activateWindow, agentCursorState, armEscapeGuard, hideAgentCursor, moveAgentCursor, pointerPosition, removeAgentCursor, setAgentCursorLook } from './input/index.js';
import { finishAbandonedVideo, installVideoEncoder, probeDuration, startScreenRecording, videoEncoder } from './screen-recorder.js';
import { screenScale } from './screen.js';
import { LazyConnection } from './lazy-connection.js';
import { AccessibleWindowFacts } from './accessible-window-facts.js';
import { listClientWindows, processName, type ClientWindow } from './windows.js';
import { DBusClosedError, DBusTimeoutError, peerLeftTheBus } from './dbus/index.js';
import { ApplicationGoneError } from './atspi/application-gone.js';
import { UnansweredActionError } from './atspi/unanswered-action.js';
import { actionUnderway } from './actions/own-changes.js';
import { isAlive, processStartTicks, waitGone } from './desktop/processes.js';

/** How long a process whose read failed may take to be marked gone after its connection closed. */
const EXIT_GRACE_MS = 300;

import { ToolError } from '../../errors.js';
import { X11ClosedError, X11Connection, X11TimeoutError } from './x11/index.js';
import { protectionOf } from './desktop/protected-processes.js';
import { processToolkit } from './desktop/process-toolkit.js';
import { extentsScale } from './extents-scale.js';
import { counted } from '../../cup/counted.js';

export interface LinuxDesktopOptions {
  /** Start (or reuse) the embedded virtual desktop when DISPLAY is not set. */
  autoStartDesktop: boolean;
  log(message: string): void;
  /** Per-call timeout for accessibility calls into applications. */
  callTimeoutMs?: number;
}

/** The accessibility tree of one window, raw, with what is needed to place it on the screen. */
export interface WindowTree {
  match?: WindowMatch;
  toolkit?: ToolkitInfo;
  quirks: ToolkitQuirks;
  read?: ReadTreeResult;
  /** How the live mirror answered, for windows it keeps (toolkits whose events it trusts). */
  mirror?: Omit<MirrorRead, 'read'>;
  context: RawTreeContext;
  /** Why there is no tree, when there is none. */
  missingReason?: string;
  /** The app did not answer in time: it is hung or stopped. */
  unresponsive?: boolean;
}

/** Windows whose trees are kept live at once; the least recently read is let go (and stops listening). */
const MAX_MIRRORS = 16;

/** How to bring the accessibility bus back, for the errors that say it is gone. */
const BUS_FIX =
  'On a desktop cup-driver started, the next call starts the bus again; elsewhere restart at-spi-bus-launcher ' +
  '(log in again, or `cup-driver desktop start` for a desktop of its own). Apps started before the bus came back stay on the old one: restart them to read them';

/** How long after the accessibility bus connection closed a closed-connection failure is blamed on the bus. */
const BUS_LOSS_BLAME_MS = 10_000;

/** Notices are rare (one per desktop start); a bound keeps a long-lived daemon from collecting them. */
const MAX_KEPT_NOTICES = 32;
/** Windows whose last capture is kept to spare re-encoding unchanged pixels: a 1280x800 window holds about 7 MB. */
const RECENT_CAPTURE_WINDOWS = 4;
/** How many processes read on the bus are remembered (see readOnBus): more than a desktop runs apps at once. */
const READ_ON_BUS_KEPT = 256;
/** How long a parent is waited for while placing an object an action changed (watchChanges). */
const PLACING_CALL_MS = 500;

/**
 * The Linux desktop as the tools see it: one X11 connection and one accessibility-bus connection,
 * opened on first use and reopened if they drop.
 */
export class LinuxDesktop implements Desktop {
  readonly platform = 'linux';
  private readonly xConnection: LazyConnection<X11Connection>;
  private readonly atspiConnection: LazyConnection<AtspiClient>;
  /** Per window: how far its content starts inside the X window (GTK4's client-side-decoration margin). */
  private readonly contentMargins = new Map<number, { x: number; y: number }>();
  /** Per window: screen pixels per unit of its accessible extents (an app scaled on its own: extents-scale.ts). */
  private readonly extentsScales = new Map<number, number>();
  /** Per process: the extents scale its windows last showed, for matching its next window to its top level. */
  private readonly processScales = new Map<number, number>();
  /**
   * What callers should be told (a desktop was started or reused for them). Kept rather than handed to
   * whoever asks first: every call in flight while the desktop came up waited for it and hears of it.
   */
  private readonly notices: string[] = [];
  private noticesDropped = 0;
  /** How many notices (dropped ones included) some call has been given: those after are still to be heard. */
  private noticesHeard = 0;
  /** Per window: the accessible top-level found for it, so point lookups need not search again. */
  private readonly matches = new Map<number, WindowMatch>();
  /**
   * A window with no title is named by its accessible top level, and a dialog the window manager is not told is modal
   * is modal when its top level says so, where that top level agrees with the window (never a weak match).
   */
  private readonly accessibleFacts = new AccessibleWindowFacts(async (window, listed) => {
    const match = this.rememberedMatch(window) ?? (await matchWindow(await this.atspi(), window, async () => listed, this.processScales.get(window.pid)));
    return match && !match.weak ? { name: match.topLevel.name, modal: hasState(match.topLevel.states, ATSPI_STATE.MODAL) === true } : undefined;
  });
  /**
   * The processes whose windows were read on the accessibility bus, by pid, with when each started (a pid used again
   * is another process), oldest first: one that is no longer there has left it, not lacked it from the start.
   */
  private readonly readOnBus = new Map<number, number | undefined>();
  /** Per window: its live tree mirror, in the order last read (oldest first). */
  private readonly mirrors = new Map<number, WindowMirror>();
  private readonly readings = new ReadCoalescer<WindowReading>((reading) => reading.unresponsive === true);
  private readonly captures = new ReadCoalescer<RawImage>();
  private readonly recentCaptures = new RecentCaptures(RECENT_CAPTURE_WINDOWS);
  readonly callTimeoutMs: number;
  /** The accessibility bus last connected to, to tell a bus started anew from a reconnection to the same one. */
  private busAddress?: string;
  /** When the connection to the accessibility bus last closed. */
  private busLostAt = 0;
  /** What this process put on the CLIPBOARD, answered from here while it runs. */
  private readonly clipboard = new Clipboard(() => this.x11());
  private readonly clipboardTakes = new ClipboardTakeWatch(() => this.x11());
  private readonly buttonHolds: ButtonHolds;
  /** The debugging connections of the browsers whose pages the page tool, or typing into a page's field, reached. */
  readonly pages = new PageConnections();
  /**
   * A window real input activated and left active for what it opened (a combo box's list, an in-place editor), and
   * the window it took the activation from: the next real input on it gives that one its place back (see
   * ForegroundOptions.heldFrom). Any other activation ends the hold.
   */
  heldActivation?: { window: number; from: number };

  constructor(private readonly options: LinuxDesktopOptions) {
    this.buttonHolds = new ButtonHolds(() => this.x11(), options.log);
    this.callTimeoutMs = options.callTimeoutMs ?? 2000;
    this.xConnection = new LazyConnection(
      async () => {
        if (!process.env.DISPLAY) {
          if (!this.options.autoStartDesktop) throw new Error('DISPLAY is not set; start a desktop with `cup-driver desktop start` and export its DISPLAY');
          await ensureDisplay((message) => this.notice(message));
        } else {
          adoptDesktopSessionBus((message) => this.options.log(message));
        }
        return this.connectX();
      },
      (connection, dropped) =>
        connection.onClose(() => {
          // Window ids and the objects found for them belong to that X server; a new one reuses the ids.
          this.forgetWindows();
          dropped();
        }),
    );
    this.atspiConnection = new LazyConnection(
      () => this.connectAccessibilityBus(),
      (client, dropped) =>
        client.bus.onClose(() => {
          this.busLostAt = Date.now();
          // The mirrors and matches name objects by their names on that bus.
          this.forgetWindows();
          dropped();
        }),
    );
  }

  private notice(message: string): void {
    this.options.log(message);
    this.notices.push(message);
    if (this.notices.length > MAX_KEPT_NOTICES) this.noticesDropped += this.notices.splice(0, this.notices.length - MAX_KEPT_NOTICES).length;
  }

  /**
   * Connects to DISPLAY. When no X server answers there and the display is one of our embedded desktops
   * whose X server died, the desktop is started again on the same display (this process keeps running).
   */
  private async connectX(): Promise<X11Connection> {
    try {
      return await X11Connection.connect({ timeoutMs: this.callTimeoutMs });
    } catch (error) {
      if (!this.options.autoStartDesktop || !(error instanceof ToolError) || error.code !== 'display_unavailable') throw error;
      const restarted = await restartDeadDesktop(process.env.DISPLAY);
      if (!restarted) throw error;
      Object.assign(process.env, desktopEnvironment(restarted));
      this.notice(
        `the X server of the virtual desktop ${restarted.display} had gone away; the desktop was started again on ${restarted.display} ` +
          '(the apps that ran on it went with their X server: launch them again)',
      );
      return X11Connection.connect({ timeoutMs: this.callTimeoutMs });
    }
  }

  /**
   * Connects to the accessibility bus the session names now. A failure is the caller's to fix (or ours to
   * retry on the next call), so it says what is missing and how to bring it back. A bus at another address
   * than before was started anew: on our own desktop accessibility is switched on for it again (Chromium and
   * Qt export their trees only when asked), and apps started before it stay on the old bus.
   */
  private async connectAccessibilityBus(): Promise<AtspiClient> {
    const x = await this.x11();
    let address: string;
    try {
      address = await accessibilityBusAddress(x);
    } catch (error) {
      throw new ToolError(`${error instanceof Error ? error.message : String(error)}. ${BUS_FIX}`, 'accessibility_bus_unavailable');
    }
    let client: AtspiClient;
    try {
      client = await AtspiClient.connect(address, this.callTimeoutMs);
    } catch (error) {
      throw new ToolError(
        `cannot connect to the AT-SPI accessibility bus at ${address} (${error instanceof Error ? error.message : String(error)}); it has stopped. ${BUS_FIX}`,
        'accessibility_bus_unavailable',
        { address },
      );
    }
    if (this.busAddress !== undefined && this.busAddress !== address) {
      this.notice(`the accessibility bus was started anew (${address}); apps started before that stay on the old bus and cannot be read until they are restarted`);
      const ours = desktopNamedBy(process.env.DISPLAY, listDesktops());
      if (ours?.alive) await enableAccessibility(ours.sessionBusAddress).catch((error: unknown) => this.options.log(`could not switch accessibility on again: ${String(error)}`));
    }
    this.busAddress = address;
    return client;
  }

  /** Whether the session now names another accessibility bus than the one connected (it was started anew). */
  private async busMoved(): Promise<boolean> {
    if (process.env.AT_SPI_BUS_ADDRESS || this.busAddress === undefined) return false;
    const now = await accessibilityBusAddress(await this.x11()).catch(() => undefined);
    if (now === undefined || now === this.busAddress) return false;
    this.atspiConnection.close((stale) => stale.close());
    return true;
  }

  /** Forgets what was learnt about windows and their accessible objects (their X server or bus went away). */
  private forgetWindows(): void {
    for (const id of [...this.mirrors.keys()]) this.forgetMirror(id);
    this.matches.clear();
    this.contentMargins.clear();
    this.extentsScales.clear();
    this.processScales.clear();
    this.recentCaptures.clear();
  }

  x11(): Promise<X11Connection> {
    return this.xConnection.get();
  }

  /**
   * Marks where the notices a call is to hear begin, for noticesSince() at its end: at the first one no call has
   * heard yet. A notice given between calls (the X server found gone by a reconnection no call started) goes
   * to the next call then, instead of to no one.
   */
  noticeMark(): number {
    return Math.min(this.noticesHeard, this.noticesDropped + this.notices.length);
  }

  /** Notices given since the mark was taken (the daemon passes them on to the caller that took it). */
  noticesSince(mark: number): string[] {
    this.noticesHeard = this.noticesDropped + this.notices.length;
    return this.notices.slice(Math.max(0, mark - this.noticesDropped));
  }

  atspi(): Promise<AtspiClient> {
    return this.atspiConnection.get();
  }

  async screen(): Promise<{ width: number; height: number; scale: number }> {
    const x = await this.x11();
    return { width: x.screen.width, height: x.screen.height, scale: await screenScale(x) };
  }

  async cursorPosition(): Promise<{ x: number; y: number }> {
    return pointerPosition(await this.x11());
  }

  /**
   * Each call lists on its own, not through a ReadCoalescer: a listing is a few pipelined X requests, so
   * waiting for another one to end would cost a late caller more than its own.
   */
  async windows(): Promise<ClientWindow[]> {
    return this.accessibleFacts.completed(await listClientWindows(await this.x11()));
  }

  async popupsBeyond(window: ClientWindow): Promise<WindowRect[]> {
    const x = await this.x11();
    const popups = await popupsBeyond(x, window, await listClientWindows(x)).catch(() => []);
    return popups.map((popup) => ({ x: popup.x - window.bounds.x, y: popup.y - window.bounds.y, width: popup.width, height: popup.height }));
  }

  /** One box of the window's pixels (window coordinates, whole pixels within it), read now without the popups over it. */
  async captureWindowBox(window: ClientWindow, box: CupRect): Promise<RawImage> {
    return captureWindowBox(await this.x11(), window, box);
  }

  async captureWindow(window: ClientWindow, since?: number): Promise<RawImage> {
    const { x, y, width, height } = window.bounds;
    return this.captures.run(`${window.id} ${x},${y} ${width}x${height} ${window.minimized}`, async () => captureWindowPixels(await this.x11(), window, this.recentCaptures), since);
  }

  /**
   * The window's tree as CUP, each node's AT-SPI object kept behind an element handle. Concurrent reads of one
   * window with the same limits (several clients) share one reading, never an older one.
   */
  readWindow(window: ClientWindow, limits: TreeLimits): Promise<WindowReading> {
    const { since, ...asked } = limits;
    return this.readings.run(`${window.id} ${JSON.stringify(asked)}`, () => this.readWindowOnce(window, asked), since);
  }

  private async readWindowOnce(window: ClientWindow, limits: TreeLimits): Promise<WindowReading> {
    const tree = await this.readWindowTree(window, limits);
    const converted = tree.read?.root ? atspiToCup(tree.read.root, tree.context) : undefined;
    const current = tree.mirror?.current;
    return {
      root: converted?.root,
      handles: new Map(converted?.sources.map((source) => [source.index, elementHandle(source)]) ?? []),
      identities: new Map(converted?.sources.map((source) => [source.index, objectIdentity(source)]) ?? []),
      ...(tree.toolkit ? { toolkit: `${tree.toolkit.name} ${tree.toolkit.version}`.trim() } : {}),
      truncated: tree.read?.truncated ?? false,
      ...(converted && current ? { current: new Set(converted.sources.filter((source) => current.has(source.path)).map((source) => source.index)) } : {}),
      ...(tree.missingReason ? { missingReason: tree.missingReason } : {}),
      ...(tree.unresponsive ? { unresponsive: true } : {}),
    };
  }

  async elementAttributes(handle: ElementHandle): Promise<Readonly<Record<string, string>> | undefined> {
    const client = await this.atspi();
    try {
      return await readAttributes(client, atspiElement(handle));
    } catch {
      return undefined;
    }
  }

  async keptObjects(identities: readonly string[]): Promise<ReadonlySet<string>> {
    // No bus to ask: nothing is known destroyed, so nothing is taken for replaced.
    const client = await this.atspi().catch(() => undefined);
    return client ? keptObjects(client, identities) : new Set(identities);
  }

  async watchChanges(pid: number, options: { titles?: boolean } = {}): Promise<ChangeWatch> {
    const [client, x] = await Promise.all([this.atspi(), this.x11()]);
    const holding = (bus: string, path: string) => {
      for (const mirror of this.mirrors.values()) if (mirror.holds(bus, path)) return mirror.windowId;
      return undefined;
    };
    // Only an app some mirror reads has its objects' parents asked, each briefly: an app slow to answer leaves its
    // object unplaced rather than holding up the action's result.
    const above = async (bus: string, path: string) =>
      [...this.mirrors.values()].some((mirror) => mirror.top.bus === bus) ? heldAncestor(client, { bus, path }, (at) => holding(bus, at), PLACING_CALL_MS).catch(() => undefined) : undefined;
    return watchProcessChanges(client, x, pid, { holding, above }, options);
  }

  async actionUnderway(pid: number): Promise<() => void> {
    const client = await this.atspi().catch(() => undefined);
    if (!client) return () => undefined;
    const [own, keepers] = [actionUnderway(client.events, pid), client.actionUnderway()];
    return () => {
      own();
      keepers();
    };
  }

  async pointer(target: ElementTarget | PointTarget, kind: PointerKind, options: PointerOptions): Promise<ActionOutcome> {
    if (options.mode === 'foreground') await this.buttonHolds.requireNoneDown(kind.replace('_', ' '));
    return pointerAction(this, target, kind, options);
  }

  typeText(request: TypeRequest): Promise<ActionOutcome> {
    return typeTextAction(this, request);
  }

  validateKeys(keys: readonly string[]): void {
    parseKeys(keys);
  }

  pressKeys(request: KeyRequest): Promise<ActionOutcome> {
    return pressKeysAction(this, request);
  }

  setValue(target: ElementTarget, value: string): Promise<ActionOutcome> {
    return setValueAction(this, target, value);
  }

  scroll(request: ScrollRequest): Promise<ActionOutcome> {
    return scrollAction(this, request);
  }

  async drag(from: ElementTarget | PointTarget, to: ElementTarget | PointTarget, options: DragOptions): Promise<ActionOutcome> {
    if (options.mode === 'foreground') await this.buttonHolds.requireNoneDown('drag');
    return dragAction(this, from, to, options);
  }

  hover(target: ElementTarget | PointTarget, options: { dwellMs: number; signal?: AbortSignal }): Promise<ActionOutcome> {
    return hoverAction(this, target, options);
  }

  async activateWindow(window: DesktopWindow): Promise<boolean> {
    this.heldActivation = undefined;
    return activateWindow(await this.x11(), window.id, { timeoutMs: 2000 });
  }

  async moveAgentCursor(id: string, to: { x: number; y: number }): Promise<{ visible: boolean }> {
    return moveAgentCursor(await this.x11(), to, id);
  }

  async hideAgentCursor(id: string): Promise<{ x?: number; y?: number }> {
    const x = await this.x11();
    await hideAgentCursor(x, id);
    const state = await agentCursorState(x, id);
    return { x: state.x, y: state.y };
  }

  async agentCursor(id: string): Promise<{ visible: boolean; x: number; y: number }> {
    const { visible, x, y } = await agentCursorState(await this.x11(), id);
    return { visible, x, y };
  }

  async setAgentCursorLook(id: string, look: AgentCursorLook | undefined): Promise<void> {
    await setAgentCursorLook(await this.x11(), id, look);
  }

  async removeAgentCursor(id: string): Promise<void> {
    await removeAgentCursor(await this.x11(), id);
  }

  videoEncoder(): VideoEncoder {
    return videoEncoder();
  }

  installVideoEncoder(timeoutMs: number): Promise<{ status: number | null; output: string; command: string[] }> {
    return installVideoEncoder(timeoutMs);
  }

  async startScreenRecording(request: ScreenRecordingRequest): Promise<ScreenRecording> {
    const ffmpeg = videoEncoder().path;
    if (!ffmpeg) throw new Error('ffmpeg is not installed');
    // The display is known once the X connection is up (the embedded desktop may be started for it).
    await this.x11();
    return startScreenRecording(ffmpeg, process.env.DISPLAY!, request);
  }

  videoDuration(path: string): number | undefined {
    return probeDuration(path);
  }

  finishAbandonedVideo(partialPath: string, path: string, timeoutMs: number): Promise<AbandonedVideo> {
    return finishAbandonedVideo(partialPath, path, timeoutMs);
  }

  applications(windows: readonly DesktopWindow[]): { installed: InstalledApp[]; running: RunningApp[] } {
    const installed = installedApplications();
    return { installed, running: runningApplications(windows, installed) };
  }

  planLaunch(name: string, urls: readonly string[], extraArgs: readonly string[], options: { debuggingPort?: number } = {}): LaunchPlan {
    const plan = planLaunch(name, urls, extraArgs, options);
    const browser = plan.browser ? { family: plan.browser.family, sandboxDisabled: plan.browser.sandboxDisabled, ...(plan.browser.profile ? { profile: plan.browser.profile } : {}) } : undefined;
    return { name: plan.name, ...(plan.entry ? { entry: plan.entry, matchedBy: plan.matchedBy } : {}), ...(browser ? { browser } : {}), start: async (cwd) => startDetached(plan, cwd, await offersDirectRendering(await this.x11())) };
  }

  debuggingEndpoint(pid: number): Promise<PageEndpoint | undefined> {
    return this.pages.debuggingEndpoint(pid);
  }

  page(window: DesktopWindow): Promise<BrowserPage> {
    return this.pages.page(window);
  }

  processAlive(pid: number): boolean {
    return isAlive(pid);
  }

  processWithoutAccessibility(pid: number): boolean {
    return processToolkit(pid)?.accessibility === false;
  }

  processProtection(pid: number, callerPid?: number): string | undefined {
    return protectionOf(pid, callerPid);
  }

  processDescendsFrom(pid: number, ancestor: number): boolean {
    return descendsFrom(pid, ancestor);
  }

  /**
   * An element's bounds on screen now, read live (the window may have moved or its layout changed).
   * Window-relative toolkits (GTK4) are placed with the content margin found by the last tree read.
   */
  async elementBounds(window: ClientWindow, ref: ObjectRef): Promise<{ x: number; y: number; w: number; h: number } | undefined> {
    const client = await this.atspi();
    // A link drawn in its label's text has no Component: its words' box is its place (link-anchor.ts).
    const [box, toolkit] = await Promise.all([
      extents(client, ref, 0).catch(() => anchorBox(client, ref).catch(() => undefined)),
      client.toolkitOf(ref.bus).catch(() => undefined),
    ]);
    if (!box || unknownCoordinate(box.x) || unknownCoordinate(box.y) || box.w <= 0 || box.h <= 0) return undefined;
    const relative = quirksFor(toolkit).extentsRelativeToWindow;
    const scale = await this.extentsScaleOf(window, relative);
    const scaled = { x: Math.round(box.x * scale), y: Math.round(box.y * scale), w: Math.round(box.w * scale), h: Math.round(box.h * scale) };
    if (!relative) return scaled;
    const margin = this.contentMargins.get(window.id) ?? { x: window.csdMargins?.left ?? 0, y: window.csdMargins?.top ?? 0 };
    return { ...scaled, x: scaled.x + window.bounds.x + margin.x, y: scaled.y + window.bounds.y + margin.y };
  }

  /**
   * The accessible object under a screen point of a window, the deepest one there. The toolkit is asked
   * first (GetAccessibleAtPoint); GTK4 answers nothing for much of its UI, so the window's tree, placed on
   * screen as get_window_state places it, is searched when the toolkit does not answer.
   */
  async accessibleAt(window: ClientWindow, screenX: number, screenY: number): Promise<ObjectRef | undefined> {
    const client = await this.atspi();
    const match = await this.topLevelOf(window);
    if (!match) return undefined;
    const quirks = await client.quirksOf(match.app.bus);
    const margin = this.contentMargins.get(window.id) ?? { x: 0, y: 0 };
    // The app is asked in its own units: a scaled app's logical pixels.
    const scale = await this.extentsScaleOf(window, quirks.extentsRelativeToWindow);
    const ask = () => quirks.extentsRelativeToWindow
      ? deepestAtPoint(client, match.topLevel, Math.floor((screenX - window.bounds.x - margin.x) / scale), Math.floor((screenY - window.bounds.y - margin.y) / scale), 1)
      : deepestAtPoint(client, match.topLevel, Math.floor(screenX / scale), Math.floor(screenY / scale), 0);
    // A fresh Firefox answers its first hit test in a page with nothing (filling-cache.ts).
    const asked = await hitTestFilled(match.app.bus, quirks.fillsCacheLazily, ask);
    if (asked) return asked;
    const tree = await this.readWindowTree(window, { maxNodes: 5000, maxDepth: 1000, budgetMs: 5000 });
    if (tree.unresponsive) throw appNotResponding(window.pid, this.callTimeoutMs);
    const { extentsOrigin: origin, extentsScale: treeScale = 1 } = tree.context;
    // A web engine clears SHOWING on what it does not show: a background tab's or a page kept ready's frame.
    const unshownHoldsNothing = quirks.showingIsReliable || quirks.webEngine;
    return tree.read?.root ? deepestContaining(tree.read.root, origin, (screenX - origin.x) / treeScale + origin.x, (screenY - origin.y) / treeScale + origin.y, unshownHoldsNothing) : undefined;
  }

  /**
   * Reads the window's accessibility tree. Never throws for an unresponsive or inaccessible app:
   * the result then has no tree and says why, so the caller can still return the screenshot.
   */
  async readWindowTree(window: ClientWindow, limits: TreeLimits, busChecked = false): Promise<WindowTree> {
    const x = await this.x11();
    const visibleArea = clip(window.bounds, x.screen.width, x.screen.height);
    const context: RawTreeContext = { extentsOrigin: { x: 0, y: 0 }, visibleArea, gtk4NameQuirks: false, windowTitle: window.title };
    const client = await this.atspi();
    // A process seen alive now and gone after is one that died during the read (a pid from another pid namespace is never seen alive).
    const aliveAtStart = isAlive(window.pid);
    const died = () => aliveAtStart && !isAlive(window.pid);
    // A call that failed as the app died may see its connection close a moment before the kernel marks the process
    // gone (it closes a dying process's files first): the death is waited for briefly before it is ruled out.
    const diedDuringCall = async () => died() || (aliveAtStart && (await waitGone([window.pid], EXIT_GRACE_MS)).length === 0);
    const unresponsive = `the application (pid ${window.pid}) did not answer the accessibility bus within ${this.callTimeoutMs} ms; it may be hung or stopped`;
    // The window's top-level object is remembered: a repeat capture goes straight to it.
    const remembered = this.rememberedMatch(window);
    let match: WindowMatch | undefined;
    try {
      match = remembered ?? (await matchWindow(client, window, () => this.windows(), this.processScales.get(window.pid)));
    } catch (error) {
      if (error instanceof DBusTimeoutError) return { quirks: quirksFor(undefined), context, missingReason: unresponsive, unresponsive: true };
      const exited = (await diedDuringCall()) ? `the application (pid ${window.pid}) exited before its tree could be read` : undefined;
      return { quirks: quirksFor(undefined), context, missingReason: exited ?? `could not read the accessibility tree: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (!match && died()) return { quirks: quirksFor(undefined), context, missingReason: `the application (pid ${window.pid}) exited before its tree could be read` };
    if (!match) {
      // Apps register on the bus the session names when they start: one started after the bus was replaced is on the new one.
      if (!busChecked && (await this.busMoved())) return this.readWindowTree(window, limits, true);
      return { quirks: quirksFor(undefined), context, missingReason: await this.unmatchedReason(client, window) };
    }
    this.noteReadOnBus(window.pid);
    let toolkit: ToolkitInfo | undefined;
    try {
      toolkit = await client.toolkitOf(match.app.bus);
    } catch (error) {
      if (error instanceof DBusTimeoutError) return { quirks: quirksFor(undefined), context, missingReason: unresponsive, unresponsive: true };
    }
    const quirks = quirksFor(toolkit);
    context.gtk4NameQuirks = quirks.gtk4NameQuirks;
    context.selectableUnmarked = quirks.selectableUnmarked;
    context.listsSomeItemsOnly = quirks.listsSomeItemsOnly;
    context.showingReliable = quirks.showingIsReliable;
    context.viewsKeepHiddenCells = quirks.viewsKeepHiddenCells;
    context.focusMarksCurrentItems = quirks.focusMarksCurrentItems;
    context.tabsRepeatTabBarFocus = quirks.tabsRepeatTabBarFocus;
    context.switchesAreToggleButtons = quirks.switchesAreToggleButtons;
    context.namesEditableCombosByText = quirks.namesEditableCombosByText;
    context.namesByGroupBoxTitle = quirks.namesByGroupBoxTitle;
    const options = {
      maxNodes: limits.maxNodes,
      maxDepth: limits.maxDepth,
      budgetMs: limits.budgetMs,
      callTimeoutMs: this.callTimeoutMs,
      trustShowing: quirks.showingIsReliable,
      // Blink and Gecko clear SHOWING on what a page's overflow box (a feed, a chat log) clips.
      showingTellsClipping: quirks.webEngine,
      keepsUndrawnPlaces: quirks.keepsUndrawnPlaces,
      reusesPaths: quirks.reusesObjectPaths,
      placesTabContentFromTab: quirks.placesTabContentFromTab,
      buttonShortcuts: quirks.buttonsReportShortcuts,
      fillsCacheLazily: quirks.fillsCacheLazily,
      actionsOneByOne: quirks.listsActionsUnsafely,
      propertiesInOneCall: quirks.propertiesInOneCall,
      basicsFromCache: quirks.basicsInCache,
      visibleOnly: limits.visibleOnly,
      // A mirror would have to read a hidden container's content as it shows: only walked windows leave it unread.
      hiddenContentUnread: !quirks.mirrorable && (limits.visibleOnly === true || limits.hiddenContentUnread === true),
    };
    let mirrored: MirrorRead | undefined;
    try {
      if (quirks.mirrorable) mirrored = await this.mirrorOf(window, match, client, x, quirks).read(options, { fresh: limits.fresh, eventsOnly: limits.eventsOnly, boxesLater: limits.boxesLater });
    } catch (error) {
      // The bus connection closed before this process heard of it (the bus was killed a moment ago): the read starts
      // again on the bus the session names now, once, where an app started before it is not found.
      if (error instanceof DBusClosedError && !busChecked) return this.readWindowTree(window, limits, true);
      throw error;
    }
    // The app's focus, as it announces it from now on, is what a walk may miss (see focus-outside-tree.ts).
    void client.events.follow().catch(() => {});
    // A mirrored read needs the rule as much as a walk: GTK3 lists a tree view's in-place cell editor as no object's
    // child either, and it was missing from every read of the window kept by its mirror.
    const own = await withFocusOutsideTree(client, mirrored?.read ?? (await readTreeFilled(client, match.topLevel, options)), match.app.bus, options);
    if (mirrored?.current && own.addedPaths) mirrored = { ...mirrored, current: new Set([...mirrored.current, ...own.addedPaths]) };
    const over = own.root && !own.failure ? await popupsOver(x, window).catch(() => []) : [];
    const frame = own.root?.extents ?? match.topLevel.extents;
    context.extentsScale = scaleOfFrame(window, frame, quirks.extentsRelativeToWindow);
    this.extentsScales.set(window.id, context.extentsScale);
    this.processScales.set(window.pid, context.extentsScale);
    let read = await this.withOpenPopups(own, over, match, client, options, context.extentsScale);
    // A remembered top level that no longer answers (the window was recreated) is searched for again.
    if (remembered && !read.failure && read.root && read.root.interfaces.length === 0) {
      this.matches.delete(window.id);
      this.forgetMirror(window.id);
      return this.readWindowTree(window, limits);
    }
    if (!match.weak) this.matches.set(window.id, match);
    if (quirks.extentsRelativeToWindow) {
      // Placed with the frame's size as read now (in screen pixels): the margin is what the X window has around it.
      const scale = context.extentsScale;
      context.extentsOrigin = contentOrigin(window, frame && { w: frame.w * scale, h: frame.h * scale });
      // The window's content is drawn inside its frame's box: the margin the X window has around it (GTK's
      // client-side shadow) shows none of it. Clocks' view switcher bar, collapsed in a wide window, kept its tabs
      // VISIBLE just below the frame, 4 px of each in the shadow: they read as on screen beside the header's, and
      // `role=tab name=Timer` was refused as ambiguous. Popovers are their own windows, placed over it (placePopovers).
      if (frame && frame.w > 0 && frame.h > 0) context.visibleArea = intersectRect(context.visibleArea, { ...context.extentsOrigin, w: Math.round(frame.w * scale), h: Math.round(frame.h * scale) });
      this.contentMargins.set(window.id, { x: context.extentsOrigin.x - window.bounds.x, y: context.extentsOrigin.y - window.bounds.y });
      if (read.root) read = { ...read, root: placePopovers(read.root, context.extentsOrigin, over) };
    }
    context.namesTakeToolTips = await accnameBuses(client, read.root);
    const mirror = mirrored
      ? { fromMirror: mirrored.fromMirror, rereads: mirrored.rereads, ...(mirrored.walkedBecause ? { walkedBecause: mirrored.walkedBecause } : {}), ...(mirrored.current ? { current: mirrored.current } : {}) }
      : undefined;
    // Calls to an app that died fail one by one (those through the bus as missing objects, not as a failure):
    // whatever was read is a fragment, and the reason is the death, not what the fragment lacks.
    const exited = died() || (read.failure !== undefined && !read.unresponsive && (await diedDuringCall()))
      ? `the application (pid ${window.pid}) exited while its tree was read; ${counted(read.nodeCount, 'node')} ${read.nodeCount === 1 ? 'was' : 'were'} read before`
      : undefined;
    return {
      match, toolkit, quirks, read, ...(mirror ? { mirror } : {}), context,
      missingReason: read.unresponsive ? unresponsive : (exited ?? read.failure ?? blinkSwitchedOff(toolkit, read.root, window.pid)),
      ...(read.unresponsive ? { unresponsive: true } : {}),
    };
  }

  /**
   * The window's tree with the menus its app shows over it in popups of their own (a context menu: see
   * open-popups.ts) after the window's own content, as the screen shows them over it. The mirror keeps the window's
   * own tree; the popups, open for a moment, are read anew each time.
   */
  private async withOpenPopups(read: ReadTreeResult, over: readonly Popup[], match: WindowMatch, client: AtspiClient, options: ReadTreeOptions, scale: number): Promise<ReadTreeResult> {
    if (!read.root || read.failure) return read;
    const menus = await openPopupMenus(client, match.app, match.topLevel, over, read.root, options, scale).catch(() => []);
    if (menus.length === 0) return read;
    const count = (node: AtspiRawNode): number => 1 + node.children.reduce((sum, child) => sum + count(child), 0);
    const root = { ...read.root, children: [...read.root.children, ...menus], childCount: read.root.childCount + menus.length };
    return { ...read, root, nodeCount: read.nodeCount + menus.reduce((sum, menu) => sum + count(menu), 0) };
  }

  /** Notes a process read on the bus; the oldest noted is forgotten past a bound, as processes come and go. */
  private noteReadOnBus(pid: number): void {
    if (pid <= 0 || this.readOnBus.has(pid)) return;
    if (this.readOnBus.size >= READ_ON_BUS_KEPT) this.readOnBus.delete(this.readOnBus.keys().next().value!);
    this.readOnBus.set(pid, processStartTicks(pid));
  }

  /** Why no accessible window matches an X window: an app older than the bus stays on the bus it started with. */
  private async unmatchedReason(client: AtspiClient, window: ClientWindow): Promise<string> {
    const registry = await client.pidOf('org.a11y.atspi.Registry').catch(() => undefined);
    const appStarted = processStartTicks(window.pid);
    const busStarted = registry === undefined ? undefined : processStartTicks(registry);
    if (appStarted !== undefined && busStarted !== undefined && appStarted < busStarted) {
      return (
        `the application (pid ${window.pid}) started before the accessibility bus now running was (it was restarted since), so it is ` +
        'registered on the old bus, which is gone, and cannot be read; restart the app to read it (apps started from now on are read)'
      );
    }
    const switchedOff = 'for GTK 2 set GTK_MODULES=gail:atk-bridge, for Qt set QT_ACCESSIBILITY=1, for Chromium/Electron pass --force-renderer-accessibility, for Java install its ATK bridge, libatk-wrapper-java-jni, which the apps launch_app starts then load';
    const applications = window.pid > 0 ? await client.applications().catch(() => undefined) : undefined;
    const wasRead = this.readOnBus.has(window.pid) && this.readOnBus.get(window.pid) === appStarted;
    if (applications && !applications.some((app) => app.pid === window.pid) && wasRead) {
      // Its toolkit is no reason: it had a tree a moment ago. An app leaves the bus as it quits (File Roller after
      // compressing, its progress window still mapped), and was told to relaunch itself with its accessibility on.
      return (
        `the application (pid ${window.pid}) was read on the accessibility bus before and has left it since (an app leaves it as it quits, ` +
        'while its windows may still be up): read it again in a moment, as the window may be closing; while it stays, act on the screenshot: ' +
        'click with x, y in window pixels, type_text and press_key with no element'
      );
    }
    if (applications && !applications.some((app) => app.pid === window.pid)) {
      // The usual case of a toolkit with no accessibility at all: say what works instead, so the agent does not wait for a tree.
      // The toolkit its libraries name says which: a Java app started without its bridge is told how to get one, not
      // to look through every toolkit's switch, and keys it would drop are offered as real input only.
      const name = processName(window.pid);
      const toolkit = processToolkit(window.pid);
      const why = toolkit ? `it is ${/^[AEIOX]/.test(toolkit.name) ? 'an' : 'a'} ${toolkit.name} app: ${toolkit.remedy}` : `Tk, Xt/Xaw and Motif apps expose none; others may have it switched off: ${switchedOff}`;
      const keys = toolkit?.ignoresSentKeys ? 'type_text and press_key with no element and delivery_mode "foreground" (it drops keys sent in the background)' : 'type_text and press_key with no element';
      return (
        `the application (pid ${window.pid}${name ? `, ${name}` : ''}) has no accessibility tree: it is not registered on the accessibility bus ` +
        `(${why}); act on the screenshot instead: click with x, y in window pixels, ${keys} (what they did is read back from the window's pixels)`
      );
    }
    if (applications?.some((app) => app.pid === window.pid)) {
      return (
        `the application (pid ${window.pid}) is on the accessibility bus, but none of its accessible windows is this one (those it has fit its ` +
        'other windows): a window it draws without widgets (a splash screen, a video or canvas surface) has none, and a new one may not have ' +
        'registered yet; read it again in a moment, or act on the screenshot: click with x, y in window pixels, type_text and press_key with no element'
      );
    }
    return `no accessible window matches "${window.title}" (pid ${window.pid}); the app may not support accessibility (${switchedOff})`;
  }

  /** The window's live mirror, made on its first read (or anew when the window's top-level object changed). */
  private mirrorOf(window: ClientWindow, match: WindowMatch, client: AtspiClient, x: X11Connection, quirks: MirrorPolicy): WindowMirror {
    let mirror = this.mirrors.get(window.id);
    if (mirror && (mirror.top.bus !== match.topLevel.bus || mirror.top.path !== match.topLevel.path)) {
      this.forgetMirror(window.id);
      mirror = undefined;
    }
    mirror ??= new WindowMirror(client, x, window.id, match.topLevel, quirks);
    // Re-inserted, so the map's order is the order of last use.
    this.mirrors.delete(window.id);
    this.mirrors.set(window.id, mirror);
    for (const [id, oldest] of this.mirrors) {
      if (this.mirrors.size <= MAX_MIRRORS) break;
      oldest.close();
      this.mirrors.delete(id);
    }
    return mirror;
  }

  private forgetMirror(windowId: number): void {
    this.mirrors.get(windowId)?.close();
    this.mirrors.delete(windowId);
  }

  /** The window's accessible top level: the one found before, else searched for (and remembered unless the match is weak). */
  /** The window's extents scale found by the last tree read, or from its top level's frame when none was read yet. */
  private async extentsScaleOf(window: ClientWindow, relative: boolean): Promise<number> {
    const known = this.extentsScales.get(window.id);
    if (known !== undefined) return known;
    const match = await this.topLevelOf(window).catch(() => undefined);
    return scaleOfFrame(window, match?.topLevel.extents, relative);
  }

  async topLevelOf(window: ClientWindow): Promise<WindowMatch | undefined> {
    const remembered = this.rememberedMatch(window);
    if (remembered) return remembered;
    const match = await matchWindow(await this.atspi(), window, () => this.windows(), this.processScales.get(window.pid));
    if (match && !match.weak) this.matches.set(window.id, match);
    return match;
  }

  /** The top level found for this window before, unless the window id now belongs to another process. */
  private rememberedMatch(window: ClientWindow): WindowMatch | undefined {
    const match = this.matches.get(window.id);
    return match && match.app.pid === window.pid ? match : undefined;
  }

  watchClipboardTakes(): Promise<ClipboardTakes> {
    return this.clipboardTakes.watch();
  }

  async clipboardTargets(): Promise<string[] | undefined> {
    return this.clipboard.targets(this.callTimeoutMs);
  }

  async readClipboardText(): Promise<ClipboardText | undefined> {
    const read = await this.clipboard.readText(this.callTimeoutMs);
    return read && { text: read.text, target: read.target };
  }

  readClipboardBytes(mimeType: string): Promise<Buffer | undefined> {
    return this.clipboard.readBytes(mimeType, this.callTimeoutMs);
  }

  async writeClipboardText(text: string, keepAfterExitMs: number): Promise<{ targets: string[] }> {
    const { targets } = await this.clipboard.writeText(text, keepAfterExitMs);
    return { targets };
  }

  /** This process is going away: a keeper process takes over what it still owns on the clipboard. */
  handOverClipboard(): Promise<'none' | 'handed_over'> {
    return this.clipboard.handOver();
  }

  async setWindowFrame(window: DesktopWindow, frame: WindowRect): Promise<FrameOutcome> {
    return setWindowFrame(await this.x11(), window.id, frame);
  }

  invokeMenu(window: ClientWindow, path: readonly string[], snapshot?: SnapshotRef, signal?: AbortSignal): Promise<MenuOutcome> {
    return invokeMenuPath(this, window, path, snapshot, signal);
  }

  async closeOwnMenus(window: ClientWindow): Promise<boolean> {
    return (await escapeOwnMenus(this, window)) > 0;
  }

  async pressButton(owner: string, button: MouseButton, at: PointTarget | undefined, maxHoldMs: number): Promise<{ x: number; y: number }> {
    // Real input goes to the window under the pointer: the target window is brought to the front first (and stays there).
    if (at && !(await this.activateWindow(at.window))) {
      throw new ToolError(`window ${at.window.id} could not be brought to the front; no button was pressed`, 'activation_failed');
    }
    // A window kept over the point even with this one in front would take the press, as it would a click's.
    if (at) await requirePointOnWindow(this, await this.x11(), at);
    return this.buttonHolds.press(owner, button, at && { x: at.screenX, y: at.screenY }, maxHoldMs);
  }

  moveHeld(owner: string, to: PointTarget, options: { steps: number; durationMs: number; signal?: AbortSignal }): Promise<void> {
    return this.buttonHolds.move(owner, { x: to.screenX, y: to.screenY }, options);
  }

  releaseButtons(owner: string, button?: MouseButton, at?: PointTarget): Promise<MouseButton[]> {
    return this.buttonHolds.release(owner, button, at && { x: at.screenX, y: at.screenY });
  }

  heldButtons(owner: string): MouseButton[] {
    return this.buttonHolds.held(owner);
  }

  /** Releases every held button (the process is stopping). */
  releaseAllButtons(): Promise<void> {
    return this.buttonHolds.releaseAll();
  }

  healthChecks(): Promise<HealthCheck[]> {
    return healthChecks({ x11: () => this.x11(), atspi: () => this.atspi() });
  }

  healthFacts(): Promise<Record<string, unknown>> {
    return healthFacts({
      x11: () => this.x11(),
      atspi: () => this.atspi(),
      connections: () => ({
        x11: this.xConnection.opened,
        accessibility_bus: this.atspiConnection.opened,
        live_tree_mirrors: this.mirrors.size,
        clipboard_owned: this.clipboard.owning,
      }),
    });
  }

  async guardEscape(handlers: EscapeHandlers, watchdogMs: number): Promise<() => void> {
    return armEscapeGuard(await this.x11(), handlers, watchdogMs);
  }

  explainFailure(error: unknown): ToolError | undefined {
    if (error instanceof X11ClosedError || error instanceof X11TimeoutError) {
      return new ToolError(`the X server on DISPLAY=${process.env.DISPLAY ?? '(unset)'} is gone or not answering (${error.message})`, 'display_unavailable');
    }
    if (error instanceof ApplicationGoneError) {
      return new ToolError(`${error.message}; its windows are gone`, 'window_gone', error.pid ? { pid: error.pid } : {});
    }
    // An app that exits during a call leaves its later calls to a name without an owner, wherever they are made.
    if (peerLeftTheBus(error)) {
      return new ToolError(`an application left the accessibility bus while the call ran (${(error as Error).message}); its windows are gone`, 'window_gone');
    }
    if (error instanceof DBusTimeoutError || error instanceof UnansweredActionError) {
      return new ToolError(`an application did not answer in time (${error.message}); it may be hung or stopped`, 'app_not_responding');
    }
    if (error instanceof DBusClosedError && Date.now() - this.busLostAt < BUS_LOSS_BLAME_MS) {
      return new ToolError(`the connection to the AT-SPI accessibility bus closed while the call ran (${error.message}). ${BUS_FIX}`, 'accessibility_bus_unavailable');
    }
    return undefined;
  }

  close(): void {
    this.clipboard.close();
    for (const id of [...this.mirrors.keys()]) this.forgetMirror(id);
    // A call that answered early (its argument refused) may still be reading: it must not open connections again.
    this.xConnection.shut((connection) => connection.close(), 'the driver has closed its connection to the X server');
    this.atspiConnection.shut((client) => client.close(), 'the driver has closed its connection to the accessibility bus');
    this.pages.close();
  }
}

/**
 * The window's extents scale (extents-scale.ts). A window-relative toolkit's frame is its content, which a declared
 * client-side margin surrounds. An undeclared one (GTK4 drawing a plain margin with no compositor) makes the window
 * larger by the same pixels both ways, which in a small window could pass for a scale: there only ratios that agree
 * within 2% are one (GTK4 under GDK_SCALE=2 without a compositor: 1270x1008 for a frame of 635x504).
 */
function scaleOfFrame(window: ClientWindow, frame: { w: number; h: number } | undefined, relative: boolean): number {
  if (!relative) return extentsScale(window.bounds, frame);
  if (!window.csdMargins) return extentsScale(window.bounds, frame, 0.02);
  const { left, right, top, bottom } = window.csdMargins;
  return extentsScale({ width: window.bounds.width - left - right, height: window.bounds.height - top - bottom }, frame);
}

function clip(bounds: ClientWindow['bounds'], width: number, height: number) {
  const x = Math.max(0, bounds.x);
  const y = Math.max(0, bounds.y);
  const right = Math.min(width, bounds.x + bounds.width);
  const bottom = Math.min(height, bounds.y + bounds.height);
  return { x, y, w: Math.max(0, right - x), h: Math.max(0, bottom - y) };
}

/**
 * Where a window-relative (GTK4) extent of 0,0 lies on the screen: the client window's origin plus the
 * invisible client-side-decoration margin. GTK declares that margin in _GTK_FRAME_EXTENTS; without a
 * compositor it draws a plain margin instead and declares nothing, so it is inferred from how much
 * smaller the accessible frame is than the X window (the margin is the same on opposite sides).
 */
function contentOrigin(window: ClientWindow, frameExtents: { w: number; h: number } | undefined): { x: number; y: number } {
  if (window.csdMargins) return { x: window.bounds.x + window.csdMargins.left, y: window.bounds.y + window.csdMargins.top };
  if (frameExtents && frameExtents.w > 0 && frameExtents.h > 0) {
    const marginX = Math.max(0, Math.round((window.bounds.width - frameExtents.w) / 2));
    const marginY = Math.max(0, Math.round((window.bounds.height - frameExtents.h) / 2));
    return { x: window.bounds.x + marginX, y: window.bounds.y + marginY };
  }
  return { x: window.bounds.x, y: window.bounds.y };
}
