import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cutTree } from '../../src/cup/cut.js';
import { cupStateOf } from '../../src/cup/atspi/states.js';
import { stateChangesText } from '../../src/cup/diff-text.js';
import type { CupNode } from '../../src/cup/types.js';
import { node } from './build.js';

const ids = (root: CupNode | undefined): string[] => (root ? [root.id, ...(root.children ?? []).flatMap(ids)] : []);

// e0 window > e1 group (> e2 button, e3 text) , e4 list (> e5 option > e6 text)
const tree = node(0, 'window', 'App', {
  children: [
    node(1, 'group', '', { children: [node(2, 'button', 'OK'), node(3, 'text', 'ready')] }),
    node(4, 'list', 'Items', { children: [node(5, 'option', 'One', { children: [node(6, 'text', 'One')] })] }),
  ],
});

test('a cut keeps the first nodes in document order under the ids they had: the same index names the same node', () => {
  const { root, cut } = cutTree(tree, 4, 1000);
  assert.deepEqual(ids(root), ['e0', 'e1', 'e2', 'e3']);
  assert.equal(cut, 3);
  assert.equal(root!.children![0]!.children![1]!.name, 'ready');
});

test('a depth cut drops what lies deeper and keeps the ids of the rest', () => {
  const { root, cut } = cutTree(tree, 100, 1);
  assert.deepEqual(ids(root), ['e0', 'e1', 'e4']);
  assert.equal(cut, 4);
  assert.deepEqual(cutTree(tree, 100, 1000), { root: tree, cut: 0 });
});

test('one state mapping for trees and evidence: a toggle button\'s CHECKED is pressed, said +prs as a diff line says it', () => {
  assert.equal(cupStateOf('STATE_CHECKED', 'ROLE_TOGGLE_BUTTON'), 'pressed');
  assert.equal(cupStateOf('STATE_CHECKED', 'ROLE_CHECK_BOX'), 'checked');
  assert.equal(cupStateOf('STATE_SHOWING', 'ROLE_PUSH_BUTTON'), undefined);
  assert.equal(stateChangesText(['pressed'], ['focused']), '+prs -foc');
});
