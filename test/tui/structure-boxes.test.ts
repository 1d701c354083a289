import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BOX_HEURISTIC } from '../../src/tui/structure/index.js';
import { flattenNodes } from '../../src/tui/ui-node.js';
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

test(`${BOX_HEURISTIC}: mc's Copy dialog over both panels: the panels stay two regions though the dialog hides part of their sides`, () => {
  const { all, focus } = structureOf('mc-copy');
  const boxes = all.filter((node) => node.heuristic === BOX_HEURISTIC);
  assert.deepEqual(
    boxes.map((node) => [node.role, node.name, node.bounds]),
    [
      ['panel', '~/panels/files', { x: 0, y: 1, w: 50, h: 26 }],
      ['panel', '~/panels/files', { x: 50, y: 1, w: 50, h: 26 }],
      ['dialog', 'Copy', { x: 17, y: 7, w: 66, h: 12 }],
    ],
  );
  // The panels' tables keep their rows, and no cell holds the dialog's text.
  const rows = all.filter((node) => node.role === 'row' && node.bounds!.x === 1);
  assert.deepEqual(rows.map((row) => row.name), ['/.. UP--DIR Nov 23 01:39', 'a.txt 0 Nov 23 01:39', 'b.txt 0 Nov 23 01:39']);
  // The dialog has the keyboard: its buttons, with mc's default button "[< OK >]", and the field under the cursor focused.
  const dialog = boxes[2]!;
  assert.deepEqual(flattenNodes([dialog]).filter((node) => node.role === 'button').map((node) => node.name), ['OK', 'Background', 'Cancel']);
  const field = all.find((node) => node.id === focus);
  assert.equal(field?.role, 'textbox');
  assert.equal(field?.name, 'to');
  assert.match(field?.value ?? '', /\/panels\/files\/$/);
  assert.ok(flattenNodes([dialog]).some((child) => child.id === focus), 'the focused field is inside the dialog');
});
