import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { holdsRewritten } from '../../src/cup/rewritten-typing.js';

describe('typed text an app rewrote as it took it (rewritten-typing.ts)', () => {
  test('upper-cased, formatted or spaced anew, it arrived: its letters and digits are there, in order', () => {
    assert.equal(holdsRewritten('abc', '', 'ABC', 'part'), true);
    assert.equal(holdsRewritten('de f', 'HELLO', 'HELLODE F', 'part'), true);
    assert.equal(holdsRewritten('5551234567', '', '(555) 123-4567', 'part'), true);
    assert.equal(holdsRewritten('new one', 'OLD', 'NEW ONE', 'whole'), true);
  });

  test('a field that did not change, lost letters or holds other text did not take it', () => {
    // Already held: a field that kept its text took nothing (Gecko's EditableText answers and changes nothing).
    assert.equal(holdsRewritten('abc', 'ABC', 'ABC', 'part'), false);
    // It changed, but gained fewer letters than were typed: the typed text is not all there.
    assert.equal(holdsRewritten('abc', 'ABC', 'ABCX', 'part'), false);
    assert.equal(holdsRewritten('abc', '', 'AB', 'part'), false);
    assert.equal(holdsRewritten('abc', '', 'XYZ', 'part'), false);
    assert.equal(holdsRewritten('new one', 'OLD', 'NEW ONE!X', 'whole'), false);
    // The start of the typed text as typed, its punctuation still to come, is the keys on their way, not a rewrite.
    assert.equal(holdsRewritten('the end...', '', 'the end.', 'part'), false);
    assert.equal(holdsRewritten('b, c!', 'a ', 'a b, c', 'part'), false);
    assert.equal(holdsRewritten('the end...', '', 'THE END.', 'part'), true);
    // Text with no letter or digit is judged as typed only.
    assert.equal(holdsRewritten('--', '', '-- ', 'part'), false);
  });
});
