import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { ERROR_CODES } from '../../src/errors.js';
import { repositoryRoot } from '../helpers/desktop.js';

test('the README lists every error code with the meaning src/errors.ts gives it, and no other', () => {
  const readme = readFileSync(join(repositoryRoot, 'README.md'), 'utf8');
  const start = readme.indexOf('<details><summary>Error codes</summary>');
  assert.ok(start >= 0, 'the README has the error code table');
  const table = readme.slice(start, readme.indexOf('</details>', start));
  const rows = [...table.matchAll(/^\| `([a-z_]+)` \| (.*) \|$/gm)].map((match) => [match[1]!, match[2]!]);
  assert.deepEqual(Object.fromEntries(rows), { ...ERROR_CODES });
});
