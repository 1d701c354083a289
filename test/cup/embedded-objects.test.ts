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
