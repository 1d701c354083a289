import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffTrees, type DiffReading } from '../../src/cup/diff.js';
import { popupMenuLines } from '../../src/cup/popup-menus.js';
import type { CupNode, CupState } from '../../src/cup/types.js';
import { node } from './build.js';

// Shaped as the readings of Firefox's window around a right click on a page's button (a live run, cup-driver's
// compact tree): Gecko keeps the page's context menu in the tree while closed, hidden and collapsed, and the right
// click's result said only "[e13] menu: -hid, -off", no menu opened.
function firefox(menuStates: CupState[], itemStates: CupState[]): DiffReading {
  const items = ['Back', 'Forward', 'Reload'].map((name, i) => node(14 + i, 'menuitem', name, { states: itemStates, actions: ['click'] }));
  const root = node(0, 'window', 'CUP Icon Buttons — Mozilla Firefox', {
    children: [node(13, 'menu', '', { states: menuStates, actions: ['click'], children: items }), node(22, 'toolbar', 'Menu Bar', { children: [node(23, 'menubar', 'Application', { children: [node(24, 'menuitem', 'File')] })] })],
  });
  return { root, identities: new Map([0, 13, 14, 15, 16, 22, 23, 24].map((index) => [index, `o${index}`])) };
}

test('a menu kept in the tree while closed is said opened when it turns shown, and closed when it turns hidden', () => {
  const closed = firefox(['collapsed', 'hidden', 'offscreen'], ['hidden']);
  const open = firefox(['focused'], []);
  const opening = diffTrees(closed, open);
  assert.deepEqual(popupMenuLines(opening, closed.root, open.root), ['menu opened over the window ([e13]): 3 items, "Back", "Forward", "Reload"']);
  const closing = diffTrees(open, closed);
  assert.deepEqual(popupMenuLines(closing, open.root, closed.root), ['menu over the window closed ([e13]): 3 items, "Back", "Forward", "Reload"']);
  // A menu bar's menu is no popup over the window: nothing is said of its File menu changing.
  assert.deepEqual(popupMenuLines(diffTrees(closed, closed), closed.root, closed.root), []);
});

test('a popup menu whose items came or went (GTK3 makes one anew for each right click) is said opened, then closed', () => {
  const plain = (menu: CupNode[]): DiffReading => ({ root: node(0, 'window', 'App', { children: [node(1, 'button', 'Go', { actions: ['click'] }), ...menu] }), identities: new Map() });
  const none = plain([]);
  const shown = plain([node(5, 'window', '', { children: [node(6, 'menu', '', { children: [node(7, 'menuitem', 'Copy pad', { actions: ['click'] }), node(8, 'menuitem', 'Clear pad', { actions: ['click'] })] })] })]);
  assert.deepEqual(popupMenuLines(diffTrees(none, shown), none.root, shown.root), ['menu opened over the window ([e6]): 2 items, "Copy pad", "Clear pad"']);
  assert.deepEqual(popupMenuLines(diffTrees(shown, none), shown.root, none.root), ['menu over the window closed (index of the snapshot before) ([e6]): 2 items, "Copy pad", "Clear pad"']);
});
