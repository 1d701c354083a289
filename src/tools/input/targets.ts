import type { ElementTarget, PointTarget, SnapshotRef } from '../../platform/targets.js';
import type { DesktopWindow } from '../../platform/windows.js';
import type { ToolContext } from '../context.js';
import { closedSinceRead, resolveWindow, windowsOfProcess } from '../perception/window-records.js';
import { parseElementToken } from '../perception/window-snapshot.js';
import { ToolError } from '../../errors.js';

export interface AddressingArgs {
  pid?: number;
  window_id?: number;
  element_index?: number;
  element_token?: string;
  x?: number;
  y?: number;
  from_zoom?: boolean;
}

/** The snapshot an element reference names: an explicit token, or the latest snapshot of that window in this session. */
function findSnapshot(context: ToolContext, args: AddressingArgs): { snapshot: SnapshotRef; index: number } {
  if (args.element_token !== undefined) {
    const { snapshotId, index } = parseElementToken(args.element_token);
    const snapshot = context.state.snapshots.get(snapshotId);
    if (!snapshot) {
      throw new ToolError(
        `snapshot ${snapshotId} is unknown in session "${context.session}" (expired, or taken in another session); call get_window_state again in this session`,
        'no_snapshot',
      );
    }
    if (args.window_id !== undefined && args.window_id !== snapshot.windowId) {
      throw new ToolError(`element_token ${args.element_token} belongs to window ${snapshot.windowId}, not window_id ${args.window_id}`, 'window_mismatch');
    }
    if (args.element_index !== undefined && args.element_index !== index) {
      throw new ToolError(`element_token ${args.element_token} and element_index ${args.element_index} name different elements; give one of them`, 'conflicting_target');
    }
    return { snapshot, index };
  }
  const snapshots = context.state.snapshots;
  const windowId = args.window_id ?? (args.pid !== undefined ? readWindowOfPid(context, args.pid) : undefined);
  if (windowId === undefined) {
    throw new ToolError('element_index needs window_id (the window whose get_window_state produced it), or use element_token', 'missing_window_id');
  }
  const snapshot = args.pid === undefined ? snapshots.latestForWindow(windowId) : snapshots.latest(args.pid, windowId);
  if (!snapshot) {
    throw new ToolError(
      `no snapshot of window ${windowId}${args.pid !== undefined ? ` (pid ${args.pid})` : ''} in session "${context.session}"; call get_window_state first (with the same session)`,
      'no_snapshot',
    );
  }
  return { snapshot, index: args.element_index! };
}

/**
 * The window an element_index given with pid alone belongs to: the one window of that process read in this session, as
 * get_window_state {pid} reads an app's only window (set_value {pid, element_index} after it was refused, asking for
 * the window_id the agent never had to learn). Several windows read are a choice the call must make.
 */
function readWindowOfPid(context: ToolContext, pid: number): number {
  const read = context.state.snapshots.windowsReadOf(pid);
  if (read.length === 1) return read[0]!;
  if (read.length === 0) throw new ToolError(`no snapshot of pid ${pid} in session "${context.session}"; call get_window_state first (with the same session), then pass its element_index`, 'no_snapshot');
  throw new ToolError(`element_index with pid ${pid} alone is ambiguous: windows ${read.join(', ')} of it were read in this session; pass window_id (the window whose get_window_state gave the index)`, 'missing_window_id');
}

/**
 * Why an index names no element of the snapshot it was resolved in. A window's snapshots share one numbering
 * (cup/numbering.ts), so an index given out before and missing from the latest snapshot is an element that left
 * the window: refused, never passed on to whatever element came since.
 */
function missingElement(context: ToolContext, snapshot: SnapshotRef, index: number, byToken: boolean): never {
  if (!byToken && context.state.snapshots.issued(snapshot.pid, snapshot.windowId, index)) {
    throw new ToolError(
      `element [e${index}] is gone from window ${snapshot.windowId} since the snapshot it was read in: the latest snapshot (${snapshot.id}) does not have it ` +
        '(the app removed it, or that reading left it out, e.g. scrolled out of view in a compact read). Nothing was sent; ' +
        'call get_window_state again and use an index it shows.',
      'stale_element',
    );
  }
  const held = snapshot.elements.size === 0 ? 'it holds no elements (the window had no tree when read)' : `its highest index is [e${Math.max(...snapshot.elements.keys())}]`;
  throw new ToolError(
    `snapshot ${snapshot.id} of window ${snapshot.windowId} has no element [e${index}] (${held}); use an index get_window_state or an action's diff showed`,
    'unknown_element',
  );
}

/**
 * The element a call names, in its window as it is now: the snapshot's record of it, which the backend
 * checks live before acting (it never takes "the element now at that position in the tree").
 */
