import { ConfigStore } from './config-store.js';
import { ImageMappings } from './image-mappings.js';
import { SnapshotStore } from './snapshot-store.js';

/** State that lives between calls of one session: configuration, element snapshots and image mappings. */
export class SessionState {
  readonly snapshots = new SnapshotStore();
  readonly images = new ImageMappings();
  /** How long the last reading of each window (by id) for an action's diff took: a slow one is not repeated by default. */
  readonly diffReadMs = new Map<number, number>();

  constructor(readonly config: ConfigStore = new ConfigStore()) {}
}
