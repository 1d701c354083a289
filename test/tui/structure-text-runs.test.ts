import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TEXT_HEURISTIC } from '../../src/tui/structure/index.js';
import { recordedScreen, structureOf } from './helpers.js';

test(`${TEXT_HEURISTIC}: vim's buffer lines become one text node per row`, () => {
  const texts = structureOf('vim').all.filter((node) => node.heuristic === TEXT_HEURISTIC);
  assert.equal(texts[0]!.name, 'line 1: the quick brown fox');
  assert.deepEqual(texts[0]!.bounds, { x: 0, y: 0, w: 27, h: 1 });
  assert.equal(texts.filter((node) => /^line \d+:/.test(node.name)).length, 23);
});

test(`${TEXT_HEURISTIC}: columns separated by wide gaps stay apart (irssi's time stamp and message)`, () => {
  const row = structureOf('irssi-typed').all.filter((node) => node.heuristic === TEXT_HEURISTIC && node.bounds?.y === 19).map((node) => node.name);
  assert.deepEqual(row, ['04:33', 'real_name root']);
});

test(`${TEXT_HEURISTIC}: a phrase going on after a comma or colon across the padding of a number is one text (top's summary lines)`, () => {
  const lines = recordedScreen('top').lines;
  const texts = structureOf('top').all.filter((node) => node.heuristic === TEXT_HEURISTIC);
  for (const y of [1, 3, 4]) {
    assert.deepEqual(texts.filter((node) => node.bounds?.y === y).map((node) => node.name), [lines[y]!.trim()], `row ${y}`);
  }
});

test(`${TEXT_HEURISTIC}: text inside a dialog belongs to the dialog`, () => {
  const { all } = structureOf('dialog-yesno');
  const dialog = all.find((node) => node.role === 'dialog')!;
  assert.ok(dialog.children!.some((node) => node.role === 'text' && node.name === 'Delete all files?'));
});
