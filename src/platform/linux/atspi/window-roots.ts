// Application objects besides an application's root that hold some of its windows. Chromium (and every Electron app)
// makes its own accessibility root, which lists its browser windows, while the GTK dialogs it opens (the file chooser
// of an <input type=file>, Save As) hang under GTK's own application object on the same connection, which neither
// the registry nor that root lists: such a dialog had no tree. The windows announce themselves (window:create,
// window:activate), and their parent is that other application object; once known, its children are the app's
// windows too, for as long as it answers.
import { ATSPI_ROLE } from '../../../cup/atspi/constants.js';
import type { AtspiClient } from './client.js';
import type { AccessibilityEvent } from './event-monitor.js';
import { ROOT_PATH } from './object-ref.js';
import { parentOf, readRole } from './operations.js';

/** Window events that name a top-level object. */
const announcing = new Set(['Create', 'Activate']);

/** How many announced windows are remembered as looked at, per application (a bound on a long-running driver). */
const maxLookedAt = 256;

export class WindowRoots {
  /** Per application bus, the paths of application objects other than its root that hold windows. */
  private readonly roots = new Map<string, Set<string>>();
  /** Per application bus, the windows whose parent was looked at (or is being), and the looks under way. */
  private readonly lookedAt = new Map<string, Set<string>>();
  private readonly pending = new Map<string, Set<Promise<void>>>();

  constructor(private readonly client: AtspiClient) {}

  /** Hears an event: a window announced whose parent is not known yet has that parent looked at. */
  note(event: AccessibilityEvent): void {
    if (!announcing.has(event.kind) || event.path === ROOT_PATH) return;
    let seen = this.lookedAt.get(event.sender);
    if (!seen) this.lookedAt.set(event.sender, (seen = new Set()));
    if (seen.has(event.path)) return;
    if (seen.size >= maxLookedAt) seen.clear();
    seen.add(event.path);
    const look = this.look(event.sender, event.path).finally(() => this.pending.get(event.sender)?.delete(look));
    let looks = this.pending.get(event.sender);
    if (!looks) this.pending.set(event.sender, (looks = new Set()));
    looks.add(look);
  }

  private async look(bus: string, window: string): Promise<void> {
    const parent = await parentOf(this.client, { bus, path: window }).catch(() => undefined);
    if (!parent || parent.bus !== bus || parent.path === ROOT_PATH || this.roots.get(bus)?.has(parent.path)) return;
    if ((await readRole(this.client, parent).catch(() => undefined)) !== ATSPI_ROLE.APPLICATION) return;
    let roots = this.roots.get(bus);
    if (!roots) this.roots.set(bus, (roots = new Set()));
    roots.add(parent.path);
  }

  /** The other application objects of this application known to hold windows, once the looks under way are done. */
  async of(bus: string): Promise<string[]> {
    await Promise.all(this.pending.get(bus) ?? []);
    return [...(this.roots.get(bus) ?? [])];
  }

  /** An application object that no longer answers holds nothing. */
  forget(bus: string, path: string): void {
    this.roots.get(bus)?.delete(path);
  }
}
