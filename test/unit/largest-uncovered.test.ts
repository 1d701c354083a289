import assert from 'node:assert/strict';
import { test } from 'node:test';
import { largestUncovered } from '../../src/cup/rect.js';

const button = { x: 100, y: 200, w: 100, h: 34 };

test('a box the cover misses is left whole', () => {
  assert.deepEqual(largestUncovered(button, { x: 300, y: 0, w: 50, h: 50 }), button);
});

test('a cover over the right part leaves the strip left of it, the whole height of the box', () => {
  assert.deepEqual(largestUncovered(button, { x: 140, y: 150, w: 302, h: 222 }), { x: 100, y: 200, w: 40, h: 34 });
});

test('of the strips the cover leaves, the largest is taken', () => {
  // A cover in the middle: 30 px left of it (30x34) against 50 px right of it (50x34).
  assert.deepEqual(largestUncovered(button, { x: 130, y: 190, w: 20, h: 60 }), { x: 150, y: 200, w: 50, h: 34 });
  // A cover low on the box: the strip above it, as wide as the box.
  assert.deepEqual(largestUncovered(button, { x: 90, y: 220, w: 200, h: 100 }), { x: 100, y: 200, w: 100, h: 20 });
});

test('a cover over the whole box, or leaving slivers narrower than the minimum, leaves nothing', () => {
  assert.equal(largestUncovered(button, { x: 80, y: 150, w: 302, h: 222 }), undefined);
  assert.equal(largestUncovered(button, { x: 102, y: 201, w: 97, h: 32 }, 3), undefined);
});
