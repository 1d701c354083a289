import { setImmediate as endOfTurn } from 'node:timers/promises';

interface Reading<T> {
  /** When the read was begun (performance.now()): a call made before that sees everything that happened before it. */
  startedAt?: number;
  result: Promise<T>;
  /** The read the calls made while this one runs share; it starts when this one ends. */
  next?: Reading<T>;
}

/**
 * Lets concurrent identical reads (several clients reading one window) share work without ever answering
 * with a state older than the call: a read starts at the end of the event-loop turn it was asked for in, so
 * every call made in that turn (a tool's parallel reads, requests handled in one pass) shares it; a call that
 * arrives while a read of its key runs waits for that read to end and shares the next one, which starts
 * after every call waiting for it arrived. A caller that says when its call came in (`since`, before the
 * work that led it here) also joins a read under way that began after that. However many calls come at once,
 * a key costs at most two reads back to back instead of one per call.
 */
export class ReadCoalescer<T> {
  /** Per key: the read a call made now joins, or whose successor it joins when it has started. */
  private readonly reads = new Map<string, Reading<T>>();

  /**
   * `unanswered`: whether a read's result says its source did not answer it in time (a hung or stopped app). The calls
   * waiting for the next read take that result instead: the source let it run out while they waited, so it is news
   * as fresh as theirs, and a read of their own would wait out the same timeout again (a plan's step after a
   * wait_for that gave up on its look waited for that look's timeout, then for its own).
   */
  constructor(private readonly unanswered: (result: T) => boolean = () => false) {}

  run(key: string, read: () => Promise<T>, since?: number): Promise<T> {
    let reading = this.reads.get(key);
    if (!reading) {
      reading = this.schedule(key, read, undefined);
      this.reads.set(key, reading);
    } else if (reading.startedAt !== undefined && !(since !== undefined && reading.startedAt >= since)) {
      reading.next ??= this.schedule(key, read, reading.result);
      reading = reading.next;
    }
    return reading.result;
  }

  /** A read that begins at the end of the turn after `after` settles. */
  private schedule(key: string, read: () => Promise<T>, after: Promise<T> | undefined): Reading<T> {
    const reading: Reading<T> = {
      result: (after ?? Promise.resolve(undefined))
        .then(
          (previous) => (previous !== undefined && this.unanswered(previous) ? { previous } : undefined),
          noop,
        )
        .then(async (shared) => {
          if (shared) return shared.previous;
          await endOfTurn();
          reading.startedAt = performance.now();
          return read();
        }),
    };
    const finished = () => {
      if (this.reads.get(key) !== reading) return;
      // The calls that came during this read get one that starts after them; until it does, more may join it.
      if (reading.next) this.reads.set(key, reading.next);
      else this.reads.delete(key);
    };
    reading.result.then(finished, finished);
    return reading;
  }
}

function noop(): void {}
