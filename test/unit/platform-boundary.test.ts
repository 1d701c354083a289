// The layering rule of the platform boundary, read from the sources: tools speak to the Desktop interface
// (src/platform/*.ts), never to a backend, and nothing below the interface reaches up into the tools.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const src = join(root, 'src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Every module a file imports (static, re-exported or dynamic), as a path relative to src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'([^']+)'/g)].map((match) => match[1]!);
  return specifiers.filter((specifier) => specifier.startsWith('.')).map((specifier) => relative(src, resolve(dirname(file), specifier)));
}

function violations(from: string, forbidden: string): string[] {
  return sourceFiles(join(src, from)).flatMap((file) =>
    importsOf(file)
      .filter((target) => target.startsWith(forbidden))
      .map((target) => `${relative(src, file)} imports ${target}`),
  );
}

describe('platform boundary', () => {
  test('the scan sees imports (it would otherwise pass vacuously)', () => {
    assert.ok(importsOf(join(src, 'tools', 'context.ts')).includes(join('platform', 'desktop.js')));
  });

  test('no tool file imports a backend: tools reach the desktop only through the Desktop interface', () => {
    assert.deepEqual(violations('tools', join('platform', 'linux')), []);
  });

  test('nothing under src/platform imports the tool layer', () => {
    assert.deepEqual(violations('platform', 'tools'), []);
  });

  test('the interface files import no backend', () => {
    const interfaceFiles = readdirSync(join(src, 'platform')).filter((name) => name.endsWith('.ts'));
    assert.ok(interfaceFiles.includes('desktop.ts'));
    const leaks = interfaceFiles.flatMap((name) =>
      importsOf(join(src, 'platform', name))
        .filter((target) => target.startsWith(join('platform', 'linux')))
        .map((target) => `platform/${name} imports ${target}`),
    );
    assert.deepEqual(leaks, []);
  });
});
