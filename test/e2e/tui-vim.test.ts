import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { exitCode, nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

test('vim: open a file, insert text, :wq, and the file on disk has the text', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-vim-'));
  const file = join(directory, 'notes.txt');
  writeFileSync(file, 'first line\n');
  // -u NONE: no user or system vimrc, so the test sees vim's own defaults on any machine.
  await start({ command: 'vim', args: ['-u', 'NONE', '-N', '-n', file], cwd: directory });
  await callOk(context, 'tui_wait_for', { selector: 'role=text name="first line"', all: [{ stableMs: 100 }] });
  const before = await callOk(context, 'tui_snapshot');
  assert.equal(before.structured.alternateScreen, true);
  await callOk(context, 'tui_press_sequence', { keys: ['G', 'o'] });
  await callOk(context, 'tui_type', { text: 'second line, typed by cup-driver ✓' });
  await callOk(context, 'tui_press', { key: 'Escape' });
  await callOk(context, 'tui_wait_for', { text: 'typed by cup-driver ✓' });
  // Arrow keys in application mode move the cursor too: Up then insert at the line start.
  await callOk(context, 'tui_press_sequence', { keys: ['Up', 'I'] });
  await callOk(context, 'tui_type', { text: '> ' });
  await callOk(context, 'tui_press', { key: 'Escape' });
  await callOk(context, 'tui_wait_for', { selector: 'role=text name="> first line"' });
  await callOk(context, 'tui_type', { text: ':wq\n' });
  assert.equal(await exitCode(context), 0);
  assert.equal(readFileSync(file, 'utf8'), '> first line\nsecond line, typed by cup-driver ✓\n');
  const after = await callOk(context, 'tui_snapshot');
  assert.equal(after.structured.alternateScreen, false, 'vim restored the normal screen');
  assert.ok(!nodes(after).some((node) => node.name.includes('first line')));
  await callOk(context, 'tui_stop');
});
