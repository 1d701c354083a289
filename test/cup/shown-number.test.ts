import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decimalsPhrase, roundedTo, showsNumber, takenDecimals } from '../../src/cup/shown-number.js';

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

test('a range control takes numbers to the decimals it shows them with, never fewer than its increment has', () => {
  assert.equal(takenDecimals(1, 50, '50'), 0, 'a spin button showing whole numbers');
  assert.equal(takenDecimals(0.5, 1.5, '1,5'), 1, 'a decimal comma');
  assert.equal(takenDecimals(1, 1.5, '1.50'), 2, 'two digits shown though it steps by 1');
  assert.equal(takenDecimals(1, 1500, '1.500'), 0, 'a group separator is no decimal point');
  assert.equal(takenDecimals(0.25, 50, '50'), 2, 'a text dropping trailing zeros: the increment says more');
  assert.equal(takenDecimals(0.1, 3, undefined), 1, 'a slider showing no text: its increment');
  assert.equal(takenDecimals(5, 10, undefined), 0);
  assert.equal(takenDecimals(1, 100, '1007'), 0, 'typed digits: the increment');
  assert.equal(takenDecimals(0, 50, '50'), undefined, 'an increment of 0 takes any number');
  assert.equal(roundedTo(7.6, 0), 8);
  assert.equal(roundedTo(3.14, 1), 3.1);
  assert.equal(decimalsPhrase(0), 'whole numbers');
  assert.equal(decimalsPhrase(2), 'numbers to 2 decimals');
});
