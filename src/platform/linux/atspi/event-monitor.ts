import { performance } from 'node:perf_hooks';
import type { DBusSignal } from '../dbus/index.js';
import type { AtspiClient } from './client.js';
import { afterIoTurn } from '../next-change.js';

/** One AT-SPI event an application emitted, e.g. StateChanged "checked" 1 on a checkbox. */
export interface AccessibilityEvent {
  sender: string;
  path: string;
  /** The signal, e.g. "StateChanged", "PropertyChange", "TextChanged", "ChildrenChanged". */
  kind: string;
  /** The event's detail string, e.g. "checked", "accessible-name", "insert". */
  detail: string;
  detail1: number;
  detail2: number;
  data: unknown;
}

/** The path of the object a children-changed event's data names (a bus name and path), if it names one. */
export function childPath(data: unknown): string | undefined {
  return Array.isArray(data) && typeof data[1] === 'string' ? data[1] : undefined;
}

/** What we ask applications to report. Toolkits only emit the events some client registered for. */
const registeredEvents = [
  'object:state-changed',
  'object:property-change',
  'object:children-changed',
  'object:text-changed',
  'object:selection-changed',
  'object:value-changed',
  // A table's rows or columns put in another order, or its model replaced (a list re-sorted by its header): the
  // only event GTK3 sends for it, and atk-bridge sends an event only when some client has registered for it.
  'object:row-reordered',
  'object:column-reordered',
  'object:model-changed',
  // A Java label's new text (ToolkitQuirks.renamesAsVisibleData), which the bridge announces no other way.
  'object:visible-data-changed',
  'window:create',
  'window:destroy',
  'window:activate',
  // A page loaded or reloaded in its document (Blink, Gecko): what the document holds was replaced.
  'document:load-complete',
  'document:reload',
];

/** An event as heard (without its data), with when (performance.now()). */
export interface HeardEvent {
  at: number;
  event: AccessibilityEvent;
}

/**
 * How long each application's events are kept once heard, in ms, and how many at most (a hundred typed keys send
 * four hundred): enough to tell what an app was changing on its own just before an action (see own-changes.ts).
 */
const keptMs = 5000;
const keptEvents = 2000;
/** How many objects each application announced shown are remembered (see shownObjects). */
const keptShown = 16;
/** How many objects' announced CHECKED each application's are remembered (see announcedChecked). */
const keptChecked = 1000;

export interface EventRecorder {
  readonly events: readonly AccessibilityEvent[];
  /** Resolves when an event arrives (true) or after the timeout (false). */
  next(timeoutMs: number): Promise<boolean>;
  /** Forgets the events recorded so far: what is recorded from now on is what `events` holds. */
  startOver(): void;
  stop(): void;
}

/**
 * The applications' change notifications, used as evidence that an action did something. Registration
 * happens once per connection; the registry drops it when the connection closes.
 */
export class EventMonitor {
  private readonly recorders = new Set<{ bus: string; events: AccessibilityEvent[]; wake?: () => void }>();
  private readonly listeners = new Set<(event: AccessibilityEvent) => void>();
  /** Each application's events of the last keptMs, oldest first (pruned in batches, not on every event). */
  private readonly kept = new Map<string, HeardEvent[]>();
  private lastSweep = 0;
  private registered?: Promise<void>;
  /** Each application's object that last said it took the keyboard focus and has not said it lost it since, by path. */
  private readonly focus = new Map<string, string>();
  /** Each application's objects that last said they were shown and have not said they were hidden since, newest last. */
  private readonly shown = new Map<string, string[]>();
  /** Each application's objects' CHECKED as they last announced it, by path, least recently announced first. */
  private readonly checked = new Map<string, Map<string, boolean>>();

  constructor(private readonly client: AtspiClient) {}

  private ensureRegistered(): Promise<void> {
    this.registered ??= (async () => {
      this.client.bus.onSignal((signal) => this.dispatch(signal));
      await this.client.bus.addMatch("type='signal',interface='org.a11y.atspi.Event.Object'");
      await this.client.bus.addMatch("type='signal',interface='org.a11y.atspi.Event.Window'");
      await this.client.bus.addMatch("type='signal',interface='org.a11y.atspi.Event.Document'");
      await Promise.all(
        registeredEvents.map((event) =>
          this.client.bus.call({
            destination: 'org.a11y.atspi.Registry',
            path: '/org/a11y/atspi/registry',
            interface: 'org.a11y.atspi.Registry',
            member: 'RegisterEvent',
            signature: 'sass',
            body: [event, [], ''],
          }),
        ),
      );
    })();
    this.registered.catch(() => {
      this.registered = undefined;
    });
    return this.registered;
  }

  private dispatch(signal: DBusSignal): void {
    if (!signal.interface.startsWith('org.a11y.atspi.Event.')) return;
    // Other toolkits send it for redraws that change no name (a scrolled document, a cell's new look): dropped, it
    // neither wakes a wait for an action's sign nor has objects read back for nothing. An app whose toolkit is not
    // known yet has not been read or acted on, so none of its events is awaited.
    if (signal.member === 'VisibleDataChanged' && !this.client.knownQuirksOf(signal.sender)?.renamesAsVisibleData) return;
    const [detail, detail1, detail2, data] = signal.body as [string, number, number, { value: unknown } | undefined];
    const event: AccessibilityEvent = {
      sender: signal.sender,
      path: signal.path,
      kind: signal.member,
      detail: String(detail ?? ''),
      detail1: Number(detail1 ?? 0),
      detail2: Number(detail2 ?? 0),
      data: data?.value,
    };
    this.keep(event);
    // What is kept of an object for its life (object-facts.ts: its role, interfaces, a heading's level) is stale once
    // it announces a new role: LibreOffice turns a paragraph into a heading in place when a heading style is applied,
    // and the window's mirror kept reading "Quarterly Report", styled Heading 1, as a paragraph with no level.
    if (event.kind === 'PropertyChange' && event.detail === 'accessible-role') this.client.facts.forget({ bus: event.sender, path: event.path });
    this.noteFocus(event);
    this.noteChecked(event);
    this.client.windowRoots.note(event);
    for (const listener of this.listeners) listener(event);
    for (const recorder of this.recorders) {
      if (recorder.bus !== signal.sender) continue;
      recorder.events.push(event);
      recorder.wake?.();
    }
  }

