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

test(`${KEY_HINT_HEURISTIC}: mc's bar names function keys by number alone ("1Help ... 10Quit")`, () => {
  const bar = structureOf('mc').all.find((node) => node.role === 'toolbar' && node.heuristic === KEY_HINT_HEURISTIC);
  assert.ok(bar);
  assert.equal(bar.bounds?.y, 29);
  assert.deepEqual(
    bar.children!.map((button) => `${button.shortcut}=${button.name}`),
    ['F1=Help', 'F2=Menu', 'F3=View', 'F4=Edit', 'F5=Copy', 'F6=RenMov', 'F7=Mkdir', 'F8=Delete', 'F9=PullDn', 'F10=Quit'],
  );
  assert.deepEqual(bar.children![9]!.bounds, { x: 90, y: 29, w: 6, h: 1 });
  assert.equal(bar.from, 'alignment');
});

test(`${KEY_HINT_HEURISTIC}: nano's two rows of ^X hints, "^/ Go To Line" a hint of its own`, () => {
  const bars = structureOf('nano').all.filter((node) => node.role === 'toolbar' && node.heuristic === KEY_HINT_HEURISTIC);
  assert.deepEqual(
    bars.map((bar) => bar.children!.map((button) => `${button.shortcut}=${button.name}`)),
    [
      ['^G=Help', '^O=Write Out', '^W=Where Is', '^K=Cut', '^T=Execute', '^C=Location'],
      ['^X=Exit', '^R=Read File', '^\\=Replace', '^U=Paste', '^J=Justify', '^/=Go To Line'],
    ],
  );
});
