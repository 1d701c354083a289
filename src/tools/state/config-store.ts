import { readFileSync, statSync } from 'node:fs';
import { writeFileAtomically } from '../files.js';

export interface DriverConfig {
  /** Longest side of returned screenshots in pixels; 0 means no limit. */
  max_image_dimension: number;
}

export const defaultConfig: DriverConfig = { max_image_dimension: 1568 };

export interface ConfigStoreOptions {
  /** Start from the values persisted in this file (the global default), when it exists. */
  readFrom?: string;
  /** Persist every change to this file, atomically (the one-shot CLI path, so the next call starts from it). */
  writeTo?: string;
  /**
   * Re-read `readFrom` whenever it changed on disk. For a long-lived session that owns the global default
   * file: other processes (an in-process `call --no-daemon`, a daemon for another display) may replace it,
   * and serving a value someone has since replaced would be wrong.
   */
  followFile?: boolean;
}

/** The effective configuration of one session. */
export class ConfigStore {
  private values: DriverConfig;
  /** What the followed file looked like when last read or written. */
  private stamp?: string;

  constructor(private readonly options: ConfigStoreOptions = {}) {
    this.values = this.load();
  }

  get(): DriverConfig {
    this.reloadIfChanged();
    return { ...this.values };
  }

  set(update: Partial<DriverConfig>): DriverConfig {
    this.reloadIfChanged();
    this.values = { ...this.values, ...update };
    const path = this.options.writeTo;
    if (path) {
      writeFileAtomically(path, `${JSON.stringify(this.values, null, 2)}\n`, 0o600);
      if (this.options.followFile) this.stamp = fileStamp(path);
    }
    return { ...this.values };
  }

  private load(): DriverConfig {
    const path = this.options.readFrom;
    if (path && this.options.followFile) this.stamp = fileStamp(path);
    return { ...defaultConfig, ...(path ? readPersisted(path) : {}) };
  }

  private reloadIfChanged(): void {
    const path = this.options.readFrom;
    if (path && this.options.followFile && fileStamp(path) !== this.stamp) this.values = this.load();
  }
}

function fileStamp(path: string): string {
  try {
    const stat = statSync(path);
    return `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch {
    return 'missing';
  }
}

function readPersisted(path: string): Partial<DriverConfig> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`the config file ${path} is not valid JSON (${(error as Error).message}); fix or delete it`);
  }
  if (parsed === null || typeof parsed !== 'object') return {};
  const value = (parsed as Record<string, unknown>).max_image_dimension;
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? { max_image_dimension: value } : {};
}
