import type { ClientWindow } from './windows.js';

/** A lookup not answered by then leaves the window unnamed in that listing: a listing never waits on a hung app. */
const LOOKUP_MS = 300;
/** A window found with no accessible name is asked again after this long: its object registers a moment after it maps. */
const RETRY_MS = 500;
/**
 * ...but only this long after it was first seen: a window that has none by then (a helper window, an app that does not
 * answer) is not asked again, so no listing keeps paying LOOKUP_MS for it.
 */
const RETRY_FOR_MS = 5000;

interface Known {
  pid: number;
  name?: string;
  at: number;
  firstAt: number;
}

/**
 * The accessible names of windows with no title, given to every listing of the desktop's windows: a GTK3 message
 * dialog with no title (HexChat's and GNOME System Monitor's "Warning", Ristretto's) sets neither WM_NAME nor
 * _NET_WM_NAME, and action results named it `""` (`window 123 "" opened`, `new window: 123 ""`) while its tree names
 * it by its kind. Only untitled windows are looked up, each once while it keeps its id and pid (a name found is
 * kept; none found is asked again after RETRY_MS, for RETRY_FOR_MS), with a short time bound.
 */
export class UntitledNames {
  private readonly known = new Map<number, Known>();

  constructor(private readonly lookUp: (window: ClientWindow, listed: readonly ClientWindow[]) => Promise<string | undefined>) {}

  async named(windows: ClientWindow[]): Promise<ClientWindow[]> {
    const untitled = windows.filter((window) => window.title.trim() === '');
    for (const id of this.known.keys()) if (!windows.some((window) => window.id === id)) this.known.delete(id);
    if (untitled.length === 0) return windows;
    const names = new Map<number, string>();
    await Promise.all(
      untitled.map(async (window) => {
        const name = await this.nameOf(window, windows);
        if (name) names.set(window.id, name);
      }),
    );
    return windows.map((window) => (names.has(window.id) ? { ...window, accessibleName: names.get(window.id)! } : window));
  }

  private async nameOf(window: ClientWindow, listed: readonly ClientWindow[]): Promise<string | undefined> {
    const known = this.known.get(window.id);
    const same = known && known.pid === window.pid ? known : undefined;
    if (same && (same.name !== undefined || Date.now() - same.at < RETRY_MS || Date.now() - same.firstAt > RETRY_FOR_MS)) return same.name;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), LOOKUP_MS);
    });
    try {
      const found = await Promise.race([this.lookUp(window, listed).catch(() => undefined), late]);
      const name = found?.trim() || undefined;
      this.known.set(window.id, { pid: window.pid, name, at: Date.now(), firstAt: same?.firstAt ?? Date.now() });
      return name;
    } finally {
      clearTimeout(timer);
    }
  }
}
