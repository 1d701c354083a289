import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MENU_HEURISTIC } from '../../src/tui/structure/index.js';
import { recordedScreen, structureOf } from './helpers.js';

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

test(`${MENU_HEURISTIC}: emacs's highlighted top row, one blank between its words, is a menu bar; the buffer under it is text, not a list`, () => {
  const screen = recordedScreen('emacs');
  const { all, focus } = structureOf('emacs');
  const bar = all.find((node) => node.role === 'menubar');
  // The words of the screen's first row, each at its own column.
  const words = [...screen.lines[0]!.matchAll(/\S+/g)].map((match) => [match[0], match.index]);
  assert.deepEqual(bar?.children?.map((item) => [item.name, item.bounds!.x]), words);
  assert.equal(all.filter((node) => node.role === 'list' || node.selected).length, 0);
  // The cursor is on the buffer's first line: that text has the focus.
  const focused = all.find((node) => node.id === focus);
  assert.deepEqual([focused?.role, focused?.name, focused?.bounds?.y], ['text', screen.lines[screen.cursor.y]!.trim(), screen.cursor.y]);
  assert.ok(all.some((node) => node.role === 'status' && node.bounds?.y === 22));
});
