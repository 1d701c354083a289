// Window activation through the window manager (EWMH): which window is active, making another one active (and
// un-minimizing it) with a bounded wait for the window manager to do it, and raising.
import { setTimeout as sleep } from 'node:timers/promises';
import { ToolError } from '../../../errors.js';
import { NextChange } from '../next-change.js';
import { encodeClientMessage, X11Error, type X11Connection } from '../x11/index.js';
import { integerOption } from './checks.js';
import { onRootPropertyChange } from './root-properties.js';
import { serverTime } from './server-time.js';
import { hasWindowManager, removeWindowStates, substructureMask } from './window-manager.js';

export interface ActivateOptions {
  /** How long to wait for the window manager to activate and focus the window, in ms (default 2000). */
  timeoutMs?: number;
  /**
   * Only keys follow the activation, no pointer input: the window is given the keyboard focus directly, as the window
   * manager gives it, while the window manager is asked to activate (and raise) it, and the activation resolves once
   * the X server has the focus there. The X server hands one connection's keys to the window focused when it handles
   * them, so keys sent after need not wait for the window manager's turn (2 to 4 ms of openbox's, before every
   * foreground typing). Pointer input must wait: it lands on whatever window lies on top, which the raise decides.
   * Done only for a window shown on the current workspace that takes the focus itself (ICCCM's input hint not false);
   * the others, and a focus the server did not take, wait for the window manager.
   */
  focusDirectly?: boolean;
}

// Source indication 2: the request comes from a pager or similar tool acting for the user, which window managers
// honour without focus-stealing prevention (1, an application, may only get the window marked urgent).
const sourcePager = 2;
const iconicState = 3;

/** _NET_ACTIVE_WINDOW, or 0 when no window is active or no EWMH window manager runs. */
export async function activeWindow(x: X11Connection): Promise<number> {
  return (await x.getWindowList(x.screen.root, '_NET_ACTIVE_WINDOW'))?.[0] ?? 0;
}

/**
 * Asks the window manager to activate `window` (a top-level client window, as list_windows reports), un-minimizing
 * it, and waits until it is the active window and holds the keyboard focus. Resolves false when that did not
 * happen within the timeout; rejects when the window does not exist.
 */
export async function activateWindow(x: X11Connection, window: number, options: ActivateOptions = {}): Promise<boolean> {
  const timeoutMs = integerOption('timeoutMs', options.timeoutMs, 2000, 0, 60_000);
  const root = x.screen.root;
  // One round of questions: the existence check's error is the one reported, the others' then say nothing.
  const [, active, time, current, managed, states, hidden, shadedAtom, wmState, workspace, currentWorkspace, attributes, hints] = await Promise.all([
    requireWindow(x, window),
    isActive(x, window).catch(() => false),
    serverTime(x),
    activeWindow(x),
    hasWindowManager(x),
    x.getAtomList(window, '_NET_WM_STATE').catch(() => undefined),
    x.internAtom('_NET_WM_STATE_HIDDEN'),
    x.internAtom('_NET_WM_STATE_SHADED'),
    x.getCardinals(window, 'WM_STATE').catch(() => undefined),
    x.getCardinals(window, '_NET_WM_DESKTOP').catch(() => undefined),
    x.getCardinals(root, '_NET_CURRENT_DESKTOP').catch(() => undefined),
    options.focusDirectly ? x.getWindowAttributes(window).catch(() => undefined) : undefined,
    options.focusDirectly ? x.getCardinals(window, 'WM_HINTS').catch(() => undefined) : undefined,
  ]);
  // A window on another workspace is shown by switching to that workspace, as a person's click on its taskbar entry
  // does (openbox left such a window where it was and the activation timed out). 0xFFFFFFFF is on every workspace.
  const away = workspace?.[0];
  if (managed && away !== undefined && away !== 0xffffffff && currentWorkspace?.[0] !== undefined && away !== currentWorkspace[0]) {
    await x.sendEvent(root, false, substructureMask, encodeClientMessage(root, await x.internAtom('_NET_CURRENT_DESKTOP'), 32, [away, time]));
  }
  // A shaded window is rolled up into its title bar, active or not: input for its client area would land on the
  // window under it. It is unrolled first (an active one too: the window manager unrolls only the windows it activates).
  const shaded = managed && (states?.includes(shadedAtom) ?? false);
  if (shaded) await removeWindowStates(x, window, [shadedAtom]);
  if (active && !shaded) return true;
  const restoring = states?.includes(hidden) || wmState?.[0] === iconicState;
  // ICCCM: mapping an iconic window asks the window manager to restore it (most also do on _NET_ACTIVE_WINDOW).
  if (restoring) await x.mapWindow(window);
  const deadline = Date.now() + timeoutMs;
  // The window manager announces the activation on the root; the wait wakes on that announcement and checks the
  // focus and map state (which may follow a moment later, a restored window being mapped after its activation)
  // again every `recheckMs` meanwhile.
  const woken = new NextChange<true>();
  const stopHearing = await onRootPropertyChange(x, ['_NET_ACTIVE_WINDOW'], () => woken.notify(true, false));
  try {
    if (managed) {
      const message = encodeClientMessage(window, await x.internAtom('_NET_ACTIVE_WINDOW'), 32, [sourcePager, time, current]);
      await x.sendEvent(root, false, substructureMask, message);
      const onCurrentWorkspace = away === undefined || away === 0xffffffff || away === currentWorkspace?.[0];
      if (!restoring && !shaded && onCurrentWorkspace && attributes?.mapState === 'viewable' && takesFocus(hints) && (await focusGiven(x, window, time))) return true;
    } else {
      await x.raiseWindow(window);
      await x.setInputFocus(window, 'Parent', time);
    }
    // Active is not yet on screen: a restored (un-minimized) window is mapped after the window manager
    // activates it, and real input sent before then lands on whatever lies under it.
    // A failed look (the window going away meanwhile) counts as not yet: the deadline ends the wait.
    const ready = async () => {
      const [active, attributes, states] = await Promise.all([isActive(x, window), x.getWindowAttributes(window), shaded ? x.getAtomList(window, '_NET_WM_STATE') : undefined]);
      return active && attributes.mapState === 'viewable' && !states?.includes(shadedAtom);
    };
    while (!(await ready().catch(() => false))) {
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await woken.next(Math.min(recheckMs, left));
    }
  } finally {
    stopHearing();
  }
  if (restoring) await settledPosition(x, window, deadline);
  return true;
}

