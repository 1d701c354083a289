import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffTrees, type DiffReading } from '../../src/cup/diff.js';
import { closedDialogLine, closedDialogs, openedDialogLines } from '../../src/cup/opened-dialogs.js';
import type { CupNode } from '../../src/cup/types.js';
import { node } from './build.js';

function reading(root: CupNode, identities: Record<number, string>): DiffReading {
  return { root, identities: new Map(Object.entries(identities).map(([index, identity]) => [Number(index), identity])) };
}

// A page's modal <dialog> holding a field, as Blink and Gecko show it, and the page once Escape closed it.
const page = (open: boolean) =>
  node(0, 'window', 'Shapes', {
    children: [
      node(1, 'document', 'Shapes', {
        children: [
          node(2, 'button', 'Edit profile', { actions: ['click'] }),
          ...(open ? [node(3, 'dialog', 'Profile', { children: [node(4, 'heading', 'Profile'), node(5, 'textbox', 'Nickname', { value: 'Zed' })] })] : []),
        ],
      }),
    ],
  });

test('a dialog the diff removed is told closed, by the index it had; one opened is told opened, not closed', () => {
  const ids = { 0: 'w', 1: 'd', 2: 'b', 3: 'dlg', 4: 'h', 5: 't' };
  const [open, closed] = [reading(page(true), ids), reading(page(false), ids)];
  const closing = diffTrees(open, closed);
  assert.deepEqual(closedDialogs(closing, open.root).map(closedDialogLine), ['dialog "Profile" closed in the window (was [e3])']);
  assert.deepEqual(openedDialogLines(closing, closed.root), []);
  const opening = diffTrees(closed, open);
  assert.deepEqual(closedDialogs(opening, closed.root), []);
  assert.deepEqual(openedDialogLines(opening, open.root), ['dialog "Profile" opened in the window ([e3])']);
});
