import { ConfigStore } from './config-store.js';
import { ImageMappings } from './image-mappings.js';
import { SessionResources } from './session-resources.js';
import { SnapshotStore } from './snapshot-store.js';

/** State that lives between calls of one session: configuration, element snapshots, image mappings, and what it owns. */
export class SessionState {
  readonly snapshots = new SnapshotStore();
  readonly images = new ImageMappings();
  /** How long the last reading of each window (by id) for an action's diff took, and when: a slow one is not repeated for a while. */
  readonly diffReadMs = new Map<number, { ms: number; at: number }>();
  /** What the session owns beyond this state (terminals, a held button, its cursor, a recording), undone when it ends. */
  readonly resources = new SessionResources();

  constructor(readonly config: ConfigStore = new ConfigStore()) {}
}
