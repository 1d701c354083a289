import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, resolve } from 'node:path';

/** Resolves a caller-given path: "~" is the home directory, relative paths are taken from the caller's directory. */
export function resolveUserPath(path: string, callerDirectory: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return resolve(homedir(), path.slice(2));
  return resolve(callerDirectory, path);
}

/** Writes through a temporary file and a rename, so a reader never sees a half-written file. */
export function writeFileAtomically(path: string, data: string | Buffer, mode = 0o644): void {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  try {
    writeFileSync(temporary, data, { mode });
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}
