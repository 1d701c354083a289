// Emoji take two cells, as the programs drawing them count (glibc's wcwidth, vim's own table): the screen
// the driver reads must put every later character where the program put it.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

test('vim: lines with emoji read as the file holds them, and the cursor sits where vim counts it', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-wide-'));
  const file = join(directory, 'todo.txt');
  writeFileSync(file, '😀 hello world\n✅ done | next 👍🏽 ok\nplain line\n');
  const lines = readFileSync(file, 'utf8').split('\n');
  await start({ command: 'vim', args: ['-u', 'NONE', '-N', '-n', file], cwd: directory, cols: 60, rows: 10, session: 'wide' });
  await callOk(context, 'tui_wait_for', { text: 'plain line', stableMs: 100, session: 'wide' });
  // The text as the file holds it: before, each emoji was one cell and vim's next write left a gap.
  for (const line of lines.slice(0, 3)) await callOk(context, 'tui_wait_for', { text: line, timeoutMs: 1000, session: 'wide' });
  const text = await callOk(context, 'tui_render_text', { session: 'wide' });
  assert.deepEqual((text.structured.lines as string[]).slice(0, 3), lines.slice(0, 3));

  // vim's own count of the second line's display width, against the cursor the driver reads after $.
  await callOk(context, 'tui_press_sequence', { keys: ['j', '$'], session: 'wide' });
  // The command as typed holds no "W=" of its own: the wait can only meet vim's answer, not the command line before Return.
  await callOk(context, 'tui_type', { text: ':echo "W" . "=" . virtcol(".")\n', session: 'wide' });
  await callOk(context, 'tui_wait_for', { text: 'W=', session: 'wide' });
  const shown = await callOk(context, 'tui_render_text', { session: 'wide' });
  const width = Number(/W=(\d+)/.exec((shown.structured.lines as string[]).join('\n'))?.[1]);
  const snapshot = await callOk(context, 'tui_snapshot', { session: 'wide', format: 'json' });
  const cursor = (snapshot.structured.visual as { cursor: { x: number; y: number } }).cursor;
  // virtcol of the last character is the column of its last cell, from 1; the cursor sits on its first.
  assert.equal(cursor.x, width - 1, `vim counts the line ${width} columns wide`);
  assert.equal(cursor.y, 1);
  await callOk(context, 'tui_stop', { session: 'wide' });
});
