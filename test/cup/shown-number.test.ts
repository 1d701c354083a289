import assert from 'node:assert/strict';
import { test } from 'node:test';
import { showsNumber } from '../../src/cup/shown-number.js';

test('a number shown in any locale\'s spelling, to the digits it shows, is the number held', () => {
  assert.equal(showsNumber('100', 100), true);
  assert.equal(showsNumber('1.5', 1.5), true);
  assert.equal(showsNumber('1,5', 1.5), true, 'a German decimal comma');
  assert.equal(showsNumber('1.500', 1500), true, 'a German group separator');
  assert.equal(showsNumber('1,500', 1500), true);
  assert.equal(showsNumber('1 500,25', 1500.25), true, 'a space between groups');
  assert.equal(showsNumber('0.33', 1 / 3), true, 'rounded to the digits shown');
  assert.equal(showsNumber('50 %', 50), true, 'with a unit');
  assert.equal(showsNumber('\u22122,5', -2.5), true, 'a minus sign');
});

test('digits typed and not taken show another number; a text with no number tells nothing', () => {
  assert.equal(showsNumber('1007', 100), false, 'a digit typed after 100');
  assert.equal(showsNumber('100250', 100), false);
  assert.equal(showsNumber('1,55', 1.5), false, 'a digit past the shown ones');
  assert.equal(showsNumber('0.34', 1 / 3), false);
  assert.equal(showsNumber('Automatic', 0), undefined);
  assert.equal(showsNumber('', 0), undefined);
});
