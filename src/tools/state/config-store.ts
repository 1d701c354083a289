import { readFileSync, statSync } from 'node:fs';
import { writeFileAtomically } from '../files.js';

export interface DriverConfig {
  /** Longest side of returned screenshots in pixels; 0 means no limit. */
  max_image_dimension: number;
  /** How long text put on the clipboard stays pasteable after the driver's process exits (a keeper process holds it), in seconds. */
  clipboard_keep_s: number;
  /** A mouse button held by mouse_button_down is released by itself after this many seconds. */
  held_button_max_s: number;
  /**
   * How long an app must be quiet after an action before the diff's after-reading (milliseconds): changes an
   * app makes a moment later (a search field's delayed re-filter) then land in the diff. 0 (the default) reads
   * right after the action's own confirmation: waiting cost every action a quarter second.
   */
  diff_settle_ms: number;
}

export const defaultConfig: DriverConfig = { max_image_dimension: 1568, clipboard_keep_s: 1800, held_button_max_s: 60, diff_settle_ms: 0 };

/** Each key's accepted range (whole numbers); a persisted value outside it is ignored, as if unset. */
export const configRanges: { [K in keyof DriverConfig]: { min: number; max: number } } = {
  max_image_dimension: { min: 0, max: 65_535 },
  clipboard_keep_s: { min: 0, max: 7 * 24 * 3600 },
  held_button_max_s: { min: 1, max: 3600 },
  diff_settle_ms: { min: 0, max: 1500 },
};

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

  /** Whether changes go to the global default file (the CLI's anonymous session) or stay in this session. */
  get persists(): boolean {
    return this.options.writeTo !== undefined;
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
      writeFileAtomically(path, `${JSON.stringify(this.values, null, 2)}\n`, { mode: 0o600, replace: 'any' });
      if (this.options.followFile) this.stamp = fileStamp(path);
    }
    return { ...this.values };
  }

  /** Back to the persisted defaults: a session's overrides are dropped (end_session). */
  reset(): void {
    this.values = this.load();
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
  const persisted: Partial<DriverConfig> = {};
  for (const key of Object.keys(configRanges) as (keyof DriverConfig)[]) {
    const value = (parsed as Record<string, unknown>)[key];
    const { min, max } = configRanges[key];
    if (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) persisted[key] = value;
  }
  return persisted;
}
