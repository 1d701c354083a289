import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CHECKBOX_HEURISTIC, LIST_HEURISTIC } from '../../src/tui/structure/index.js';
import { readMark } from '../../src/tui/structure/checkboxes.js';
import { structureOf } from './helpers.js';

test(`${CHECKBOX_HEURISTIC}: dialog --checklist items are checkboxes, cheese checked and selected`, () => {
  const boxes = structureOf('dialog-checklist').all.filter((node) => node.role === 'checkbox');
  assert.deepEqual(
    boxes.map((node) => [node.name, node.checked, node.selected ?? false, node.heuristic]),
    [
      ['cheese Cheese', true, true, LIST_HEURISTIC],
      ['ham Ham', false, false, LIST_HEURISTIC],
      ['olives Olives', false, false, LIST_HEURISTIC],
    ],
  );
});

test(`${CHECKBOX_HEURISTIC}: marks that make checkboxes and radio buttons, and what does not`, () => {
  assert.deepEqual(readMark('[x] Enable logging'), { role: 'checkbox', checked: true, label: 'Enable logging' });
  assert.deepEqual(readMark('[ ] Dry run'), { role: 'checkbox', checked: false, label: 'Dry run' });
  assert.deepEqual(readMark('(*) Fast'), { role: 'radio', checked: true, label: 'Fast' });
  assert.deepEqual(readMark('( ) Slow'), { role: 'radio', checked: false, label: 'Slow' });
  assert.equal(readMark('[OK]'), undefined);
  assert.equal(readMark('array[i] = 1'), undefined);
  assert.equal(readMark('[x]'), undefined, 'a mark needs a label');
});
