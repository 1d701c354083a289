import assert from 'node:assert/strict';
import { test } from 'node:test';
import { INPUT_HEURISTIC } from '../../src/tui/structure/index.js';
import { flattenNodes } from '../../src/tui/ui-node.js';
import { recordedScreen, structureOf } from './helpers.js';

function inputs(name: string) {
  return structureOf(name).all.filter((node) => node.heuristic === INPUT_HEURISTIC);
}

test(`${INPUT_HEURISTIC}: the bash prompt with the cursor is a focused text field named by the prompt`, () => {
  const [field] = inputs('bash');
  assert.deepEqual([field?.role, field?.name, field?.value, field?.focused], ['textbox', '$', '', true]);
  assert.equal(structureOf('bash').focus, field!.id);
});

test(`${INPUT_HEURISTIC}: python's continuation prompt "..." is a prompt too`, () => {
  const [field] = inputs('python');
  assert.deepEqual([field?.name, field?.bounds?.y], ['...', 2]);
});

test(`${INPUT_HEURISTIC}: dialog --inputbox: the one-row box with the cursor is the field, named by the label above`, () => {
  const [field] = inputs('dialog-inputbox');
  assert.deepEqual([field?.role, field?.name, field?.value, field?.focused], ['textbox', 'Your name', 'Ada', true]);
});

test(`${INPUT_HEURISTIC}: dialog --inputbox: the field's bounds are the row inside its frame, where the text is`, () => {
  const screen = recordedScreen('dialog-inputbox');
  const [field] = inputs('dialog-inputbox');
  const { x, y, w, h } = field!.bounds!;
  // The raw screen: the field's row holds "Ada" between the frame's sides, with the frame's top and bottom above and below it.
  assert.equal(h, 1);
  assert.equal(screen.lines[y]!.slice(x, x + w).trim(), 'Ada');
  assert.match(screen.lines[y]![x - 1]!, /[│|]/);
  assert.match(screen.lines[y]![x + w]!, /[│|]/);
  assert.match(screen.lines[y - 1]!.slice(x, x + w), /^─+$/);
  assert.match(screen.lines[y + 1]!.slice(x, x + w), /^─+$/);
});

test(`${INPUT_HEURISTIC}: mc's Copy dialog: the strip under "... source mask:" is a field holding "*", not a selected item of a list`, () => {
  const screen = recordedScreen('mc-copy');
  const { all } = structureOf('mc-copy');
  const dialog = all.find((node) => node.role === 'dialog' && node.name === 'Copy')!;
  const inDialog = flattenNodes([dialog]);
  assert.deepEqual(inDialog.filter((node) => node.role === 'list' || node.role === 'listitem').map((node) => node.name), []);
  // The raw screen: the label's row ends with ':', and the row under it holds "*".
  const labelRow = screen.lines.findIndex((line) => line.includes('with source mask:'));
  const field = inDialog.find((node) => node.role === 'textbox' && node.bounds!.y === labelRow + 1);
  assert.ok(field, 'a textbox under the label');
  assert.equal(field.value, screen.lines[labelRow + 1]!.slice(field.bounds!.x, field.bounds!.x + field.bounds!.w).trim());
  assert.equal(field.value, '*');
  assert.equal(field.name, 'Copy file "a.txt" with source mask');
  assert.ok(!field.focused, 'the cursor is in the "to" field, not this one');
});

test(`${INPUT_HEURISTIC}: a cursor on a button focuses the button; a cursor in vim's text is no prompt`, () => {
  assert.deepEqual(inputs('dialog-yesno'), []);
  assert.equal(structureOf('dialog-yesno').all.find((node) => node.focused)?.name, 'Yes');
  assert.deepEqual(inputs('vim'), [], 'vim: the cursor sits at "line 1:" but before the colon');
});

test(`${INPUT_HEURISTIC}: a field drawn with a fill ends with it: lynx's Submit button after the field on its row is not the field's text`, () => {
  const line = recordedScreen('lynx-inline-form').lines[1]!;
  const [field] = inputs('lynx-inline-form');
  // "   Name: ____________________ Submit": the field runs from its label to the last underscore.
  const fillEnd = line.lastIndexOf('_') + 1;
  assert.deepEqual([field?.name, field?.value, field?.bounds], ['Name:', '', { x: line.indexOf('Name'), y: 1, w: fillEnd - line.indexOf('Name'), h: 1 }]);
  assert.ok(structureOf('lynx-inline-form').all.some((node) => node.role === 'text' && node.name === 'Submit' && node.bounds?.x === line.indexOf('Submit')));
});

test(`${INPUT_HEURISTIC}: on the last row, text ending one blank before the cursor is a prompt whatever it ends with (emacs's "M-x ")`, () => {
  const screen = recordedScreen('emacs-mx');
  const [field] = inputs('emacs-mx');
  // The raw screen: "M-x " on the last row, the cursor right after it.
  assert.equal(screen.lines[23]!.trimEnd(), 'M-x');
  assert.deepEqual(screen.cursor.x, 4);
  assert.deepEqual([field?.role, field?.name, field?.value, field?.bounds?.y], ['textbox', 'M-x', '', 23]);
  assert.equal(structureOf('emacs-mx').focus, field!.id);
});

test(`${INPUT_HEURISTIC}: a name in square brackets opening the input line (irssi's "[(status)] ") is a prompt, with what was typed after it as the value`, () => {
  const { lines, cursor } = recordedScreen('irssi-typed');
  assert.equal(lines[cursor.y], '[(status)] /echo hello');
  const [field] = inputs('irssi-typed');
  assert.deepEqual([field?.role, field?.name, field?.value, field?.focused, field?.bounds?.y], ['textbox', '[(status)]', '/echo hello', true, cursor.y]);
  assert.equal(structureOf('irssi-typed').focus, field!.id);
});
