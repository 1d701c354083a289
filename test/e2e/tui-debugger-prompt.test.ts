// A debugger's prompt, a word in parentheses ("(gdb) ", "(Pdb) "), is the focused field where commands are
// typed, as a shell's "$ " is. The oracle is the debugger's own answer to what was typed into that field.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { nodes, PYTHON, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

async function focusedField(session: string) {
  return nodes(await callOk(context, 'tui_snapshot', { session })).find((node) => node.focused);
}

test('gdb and pdb: the "(gdb)" and "(Pdb)" prompts are focused fields holding what is typed; the debugger answers it', async () => {
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', 'exec gdb -q -nx'], session: 'gdb' });
  await callOk(context, 'tui_wait_for', { text: '(gdb)', all: [{ stableMs: 200 }], session: 'gdb' });
  assert.deepEqual(await focusedField('gdb').then((node) => [node?.role, node?.name, node?.value]), ['textbox', '(gdb)', '']);
  await callOk(context, 'tui_type', { text: 'print 6*7', session: 'gdb' });
  await callOk(context, 'tui_wait_for', { text: '(gdb) print 6*7', session: 'gdb' });
  assert.equal((await focusedField('gdb'))?.value, 'print 6*7');
  await callOk(context, 'tui_type', { text: '\n', session: 'gdb' });
  await callOk(context, 'tui_wait_for', { text: '$1 = 42', session: 'gdb' });
  await callOk(context, 'tui_stop', { session: 'gdb' });

  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-pdb-'));
  writeFileSync(join(directory, 'area.py'), 'w, h = 6, 7\nprint(w * h)\n');
  await start({ command: PYTHON, args: ['-m', 'pdb', 'area.py'], cwd: directory, env: { PYTHONDONTWRITEBYTECODE: '1' }, session: 'pdb' });
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox name="(Pdb)" focus', session: 'pdb' });
  await callOk(context, 'tui_type', { text: 'next\n', session: 'pdb' });
  await callOk(context, 'tui_wait_for', { newText: '(Pdb)', session: 'pdb' });
  await callOk(context, 'tui_type', { text: 'p w * h', session: 'pdb' });
  await callOk(context, 'tui_wait_for', { text: '(Pdb) p w * h', session: 'pdb' });
  assert.deepEqual(await focusedField('pdb').then((node) => [node?.name, node?.value]), ['(Pdb)', 'p w * h']);
  await callOk(context, 'tui_type', { text: '\n', session: 'pdb' });
  await callOk(context, 'tui_wait_for', { newText: '42', session: 'pdb' });
  await callOk(context, 'tui_stop', { session: 'pdb' });
});
