/** How many sessions the daemon keeps, and how long an unused one lives. */
export interface SessionLimits {
  /** Beyond this many, the least recently used idle session is dropped. */
  maxSessions: number;
  /** A session unused for this long is dropped (unless start_session gave it an idle limit of its own). */
  idleMs: number;
}

export const defaultSessionLimits: SessionLimits = { maxSessions: 64, idleMs: 30 * 60_000 };

interface Entry<T> {
  value: T;
  lastUsed: number;
  /** Calls running with this session; a busy session is never dropped for idleness or the cap. */
  busy: number;
  /** This session's own idle limit (start_session's ttl_s), else the registry's. */
  idleMs?: number;
}

/** One session as list() reports it. */
export interface SessionEntry {
  id: string;
  idleMs: number;
  busy: boolean;
  /** How long it may stay idle before it is dropped. */
  idleLimitMs: number;
}

/**
 * The daemon's sessions by id, least recently used first. Each holds a context whose snapshots let a
 * bare element_index in a later call (from another connection, another process) resolve. A session with
 * a call running is never dropped for idleness or the cap (the cap may be exceeded meanwhile), only by
 * end(); a dropped one is handed to `onDrop` so what it owns (terminals, a held button, a recording) ends.
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

  /** Restarts the session's idle clock, and gives it an idle limit of its own when idleMs is given. */
  touch(id: string, idleMs?: number): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    if (idleMs !== undefined) entry.idleMs = idleMs;
    entry.lastUsed = this.now();
  }

  /** Drops the session now, busy or not; false when there was none. */
  end(id: string): boolean {
    const entry = this.entries.get(id);
    if (!entry) return false;
    this.drop(id, entry);
    return true;
  }

  /** The session's value without marking it used (acquire would). */
  peek(id: string): T | undefined {
    return this.entries.get(id)?.value;
  }

  has(id: string): boolean {
    this.dropExpired();
    return this.entries.has(id);
  }

  /** Ids, idle times and limits, least recently used first. */
  list(): SessionEntry[] {
    this.dropExpired();
    const now = this.now();
    return [...this.entries].map(([id, entry]) => ({
      id,
      idleMs: entry.busy > 0 ? 0 : now - entry.lastUsed,
      busy: entry.busy > 0,
      idleLimitMs: this.idleLimit(entry),
    }));
  }

  get size(): number {
    this.dropExpired();
    return this.entries.size;
  }

  /** Drops the sessions idle past their limit; returns how long until the next one would be (undefined: none idle). */
  sweep(): number | undefined {
    this.dropExpired();
    const now = this.now();
    let next: number | undefined;
    for (const entry of this.entries.values()) {
      if (entry.busy > 0) continue;
      const left = entry.lastUsed + this.idleLimit(entry) - now;
      next = next === undefined ? left : Math.min(next, left);
    }
    return next;
  }

  private idleLimit(entry: Entry<T>): number {
    return entry.idleMs ?? this.limits.idleMs;
  }

  private drop(id: string, entry: Entry<T>): void {
    this.entries.delete(id);
    this.onDrop(id, entry.value);
  }

  private dropExpired(): void {
    const now = this.now();
    for (const [id, entry] of [...this.entries]) {
      if (entry.busy === 0 && entry.lastUsed <= now - this.idleLimit(entry)) this.drop(id, entry);
    }
  }

  private dropOverCap(): void {
    for (const [id, entry] of [...this.entries]) {
      if (this.entries.size <= this.limits.maxSessions) return;
      if (entry.busy === 0) this.drop(id, entry);
    }
  }
}
