import { randomBytes } from 'node:crypto';

/** Where an element index points: the accessibility object it was read from, never "the Nth node of a new walk". */
export interface ElementRecord {
  index: number;
  bus: string;
  path: string;
  atspiRole: number;
  role: string;
  name: string;
  bounds?: { x: number; y: number; w: number; h: number };
}

export interface WindowSnapshot {
  id: string;
  pid: number;
  windowId: number;
  createdAt: number;
  elements: Map<number, ElementRecord>;
}

/** Keeps recent snapshots per session; a bare element_index resolves against the latest one for its window. */
export class SnapshotStore {
  private readonly byId = new Map<string, WindowSnapshot>();
  private readonly latestByWindow = new Map<string, string>();

  constructor(private readonly capacity = 64) {}

  add(pid: number, windowId: number, elements: ElementRecord[]): WindowSnapshot {
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
