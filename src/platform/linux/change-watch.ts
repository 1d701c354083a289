// Waking a wait when a process changes: its AT-SPI events (children, names, values, states, text, windows)
// and the window manager's client list on the root window (a window of any app opened or closed).
import type { ChangeReason, ChangeWatch } from '../desktop.js';
import type { AtspiClient } from './atspi/client.js';
import type { AccessibilityEvent } from './atspi/event-monitor.js';
import { onRootPropertyChange } from './input/root-properties.js';
import { selectWindowProperties } from './input/window-properties.js';
import { NextChange } from './next-change.js';
import { statFields } from './desktop/processes.js';
import type { X11Connection } from './x11/index.js';

/** Which mirrored window holds an object (LinuxDesktop asks its live mirrors). */
export interface WindowOfObject {
  /** The window whose mirror holds the object itself, if any. */
  holding(bus: string, path: string): number | undefined;
  /** The window whose mirror holds the nearest of the object's ancestors, asked of its app; undefined for none. */
  above(bus: string, path: string): Promise<number | undefined>;
}

/** Objects remembered per watch for changedWindows(): far more than one action changes. */
const MAX_CHANGED_OBJECTS = 4096;
/** Objects no mirror holds that changedWindows() places by their ancestors, the first heard: each costs a walk up its parents. */
const MAX_PLACED_OBJECTS = 16;

/** Events that change no window's content: activation follows focus between windows, boxes follow layout. */
function changesContent(event: AccessibilityEvent): boolean {
  if (event.kind === 'Activate' || event.kind === 'Deactivate' || event.kind === 'BoundsChanged') return false;
  return !(event.kind === 'StateChanged' && (event.detail === 'active' || event.detail === 'focused'));
}

/** A window's title as the window list reads it. */
const titleProperties = ['_NET_WM_NAME', 'WM_NAME'];

/**
 * Wakes `changes` ('windows') when a client window's title changes: PropertyChange is selected on every window of the
 * client list, and on those that join it (`follow`, called when the list changes). A wait for a title then needs no
 * app's events (which a busy app sends by the hundred, and each had the window list read again).
 */
function watchTitles(x: X11Connection, changes: NextChange<ChangeReason>): { follow: () => Promise<void>; stop: () => void } {
  const atoms = x.atoms(titleProperties).then((named) => new Set(Object.values(named)));
  let titleAtoms: ReadonlySet<number> = new Set();
  const released = new Map<number, Promise<() => Promise<void>>>();
  let stopped = false;
  const offEvents = x.onEvent((event) => {
    if (event.name === 'PropertyNotify' && titleAtoms.has(event.atom) && released.has(event.window)) changes.notify('windows', true);
  });
  const follow = async () => {
    // No window is selected before its title's atoms are known, so no change of a title passes unrecognised.
    titleAtoms = await atoms;
    const clients = (await x.getWindowList(x.screen.root, '_NET_CLIENT_LIST').catch(() => null)) ?? [];
    for (const window of clients) {
      if (stopped || released.has(window)) continue;
      // A window gone before it was selected has no title to change.
      released.set(window, selectWindowProperties(x, window).catch(() => async () => undefined));
    }
    await Promise.all(released.values());
  };
  return {
    follow,
    stop: () => {
      stopped = true;
      offEvents();
      for (const release of released.values()) void release.then((done) => done());
    },
  };
}

export interface WatchOptions {
  /** Wake on a change of any client window's title too (as 'windows'). */
  titles?: boolean;
}

export async function watchProcessChanges(client: AtspiClient, x: X11Connection, pid: number, windowOf: WindowOfObject, options: WatchOptions = {}): Promise<ChangeWatch> {
  const changes = new NextChange<ChangeReason>();
  const changed = new Map<string, { bus: string; path: string }>();

  const titles = options.titles ? watchTitles(x, changes) : undefined;
  const [offList, offStacking] = await Promise.all([
    onRootPropertyChange(x, ['_NET_CLIENT_LIST'], () => {
      changes.notify('windows', true);
      // A window it cannot select is one gone meanwhile; the next change of the list follows the rest.
      void titles?.follow().catch(() => undefined);
    }),
    // The stacking order's change is not one of content: foreground input's activation does it.
    onRootPropertyChange(x, ['_NET_CLIENT_LIST_STACKING'], () => changes.notify('windows', false)),
  ]);
  const offWindows = () => {
    offList();
    offStacking();
    titles?.stop();
  };
  // The list is followed from here on, so a window that joins it after this first reading is followed too.
  await titles?.follow().catch((error: unknown) => {
    offWindows();
    throw error;
  });
  // Process 0 is none: the watch is on the window list alone.
  if (pid === 0) return watchOf(changes, changed, windowOf, 0, offWindows);
  let offEvents: () => void;
  try {
    // A bus name's pid is asked of the bus daemon once and remembered, so later events pass without a round trip.
    offEvents = await client.events.listen((event) => {
      client.pidOf(event.sender).then(
        (sender) => {
          if (sender !== pid) return;
          const content = changesContent(event);
          if (content && changed.size < MAX_CHANGED_OBJECTS) changed.set(`${event.sender} ${event.path}`, { bus: event.sender, path: event.path });
          changes.notify('accessibility', content);
        },
        () => undefined,
      );
    });
  } catch (error) {
    offWindows();
    throw error;
  }

  return watchOf(changes, changed, windowOf, pid, () => {
    offWindows();
    offEvents();
  });
}

function watchOf(changes: NextChange<ChangeReason>, changed: Map<string, { bus: string; path: string }>, windowOf: WindowOfObject, pid: number, stop: () => void): ChangeWatch {
  let closed = false;
  return {
    // The process's state is its main thread's, the one a toolkit's event loop runs on: R is running or runnable.
    atWork: () => pid > 0 && statFields(pid)?.[0] === 'R',
    get lastChangeAt() {
      return changes.lastChangeAt;
    },
    async changedWindows() {
      const windows = new Set<number>();
      const unheld: { bus: string; path: string }[] = [];
      for (const object of changed.values()) {
        const window = windowOf.holding(object.bus, object.path);
        if (window !== undefined) windows.add(window);
        else unheld.push(object);
      }
      // An object a mirror does not hold may still be in a mirrored window: GTK3 keeps a tree view's hidden column's
      // header out of the reading, and GNOME System Monitor's Preferences, ticking "Status", showed that header in the
      // main window with no word of the main window changing.
      const placed = await Promise.all(unheld.slice(0, MAX_PLACED_OBJECTS).map((object) => windowOf.above(object.bus, object.path)));
      for (const window of placed) if (window !== undefined) windows.add(window);
      return [...windows];
    },
    next: (timeoutMs) => changes.next(timeoutMs),
    close() {
      if (closed) return;
      closed = true;
      changes.close();
      stop();
    },
  };
}
