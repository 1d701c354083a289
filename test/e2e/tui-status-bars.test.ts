// Status bars stacked two deep at the top and at the bottom of the screen (lnav: its clock over its
// breadcrumbs, its "Files :: Text Filters" tab bar over its "L2 100%" line) are status lines, not a list's
// header and selected item. The judges are lnav's own rows (as tui_render_text gives them) and the log file.
// A mode line drawn with dashes instead of a highlight (hexedit's) is a status line too, and follows the cursor.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

test('lnav: the bars over and under the log are status lines; no log line or bar is taken for a selected item', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-lnav-'));
  const log = join(directory, 'app.log');
  writeFileSync(log, 'Nov 30 10:00:01 host app[1]: starting\nNov 30 10:00:02 host app[1]: error: disk full\nNov 30 10:00:03 host app[1]: warning: retry\nNov 30 10:00:04 host app[1]: done\n');
  const session = 'lnav';
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', 'exec lnav app.log'], cwd: directory, env: { HOME: directory }, cols: 100, rows: 20, session });
  await callOk(context, 'tui_wait_for', { text: 'Text Filters', all: [{ text: 'app.log' }, { stableMs: 500 }], session, timeoutMs: 20_000 });
  const all = nodes(await callOk(context, 'tui_snapshot', { session }));
  const lines = (await callOk(context, 'tui_render_text', { session })).structured.lines as string[];
  const statusRows = all.filter((node) => node.role === 'status').map((node) => node.bounds!.y).sort((a, b) => a - b);
  // lnav's bars: the two top rows and the two rows above its message line.
  const barRows = [0, 1, lines.length - 3, lines.length - 2];
  assert.deepEqual(statusRows, barRows);
  for (const y of barRows) {
    const bar = all.find((node) => node.role === 'status' && node.bounds!.y === y)!;
    assert.equal(bar.name, lines[y]!.trim().replace(/\s+/g, ' '));
  }
  assert.deepEqual(all.filter((node) => node.selected).map((node) => node.name), []);
  // The log's lines lnav shows are read as they are in the file.
  const shown = readFileSync(log, 'utf8').trim().split('\n').filter((line) => lines.some((row) => row.includes(line)));
  assert.ok(shown.length > 0);
  for (const line of shown) assert.ok(all.some((node) => node.name.includes(line)), `no node reads ${line}`);
  await callOk(context, 'tui_stop', { session });
});

test('hexedit: its bottom mode line of dashes (file name, offset, percentage) is a status line whose offset and changed mark follow the cursor and typing', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-hexedit-'));
  const file = join(directory, 'data.bin');
  writeFileSync(file, Buffer.from(Array.from({ length: 600 }, (_, index) => index % 256)));
  // The oracles: hexedit's own bottom row, and the file's size that row shows as the end offset.
  const size = statSync(file).size.toString(16);
  const session = 'hexedit';
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', 'exec hexedit data.bin'], cwd: directory, env: { HOME: directory }, cols: 80, rows: 24, session });
  await callOk(context, 'tui_wait_for', { text: `0x0/0x${size}`, all: [{ text: 'data.bin' }], session });
  const read = async () => {
    const lines = (await callOk(context, 'tui_render_text', { session })).structured.lines as string[];
    const statuses = nodes(await callOk(context, 'tui_snapshot', { session })).filter((node) => node.role === 'status');
    return { bottom: lines[lines.length - 1]!.trim().replace(/\s+/g, ' '), statuses };
  };
  const first = await read();
  assert.deepEqual(first.statuses.map((node) => node.name), [first.bottom]);
  assert.equal(first.statuses[0]!.bounds!.y, 23);
  assert.match(first.statuses[0]!.name, new RegExp(`data\\.bin .*0x0/0x${size}`));
  // One row down is 0x10 bytes on: the status node's offset is the one hexedit now shows.
  await callOk(context, 'tui_press', { key: 'Down', session });
  await callOk(context, 'tui_wait_for', { selector: `role=status name~=0x10/0x${size}`, session });
  const moved = await read();
  assert.deepEqual(moved.statuses.map((node) => node.name), [moved.bottom]);
  assert.match(moved.bottom, new RegExp(`0x10/0x${size}`));
  // Typing a byte changes the buffer: hexedit marks its mode line `-**` and moves on one byte; still the status line.
  await callOk(context, 'tui_type', { text: '41', session });
  await callOk(context, 'tui_wait_for', { selector: `role=status name~=0x11/0x${size}`, session });
  const changed = await read();
  assert.deepEqual(changed.statuses.map((node) => node.name), [changed.bottom]);
  assert.match(changed.bottom, /^-\*\* data\.bin/);
  await callOk(context, 'tui_stop', { session });
});
