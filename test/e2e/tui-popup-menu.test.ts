// A popup menu drawn in a face of its own with its current item in another (emacs's F10 menus: blue rows, the
// current one red) has that one item selected, not every row of the popup's colour. An agent moves to an item with
// tui_focus and activates it; the oracle is emacs's own prompt and then the file it saves.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

test('emacs: the F10 menu has one selected item, the current one; tui_focus moves to "Insert File...", Enter runs it', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-emacs-'));
  const file = join(directory, 'notes.txt');
  writeFileSync(file, 'first line\n');
  writeFileSync(join(directory, 'other.txt'), 'inserted words\n');
  const session = 'emacs';
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', `exec emacs -nw -Q '${file}'`], cwd: directory, env: { HOME: directory }, cols: 100, rows: 30, session });
  await callOk(context, 'tui_wait_for', { text: 'first line', all: [{ stableMs: 200 }], session });
  await callOk(context, 'tui_press', { key: 'F10', session });
  await callOk(context, 'tui_wait_for', { text: 'Visit New File', all: [{ stableMs: 200 }], session });
  const menu = nodes(await callOk(context, 'tui_snapshot', { session })).filter((node) => node.role === 'listitem');
  assert.deepEqual(menu.filter((node) => node.selected).map((node) => node.name), [menu[0]!.name]);
  assert.match(menu[0]!.name, /^Visit New File/);

  await callOk(context, 'tui_focus', { selector: 'role=listitem name^="Insert File"', session });
  const after = nodes(await callOk(context, 'tui_snapshot', { session })).filter((node) => node.selected);
  assert.deepEqual(after.map((node) => node.name.replace(/\s+C-x i$/, '')), ['Insert File...']);
  await callOk(context, 'tui_press', { key: 'Enter', session });
  await callOk(context, 'tui_wait_for', { text: 'Insert file:', session });
  await callOk(context, 'tui_type', { text: 'other.txt\n', session });
  await callOk(context, 'tui_wait_for', { text: 'inserted words', session });
  await callOk(context, 'tui_press_sequence', { keys: ['ctrl+x', 'ctrl+s'], session });
  await callOk(context, 'tui_wait_for', { text: 'Wrote', session });
  assert.equal(readFileSync(file, 'utf8'), 'inserted words\nfirst line\n');
  await callOk(context, 'tui_stop', { session });
});

test('elinks: a select\'s popup of two options, one lit, has that one selected (not the other, on the popup\'s own colour); the option focused is the one elinks puts in the field', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-elinks-'));
  writeFileSync(join(directory, 'form.html'), '<html><head><title>Order</title></head><body><h1>Order form</h1><form action="done.html"><p>Name: <input type="text" name="name"></p><p>Size: <select name="size"><option>Small</option><option>Large</option></select></p></form></body></html>');
  const session = 'elinks';
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', 'exec elinks -no-home 1 form.html'], cwd: directory, env: { HOME: directory }, cols: 80, rows: 24, session });
  await callOk(context, 'tui_wait_for', { text: 'Order form', all: [{ stableMs: 200 }], session });
  // Down moves from the text field to the select; Enter opens its popup.
  await callOk(context, 'tui_press', { key: 'Down', session });
  await callOk(context, 'tui_wait_for', { text: 'Select field', session });
  await callOk(context, 'tui_press', { key: 'Enter', session });
  await callOk(context, 'tui_wait_for', { selector: 'role=listitem name=Large', all: [{ stableMs: 200 }], session });
  const options = nodes(await callOk(context, 'tui_snapshot', { session })).filter((node) => node.role === 'listitem');
  assert.deepEqual(options.map((node) => node.name), ['Small', 'Large']);
  // The oracle: Enter puts the current option into the field, [_Small_] until another is chosen.
  assert.deepEqual(options.filter((node) => node.selected).map((node) => node.name), ['Small']);
  const focus = await callOk(context, 'tui_focus', { selector: 'role=listitem name=Large', session });
  assert.equal(focus.structured.method, 'keys');
  await callOk(context, 'tui_press', { key: 'Enter', session });
  await callOk(context, 'tui_wait_for', { text: '[_Large_]', session });
  await callOk(context, 'tui_stop', { session });
});
