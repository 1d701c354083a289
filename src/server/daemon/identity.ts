import { statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { packageVersion } from '../version.js';

/** The entry script a daemon started on demand runs (`node main.js serve`). */
export const entryScript = fileURLToPath(new URL('../main.js', import.meta.url));

/** Which build of cup-driver a process runs: its version, entry script and when that script was built. */
export interface BuildIdentity {
  version: string;
  entry: string;
  /** The entry script's mtime when this process loaded it (ms since the epoch); every build rewrites it. */
  built_at: number;
}

function loadedBuild(): BuildIdentity {
  let builtAt = 0;
  try {
    builtAt = Math.round(statSync(entryScript).mtimeMs);
  } catch {
    // Running from somewhere unusual; the daemon is then never taken for an older build.
  }
  return { version: packageVersion, entry: entryScript, built_at: builtAt };
}

/** Read once, at load: what matters is the code this process runs, not what is on disk now. */
export const thisBuild: BuildIdentity = loadedBuild();

/**
 * Whether a client should replace the daemon it found: only one built before the client's own code
 * (after an upgrade or a rebuild), so a call never runs older code than the command that asked for it.
 * Newer wins, never "different", so an old long-lived client (an MCP server) and a new one cannot keep
 * replacing each other's daemon.
 */
export function isOlderBuild(daemon: unknown, client: BuildIdentity = thisBuild): boolean {
  const builtAt = (daemon as Partial<BuildIdentity> | undefined)?.built_at;
  return typeof builtAt === 'number' && builtAt < client.built_at;
}
