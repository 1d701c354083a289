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

test('lynx: a form field\'s value is the typed text without its underscore fill; a shell line keeps typed underscores', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-fill-'));
  writeFileSync(join(directory, 'form.html'), '<html><body><form><p>Name: <input name="n" size="20"></p><p><input type="checkbox" name="c"> Agree</p><input type="submit"></form></body></html>');
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', 'exec lynx -nocolor form.html'], cwd: directory, session: 'lynx' });
  await callOk(context, 'tui_wait_for', { text: 'Name:', session: 'lynx' });
  await callOk(context, 'tui_type', { text: 'Ada', session: 'lynx' });
  await callOk(context, 'tui_wait_for', { text: 'Name: Ada___', session: 'lynx' });
  assert.equal((await focusedField('lynx'))?.value, 'Ada');
  await callOk(context, 'tui_stop', { session: 'lynx' });

  await start({ command: 'bash', args: ['--norc', '--noprofile'], cwd: directory, session: 'shell', env: { PS1: '$ ' } });
  await callOk(context, 'tui_wait_for', { text: '$ ', session: 'shell' });
  await callOk(context, 'tui_type', { text: 'echo a__', session: 'shell' });
  await callOk(context, 'tui_wait_for', { text: '$ echo a__', session: 'shell' });
  assert.equal((await focusedField('shell'))?.value, 'echo a__');
  await callOk(context, 'tui_stop', { session: 'shell' });
});