  private keep(event: AccessibilityEvent): void {
    const at = performance.now();
    let list = this.kept.get(event.sender);
    if (!list) this.kept.set(event.sender, (list = []));
    // Without its data (a terminal's inserted text can be long): which object changed how is what is asked of it.
    list.push({ at, event: { ...event, data: undefined } });
    if (list.length > 2 * keptEvents || list[0]!.at < at - 2 * keptMs) this.kept.set(event.sender, list.filter((heard) => heard.at >= at - keptMs).slice(-keptEvents));
    // Applications that went quiet (or quit) are dropped now and then.
    if (at - this.lastSweep > 2 * keptMs) {
      this.lastSweep = at;
      for (const [sender, events] of this.kept) if (events.at(-1)!.at < at - keptMs) this.kept.delete(sender);
    }
  }

  private noteFocus(event: AccessibilityEvent): void {
    if (event.kind === 'StateChanged' && event.detail === 'showing') this.noteShown(event);
    if (event.kind !== 'StateChanged' || event.detail !== 'focused') return;
    if (event.detail1 !== 0) this.focus.set(event.sender, event.path);
    else if (this.focus.get(event.sender) === event.path) this.focus.delete(event.sender);
  }

  private noteChecked(event: AccessibilityEvent): void {
    const gone = (event.kind === 'StateChanged' && event.detail === 'defunct' && event.detail1 !== 0) || (event.kind === 'ChildrenChanged' && event.detail.startsWith('remove'));
    if (event.kind === 'StateChanged' && event.detail === 'checked') {
      let paths = this.checked.get(event.sender);
      if (!paths) this.checked.set(event.sender, (paths = new Map()));
      paths.delete(event.path);
      paths.set(event.path, event.detail1 !== 0);
      if (paths.size > keptChecked) paths.delete(paths.keys().next().value!);
    } else if (gone) {
      // A destroyed object's path may be given to another (Qt 5 does), which announced nothing.
      const removed = event.kind === 'ChildrenChanged' ? childPath(event.data) : event.path;
      if (removed) this.checked.get(event.sender)?.delete(removed);
    }
  }

  /**
   * Whether the object last announced itself checked (true) or unchecked (false), as heard since this connection
   * registered for events (`follow`); undefined when it announced neither. See announced-states.ts for why it is asked.
   */
  announcedChecked(bus: string, path: string): boolean | undefined {
    return this.checked.get(bus)?.get(path);
  }

  /**
   * The path of the application's object that last announced it took the keyboard focus and has not announced losing
   * it, as heard since this connection registered for events (`follow`); a walk may not reach it (see focus-outside-tree.ts).
   */
  focusedIn(bus: string): string | undefined {
    return this.focus.get(bus);
  }

  private noteShown(event: AccessibilityEvent): void {
    const list = (this.shown.get(event.sender) ?? []).filter((path) => path !== event.path);
    if (event.detail1 !== 0) list.push(event.path);
    this.shown.set(event.sender, list.slice(-keptShown));
  }

  /**
   * The paths of the application's objects that announced they were shown and not since that they were hidden, newest
   * first, at most keptShown: Qt lists its popup menus as no object's children, and announces them only so.
   */
  shownObjects(bus: string): string[] {
    return [...(this.shown.get(bus) ?? [])].reverse();
  }

  /** Every application's object that has the focus as its events last said, as [bus, path] (see focusedIn). */
  focusedObjects(): [string, string][] {
    return [...this.focus];
  }

  /** Registers for the applications' events (once): what they announce from then on is heard and kept. */
  follow(): Promise<void> {
    return this.ensureRegistered();
  }

  /**
   * The application's events heard from `from` until before `to` (performance.now() times), oldest first; only
   * those of the last few seconds are kept, and only since this connection first registered for events.
   */
  heard(bus: string, from: number, to: number): HeardEvent[] {
    return (this.kept.get(bus) ?? []).filter((heard) => heard.at >= from && heard.at < to);
  }

  /**
   * Hears every application's events as they arrive (waits filter them by process, which a bus name only
   * tells after a question to the bus daemon); returns the function that stops listening.
   */
  async listen(listener: (event: AccessibilityEvent) => void): Promise<() => void> {
    await this.ensureRegistered();
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts recording one application's events; the first call also registers for them (a round trip). */
  async record(bus: string): Promise<EventRecorder> {
    await this.ensureRegistered();
    const recorder: { bus: string; events: AccessibilityEvent[]; wake?: () => void } = { bus, events: [] };
    this.recorders.add(recorder);
    return {
      events: recorder.events,
      next: (timeoutMs) =>
        new Promise<boolean>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            recorder.wake = undefined;
            resolve(true);
          };
          // Events that came while this process was busy are read first, or a pause would be seen where the app went on.
          const timer = afterIoTurn(() => {
            if (recorder.wake !== wake) return;
            recorder.wake = undefined;
            resolve(false);
          }, timeoutMs);
          recorder.wake = wake;
        }),
      startOver: () => void recorder.events.splice(0),
      stop: () => {
        this.recorders.delete(recorder);
        recorder.wake?.();
      },
    };
  }
}
