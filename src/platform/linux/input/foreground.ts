// Real input "in the foreground" of a window: activate it, run the input, then give the previously active window
// back its place and the pointer its position, also when the input fails.
import { setTimeout as sleep } from 'node:timers/promises';
import { mappedPopupsOf, type Popup } from '../popups.js';
import type { X11Connection } from '../x11/index.js';
import { integerOption, type Point } from './checks.js';
import { pointerPosition, restorePointer } from './pointer.js';
import { activateWindow, activeWindow, isActive, restoreActivation } from './windows.js';

export interface ForegroundOptions {
  /** Bound on each activation wait, in ms (default 2000). */
  timeoutMs?: number;
  /** Give the previously active window back its activation afterwards (default true). */
  restoreActive?: boolean;
  /**
   * Activate the window first (default true). False for a window no window manager manages and nothing can activate,
   * which lies over every window and takes the pointer as it is (a notification bubble): only the pointer is restored.
   */
  activate?: boolean;
  /** Put the pointer back where it was afterwards (default true). */
  restorePointer?: boolean;
  /** The input is keys alone, read back through accessibility: the focus is given directly (see ActivateOptions.focusDirectly). */
  focusDirectly?: boolean;
  /**
   * Asked before the give-back (when no popup keeps the window active): what the input opened that losing the
   * activation would close, described, or undefined. The window then keeps its activation (keptActiveFor).
   */
  holdsActivation?: () => Promise<string | undefined>;
  /**
   * How long, at the give-back, a popup the input opened may still take to map (default 0: none is waited for). An app
   * may show a field's list of suggestions after the field showed the typed text: Chromium maps a <datalist>'s list
   * once its browser process has asked its autocomplete store, and on a loaded machine that came after the give-back,
   * which closed the list as the window lost its activation. Ended as soon as one maps.
   */
  popupGraceMs?: number;
  /**
   * The window an earlier call took the activation from and did not give back, as the window kept it for what that
   * call opened (a combo box's list, an in-place editor). When the window is still active as this input starts, that
   * window gets its place back after it, as it would have then, unless something still holds the activation.
   */
  heldFrom?: number;
}

export interface ForegroundReport {
  /** The window was active with the focus when the input ran (because it already was, or was made so). */
  activated: boolean;
  /** It already was; then nothing is restored. */
  wasActive: boolean;
  /** The window active before (0 none). */
  previousActive: number;
  /** The window given its place back, or kept from it: previousActive, or heldFrom when the window already was active. */
  givenBackTo?: number;
  restoredActive: boolean;
  /** Where the pointer was before. */
  pointer: Point;
  restoredPointer: boolean;
  /**
   * The popups (menus, drop-down lists) the window's app opened during the input, when there were any: the window
   * then kept its activation, as giving it back would close them (Qt closes its popups when its app loses the focus).
   */
  keptActiveFor?: number[];
  /** What else the input opened that kept the window active (holdsActivation's answer). */
  keptActiveWith?: string;
}

export class ActivationError extends Error {
  constructor(
    readonly window: number,
    readonly report: ForegroundReport,
    timeoutMs: number,
  ) {
    super(`window 0x${window.toString(16)} did not become active with the keyboard focus within ${timeoutMs} ms (the window manager refused or is slow); no input was sent`);
    this.name = 'ActivationError';
  }
}

/**
 * Runs `input` with `window` active and focused, then restores the previously active window and the pointer.
 * Rejects with ActivationError, without running `input`, when the window could not be activated; an error from
 * `input` is rethrown after restoring.
 *
 * `input` may call `sent()` once it has sent all its input and only waits for the effect: the restore then runs
 * alongside that wait. The X server handles one connection's requests in order and hands XTEST input to the
 * window focused when it handles it, so input sent before the restore's requests reaches `window` whatever the
 * window manager does after. The restore has ended when this resolves, either way.
 */
