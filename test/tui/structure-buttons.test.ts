import assert from 'node:assert/strict';
import { test } from 'node:test';
import { BUTTON_HEURISTIC } from '../../src/tui/structure/index.js';
import { structureOf } from './helpers.js';

function buttons(name: string) {
  return structureOf(name).all.filter((node) => node.heuristic === BUTTON_HEURISTIC);
}

test(`${BUTTON_HEURISTIC}: dialog --yesno has Yes and No; the highlighted Yes is selected and focused`, () => {
  const found = buttons('dialog-yesno');
  assert.deepEqual(found.map((node) => node.name), ['Yes', 'No']);
  assert.equal(found[0]!.selected, true);
  assert.equal(found[0]!.focused, true);
  assert.equal(found[1]!.selected, undefined);
  assert.equal(structureOf('dialog-yesno').focus, found[0]!.id);
});

test(`${BUTTON_HEURISTIC}: whiptail's unpadded <Yes>/<No> and <Ok>/<Cancel>`, () => {
  assert.deepEqual(buttons('whiptail-yesno').map((node) => [node.name, node.selected ?? false]), [['Yes', true], ['No', false]]);
  // In a whiptail menu the list has the focus and no button is lit.
  assert.deepEqual(buttons('whiptail-menu').map((node) => [node.name, node.selected ?? false]), [['Ok', false], ['Cancel', false]]);
});

test(`${BUTTON_HEURISTIC}: bounds cover the brackets so a click lands on the label`, () => {
  const ok = buttons('dialog-inputbox').find((node) => node.name === 'OK')!;
  assert.deepEqual(ok.bounds, { x: 27, y: 13, w: 8, h: 1 });
});

test(`${BUTTON_HEURISTIC}: text output with brackets (htop's "[Main] [I/O]" tabs, vim's text) makes no buttons`, () => {
  assert.equal(buttons('htop').length, 0);
  assert.equal(buttons('vim').length, 0);
});
