// Editors whose buffer shows numbered lines and lights the current one (micro): the buffer reads as a text
// area of lines, the cursor's line focused, never as a list with a selected row. The oracle is the file the
// editor writes.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

test('micro: the buffer is a text area whose focused line follows the cursor; typing there edits the file', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-micro-'));
  const file = join(directory, 'memo.txt');
  writeFileSync(file, 'first line\nsecond line\nthird line\n');
  // micro keeps its settings under HOME: a fresh one, so the user's own settings cannot change the screen.
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', `exec micro ${file}`], cwd: directory, env: { HOME: directory }, session: 'micro' });
  await callOk(context, 'tui_wait_for', { selector: 'role=textarea >> role=text name="first line" focus', session: 'micro' });
  const before = nodes(await callOk(context, 'tui_snapshot', { session: 'micro' }));
  assert.deepEqual(before.filter((node) => node.role === 'listitem' || node.selected).map((node) => node.name), []);
  assert.deepEqual(before.find((node) => node.role === 'textarea')!.children!.map((line) => line.name), ['first line', 'second line', 'third line', '']);

  await callOk(context, 'tui_press', { key: 'Down', session: 'micro' });
  await callOk(context, 'tui_wait_for', { selector: 'role=textarea >> role=text name="second line" focus', session: 'micro' });
  await callOk(context, 'tui_type', { text: 'the ', session: 'micro' });
  await callOk(context, 'tui_wait_for', { selector: 'role=textarea >> role=text name="the second line" focus', session: 'micro' });
  await callOk(context, 'tui_press', { key: 'ctrl+s', session: 'micro' });
  await callOk(context, 'tui_wait_for', { text: 'Saved', session: 'micro' });
  assert.equal(readFileSync(file, 'utf8'), 'first line\nthe second line\nthird line\n');
  await callOk(context, 'tui_stop', { session: 'micro' });
});
