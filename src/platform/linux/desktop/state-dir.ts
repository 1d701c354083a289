import { accessSync, constants, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Per-user directory for desktop state and logs: $XDG_RUNTIME_DIR/cup-driver, else the XDG cache dir. */
export function stateDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const runtime = env.XDG_RUNTIME_DIR;
  let base: string;
  if (runtime && isWritable(runtime)) base = join(runtime, 'cup-driver');
  else base = join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'cup-driver');
  mkdirSync(base, { recursive: true, mode: 0o700 });
  return base;
}

function isWritable(path: string): boolean {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}
