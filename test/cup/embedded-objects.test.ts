import assert from 'node:assert/strict';
import { test } from 'node:test';
import { objectReplacementOffsets, spliceEmbeddedText, withoutObjectReplacements } from '../../src/cup/embedded-objects.js';

const O = '\uFFFC';

test('each U+FFFC is found at its character offset, counting an astral character as one', () => {
  assert.deepEqual(objectReplacementOffsets(`Read the ${O} and the ${O}.`), [9, 19]);
  assert.deepEqual(objectReplacementOffsets(`😀${O}`), [1]);
  assert.deepEqual(objectReplacementOffsets('no objects'), []);
});

test('each U+FFFC is replaced by the text of the object embedded at its offset', () => {
  const text = `Read the ${O} and the ${O}.`;
  const embedded = new Map([
    [9, 'terms of sale'],
    [19, 'privacy notice'],
  ]);
  assert.equal(spliceEmbeddedText(text, embedded), 'Read the terms of sale and the privacy notice.');
  assert.equal(spliceEmbeddedText(`😀${O}!`, new Map([[1, 'x']])), '😀x!');
});

test('a U+FFFC with nothing known behind it is dropped, and text without one is returned as it is', () => {
  assert.equal(spliceEmbeddedText(`${O}${O}${O}`, new Map([[1, 'Express']])), 'Express');
  assert.equal(spliceEmbeddedText(`${O}`, new Map()), '');
  assert.equal(spliceEmbeddedText('plain', new Map([[0, 'ignored']])), 'plain');
});

test('a name, which has no offsets to resolve, loses its U+FFFC characters and nothing else', () => {
  assert.equal(withoutObjectReplacements(`Logo ${O} Home`), 'Logo  Home');
  assert.equal(withoutObjectReplacements('Home'), 'Home');
});

test('an embedded block (a paragraph, a list item) is a line of its own, one line break apart from what is around it', () => {
  const blocks = new Set([0, 1, 2]);
  // A rich-text box's three paragraphs, the middle one empty (an Enter pressed twice), as Blink and Gecko embed them.
  assert.equal(spliceEmbeddedText(`${O}${O}${O}`, new Map([[0, 'First.'], [1, '\n'], [2, 'Second.']]), blocks), 'First.\n\nSecond.');
  // Text around a list: each item its own line; an inline link stays in its line.
  const list = `Alpha ${O}${O}${O} end`;
  assert.equal(spliceEmbeddedText(list, new Map([[6, '• one'], [7, '• two'], [8, 'delta']]), new Set([6, 7])), 'Alpha \n• one\n• two\ndelta end');
  // A line break the text has already is not doubled; an unknown block is dropped with no line of its own.
  assert.equal(spliceEmbeddedText(`a\n${O}\nb`, new Map([[2, 'p']]), new Set([2])), 'a\np\nb');
  assert.equal(spliceEmbeddedText(`a${O}b`, new Map(), new Set([1])), 'ab');
});
