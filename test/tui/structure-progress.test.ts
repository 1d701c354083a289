import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PROGRESS_HEURISTIC } from '../../src/tui/structure/index.js';
import { structureOf } from './helpers.js';

function bars(name: string) {
  return structureOf(name).all.filter((node) => node.role === 'progressbar' && node.heuristic === PROGRESS_HEURISTIC);
}

test(`${PROGRESS_HEURISTIC}: htop's CPU, memory and swap meters, with their readings`, () => {
  const found = bars('htop');
  assert.deepEqual(found.map((node) => node.name), ['0', '1', 'Mem', 'Swp']);
  for (const meter of found.slice(0, 2)) assert.match(meter.value!, /^\d+(\.\d)?%$/);
  assert.match(found[2]!.value!, /^\d+(\.\d+)?[KMGT]\/\d+(\.\d+)?[KMGT] \(\d+(\.\d)?%\)$/);
  assert.equal(found[3]!.value, '0K/0K');
});

test(`${PROGRESS_HEURISTIC}: dialog --gauge at 42% inside its own box`, () => {
  const [gauge] = bars('dialog-gauge');
  assert.equal(gauge?.value, '42%');
  assert.deepEqual(gauge?.bounds, { x: 18, y: 12, w: 42, h: 1 });
});

test(`${PROGRESS_HEURISTIC}: no bars where there are none`, () => {
  for (const name of ['vim', 'dialog-menu', 'top', 'bash']) assert.deepEqual(bars(name), [], name);
});
