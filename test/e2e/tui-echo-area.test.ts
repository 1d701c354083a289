// Editors of the emacs family draw their status (the mode line) just above a message line, the echo area,
// that is rarely blank: the mode line is still the status line, and the message stays text of its own.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

test('mg: the mode line over the echo area is the status line; edit, save, and the file on disk has the edit', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-mg-'));
  const file = join(directory, 'notes.txt');
  writeFileSync(file, 'first line\nsecond line\n');
  // mg is not on the default allowlist, so a shell starts it, as an agent would; HOME is the fresh
  // directory, so no startup file of the machine's changes what mg draws.
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', `exec mg '${file}'`], cwd: directory, env: { HOME: directory }, session: 'mg' });
  await callOk(context, 'tui_wait_for', { text: 'second line', stableMs: 100, session: 'mg' });
  const before = nodes(await callOk(context, 'tui_snapshot', { session: 'mg' }));
  const status = before.filter((node) => node.role === 'status');
  assert.equal(status.length, 1, `one status line: ${JSON.stringify(before.map((node) => [node.role, node.name]))}`);
  assert.match(status[0]!.name, /Mg: notes\.txt/);
  assert.equal(status[0]!.bounds?.y, 22, 'the mode line is the row above the echo area');

  await callOk(context, 'tui_press', { key: 'ctrl+e', session: 'mg' });
  await callOk(context, 'tui_type', { text: ' edited', session: 'mg' });
  await callOk(context, 'tui_wait_for', { selector: 'role=status name~="Mg: notes.txt"', session: 'mg' });
  await callOk(context, 'tui_press_sequence', { keys: ['ctrl+x', 'ctrl+s'], session: 'mg' });
  await callOk(context, 'tui_wait_for', { selector: 'role=text name^=Wrote', session: 'mg' });
  assert.equal(readFileSync(file, 'utf8'), 'first line edited\nsecond line\n');
  await callOk(context, 'tui_stop', { session: 'mg' });
});
