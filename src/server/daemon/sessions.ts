/** How many sessions the daemon keeps, and how long an unused one lives. */
export interface SessionLimits {
  /** Beyond this many, the least recently used idle session is dropped. */
  maxSessions: number;
  /** A session unused for this long is dropped. */
  idleMs: number;
}

export const defaultSessionLimits: SessionLimits = { maxSessions: 64, idleMs: 30 * 60_000 };

interface Entry<T> {
  value: T;
  lastUsed: number;
  /** Calls running with this session; a busy session is never dropped. */
  busy: number;
}

/**
 * The daemon's sessions by id, least recently used first. Each holds a context whose snapshots let a
 * bare element_index in a later call (from another connection, another process) resolve. A session with
 * a call running is never dropped (the cap may be exceeded meanwhile); a dropped one is handed to
 * `onDrop` so what it started (terminals) can be stopped.
 */
export class SessionRegistry<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly create: (id: string) => T,
    private readonly limits: SessionLimits = defaultSessionLimits,
    private readonly onDrop: (id: string, value: T) => void = () => {},
    private readonly now: () => number = Date.now,
  ) {}

  /** The session with this id, created on first use, marked busy until release(). */
  acquire(id: string): T {
    this.dropExpired();
    let entry = this.entries.get(id);
    if (entry) {
      // Re-inserting moves the entry to the end: the Map's order is the LRU order.
      this.entries.delete(id);
    } else {
      entry = { value: this.create(id), lastUsed: 0, busy: 0 };
    }
    entry.lastUsed = this.now();
    entry.busy++;
    this.entries.set(id, entry);
    this.dropOverCap();
    return entry.value;
  }

  /** The call that acquired the session finished; its idle time starts now. */
  release(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    entry.busy = Math.max(0, entry.busy - 1);
    entry.lastUsed = this.now();
  }

  /** Forgets the session at once (its owner ended it), busy or not; the value is returned so what it started can be stopped. */
  remove(id: string): T | undefined {
    const entry = this.entries.get(id);
    this.entries.delete(id);
    return entry?.value;
  }

  has(id: string): boolean {
    this.dropExpired();
    return this.entries.has(id);
  }

  /** Ids and idle times, least recently used first. */
  list(): { id: string; idleMs: number; busy: boolean }[] {
    this.dropExpired();
    const now = this.now();
    return [...this.entries].map(([id, entry]) => ({ id, idleMs: entry.busy > 0 ? 0 : now - entry.lastUsed, busy: entry.busy > 0 }));
  }

  get size(): number {
    this.dropExpired();
    return this.entries.size;
  }

  private drop(id: string, entry: Entry<T>): void {
    this.entries.delete(id);
    this.onDrop(id, entry.value);
  }

  private dropExpired(): void {
    const cutoff = this.now() - this.limits.idleMs;
    for (const [id, entry] of [...this.entries]) {
      if (entry.busy === 0 && entry.lastUsed <= cutoff) this.drop(id, entry);
    }
  }

  private dropOverCap(): void {
    for (const [id, entry] of [...this.entries]) {
      if (this.entries.size <= this.limits.maxSessions) return;
      if (entry.busy === 0) this.drop(id, entry);
    }
  }
}
