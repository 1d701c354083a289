import { constants, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { canAccess } from './requirements.js';

/** Per-user directory for desktop state and logs: $XDG_RUNTIME_DIR/cup-driver, else the XDG cache dir. */
export function stateDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const runtime = env.XDG_RUNTIME_DIR;
  let base: string;
  if (runtime && canAccess(runtime, constants.W_OK)) base = join(runtime, 'cup-driver');
  else base = join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'cup-driver');
  mkdirSync(base, { recursive: true, mode: 0o700 });
  return base;
}


/** Where the desktop's helpers and launched apps write their output; created on first use. */
export function logDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const logs = join(stateDirectory(env), 'logs');
  mkdirSync(logs, { recursive: true });
  return logs;
}
