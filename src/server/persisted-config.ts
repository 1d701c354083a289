import { statSync } from 'node:fs';
import { ConfigStore, type DriverConfig } from '../tools/state/config-store.js';

function fileStamp(path: string): string {
  try {
    const stat = statSync(path);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return 'missing';
  }
}

/**
 * The configuration of a session that owns the global default file ($XDG_CONFIG_HOME/cup-driver/config.json).
 * That file is shared with other processes (an in-process `call --no-daemon`, a daemon for another display),
 * so a long-lived session re-reads it whenever it changed on disk instead of serving a value someone has
 * since replaced; a one-shot process sees exactly what it saw before this class existed.
 */
export class PersistedConfigStore extends ConfigStore {
  private current: ConfigStore;
  private stamp: string;

  constructor(private readonly path: string) {
    super();
    this.stamp = fileStamp(path);
    this.current = new ConfigStore({ readFrom: path, writeTo: path });
  }

  override get(): DriverConfig {
    this.reloadIfChanged();
    return this.current.get();
  }

  override set(update: Partial<DriverConfig>): DriverConfig {
    this.reloadIfChanged();
    const values = this.current.set(update);
    this.stamp = fileStamp(this.path);
    return values;
  }

  private reloadIfChanged(): void {
    const stamp = fileStamp(this.path);
    if (stamp === this.stamp) return;
    this.current = new ConfigStore({ readFrom: this.path, writeTo: this.path });
    this.stamp = stamp;
  }
}
