import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codePointLength, firstCodePoints, oneLine, truncate } from '../../src/cup/text.js';

test('lengths and cuts count code points, so astral characters are never split', () => {
  assert.equal(codePointLength('a😀b'), 3);
  assert.equal(firstCodePoints('😀😀😀', 2), '😀😀');
  assert.equal(truncate('ab😀c', 3), 'ab😀...');
  assert.equal(truncate('ab😀', 3), 'ab😀');
});

test('a lone surrogate counts as one code point', () => {
  assert.equal(firstCodePoints('\ud83dxy', 2), '\ud83dx');
});

test('oneLine folds line breaks into spaces and shows other control characters escaped, tabs kept', () => {
  assert.equal(oneLine('a\nb\r\nc\rd\te'), 'a b c d\te');
  assert.equal(oneLine('A\rB\u001b[31mC\u0007'), 'A B\\x1b[31mC\\x07');
});
