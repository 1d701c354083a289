import { readFileSync } from 'node:fs';
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
}

/** The effective configuration of one session. */
export class ConfigStore {
  private values: DriverConfig;
  private readonly persistPath?: string;

  constructor(options: ConfigStoreOptions = {}) {
    this.values = { ...defaultConfig, ...(options.readFrom ? readPersisted(options.readFrom) : {}) };
    this.persistPath = options.writeTo;
  }

  get(): DriverConfig {
    return { ...this.values };
  }

  set(update: Partial<DriverConfig>): DriverConfig {
    this.values = { ...this.values, ...update };
    if (this.persistPath) writeFileAtomically(this.persistPath, `${JSON.stringify(this.values, null, 2)}\n`, 0o600);
    return this.get();
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
