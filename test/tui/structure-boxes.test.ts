import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BOX_HEURISTIC } from '../../src/tui/structure/index.js';
import { structureOf } from './helpers.js';

test(`${BOX_HEURISTIC}: dialog --menu is a dialog titled by its top border, with an untitled inner panel around the list`, () => {
  const { all } = structureOf('dialog-menu');
  const boxes = all.filter((node) => node.heuristic === BOX_HEURISTIC);
  assert.deepEqual(
    boxes.map((node) => [node.role, node.name, node.bounds]),
    [
      ['dialog', 'Fruit', { x: 14, y: 4, w: 50, h: 15 }],
      ['panel', '', { x: 16, y: 6, w: 46, h: 10 }],
    ],
  );
});

test(`${BOX_HEURISTIC}: whiptail's title between tees ("┤ Colours ├") loses the tees`, () => {
  const dialog = structureOf('whiptail-menu').all.find((node) => node.role === 'dialog');
  assert.equal(dialog?.name, 'Colours');
});

test(`${BOX_HEURISTIC}: an untitled dialog is named by its first line of text`, () => {
  const dialog = structureOf('whiptail-yesno').all.find((node) => node.role === 'dialog');
  assert.equal(dialog?.name, 'Continue the installation?');
});

test(`${BOX_HEURISTIC}: screens without line drawing (vim, htop, bash) have no boxes`, () => {
  for (const name of ['vim', 'htop', 'bash']) {
    assert.equal(structureOf(name).all.filter((node) => node.heuristic === BOX_HEURISTIC).length, 0, name);
  }
});
