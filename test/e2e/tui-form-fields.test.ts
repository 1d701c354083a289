// A form's fields without focus are textboxes too: dialog --form draws them as strips in another colour than
// the focused one, in the same column and width. Judged by dialog itself: the values it prints on OK are
// the values read, field by field.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { exitCode, nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

async function fields(): Promise<{ name: string; value: string; focused: boolean }[]> {
  return nodes(await callOk(context, 'tui_snapshot'))
    .filter((node) => node.role === 'textbox')
    .map((node) => ({ name: node.name, value: node.value === undefined ? '' : String(node.value), focused: node.focused ?? false }));
}

test('dialog --form: every field is a textbox with its label and value, the focused one focused; dialog prints the same values', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-form-'));
  const answer = join(directory, 'answer.txt');
  const form = `dialog --form Account 15 60 4 Name: 1 1 Ada 1 12 30 0 Email: 2 1 '' 2 12 30 0 City: 3 1 London 3 12 30 0 2>${answer}`;
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', form], cwd: directory });
  // dialog draws its buttons, then moves the cursor into the first field in a write of its own: the focus is waited for too.
  await callOk(context, 'tui_wait_for', { selector: 'role=button name=Cancel', all: [{ selector: 'role=textbox focus' }] });
  assert.deepEqual(await fields(), [
    { name: 'Name', value: 'Ada', focused: true },
    { name: 'Email', value: '', focused: false },
    { name: 'City', value: 'London', focused: false },
  ]);
  await callOk(context, 'tui_press', { key: 'Down' });
  await callOk(context, 'tui_type', { text: 'ada@example.org' });
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox name=Email focus value=ada@example.org', all: [{ stableMs: 100 }] });
  const read = await fields();
  assert.deepEqual(read.map((field) => field.focused), [false, true, false]);
  await callOk(context, 'tui_press', { key: 'Enter' });
  assert.equal(await exitCode(context), 0);
  assert.deepEqual(readFileSync(answer, 'utf8').split('\n').slice(0, 3), read.map((field) => field.value));
  await callOk(context, 'tui_stop');
});
