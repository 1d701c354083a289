// A text field drawn with a fill for its empty part (lynx's "Name: Ada_____"): its value is what was typed, not the
// fill; underscores typed before the cursor (a shell command) stay. The raw screen shows the fill is there.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

async function focusedField(session: string) {
  return nodes(await callOk(context, 'tui_snapshot', { session })).find((node) => node.role === 'textbox' && node.focused);
}

test('lynx: a form field\'s value is the typed text without its underscore fill, and a button after it on its row is not in it; a shell line keeps typed underscores', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-fill-'));
  writeFileSync(join(directory, 'form.html'), '<html><body><form><p>Name: <input name="n" size="20"></p><p><input type="checkbox" name="c"> Agree</p><input type="submit"></form></body></html>');
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', 'exec lynx -nocolor form.html'], cwd: directory, session: 'lynx' });
  await callOk(context, 'tui_wait_for', { text: 'Name:', session: 'lynx' });
  await callOk(context, 'tui_type', { text: 'Ada', session: 'lynx' });
  await callOk(context, 'tui_wait_for', { text: 'Name: Ada___', session: 'lynx' });
  assert.equal((await focusedField('lynx'))?.value, 'Ada');
  await callOk(context, 'tui_stop', { session: 'lynx' });

  // A field and its Submit button on one row: the field ends with its fill, the button is not in its value.
  writeFileSync(join(directory, 'inline.html'), '<html><body><form>Name: <input name="n" size="20"> <input type="submit" value="Send"></form></body></html>');
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', 'exec lynx -nocolor inline.html'], cwd: directory, session: 'inline' });
  await callOk(context, 'tui_wait_for', { text: 'Send', session: 'inline' });
  await callOk(context, 'tui_type', { text: 'Ada', session: 'inline' });
  await callOk(context, 'tui_wait_for', { text: 'Name: Ada___', session: 'inline' });
  const field = await focusedField('inline');
  const row = ((await callOk(context, 'tui_render_text', { session: 'inline' })).structured.lines as string[])[field!.bounds!.y]!;
  assert.deepEqual([field?.value, field!.bounds!.x + field!.bounds!.w], ['Ada', row.lastIndexOf('_') + 1]);
  await callOk(context, 'tui_stop', { session: 'inline' });

  await start({ command: 'bash', args: ['--norc', '--noprofile'], cwd: directory, session: 'shell', env: { PS1: '$ ' } });
  await callOk(context, 'tui_wait_for', { text: '$ ', session: 'shell' });
  await callOk(context, 'tui_type', { text: 'echo a__', session: 'shell' });
  await callOk(context, 'tui_wait_for', { text: '$ echo a__', session: 'shell' });
  assert.equal((await focusedField('shell'))?.value, 'echo a__');
  await callOk(context, 'tui_stop', { session: 'shell' });
});

test('whiptail: an input box\'s field, a strip of colour filled with underscores, holds the text whiptail answers with', async () => {
  await start({ command: 'whiptail', args: ['--title', 'Login', '--inputbox', 'User name:', '10', '40', 'ada'], session: 'newt' });
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox focus', session: 'newt' });
  const row = async (y: number) => ((await callOk(context, 'tui_render_text', { session: 'newt' })).structured.lines as string[])[y]!;
  const first = await focusedField('newt');
  assert.match(await row(first!.bounds!.y), /ada_{10,}/, 'the screen draws the fill');
  assert.equal(first?.value, 'ada');
  await callOk(context, 'tui_type', { text: ' lovelace_x', session: 'newt' });
  await callOk(context, 'tui_wait_for', { text: 'lovelace_x_', session: 'newt' });
  const typed = (await focusedField('newt'))?.value;
  await callOk(context, 'tui_press', { key: 'Enter', session: 'newt' });
  await callOk(context, 'tui_wait_for', { exited: true, session: 'newt' });
  // whiptail prints the answer (to the terminal, its stderr) as it exits: the value the field held.
  const answer = ((await callOk(context, 'tui_render_text', { session: 'newt' })).structured.lines as string[]).find((line) => line.trim() !== '');
  assert.equal(answer?.trim(), 'ada lovelace_x');
  assert.equal(typed, answer?.trim());
});
