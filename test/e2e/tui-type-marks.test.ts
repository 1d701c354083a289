// A file manager's current entry whose name is highlighted but not the type mark after it (nnn's "sub/": "sub" on
// the cursor's colour, "/" not) is the list's selected item; nnn's own "N/M" position in its status line says
// which entry is current.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

test('nnn: the entry under its cursor is the selected, focused list item, "sub/" included; Down moves both', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-marks-'));
  mkdirSync(join(directory, 'sub'));
  writeFileSync(join(directory, 'a.txt'), 'a\n');
  writeFileSync(join(directory, 'b.txt'), 'b\n');
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', 'exec nnn'], cwd: directory, session: 'nnn' });
  await callOk(context, 'tui_wait_for', { text: 'b.txt', all: [{ text: '1/3' }], session: 'nnn' });
  const current = async () => nodes(await callOk(context, 'tui_snapshot', { session: 'nnn' })).filter((node) => node.role === 'listitem' && node.selected === true);
  const first = await current();
  assert.deepEqual(first.map((node) => node.name), ['sub/'], 'nnn says 1/3: the directory is current');
  assert.equal(first[0]!.focused, true);
  await callOk(context, 'tui_press', { key: 'Down', session: 'nnn' });
  await callOk(context, 'tui_wait_for', { text: '2/3', session: 'nnn' });
  assert.deepEqual((await current()).map((node) => node.name), ['a.txt'], 'nnn says 2/3');
  await callOk(context, 'tui_stop', { session: 'nnn' });
});
