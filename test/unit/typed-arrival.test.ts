// When typed text counts as arrived in a field: by the field's text changing by it, not by its holding it.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { gainedTyped } from '../../src/cup/typed-arrival.js';

test('text typed into a field that held it already: arrived only once the field changed by the whole typed text', () => {
  assert.equal(gainedTyped('abc', 'abca', 'abc'), false, 'the first key of three');
  assert.equal(gainedTyped('abc', 'abcab', 'abc'), false, 'two keys of three');
  assert.equal(gainedTyped('abc', 'abcabc', 'abc'), true, 'appended');
  assert.equal(gainedTyped('abc', 'ababc', 'abc'), false, 'a field of five characters took "ab" after "ab"');
  assert.equal(gainedTyped('abc', 'abcabc', 'abc'.toUpperCase()), false, 'other text');
  // A text of one repeated character holds it again, overlapping, after the first key.
  assert.equal(gainedTyped('99', '999', '99'), false, 'the first key of "99" after "99"');
  assert.equal(gainedTyped('99', '9999', '99'), true, '"99" after "99"');
});

test('typed text put in where the caret was, over a selection, or followed by what the app completed', () => {
  assert.equal(gainedTyped('Hello world', 'Hello big world', 'big '), true, 'at the caret');
  assert.equal(gainedTyped('two.txt', 'three.txt', 'three'), true, 'over the selected name');
  assert.equal(gainedTyped('abc', 'abbcc', 'bc'), true, '"bc" after "ab"');
  assert.equal(gainedTyped('abc', 'abcb', 'bc'), false, 'the first key of "bc" after "abc"');
  assert.equal(gainedTyped('', 'reports/', 'rep'), true, 'an inline completion after the typed text');
  assert.equal(gainedTyped('carpe diem', 'carpe diemdiem', 'diem'), true);
  assert.equal(gainedTyped('x', 'x', ''), true, 'nothing typed, nothing to show');
});

test('typed over the range that was selected: the field holding the range replaced by the typed text took it', () => {
  assert.equal(gainedTyped('New York', 'York', 'York', { start: 0, end: 8 }), true, 'the whole text selected');
  assert.equal(gainedTyped('New York', 'York', 'York'), false, 'without the selection, "York" held as often as before');
  assert.equal(gainedTyped('bl', 'b', 'b', { start: 0, end: 2 }), true, 'a shorter text');
  assert.equal(gainedTyped('New York', 'New Yor', 'York', { start: 0, end: 8 }), false, 'part of the keys');
  assert.equal(gainedTyped('🙂 New York', '🙂 York', 'York', { start: 2, end: 10 }), true, 'offsets in characters, not UTF-16 units');
});
