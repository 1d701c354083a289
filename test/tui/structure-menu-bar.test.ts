import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MENU_HEURISTIC } from '../../src/tui/structure/index.js';
import { structureOf } from './helpers.js';

test(`${MENU_HEURISTIC}: mc's highlighted top row is a menu bar of five items, not a status line`, () => {
  const { all } = structureOf('mc');
  const bar = all.find((node) => node.role === 'menubar');
  assert.ok(bar);
  assert.deepEqual(bar.children!.map((item) => [item.role, item.name, item.bounds!.x]), [
    ['menuitem', 'Left', 2], ['menuitem', 'File', 11], ['menuitem', 'Command', 20], ['menuitem', 'Options', 32], ['menuitem', 'Right', 44],
  ]);
  assert.equal(bar.from, 'alignment');
  assert.equal(all.filter((node) => node.role === 'status').length, 0);
});

test(`${MENU_HEURISTIC}: first rows that are text, a title bar or meters are not menu bars`, () => {
  for (const name of ['nano', 'vim', 'less', 'htop', 'top', 'bash', 'dialog-menu', 'whiptail-menu']) {
    assert.equal(structureOf(name).all.filter((node) => node.role === 'menubar').length, 0, name);
  }
  // nano's title bar stays a status line.
  assert.match(structureOf('nano').all.find((node) => node.role === 'status')?.name ?? '', /^GNU nano/);
});
