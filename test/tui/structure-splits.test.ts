import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { repositoryRoot } from '../helpers/desktop.js';
import { findBoxes } from '../../src/tui/structure/boxes.js';
import { STATUS_HEURISTIC } from '../../src/tui/structure/index.js';
import { ScreenScan } from '../../src/tui/structure/scan.js';
import { findSheetGrids } from '../../src/tui/structure/sheet-grid.js';
import { findSplits } from '../../src/tui/structure/splits.js';
import { recordedGrid, recordedScreen, structureOf } from './helpers.js';

/** The regions findSplits adds to a recorded screen, as "kind x,y wxh", after a spreadsheet's grid is claimed as buildStructure does. */
function splitsOf(name: string): string[] {
  const grid = recordedGrid(name);
  const scan = new ScreenScan(grid);
  const boxes = findBoxes(scan);
  const screen = { x: 0, y: 0, w: grid.cols, h: grid.rows };
  scan.setRegions([
    { rect: screen, background: scan.dominantBackground(screen) },
    ...boxes.flatMap((box) => box.sections.map((rect) => ({ rect, background: scan.dominantBackground(rect), box: box.node }))),
  ]);
  scan.regions.forEach((_, index) => findSheetGrids(scan, index));
  return findSplits(scan).map(({ split, rect }) => `${split} ${rect.x},${rect.y} ${rect.w}x${rect.h}`);
}

test('splits: vim -O splits at its column of | into two windows, each with the status row under it', () => {
  assert.deepEqual(splitsOf('corpus/vim-split-start'), ['window 0,0 40x23', 'window 41,0 39x23']);
  const { all } = structureOf('corpus/vim-split-start');
  // The message line under both windows (row 23) is the screen's; nothing above it crosses the separator.
  const crossing = all.filter((node) => node.role !== 'screen' && node.bounds && node.bounds.y < 23 && node.bounds.x < 40 && node.bounds.x + node.bounds.w > 41);
  assert.deepEqual(crossing, []);
  const status = all.filter((node) => node.heuristic === STATUS_HEURISTIC).map((node) => `${node.name} ${node.bounds?.x}`);
  assert.deepEqual(status, ['left.txt 0', 'right.txt 41']);
});

test('splits: tmux\'s status bar under two panes side by side is one status line of the whole screen, not one per pane', () => {
  // The panes split at the │ column; the bar below is drawn in one style across it, nothing starting after it.
  assert.deepEqual(splitsOf('tmux-split'), ['window 0,0 40x23', 'window 41,0 39x23']);
  const { all } = structureOf('tmux-split');
  const status = all.filter((node) => node.heuristic === STATUS_HEURISTIC);
  const bottom = recordedScreen('tmux-split').lines[23]!;
  assert.deepEqual(status.map((node) => [node.name, node.bounds]), [[bottom.replace(/\s+/g, ' ').trim(), { x: 0, y: 23, w: 80, h: 1 }]]);
});

test('splits: ranger\'s parent, current and preview columns are split at the blank gutters the highlights stop at', () => {
  assert.deepEqual(splitsOf('corpus/ranger-down1'), ['column 0,1 9x4', 'column 10,1 29x4', 'column 40,1 40x4']);
  const { all } = structureOf('corpus/ranger-down1');
  // The parent column (archive, tree) is a list of its own beside the current one.
  const list = all.find((node) => node.role === 'list' && node.bounds?.x === 10);
  assert.deepEqual(list?.bounds, { x: 10, y: 1, w: 29, h: 4 });
  assert.deepEqual(list?.children?.filter((item) => item.selected).map((item) => item.name), ['beta 1']);
});