export async function resolveElement(context: ToolContext, args: AddressingArgs): Promise<ElementTarget> {
  const { snapshot, index } = findSnapshot(context, args);
  if (args.pid !== undefined && args.pid !== snapshot.pid) {
    throw new ToolError(`snapshot ${snapshot.id} is of pid ${snapshot.pid}, not pid ${args.pid}`, 'pid_mismatch');
  }
  const element = snapshot.elements.get(index) ?? missingElement(context, snapshot, index, args.element_token !== undefined);
  const window = await resolveWindow(context, snapshot.windowId, snapshot.pid).catch(() => {
    const closed = closedSinceRead(context, snapshot.windowId);
    throw new ToolError(closed?.message ?? `window ${snapshot.windowId} of snapshot ${snapshot.id} is gone; call list_windows and get_window_state`, 'window_gone', closed ? { pid: closed.pid } : {});
  });
  return { kind: 'element', snapshot, element, window };
}

/** Resolves window-local screenshot pixels (or zoom-image pixels) to real window and screen pixels. */
export async function resolvePoint(context: ToolContext, args: AddressingArgs): Promise<PointTarget> {
  if (args.x === undefined || args.y === undefined) throw new ToolError('pixel addressing needs both x and y', 'missing_coordinate');
  let windowId = args.window_id;
  let windowX: number;
  let windowY: number;
  if (args.from_zoom) {
    if (args.pid === undefined) throw new ToolError('from_zoom needs pid (the pid given to zoom)', 'missing_pid');
    const mapped = context.state.images.zoomToWindow(args.pid, args.x, args.y);
    if (!mapped) throw new ToolError(`no zoom of pid ${args.pid} in this session; call zoom with pid first, or drop from_zoom`, 'no_zoom');
    if (windowId !== undefined && windowId !== mapped.windowId) {
      throw new ToolError(`the last zoom of pid ${args.pid} was of window ${mapped.windowId}, not window_id ${windowId}`, 'window_mismatch');
    }
    windowId = mapped.windowId;
    windowX = mapped.x;
    windowY = mapped.y;
  } else {
    if (windowId === undefined) {
      if (args.pid === undefined) throw new ToolError('pixel addressing needs window_id (or pid, for that process\'s front-most window)', 'missing_window_id');
      windowId = (await windowsOfProcess(context, args.pid))[0]!.id;
    }
    ({ x: windowX, y: windowY } = context.state.images.screenshotToWindow(windowId, args.x, args.y));
  }
  const window = await resolveWindow(context, windowId, args.pid);
  if (windowX < 0 || windowY < 0 || windowX >= window.bounds.width || windowY >= window.bounds.height) {
    throw new ToolError(
      `point (${args.x}, ${args.y}) lies outside window ${window.id} (${window.bounds.width}x${window.bounds.height} pixels); coordinates are window-local screenshot pixels`,
      'outside_window',
    );
  }
  const snapshot = context.state.snapshots.latest(window.pid, window.id);
  return {
    kind: 'point',
    window,
    ...(snapshot ? { snapshot } : {}),
    windowX,
    windowY,
    screenX: Math.round(window.bounds.x + windowX),
    screenY: Math.round(window.bounds.y + windowY),
  };
}

/** Exactly one addressing mode: an element, or pixels. */
export async function resolveTarget(context: ToolContext, args: AddressingArgs): Promise<ElementTarget | PointTarget> {
  const byElement = args.element_index !== undefined || args.element_token !== undefined;
  const byPixel = args.x !== undefined || args.y !== undefined;
  if (byElement && byPixel) throw new ToolError('give either an element (element_index or element_token) or pixels (x, y), not both', 'conflicting_target');
  if (!byElement && !byPixel) throw new ToolError('give a target: element_index + window_id, element_token, selector + window_id (or pid), or x + y (window-local screenshot pixels)', 'missing_target');
  return byElement ? resolveElement(context, args) : resolvePoint(context, args);
}

/** Where a keyboard tool's input (or invoke_menu's choice) goes without an element: window_id, else the active (or front-most) window of pid. */
export async function keyboardWindow(context: ToolContext, args: { pid?: number; window_id?: number }, tool: string): Promise<DesktopWindow> {
  if (args.window_id !== undefined) return resolveWindow(context, args.window_id, args.pid);
  if (args.pid === undefined) throw new ToolError(`${tool} needs pid (or window_id, or an element) to know which window gets the input`, 'missing_pid');
  const windows = await windowsOfProcess(context, args.pid);
  // A modal dialog the app has up takes a person's keys even before the window manager has activated it (activating
  // the window under it would only activate the dialog): a plan's key right after the step that opened it went to the
  // main window, whose activation then never came.
  return windows.find((window) => window.active) ?? windows.find((window) => window.modal) ?? windows[0]!;
}
