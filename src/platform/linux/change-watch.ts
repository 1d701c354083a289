// Waking a wait when a process changes: its AT-SPI events (children, names, values, states, text, windows)
// and the window manager's client list on the root window (a window of any app opened or closed).
import type { ChangeReason, ChangeWatch } from '../desktop.js';
import type { AtspiClient } from './atspi/client.js';
import type { AccessibilityEvent } from './atspi/event-monitor.js';
import { onRootPropertyChange } from './input/root-properties.js';
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
  let pending: ChangeReason | undefined;
  const changed = new Map<string, { bus: string; path: string }>();
  let wake: ((reason: ChangeReason | undefined) => void) | undefined;
  let closed = false;
  let lastChangeAt: number | undefined;
  /** `content`: a change of what the app shows, not of which window is active or on top (foreground input's own doing). */
  const signal = (reason: ChangeReason, content: boolean) => {
    if (closed) return;
    if (content) lastChangeAt = Date.now();
    if (wake) {
      const resolve = wake;
      wake = undefined;
      resolve(reason);
    } else pending ??= reason;
  };

  const [offList, offStacking] = await Promise.all([
    onRootPropertyChange(x, ['_NET_CLIENT_LIST'], () => signal('windows', true)),
    onRootPropertyChange(x, ['_NET_CLIENT_LIST_STACKING'], () => signal('windows', false)),
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
          signal('accessibility', content);
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
      return lastChangeAt;
    },
    changedWindows() {
      const windows = new Set<number>();
      for (const { bus, path } of changed.values()) {
        const window = windowOf(bus, path);
        if (window !== undefined) windows.add(window);
      }
      return [...windows];
    },
    next(timeoutMs) {
      if (pending !== undefined) {
        const reason = pending;
        pending = undefined;
        return Promise.resolve(reason);
      }
      if (closed) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          wake = undefined;
          resolve(undefined);
        }, Math.max(0, timeoutMs));
        wake = (reason) => {
          clearTimeout(timer);
          resolve(reason);
        };
      });
    },
    close() {
      if (closed) return;
      closed = true;
      offWindows();
      offEvents();
      const resolve = wake;
      wake = undefined;
      resolve?.(undefined);
    },
  };
}
