import { ConfigStore } from './config-store.js';
import { ImageMappings } from './image-mappings.js';
import { SnapshotStore } from './snapshot-store.js';

/** State that lives between calls of one session: configuration, element snapshots and image mappings. */
export class SessionState {
  readonly snapshots = new SnapshotStore();
  readonly images = new ImageMappings();

  constructor(readonly config: ConfigStore = new ConfigStore()) {}
}
