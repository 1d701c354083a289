import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LIST_HEURISTIC, STATUS_HEURISTIC } from '../../src/tui/structure/index.js';
import { recordedScreen, structureOf } from './helpers.js';

test(`${STATUS_HEURISTIC}: less's inverse file line at the bottom is a status line, not a selected list row`, () => {
  const { all } = structureOf('less');
  const status = all.filter((node) => node.heuristic === STATUS_HEURISTIC);
  assert.equal(status.length, 1);
  assert.equal(status[0]!.bounds?.y, 23);
  assert.match(status[0]!.name, /notes\.txt$/);
  assert.equal(all.filter((node) => node.heuristic === LIST_HEURISTIC).length, 0);
});

test(`${STATUS_HEURISTIC}: vim's message line is plain, so it is text`, () => {
  const { all } = structureOf('vim');
  assert.equal(all.filter((node) => node.heuristic === STATUS_HEURISTIC).length, 0);
  assert.ok(all.some((node) => node.role === 'text' && node.bounds?.y === 23 && node.name.includes('60L')));
});

test(`${STATUS_HEURISTIC}: lynx's highlighted message row over its two help lines is the status line, the help lines text, and no list`, () => {
  const { lines } = recordedScreen('lynx-form');
  const { all } = structureOf('lynx-form');
  const tidy = (line: string) => line.replace(/\s+/g, ' ').trim();
  assert.deepEqual(all.filter((node) => node.heuristic === STATUS_HEURISTIC).map((node) => [node.name, node.bounds?.y]), [[tidy(lines[21]!), 21]]);
  for (const y of [22, 23]) assert.ok(all.some((node) => node.role === 'text' && node.bounds?.y === y && tidy(node.name) === tidy(lines[y]!)), `row ${y} is text`);
  assert.equal(all.filter((node) => node.heuristic === LIST_HEURISTIC).length, 0);
  assert.equal(all.filter((node) => node.selected).length, 0);
});
