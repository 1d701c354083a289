import { randomBytes } from 'node:crypto';
import type { SnapshotElement, SnapshotRef } from '../../platform/targets.js';

/** Element indices point at the backend's handle of the object each was read from, never at "the Nth node of a new walk". */
export interface WindowSnapshot extends SnapshotRef {
  createdAt: number;
  elements: Map<number, SnapshotElement>;
}

/** Keeps recent snapshots per session; a bare element_index resolves against the latest one for its window. */
export class SnapshotStore {
  private readonly byId = new Map<string, WindowSnapshot>();
  private readonly latestByWindow = new Map<string, string>();

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

  get(id: string): WindowSnapshot | undefined {
    return this.byId.get(id);
  }

  /** The latest snapshot of a window, whatever its pid (for calls that name only the window). */
  latestForWindow(windowId: number): WindowSnapshot | undefined {
    let found: WindowSnapshot | undefined;
    for (const snapshot of this.byId.values()) if (snapshot.windowId === windowId) found = snapshot;
    return found;
  }

  latest(pid: number, windowId: number): WindowSnapshot | undefined {
    const id = this.latestByWindow.get(windowKey(pid, windowId));
    return id === undefined ? undefined : this.byId.get(id);
  }
}

function windowKey(pid: number, windowId: number): string {
  return `${pid}:${windowId}`;
}
