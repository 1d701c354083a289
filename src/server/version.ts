import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The version in the package's own package.json, read at run time. npm ships package.json in every package
 * whatever "files" says, so this works from a checkout, a packed tarball, a global install and npx alike;
 * a JSON import would make tsc copy package.json into dist/, a file the package does not ship. Walking up
 * rather than a fixed '../../..' keeps it right wherever the build puts this module.
 */
function readPackageVersion(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    let text: string | undefined;
    try {
      text = readFileSync(join(dir, 'package.json'), 'utf8');
    } catch {
      // No package.json at this level: keep climbing.
    }
    if (text !== undefined) {
      const manifest = JSON.parse(text) as { name?: unknown; version?: unknown };
      if (manifest.name === 'cup-driver' && typeof manifest.version === 'string') return manifest.version;
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`cup-driver: no package.json of cup-driver above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

export const packageVersion: string = readPackageVersion();
