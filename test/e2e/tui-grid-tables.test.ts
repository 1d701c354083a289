// Tables drawn as a grid of lines (├───┼───┤ under the header row), as query tools print results: the
// header row is the table's column headers, not a title of the box around it. Tables drawn with rules
// between their columns and no box around them (visidata's sheet) are tables too. So is a spreadsheet's grid
// (sc's), under a highlighted strip of column letters and beside one of row numbers, with its current cell.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { UINode } from '../../src/tui/ui-node.js';
import { callOk } from '../helpers/tools.js';
import { nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

test('sqlite3 .mode box: a query result is a table whose column headers and cells are sqlite\'s own', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-grid-'));
  const database = join(directory, 'shop.db');
  const setup = "create table fruit(name text, price int, colour text); insert into fruit values ('apple', 3, 'red'), ('kiwi', 12, 'green');";
  const query = 'select name, price, colour as "the colour" from fruit order by name;';
  execFileSync('sqlite3', [database, setup], { timeout: 10_000 });
  // The oracle: the same query through sqlite3 itself, tab-separated with its header line.
  const expected = execFileSync('sqlite3', ['-tabs', '-header', database, query], { timeout: 10_000, encoding: 'utf8' })
    .trim().split('\n').map((line) => line.split('\t'));
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', `exec sqlite3 -box ${database}`], cwd: directory, session: 'sql' });
  await callOk(context, 'tui_wait_for', { text: 'sqlite>', session: 'sql' });
  await callOk(context, 'tui_type', { text: `${query}\n`, session: 'sql' });
  await callOk(context, 'tui_wait_for', { selector: 'role=table >> role=row name~=kiwi', all: [{ stableMs: 100 }], session: 'sql' });
  const all = nodes(await callOk(context, 'tui_snapshot', { session: 'sql' }));
  const table = all.find((node) => node.role === 'table')!;
  const rows = table.children ?? [];
  const texts = (row: UINode) => (row.children ?? []).map((cell) => cell.name);
  assert.deepEqual(rows.map((row) => row.role), ['headerrow', 'row', 'row']);
  assert.deepEqual(rows.map(texts), expected);
  assert.equal(all.find((node) => node.role === 'panel')?.name, '', 'the header row is not the box\'s title');
  const price = await callOk(context, 'tui_query_all', { selector: 'role=columnheader name=price', session: 'sql' });
  assert.equal(price.structured.count, 1);
  await callOk(context, 'tui_stop', { session: 'sql' });
});

test('visidata: a CSV sheet (columns between │ rules, no box) is a table of the file\'s own header and rows; the row focused by keys is the one deleted', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-sheet-'));
  const csv = join(directory, 'people.csv');
  writeFileSync(csv, 'name,age,city\nAda,36,London\nAlan,41,Wilmslow\nGrace,85,Arlington\n');
  // The oracle: the file itself, before and after visidata saves it.
  const expected = readFileSync(csv, 'utf8').trim().split('\n').map((line) => line.split(','));
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', 'exec vd people.csv'], cwd: directory, env: { HOME: directory }, session: 'vd' });
  await callOk(context, 'tui_wait_for', { selector: 'role=table >> role=row name~=Grace', all: [{ stableMs: 200 }], session: 'vd', timeoutMs: 20_000 });
  const all = nodes(await callOk(context, 'tui_snapshot', { session: 'vd' }));
  const tables = all.filter((node) => node.role === 'table');
  assert.equal(tables.length, 1);
  const rows = tables[0]!.children ?? [];
  assert.deepEqual(rows.map((row) => row.role), ['headerrow', 'row', 'row', 'row']);
  assert.deepEqual(rows.map((row) => (row.children ?? []).map((cell) => cell.name)), expected);
  assert.deepEqual(all.filter((node) => node.focused).map((node) => node.name), ['Ada 36 London']);
  assert.equal(all.filter((node) => node.role === 'list').length, 0);

  const focus = await callOk(context, 'tui_focus', { selector: 'role=row name~=Alan', session: 'vd' });
  assert.equal(focus.structured.method, 'keys');
  await callOk(context, 'tui_press', { key: 'd', session: 'vd' });
  await callOk(context, 'tui_wait_for', { text: '2 rows', session: 'vd' });
  await callOk(context, 'tui_press', { key: 'ctrl+s', session: 'vd' });
  await callOk(context, 'tui_wait_for', { text: 'save to:', session: 'vd' });
  await callOk(context, 'tui_press', { key: 'Enter', session: 'vd' });
  await callOk(context, 'tui_wait_for', { text: 'overwrite?', session: 'vd' });
  await callOk(context, 'tui_press', { key: 'y', session: 'vd' });
  // visidata writes CSV with CRLF line ends, into the file it has just emptied: a file without Alan may be one not written yet.
  const saved = ['name,age,city', 'Ada,36,London', 'Grace,85,Arlington'];
  const lines = () => readFileSync(csv, 'utf8').trim().split(/\r?\n/);
  const deadline = Date.now() + 10_000;
  while (JSON.stringify(lines()) !== JSON.stringify(saved) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  assert.deepEqual(lines(), saved);
  await callOk(context, 'tui_stop', { session: 'vd' });
});

