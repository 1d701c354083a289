import assert from 'node:assert/strict';
import { test } from 'node:test';
import { slowReadingMs } from '../../src/tools/input/action-diff.js';

test('a slow reading makes actions skip their diff for 30 s after it, then the window is read again', () => {
  const at = 1_000_000;
  assert.equal(slowReadingMs(undefined, at), undefined, 'a window never read is read');
  assert.equal(slowReadingMs({ ms: 300, at }, at + 1000), undefined, 'a quick reading is repeated');
  assert.equal(slowReadingMs({ ms: 900, at }, at + 1000), 900, 'a slow one is not, right after it');
  assert.equal(slowReadingMs({ ms: 900, at }, at + 29_999), 900);
  assert.equal(slowReadingMs({ ms: 900, at }, at + 30_000), undefined, 'and is measured again once it is 30 s old');
});
