// The scale of a window's accessible extents, from its top-level frame against the X window (extents-scale.ts).
// The sizes are those GTK3 (whose frame holds openbox's decoration) and Qt 5 reported on the test desktop.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { extentsScale } from '../../src/platform/linux/extents-scale.js';

test('a frame half the window both ways is a scale of 2, its decoration notwithstanding', () => {
  assert.equal(extentsScale({ width: 1270, height: 1030 }, { w: 636, h: 528 }), 2);
  assert.equal(extentsScale({ width: 720, height: 1040 }, { w: 360, h: 520 }), 2);
  assert.equal(extentsScale({ width: 540, height: 780 }, { w: 360, h: 520 }), 1.5);
});

test('a frame larger than the window by its decoration or shadow is no scale', () => {
  assert.equal(extentsScale({ width: 480, height: 640 }, { w: 482, h: 661 }), 1);
  assert.equal(extentsScale({ width: 100, height: 80 }, { w: 152, h: 132 }), 1);
});

test('a frame that says nothing is no scale: none, empty, 1x1, or a different ratio each way', () => {
  assert.equal(extentsScale({ width: 800, height: 600 }, undefined), 1);
  assert.equal(extentsScale({ width: 800, height: 600 }, { w: 0, h: 0 }), 1);
  assert.equal(extentsScale({ width: 800, height: 600 }, { w: 1, h: 1 }), 1);
  assert.equal(extentsScale({ width: 800, height: 600 }, { w: 400, h: 600 }), 1);
});
