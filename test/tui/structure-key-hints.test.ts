import assert from 'node:assert/strict';
import { test } from 'node:test';
import { KEY_HINT_HEURISTIC } from '../../src/tui/structure/index.js';
import { structureOf } from './helpers.js';

test(`${KEY_HINT_HEURISTIC}: htop's function-key bar is a toolbar whose buttons carry their keys`, () => {
  const { all } = structureOf('htop');
  const bar = all.find((node) => node.role === 'toolbar' && node.heuristic === KEY_HINT_HEURISTIC);
  assert.ok(bar);
  assert.equal(bar.bounds?.y, 23);
  assert.deepEqual(
    bar.children!.map((button) => `${button.shortcut}=${button.name}`),
    ['F1=Help', 'F2=Setup', 'F3=Search', 'F4=Filter', 'F5=Tree', 'F6=SortBy', 'F7=Nice -', 'F8=Nice +', 'F9=Kill', 'F10=Quit'],
  );
});

test(`${KEY_HINT_HEURISTIC}: no toolbar where no key hints are`, () => {
  for (const name of ['top', 'vim', 'less', 'dialog-menu']) {
    assert.equal(structureOf(name).all.filter((node) => node.heuristic === KEY_HINT_HEURISTIC).length, 0, name);
  }
});
