import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ElementHandle, SnapshotElement, SnapshotRef } from '../../src/platform/targets.js';
import { describeElement, locateElement } from '../../src/tools/recording/element-locator.js';

/** A snapshot holding its elements in the order given (document order), each [index, role, name, parent]. */
function snapshot(id: string, elements: [number, string, string, number?][]): SnapshotRef {
  const records = elements.map(([index, role, name, parent]): SnapshotElement => ({
    index,
    role,
    name,
    handle: {} as ElementHandle,
    ...(parent !== undefined ? { parent } : {}),
  }));
  return { id, pid: 1, windowId: 2, elements: new Map(records.map((record) => [record.index, record])) };
}

test('which of the alike an element is counts in document order, not by index (a later-added element has a higher one)', () => {
  // An "OK" added ahead of the first one took a new number, 7; the window's numbering kept the old one's 2.
  const recorded = snapshot('s1', [[0, 'window', 'App'], [1, 'group', 'Bar', 0], [7, 'button', 'OK', 1], [2, 'button', 'OK', 1]]);
  assert.equal(describeElement(recorded, 7).occurrence, 0);
  const second = describeElement(recorded, 2);
  assert.equal(second.occurrence, 1);
  // A fresh run numbers in tree order: the second OK is e3 there.
  const fresh = snapshot('s2', [[0, 'window', 'App'], [1, 'group', 'Bar', 0], [2, 'button', 'OK', 1], [3, 'button', 'OK', 1]]);
  assert.deepEqual(locateElement(fresh, second), { index: 3 });
  assert.deepEqual(locateElement(fresh, describeElement(recorded, 7)), { index: 2 });
});