export async function inForeground<T>(
  x: X11Connection,
  window: number,
  input: (sent: () => void) => Promise<T>,
  options: ForegroundOptions = {},
): Promise<{ value: T; report: ForegroundReport }> {
  const timeoutMs = integerOption('timeoutMs', options.timeoutMs, 2000, 0, 60_000);
  const popupGraceMs = integerOption('popupGraceMs', options.popupGraceMs, 0, 0, 60_000);
  // The popups open before are asked for first (the X server answers in order, so before the activation) and waited for
  // only at the give-back: their second round trip need not hold up the input.
  const popupsBefore = openPopups(x, window);
  const facts = Promise.all([activeWindow(x), pointerPosition(x), isActive(x, window)]);
  // The activation's own questions go out with these, in the same round trip: its request to the window manager is
  // sent after their answers, so what they read is from before it. An active window is left as it is.
  const activation = (options.activate === false ? Promise.resolve(true) : activateWindow(x, window, { timeoutMs, ...(options.focusDirectly ? { focusDirectly: true } : {}) })).then(
    (activated) => ({ activated }),
    (error: unknown) => ({ error }),
  );
  const [previousActive, pointer, wasActive] = await facts.catch(async (error: unknown) => {
    await activation;
    throw error;
  });
  const report: ForegroundReport = { activated: wasActive, wasActive, previousActive, restoredActive: false, pointer, restoredPointer: false };
  let restoring: Promise<void> | undefined;
  const restore = (): Promise<void> => {
    // The pointer and the activation are given back side by side: neither waits on the other's round trips. Both end
    // before the restore does, a failure of either included.
    restoring ??= Promise.allSettled([
      (async () => {
        if (!(options.restorePointer ?? true)) return;
        await restorePointer(x, pointer);
        report.restoredPointer = true;
      })(),
      (async () => {
        const giveBackTo = wasActive ? options.heldFrom : previousActive;
        if (!(options.restoreActive ?? true) || options.activate === false || giveBackTo === undefined || giveBackTo === window) return;
        report.givenBackTo = giveBackTo;
        // A popup open before that is still open holds the activation too, when the window was held for it.
        const before = wasActive ? [] : await popupsBefore;
        const opened = await popupsOpenedSince(x, window, before, popupGraceMs);
        const held = opened.length > 0 ? undefined : await options.holdsActivation?.().catch(() => undefined);
        if (opened.length > 0) report.keptActiveFor = opened;
        else if (held) report.keptActiveWith = held;
        // Keys-only input gives the focus back directly too: the window before gets the keyboard focus (and its app its
        // focus-out) as the window manager is asked to activate it, without waiting the window manager's turn (6 to 8
        // ms of openbox's after every foreground typing). The raise it makes after changes nothing keys read back.
        else report.restoredActive = await restoreActivation(x, giveBackTo, { timeoutMs, ...(options.focusDirectly ? { focusDirectly: true } : {}) });
      })(),
    ]).then(([pointerBack, activationBack]) => {
      for (const settled of [pointerBack, activationBack]) if (settled.status === 'rejected') throw settled.reason;
    });
    return restoring;
  };
  let outcome: { value: T } | { error: unknown };
  try {
    const activated = await activation;
    if ('error' in activated) throw activated.error;
    report.activated = activated.activated;
    if (!report.activated) throw new ActivationError(window, report, timeoutMs);
    // A restore started early fails where it is awaited, below.
    outcome = { value: await input(() => void restore().catch(() => undefined)) };
  } catch (error) {
    outcome = { error };
  }
  try {
    await restore();
  } catch (error) {
    // The input's own error says more than a failure to tidy up after it.
    if ('value' in outcome) throw error;
  }
  if ('error' in outcome) throw outcome.error;
  return { value: outcome.value, report };
}

/** The popups `window`'s app opened since `before` was read: asked again every pollMs until one is open or graceMs passed. */
async function popupsOpenedSince(x: X11Connection, window: number, before: readonly number[], graceMs: number): Promise<number[]> {
  const pollMs = 50;
  for (const deadline = Date.now() + graceMs; ; await sleep(pollMs)) {
    const opened = (await openPopups(x, window)).filter((popup) => !before.includes(popup));
    if (opened.length > 0 || Date.now() >= deadline) return opened;
  }
}

/**
 * The menus and drop-down lists `window`'s app shows now (override-redirect windows of its client), tooltips and
 * notifications left out: they close by themselves, whatever has the focus. A window typed notification that lies over
 * `window` is none: Chromium types the list of suggestions it drops under a field (a `<datalist>`, autofill) so, and the
 * give-back after typing "P" into such a field closed the list the keys had just opened.
 */
async function openPopups(x: X11Connection, window: number): Promise<number[]> {
  try {
    const root = x.setup.screens[0]!.root;
    const [popups, tooltip, notification, geometry, origin] = await Promise.all([
      mappedPopupsOf(x, window),
      x.internAtom('_NET_WM_WINDOW_TYPE_TOOLTIP'),
      x.internAtom('_NET_WM_WINDOW_TYPE_NOTIFICATION'),
      x.getGeometry(window),
      x.translateCoordinates(window, root, 0, 0),
    ]);
    const over = (popup: Popup) => popup.x < origin.x + geometry.width && popup.y < origin.y + geometry.height && popup.x + popup.width > origin.x && popup.y + popup.height > origin.y;
    const kinds = await Promise.all(popups.map((popup) => x.getAtomList(popup.id, '_NET_WM_WINDOW_TYPE').catch(() => undefined)));
    return popups.filter((popup, i) => !kinds[i]?.some((kind) => kind === tooltip || (kind === notification && !over(popup)))).map((popup) => popup.id);
  } catch {
    // A window gone meanwhile has no popups to keep.
    return [];
  }
}
