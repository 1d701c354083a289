import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { stateDirectory } from '../../platform/linux/desktop/state-dir.js';
import { readRegularFile, writeFileAtomically } from '../../tools/files.js';
import { UsageError } from '../cli-args.js';

/** Shorter tokens are guessable in a fleet's lifetime; the generated ones are 32 random bytes. */
const minimumTokenLength = 16;
/** A token is one line; a bigger file is not one. */
const maxTokenFileBytes = 4096;

/** The bearer token every HTTP request must carry, and the file that holds it. */
export interface BearerToken {
  value: string;
  file: string;
  /** The server wrote the file (it generated the token), so it removes it when it stops. */
  generated: boolean;
}

/** Where a generated token goes when no --token-file is given: the private state directory, one file per port. */
export function defaultTokenFile(port: number, env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDirectory(env), `mcp-http-${port}.token`);
}

/**
 * The token in `file` when it exists (a secret mounted by an orchestrator, a file the user wrote), else a new
 * one (32 random bytes, base64url) written there atomically with mode 0600.
 */
export function loadOrCreateToken(file: string, log: (message: string) => void): BearerToken {
  let text: string | undefined;
  try {
    // Only a regular file: reading a FIFO blocked the process for ever, before its signal handlers could run (SIGTERM did nothing).
    text = readRegularFile(file, maxTokenFileBytes).toString('utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new UsageError(`--token-file ${file}: cannot read it (${(error as Error).message})`);
  }
  if (text === undefined) {
    const value = randomBytes(32).toString('base64url');
    writeFileAtomically(file, `${value}\n`, { mode: 0o600, replace: 'any' });
    return { value, file, generated: true };
  }
  const value = text.trim();
  if (value.length < minimumTokenLength || /\s/.test(value)) {
    throw new UsageError(`--token-file ${file}: the token must be one line of at least ${minimumTokenLength} characters without spaces (or remove the file to have one generated)`);
  }
  if ((statSync(file).mode & 0o077) !== 0) log(`warning: the token file ${file} is readable by other users (mode ${(statSync(file).mode & 0o777).toString(8)}); chmod 600 it`);
  return { value, file, generated: false };
}

/** Removes a token file the server generated (a given one belongs to whoever gave it). */
export function removeGeneratedToken(token: BearerToken): void {
  if (token.generated) rmSync(token.file, { force: true });
}

/**
 * `Authorization: Bearer <token>` matches, in time independent of where it differs: both sides are hashed
 * first so even the length is not revealed.
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '');
  if (!match) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(match[1]!), digest(token));
}
