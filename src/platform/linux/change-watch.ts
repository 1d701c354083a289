// Waking a wait when a process changes: its AT-SPI events (children, names, values, states, text, windows)
// and the window manager's client list on the root window (a window of any app opened or closed).
import type { ChangeReason, ChangeWatch } from '../desktop.js';
import type { AtspiClient } from './atspi/client.js';
import type { AccessibilityEvent } from './atspi/event-monitor.js';
import { onRootPropertyChange } from './input/root-properties.js';
import { NextChange } from './next-change.js';
import type { X11Connection } from './x11/index.js';

/** Which mirrored window holds an object, if any (LinuxDesktop asks its live mirrors). */
export type WindowOfObject = (bus: string, path: string) => number | undefined;

/** Objects remembered per watch for changedWindows(): far more than one action changes. */
const MAX_CHANGED_OBJECTS = 4096;

/** Events that change no window's content: activation follows focus between windows, boxes follow layout. */
function changesContent(event: AccessibilityEvent): boolean {
  if (event.kind === 'Activate' || event.kind === 'Deactivate' || event.kind === 'BoundsChanged') return false;
  return !(event.kind === 'StateChanged' && (event.detail === 'active' || event.detail === 'focused'));
}

export async function watchProcessChanges(client: AtspiClient, x: X11Connection, pid: number, windowOf: WindowOfObject): Promise<ChangeWatch> {
  const changes = new NextChange<ChangeReason>();
  const changed = new Map<string, { bus: string; path: string }>();
  let closed = false;

  const [offList, offStacking] = await Promise.all([
    // The stacking order's change is not one of content: foreground input's activation does it.
    onRootPropertyChange(x, ['_NET_CLIENT_LIST'], () => changes.notify('windows', true)),
    onRootPropertyChange(x, ['_NET_CLIENT_LIST_STACKING'], () => changes.notify('windows', false)),
  ]);
  const offWindows = () => {
    offList();
    offStacking();
  };
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

  return {
    get lastChangeAt() {
      return changes.lastChangeAt;
    },
    changedWindows() {
      const windows = new Set<number>();
      for (const { bus, path } of changed.values()) {
        const window = windowOf(bus, path);
        if (window !== undefined) windows.add(window);
      }
      return [...windows];
    },
    next: (timeoutMs) => changes.next(timeoutMs),
    close() {
      if (closed) return;
      closed = true;
      changes.close();
      offWindows();
      offEvents();
    },
  };
}
