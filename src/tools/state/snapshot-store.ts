import { randomBytes } from 'node:crypto';
import { WindowNumbering } from '../../cup/index.js';
import type { SnapshotElement, SnapshotRef } from '../../platform/targets.js';

/** Element indices point at the backend's handle of the object each was read from, never at "the Nth node of a new walk". */
export interface WindowSnapshot extends SnapshotRef {
  createdAt: number;
  /** In document order (the window's indices are not, once elements came and went). */
  elements: Map<number, SnapshotElement>;
}

// Windows whose numbering is kept beyond those that have a snapshot in the store (a window read and closed since).
const NUMBERED_WINDOWS = 256;

/**
 * Keeps recent snapshots per session; a bare element_index resolves against the latest one for its window.
 * Every snapshot of a window in the session is numbered by one WindowNumbering, so an index means the same
 * element in all of them.
 */
export class SnapshotStore {
  private readonly byId = new Map<string, WindowSnapshot>();
  private readonly latestByWindow = new Map<string, string>();
  private readonly numberings = new Map<string, WindowNumbering>();

  constructor(private readonly capacity = 64) {}

  add(pid: number, windowId: number, elements: SnapshotElement[]): WindowSnapshot {
    const snapshot: WindowSnapshot = {
      id: `s${Date.now().toString(36)}${randomBytes(3).toString('hex')}`,
      pid,
      windowId,
      createdAt: Date.now(),
      elements: new Map(elements.map((element) => [element.index, element])),
    };
    this.byId.set(snapshot.id, snapshot);
    this.latestByWindow.set(windowKey(pid, windowId), snapshot.id);
    while (this.byId.size > this.capacity) {
      const oldest = this.byId.keys().next().value as string;
      this.byId.delete(oldest);
    }
    return snapshot;
  }

  /** The numbering of a window's readings in this session (made on first use). */
  numbering(pid: number, windowId: number): WindowNumbering {
    const key = windowKey(pid, windowId);
    const numbering = this.numberings.get(key) ?? new WindowNumbering();
    // Deleted and set again: the map's order is the order of use, the least recently used first.
    this.numberings.delete(key);
    this.numberings.set(key, numbering);
    if (this.numberings.size > NUMBERED_WINDOWS) {
      // A window that still has a snapshot keeps its numbering: forgetting it would let new numbers reach old indices.
      const unused = [...this.numberings.keys()].find((other) => other !== key && !this.hasSnapshot(other));
      if (unused !== undefined) this.numberings.delete(unused);
    }
    return numbering;
  }

  /** Whether the window's numbering ever gave out this index (without making one). */
  issued(pid: number, windowId: number, index: number): boolean {
    return this.numberings.get(windowKey(pid, windowId))?.issued(index) ?? false;
  }

  get(id: string): WindowSnapshot | undefined {
    return this.byId.get(id);
  }

  /** The latest snapshot of a window, whatever its pid (for calls that name only the window). */
  latestForWindow(windowId: number): WindowSnapshot | undefined {
    let found: WindowSnapshot | undefined;
    for (const snapshot of this.byId.values()) if (snapshot.windowId === windowId) found = snapshot;
    return found;
  }

  /** The latest snapshot of any window of a process (to name what a call naming a dead pid meant). */
  latestForPid(pid: number): WindowSnapshot | undefined {
    let found: WindowSnapshot | undefined;
    for (const snapshot of this.byId.values()) if (snapshot.pid === pid) found = snapshot;
    return found;
  }

  /** The windows of a process that have a snapshot in this session, the latest read first. */
  windowsReadOf(pid: number): number[] {
    const windows = new Set<number>();
    for (const snapshot of [...this.byId.values()].reverse()) if (snapshot.pid === pid) windows.add(snapshot.windowId);
    return [...windows];
  }

  latest(pid: number, windowId: number): WindowSnapshot | undefined {
    const id = this.latestByWindow.get(windowKey(pid, windowId));
    return id === undefined ? undefined : this.byId.get(id);
  }

  private hasSnapshot(key: string): boolean {
    const id = this.latestByWindow.get(key);
    return id !== undefined && this.byId.has(id);
  }
}

function windowKey(pid: number, windowId: number): string {
  return `${pid}:${windowId}`;
}
