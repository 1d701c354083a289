// The names offered when a selector matched nothing: a wait for role=alert whose name did not match timed out naming
// the page's buttons, never the alert it held.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CupNode } from '../../src/cup/types.js';
import { parseDesktopSelector } from '../../src/tools/perception/desktop-selector.js';
import { nearestNames } from '../../src/tools/perception/element-matches.js';

const node = (id: number, role: string, name: string, children: CupNode[] = []): CupNode => ({ id: `e${id}`, role: role as CupNode['role'], name, children });
const page = node(0, 'document', 'Shop', [
  node(1, 'button', 'Save'),
  node(2, 'button', 'Sale items'),
  node(3, 'button', 'Sales'),
  node(4, 'alert', 'Disk almost full'),
  node(5, 'button', 'Share'),
]);

test('names holding what was sought come first, then names of elements in the role asked for', () => {
  assert.deepEqual(nearestNames([page], parseDesktopSelector('role=alert name~="Saved"'), 3), ['Save', 'Disk almost full', 'Sales']);
});

test('without a role asked, the names rank by what was sought alone', () => {
  assert.deepEqual(nearestNames([page], parseDesktopSelector('name~="Saved"'), 3), ['Save', 'Sales', 'Share']);
});

test('a role asked with no name ranks its elements first', () => {
  assert.deepEqual(nearestNames([page], parseDesktopSelector('role=alert focused'), 2), ['Disk almost full', 'Shop']);
});