test('pspg: a CSV whose first column counts 1, 2, 3 in a colour of its own is a table (not a numbered text buffer); its focused row is the one pspg\'s status line counts', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-pspg-'));
  const csv = join(directory, 'people.csv');
  writeFileSync(csv, 'id,name,city,score\n1,Ada,London,91\n2,Bob,Paris,78\n3,Cyd,Rome,85\n4,Dee,Oslo,66\n5,Eve,Bern,99\n');
  // The oracle: the file pspg shows, and pspg's own count of its cursor row (`L:[1 +  2  3/7]`).
  const expected = readFileSync(csv, 'utf8').trim().split('\n').map((line) => line.split(','));
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', 'exec pspg --csv -f people.csv'], cwd: directory, env: { HOME: directory }, cols: 80, rows: 20, session: 'pspg' });
  await callOk(context, 'tui_wait_for', { text: '(5 rows)', all: [{ stableMs: 100 }], session: 'pspg' });
  const all = nodes(await callOk(context, 'tui_snapshot', { session: 'pspg' }));
  const tables = all.filter((node) => node.role === 'table');
  assert.equal(tables.length, 1);
  const rows = tables[0]!.children ?? [];
  assert.deepEqual(rows.map((row) => row.role), ['headerrow', 'row', 'row', 'row', 'row', 'row']);
  assert.deepEqual(rows.map((row) => (row.children ?? []).map((cell) => cell.name)), expected);
  assert.equal(all.filter((node) => node.role === 'document' || node.role === 'textarea').length, 0, 'the id column is no line-number gutter');

  await callOk(context, 'tui_press_sequence', { keys: ['Down', 'Down'], session: 'pspg' });
  await callOk(context, 'tui_wait_for', { text: '3/7]', all: [{ stableMs: 100 }], session: 'pspg' });
  const screen = ((await callOk(context, 'tui_render_text', { session: 'pspg' })).structured.lines as string[]).join('\n');
  const current = Number(/(\d+)\/\d+\]/.exec(screen)![1]);
  const focused = nodes(await callOk(context, 'tui_snapshot', { session: 'pspg' })).filter((node) => node.focused);
  assert.deepEqual(focused.map((node) => (node.children ?? []).map((cell) => cell.name)), [expected[current]]);
  assert.equal(focused[0]!.selected, true);
  await callOk(context, 'tui_stop', { session: 'pspg' });
});

test('sc: the grid under its column letters and beside its row numbers is a table; the current cell sc names is the focused one', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-sc-'));
  writeFileSync(join(directory, 'sheet.sc'), 'let A0 = 10\nlet B0 = 20\nlet A1 = 30\nlet B1 = A0+A1\nlabel C0 = "fruit"\n');
  const session = 'sc';
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', 'exec sc sheet.sc'], cwd: directory, env: { HOME: directory }, cols: 80, rows: 20, session });
  await callOk(context, 'tui_wait_for', { text: '40.00', all: [{ text: 'fruit' }, { stableMs: 200 }], session });
  const lines = async () => (await callOk(context, 'tui_render_text', { session })).structured.lines as string[];
  const table = async () => {
    const all = nodes(await callOk(context, 'tui_snapshot', { session }));
    const tables = all.filter((node) => node.role === 'table');
    assert.equal(tables.length, 1);
    return { table: tables[0]!, focused: all.filter((node) => node.focused) };
  };
  const { table: grid, focused } = await table();
  const [header, ...rows] = grid.children ?? [];
  const screen = await lines();
  // The column letters and the row numbers are the ones on sc's screen, in its own order.
  const letters = (header!.children ?? []).map((cell) => cell.name);
  assert.deepEqual(letters, screen[header!.bounds!.y]!.trim().split(/\s+/));
  for (const row of rows) assert.equal(row.children![0]!.role, 'rowheader');
  assert.deepEqual(rows.map((row) => row.children![0]!.name), rows.map((row) => screen[row.bounds!.y]!.trim().split(/\s+/)[0]));
  const cell = (column: string, row: string) => rows.find((r) => r.name === row)!.children![1 + letters.indexOf(column)]!;
  // The values sc computed from the file: 10 and 20, 30 and A0+A1, the label.
  assert.deepEqual([cell('A', '0'), cell('B', '0'), cell('C', '0'), cell('A', '1'), cell('B', '1')].map((c) => c.name), ['10.00', '20.00', 'fruit', '30.00', '40.00']);
  assert.deepEqual(focused.map((node) => [node.role, node.name]), [['cell', '10.00']]);
  assert.equal(focused[0], cell('A', '0'));
  assert.equal(focused[0]!.selected, true);

  // The arrows move sc's cursor, which it names on its top line (`B1 (10 2 0) [A0+A1]`): that cell is focused.
  await callOk(context, 'tui_press_sequence', { keys: ['Right', 'Down'], session });
  await callOk(context, 'tui_wait_for', { text: 'B1 (', all: [{ stableMs: 100 }], session });
  const address = /^([A-Z]+)(\d+) \(/.exec((await lines())[0]!.trim())!;
  const moved = await table();
  const rowsNow = (moved.table.children ?? []).slice(1);
  const now = rowsNow.find((r) => r.name === address[2])!.children![1 + letters.indexOf(address[1]!)]!;
  assert.deepEqual(moved.focused, [now]);
  assert.equal(now.name, '40.00');
  assert.equal(now.selected, true);
  await callOk(context, 'tui_stop', { session });
});
