// What happened in a terminal session, newest last, in a ring of fixed size.

export const EVENT_KINDS = ['output', 'title', 'bell', 'exit', 'resize', 'frame', 'program', 'protocol_error'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export interface TerminalEvent {
  /** Position in the session's event stream, starting at 1; gaps mean older events fell out of the ring. */
  n: number;
  kind: EventKind;
  /** Milliseconds since the epoch. */
  at: number;
  data: Record<string, unknown>;
}

export const EVENT_CAPACITY = 1000;
/** Output events keep at most this much text, so the ring stays small however chatty the program is. */
const OUTPUT_TEXT_LIMIT = 4096;

export class EventRing {
  private readonly slots: (TerminalEvent | undefined)[];
  private next = 0;
  private count = 0;
  private lastN = 0;

  constructor(readonly capacity = EVENT_CAPACITY) {
    this.slots = new Array(capacity);
  }

  push(kind: EventKind, data: Record<string, unknown>): TerminalEvent {
    let stored = data;
    if (kind === 'output' && typeof data.text === 'string' && data.text.length > OUTPUT_TEXT_LIMIT) {
      stored = { ...data, text: data.text.slice(0, OUTPUT_TEXT_LIMIT), truncated: true };
    }
    const event: TerminalEvent = { n: ++this.lastN, kind, at: Date.now(), data: stored };
    this.slots[this.next] = event;
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
    return event;
  }

  get size(): number {
    return this.count;
  }

  /** The newest event, or the newest of one kind. */
  last(kind?: EventKind): TerminalEvent | undefined {
    for (let offset = 1; offset <= this.count; offset++) {
      const event = this.slots[(this.next - offset + this.capacity) % this.capacity]!;
      if (!kind || event.kind === kind) return event;
    }
    return undefined;
  }

  /** Events oldest first. */
  all(): TerminalEvent[] {
    const events: TerminalEvent[] = [];
    for (let offset = this.count; offset >= 1; offset--) events.push(this.slots[(this.next - offset + this.capacity) % this.capacity]!);
    return events;
  }
}