/**
 * Whether a window takes the keyboard focus when it is set on it (ICCCM 4.1.7): its WM_HINTS input field, where the
 * flag says it is there; a window without the hint is given the focus by window managers too. One whose input hint is
 * false (the globally active model) moves the focus itself, when the window manager sends it WM_TAKE_FOCUS.
 */
function takesFocus(hints: readonly number[] | null | undefined): boolean {
  const inputHintFlag = 1;
  if (!hints || hints.length < 2 || (hints[0]! & inputHintFlag) === 0) return true;
  return hints[1] !== 0;
}

/**
 * Sets the keyboard focus on `window` (see ActivateOptions.focusDirectly): true once the server has it inside the
 * window. A focus change the server ignored (one stamped before the latest: the window manager moved the focus since
 * `time` was read) or refused is false.
 */
async function focusGiven(x: X11Connection, window: number, time: number): Promise<boolean> {
  try {
    await x.setInputFocus(window, 'Parent', time);
    return await isInside(x, (await x.getInputFocus()).focus, window);
  } catch (error) {
    // Unmapped meanwhile (BadMatch): the window manager's own activation is waited for instead.
    if (error instanceof X11Error) return false;
    throw error;
  }
}

/** How long an activation wait goes without a look when the window manager announces nothing. */
const recheckMs = 25;

/** Polls that must see the same position in a row before a window counts as still. */
const stillPolls = 3;

/**
 * Waits (until the deadline at most) for a window to stop moving: window managers animate a restore (openbox
 * slides the window up from the bottom of the screen), and a click aimed at where the window belongs
 * would land elsewhere until it arrives.
 */
async function settledPosition(x: X11Connection, window: number, deadline: number): Promise<void> {
  let previous = '';
  let same = 0;
  while (same < stillPolls && Date.now() < deadline) {
    const origin = await x.translateCoordinates(window, x.screen.root, 0, 0);
    const now = `${origin.x},${origin.y}`;
    same = now === previous ? same + 1 : 1;
    previous = now;
    if (same < stillPolls) await sleep(25);
  }
}

/** Re-activates the window that was active before (as activeWindow returned it); false if it is gone or refused. */
export async function restoreActivation(x: X11Connection, previous: number, options: ActivateOptions = {}): Promise<boolean> {
  if (previous === 0) return false;
  const clients = (await x.getWindowList(x.screen.root, '_NET_CLIENT_LIST')) ?? [];
  if (!clients.includes(previous)) return false;
  return activateWindow(x, previous, options);
}

/** Asks the window manager to put `window` above the other windows, without giving it the focus. */
export async function raiseWindow(x: X11Connection, window: number): Promise<void> {
  await requireWindow(x, window);
  if (await hasWindowManager(x)) {
    // _NET_RESTACK_WINDOW with no sibling and detail Above; source 2 as for activation.
    const message = encodeClientMessage(window, await x.internAtom('_NET_RESTACK_WINDOW'), 32, [sourcePager, 0, 0]);
    await x.sendEvent(x.screen.root, false, substructureMask, message);
  } else {
    await x.raiseWindow(window);
  }
  await x.sync();
}

/** Active per the window manager (when there is one) and holding the input focus, itself or a window inside it. */
export async function isActive(x: X11Connection, window: number): Promise<boolean> {
  const [active, managed, focus] = await Promise.all([activeWindow(x), hasWindowManager(x), x.getInputFocus()]);
  if (managed && active !== window) return false;
  return isInside(x, focus.focus, window);
}

async function isInside(x: X11Connection, descendant: number, ancestor: number): Promise<boolean> {
  let current = descendant;
  // Focus 0 is None and 1 PointerRoot; real window trees are shallow, the bound only guards against a loop.
  for (let depth = 0; current > 1 && depth < 32; depth++) {
    if (current === ancestor) return true;
    if (current === x.screen.root) return false;
    // A focus window destroyed meanwhile ends the walk: it is inside nothing any more.
    const tree = await x.queryTree(current).catch(() => undefined);
    if (!tree) return false;
    current = tree.parent;
  }
  return false;
}

/**
 * The window still exists. One that closed after the tool found it (an app that crashed as a key went to it) is
 * window_gone, the code of a window that closed while the call ran: it was an internal_error.
 */
async function requireWindow(x: X11Connection, window: number): Promise<void> {
  if (!Number.isInteger(window) || window <= 0 || window > 0xffffffff) throw new RangeError(`window must be an X window id (a positive integer), got ${String(window)}`);
  try {
    await x.getWindowAttributes(window);
  } catch (error) {
    if (error instanceof X11Error && error.codeName === 'BadWindow') {
      throw new ToolError(`window ${window} (0x${window.toString(16)}) does not exist any more; list_windows gives the current ones`, 'window_gone', { window_id: window });
    }
    throw error;
  }
}
