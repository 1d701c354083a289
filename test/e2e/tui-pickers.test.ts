// Pickers that point at the current item with a glyph of their own (fzf's ">"): the item keeps its name when
// the pointer is on it. The oracle is what the picker prints when it exits.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { exitCode, nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

test('fzf: the item under the pointer is named without it, selected, and reached by tui_focus; Enter picks it', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-fzf-'));
  writeFileSync(join(directory, 'fruits.txt'), 'apple\nbanana\ncherry\ndate\n');
  await start({ command: 'sh', args: ['-c', 'fzf --no-mouse < fruits.txt > picked.txt'], cwd: directory, session: 'fzf' });
  await callOk(context, 'tui_wait_for', { text: '4/4', session: 'fzf' });
  // fzf starts with its pointer on the first line, drawn "> apple".
  await callOk(context, 'tui_wait_for', { selector: 'role=listitem name=apple selected', session: 'fzf' });
  const items = nodes(await callOk(context, 'tui_snapshot', { session: 'fzf' })).filter((node) => node.role === 'listitem');
  assert.deepEqual(items.map((item) => [item.name, item.selected ?? false]), [['date', false], ['cherry', false], ['banana', false], ['apple', true]]);

  await callOk(context, 'tui_focus', { selector: 'role=listitem name=cherry', session: 'fzf' });
  await callOk(context, 'tui_wait_for', { selector: 'role=listitem name=cherry selected', all: [{ text: '> cherry' }], session: 'fzf' });
  await callOk(context, 'tui_press', { key: 'Enter', session: 'fzf' });
  assert.equal(await exitCode(context, 'fzf'), 0);
  assert.equal(readFileSync(join(directory, 'picked.txt'), 'utf8'), 'cherry\n');
  await callOk(context, 'tui_stop', { session: 'fzf' });
});
