import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compactBody, node } from './build.js';

const DASH = '\u2014';
const at = (x: number, y: number) => ({ x, y, w: 40, h: 20 });
const item = (id: number, name: string, states: string[]) =>
  node(id, 'menuitem', name, { actions: ['click'], states: states as never, ...(states.includes('offscreen') ? {} : { bounds: at(0, 20 * id) }) });

test('a closed menu (no item on screen) shows its entry and a count of its items, not the items', () => {
  const file = node(1, 'menuitem', 'File', {
    actions: ['click'],
    bounds: at(0, 0),
    children: [item(2, 'New', ['offscreen']), item(3, 'Open', ['offscreen']), node(4, 'menu', '', { states: ['hidden', 'offscreen'], children: [item(5, 'Recent', ['offscreen'])] })],
  });
  const tree = [node(0, 'menubar', '', { children: [file] })];
  assert.deepEqual(compactBody(tree), ['[e0] mnub', '  [e1] mi "File" 0,0 40x20 [clk]', `    # 4 more items ${DASH} open the menu to see`]);
  assert.equal(compactBody(tree, { detail: 'full' }).length, 6, 'detail full still lists every item');
});

test('an open menu lists its items', () => {
  const edit = node(1, 'menuitem', 'Edit', { actions: ['click'], bounds: at(0, 0), children: [item(2, 'Undo', []), item(3, 'Redo', [])] });
  assert.deepEqual(compactBody([edit]), ['[e1] mi "Edit" 0,0 40x20 [clk]', '  [e2] mi "Undo" 0,40 40x20 [clk]', '  [e3] mi "Redo" 0,60 40x20 [clk]']);
});
