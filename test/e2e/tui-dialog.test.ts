import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { UINode } from '../../src/tui/ui-node.js';
import { callOk } from '../helpers/tools.js';
import { exitCode, nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

async function tree(session: string): Promise<UINode[]> {
  return nodes(await callOk(context, 'tui_snapshot', { session }));
}

test('dialog --menu: items and the selected one recognised; choose one and read the exit status and the answer', async () => {
  await start({ command: 'dialog', args: ['--title', 'Fruit', '--menu', 'Pick a fruit', '15', '50', '4', 'apple', 'Red', 'banana', 'Yellow', 'cherry', 'Small'], session: 'menu' });
  // dialog draws its buttons after its list: the screen is read once both are there.
  await callOk(context, 'tui_wait_for', { selector: 'role=dialog name=Fruit >> role=listitem selected', all: [{ selector: 'role=button name=Cancel' }], session: 'menu' });
  const all = await tree('menu');
  const items = all.filter((node) => node.role === 'listitem');
  assert.deepEqual(items.map((item) => item.name), ['apple Red', 'banana Yellow', 'cherry Small']);
  assert.deepEqual(items.map((item) => item.selected ?? false), [true, false, false]);
  assert.deepEqual(all.filter((node) => node.role === 'button').map((node) => node.name), ['OK', 'Cancel']);

  const focus = await callOk(context, 'tui_focus', { selector: 'role=listitem name~=cherry', session: 'menu' });
  assert.equal(focus.structured.method, 'keys');
  const after = (await tree('menu')).filter((node) => node.role === 'listitem');
  assert.deepEqual(after.map((item) => item.selected ?? false), [false, false, true]);
  await callOk(context, 'tui_press', { key: 'Enter', session: 'menu' });
  assert.equal(await exitCode(context, 'menu'), 0);
  // dialog prints the chosen tag on stderr, which is the terminal.
  const text = await callOk(context, 'tui_render_text', { session: 'menu' });
  assert.ok((text.structured.lines as string[]).some((line) => line.includes('cherry')));
  await callOk(context, 'tui_stop', { session: 'menu' });
});

test('dialog --yesno: Yes and No recognised, Yes focused; choosing No exits with status 1', async () => {
  await start({ command: 'dialog', args: ['--title', 'Confirm', '--yesno', 'Delete all files?', '7', '40'], session: 'yesno' });
  await callOk(context, 'tui_wait_for', { selector: 'role=button name=Yes focus', session: 'yesno' });
  const buttons = (await tree('yesno')).filter((node) => node.role === 'button');
  assert.deepEqual(buttons.map((node) => [node.name, node.focused ?? false]), [['Yes', true], ['No', false]]);
  const focus = await callOk(context, 'tui_focus', { selector: 'role=button name=No', session: 'yesno' });
  assert.equal(focus.structured.method, 'keys');
  await callOk(context, 'tui_expect', { selector: 'role=button name=No', predicate: { flag: 'focus' }, session: 'yesno' }).then((result) => assert.equal(result.structured.result, true));
  await callOk(context, 'tui_press', { key: 'Enter', session: 'yesno' });
  assert.equal(await exitCode(context, 'yesno'), 1);
  await callOk(context, 'tui_stop', { session: 'yesno' });
});

test('dialog --checklist: checkboxes with their state; Space toggles the selected one', async () => {
  await start({ command: 'dialog', args: ['--checklist', 'Toppings', '12', '50', '3', 'cheese', 'Cheese', 'on', 'ham', 'Ham', 'off'], session: 'check' });
  await callOk(context, 'tui_wait_for', { selector: 'role=checkbox name~=ham', session: 'check' });
  const before = (await tree('check')).filter((node) => node.role === 'checkbox');
  assert.deepEqual(before.map((node) => [node.name, node.checked]), [['cheese Cheese', true], ['ham Ham', false]]);
  await callOk(context, 'tui_focus', { selector: 'role=checkbox name~=ham', session: 'check' });
  await callOk(context, 'tui_press', { key: 'Space', session: 'check' });
  await callOk(context, 'tui_wait_for', { selector: 'role=checkbox name~=ham checked', session: 'check' });
  await callOk(context, 'tui_press', { key: 'Enter', session: 'check' });
  assert.equal(await exitCode(context, 'check'), 0);
  await callOk(context, 'tui_stop', { session: 'check' });
});

test('whiptail --menu and --yesno: the same recognition on another toolkit (newt)', async () => {
  await start({ command: 'whiptail', args: ['--title', 'Colours', '--menu', 'Choose a colour', '15', '50', '3', 'red', 'Warm', 'green', 'Natural', 'blue', 'Cool'], session: 'wmenu' });
  await callOk(context, 'tui_wait_for', { selector: 'role=dialog name=Colours >> role=listitem selected', session: 'wmenu' });
  assert.deepEqual((await tree('wmenu')).filter((node) => node.role === 'listitem').map((node) => [node.name, node.selected ?? false]), [
    ['red Warm', true], ['green Natural', false], ['blue Cool', false],
  ]);
  await callOk(context, 'tui_focus', { selector: 'role=listitem name^=blue', session: 'wmenu' });
  await callOk(context, 'tui_press', { key: 'Enter', session: 'wmenu' });
  assert.equal(await exitCode(context, 'wmenu'), 0);
  await callOk(context, 'tui_stop', { session: 'wmenu' });

  await start({ command: 'whiptail', args: ['--yesno', 'Continue the installation?', '8', '45'], session: 'wyesno' });
  await callOk(context, 'tui_wait_for', { selector: 'role=button name=Yes selected', session: 'wyesno' });
  await callOk(context, 'tui_press', { key: 'Tab', session: 'wyesno' });
  await callOk(context, 'tui_wait_for', { selector: 'role=button name=No focus', session: 'wyesno' });
  await callOk(context, 'tui_press', { key: 'Enter', session: 'wyesno' });
  assert.equal(await exitCode(context, 'wyesno'), 1);
  await callOk(context, 'tui_stop', { session: 'wyesno' });
});

test('dialog --inputbox: the field is a textbox on the row inside its frame, and stays one (unfocused) after Tab moves the focus to OK; dialog answers with its value', async () => {
  // dialog writes the answer on stderr: to a file, the usual way, read back from the disk.
  const answer = join(mkdtempSync(join(tmpdir(), 'cup-dialog-')), 'answer');
  await start({ command: 'sh', args: ['-c', 'dialog --inputbox "Your name" 10 40 Bob 2>"$0"', answer], session: 'input' });
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox focus', all: [{ selector: 'role=button name=Cancel' }], session: 'input' });
  const field = (await tree('input')).find((node) => node.role === 'textbox')!;
  assert.deepEqual([field.name, field.value, field.bounds!.h], ['Your name', 'Bob', 1]);
  // The raw screen: the field's row is the one holding "Bob", between the frame's sides.
  const lines = (await callOk(context, 'tui_render_text', { session: 'input' })).structured.lines as string[];
  const { x, y, w } = field.bounds!;
  assert.equal(lines[y]!.slice(x, x + w).trim(), 'Bob');
  assert.match(`${lines[y]![x - 1]}${lines[y]![x + w]}`, /^[│|]{2}$/);

  await callOk(context, 'tui_press', { key: 'Tab', session: 'input' });
  await callOk(context, 'tui_wait_for', { selector: 'role=button name=OK focus', session: 'input' });
  const after = (await tree('input')).filter((node) => node.role === 'textbox');
  assert.deepEqual(after.map((node) => [node.name, node.value, node.bounds, node.focused ?? false]), [['Your name', 'Bob', field.bounds, false]]);
  await callOk(context, 'tui_press', { key: 'Enter', session: 'input' });
  assert.equal(await exitCode(context, 'input'), 0);
  assert.equal(readFileSync(answer, 'utf8'), field.value, 'dialog answers with the value the snapshot read');
  await callOk(context, 'tui_stop', { session: 'input' });
});
