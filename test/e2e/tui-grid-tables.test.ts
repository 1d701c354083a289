// Tables drawn as a grid of lines (├───┼───┤ under the header row), as query tools print results: the
// header row is the table's column headers, not a title of the box around it.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
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
