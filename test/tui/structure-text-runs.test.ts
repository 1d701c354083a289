import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TEXT_HEURISTIC } from '../../src/tui/structure/index.js';
import { structureOf } from './helpers.js';

test(`${TEXT_HEURISTIC}: vim's buffer lines become one text node per row`, () => {
  const texts = structureOf('vim').all.filter((node) => node.heuristic === TEXT_HEURISTIC);
  assert.equal(texts[0]!.name, 'line 1: the quick brown fox');
  assert.deepEqual(texts[0]!.bounds, { x: 0, y: 0, w: 27, h: 1 });
  assert.equal(texts.filter((node) => /^line \d+:/.test(node.name)).length, 23);
});

test(`${TEXT_HEURISTIC}: columns separated by wide gaps stay apart (top's summary)`, () => {
  const row1 = structureOf('top').all.filter((node) => node.heuristic === TEXT_HEURISTIC && node.bounds?.y === 1).map((node) => node.name);
  assert.ok(row1.length >= 2, JSON.stringify(row1));
  assert.match(row1[0]!, /^Tasks:/);
});

test(`${TEXT_HEURISTIC}: text inside a dialog belongs to the dialog`, () => {
  const { all } = structureOf('dialog-yesno');
  const dialog = all.find((node) => node.role === 'dialog')!;
  assert.ok(dialog.children!.some((node) => node.role === 'text' && node.name === 'Delete all files?'));
});