test('splits: no other recorded screen is split (boxes, tables, plain text, single windows); vifm\'s two panes are', () => {
  const root = join(repositoryRoot, 'test/fixtures/tui');
  const names = ['', 'corpus/', 'corpus-200x50/'].flatMap((dir) =>
    readdirSync(join(root, dir)).filter((file) => file.endsWith('.json')).map((file) => `${dir}${file.replace(/\.json$/, '')}`),
  );
  const split = names.filter((name) => splitsOf(name).length > 0).sort();
  assert.ok(names.length > 40, `read ${names.length} recordings`);
  assert.deepEqual(split, [
    'corpus-200x50/ranger-down1', 'corpus-200x50/ranger-start', 'corpus-200x50/tig-diff', 'corpus-200x50/tig-list-again',
    'corpus-200x50/vifm-down1', 'corpus-200x50/vifm-start', 'corpus-200x50/vifm-tab', 'corpus-200x50/vim-split-start', 'corpus-200x50/vim-split-window-right',
    'corpus/ranger-down1', 'corpus/ranger-start', 'corpus/tig-diff', 'corpus/tig-list-again',
    'corpus/vifm-down1', 'corpus/vifm-start', 'corpus/vifm-tab', 'corpus/vim-split-start', 'corpus/vim-split-window-right', 'tmux-split', 'weechat-typed',
  ]);
});

test(`${STATUS_HEURISTIC}: nvim -o's status line between stacked windows and the one above the blank last row`, () => {
  const { all } = structureOf('corpus/nvim-split-start');
  const status = all.filter((node) => node.heuristic === STATUS_HEURISTIC).map((node) => `${node.name} @${node.bounds?.y}`);
  assert.deepEqual(status, ['top.txt 1,1 Top @11', 'bottom.txt 1,1 Top @22']);
  assert.equal(all.filter((node) => node.selected).length, 0);
});

test(`${STATUS_HEURISTIC}: tig's highlighted newest commit on the top row is the selected row, its title line the status`, () => {
  const { all } = structureOf('corpus/tig-start');
  assert.deepEqual(all.filter((node) => node.heuristic === STATUS_HEURISTIC).map((node) => node.bounds?.y), [28]);
  assert.deepEqual(all.filter((node) => node.selected).map((node) => `${node.role} @${node.bounds?.y}`), ['listitem @0']);
});

test('a window edge down the whole screen splits it before a shorter rule inside one side: weechat\'s buffer list apart from its chat, the status bar and input line whole', () => {
  const { lines, cursor } = recordedScreen('weechat-typed');
  assert.equal(lines[0]!.slice(0, 10), '1.weechat│');
  const { all, focus } = structureOf('weechat-typed');
  // No node spans the buffer list and the chat.
  assert.deepEqual(all.filter((node) => node.bounds && node.bounds.x < 9 && node.bounds.x + node.bounds.w > 10 && node.role !== 'screen').map((node) => node.name), []);
  assert.ok(all.some((node) => node.name === '1.weechat'));
  assert.ok(all.some((node) => node.name.startsWith('WeeChat 3')));
  // The status bar is one line, not an item of a list, and nothing is selected.
  assert.deepEqual(all.filter((node) => node.name.includes('[core]')).map((node) => [node.role, node.bounds?.x]), [['status', 10]]);
  assert.equal(all.filter((node) => node.selected || node.role === 'listitem').length, 0);
  // The last row of the chat's window, with the cursor, is the input line, holding what was typed.
  const input = all.find((node) => node.id === focus);
  assert.deepEqual([input?.role, input?.value, input?.bounds?.y, input?.bounds?.x], ['textbox', 'hello there', cursor.y, 10]);
});

test(`${STATUS_HEURISTIC}: tig's diff window beside its commit list: its highlighted top row is its current line, and its bold status line says it has the keys`, () => {
  const diff = structureOf('corpus/tig-diff');
  // Each window's status line at the bottom, no second one on the diff window's top row.
  assert.deepEqual(diff.all.filter((node) => node.heuristic === STATUS_HEURISTIC).map((node) => node.name.slice(0, 6)), ['[main]', '[diff]']);
  const selected = diff.all.filter((node) => node.selected).map((node) => `${node.name.slice(0, 6)} @${node.bounds?.x},${node.bounds?.y}`);
  assert.equal(selected.length, 2, selected.join('; '));
  assert.match(diff.all.find((node) => node.id === diff.focus)?.name ?? '', /^commit [0-9a-f]{40}$/);
  // After Tab the list's status line is the bold one: its selected commit has the keys.
  const list = structureOf('corpus/tig-list-again');
  assert.match(list.all.find((node) => node.id === list.focus)?.name ?? '', /Add the second file$/);
});
