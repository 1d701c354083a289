import type { ClientWindow } from './windows.js';

/** A lookup not answered by then leaves the window as the window manager describes it in that listing: a listing never waits on a hung app. */
const LOOKUP_MS = 300;
/** A window not yet found on the bus is asked again after this long: its object registers a moment after it maps. */
const RETRY_MS = 500;
/**
 * ...but only this long after it was first seen: a window not found by then (a helper window, an app that does not
 * answer) is not asked again, so no listing keeps paying LOOKUP_MS for it.
 */
const RETRY_FOR_MS = 5000;

/** What a window's accessible top level says of it, when one was surely found for it. */
export interface AccessibleWindow {
  name: string;
  /** Its top level says STATE_MODAL. */
  modal: boolean;
}

interface Known {
  pid: number;
  found?: AccessibleWindow;
  at: number;
  firstAt: number;
}

/**
 * What every listing of the desktop's windows takes from their accessible top levels where the window manager is not
 * told it:
 * - the name of a window with no title: a GTK3 message dialog with none (HexChat's and GNOME System Monitor's
 *   "Warning", Ristretto's) sets neither WM_NAME nor _NET_WM_NAME, and action results named it `""` (`window 123 ""
 *   opened`) while its tree names it by its kind;
 * - that a dialog is modal: Java's modal JDialog is only a dialog of its owner (WM_TRANSIENT_FOR) to the window
 *   manager, never _NET_WM_STATE_MODAL, while its accessible dialog says STATE_MODAL; with SwingForms's About dialog up,
 *   clicks and invoke_menu on the window under it still ran, and did nothing or queued.
 * Only windows that may lack one of these facts are looked up (untitled ones; dialogs of a window not marked modal),
 * each once while it keeps its id and pid (a window not found, or found with no name where it lacks a title, is asked
 * again after RETRY_MS, for RETRY_FOR_MS), with a short time bound: this is on every action's path.
 */
export class AccessibleWindowFacts {
  private readonly known = new Map<number, Known>();

  constructor(private readonly lookUp: (window: ClientWindow, listed: readonly ClientWindow[]) => Promise<AccessibleWindow | undefined>) {}

  async completed(windows: ClientWindow[]): Promise<ClientWindow[]> {
    const asked = windows.filter((window) => untitled(window) || unmarkedDialog(window));
    for (const id of this.known.keys()) if (!windows.some((window) => window.id === id)) this.known.delete(id);
    if (asked.length === 0) return windows;
    const found = new Map<number, AccessibleWindow>();
    await Promise.all(
      asked.map(async (window) => {
        const facts = await this.factsOf(window, windows);
        if (facts) found.set(window.id, facts);
      }),
    );
    return windows.map((window) => {
      const facts = found.get(window.id);
      if (!facts) return window;
      const name = untitled(window) ? facts.name.trim() : '';
      const modal = unmarkedDialog(window) && facts.modal;
      return name || modal ? { ...window, ...(name ? { accessibleName: name } : {}), ...(modal ? { modal: true as const } : {}) } : window;
    });
  }

  private async factsOf(window: ClientWindow, listed: readonly ClientWindow[]): Promise<AccessibleWindow | undefined> {
    const known = this.known.get(window.id);
    const same = known && known.pid === window.pid ? known : undefined;
    if (same && (settled(window, same.found) || Date.now() - same.at < RETRY_MS || Date.now() - same.firstAt > RETRY_FOR_MS)) return same.found;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), LOOKUP_MS);
    });
    try {
      const found = await Promise.race([this.lookUp(window, listed).catch(() => undefined), late]);
      this.known.set(window.id, { pid: window.pid, found, at: Date.now(), firstAt: same?.firstAt ?? Date.now() });
      return found;
    } finally {
      clearTimeout(timer);
    }
  }
}

function untitled(window: ClientWindow): boolean {
  return window.title.trim() === '';
}

/** A dialog of another window that the window manager is not told is modal: only its accessible top level may say so. */
function unmarkedDialog(window: ClientWindow): boolean {
  return window.transientFor !== undefined && !window.modal;
}

/** Whether what was found answers all that is asked of the window: a found top level, named where the window has no title. */
function settled(window: ClientWindow, found: AccessibleWindow | undefined): boolean {
  return found !== undefined && (!untitled(window) || found.name.trim() !== '');
}
