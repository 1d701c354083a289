// A table banded with every other row lit (taskwarrior's report, color.alternate) has no selected rows: the band
// is the table's colour, not a choice. Its columns are read under its header. The oracle is taskwarrior's own
// export of the same tasks.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

test('taskwarrior: the banded report has no selected row; each task\'s ID and Description cells are what task export says', async () => {
  const home = mkdtempSync(join(tmpdir(), 'cup-tui-task-'));
  const env = { HOME: home, TASKRC: join(home, '.taskrc'), TASKDATA: join(home, '.task') };
  // An empty .taskrc of its own, so task asks nothing: "yes" written to a task that did not read it failed once
  // under load with EPIPE (the task had already exited).
  writeFileSync(env.TASKRC, '');
  const task = (...args: string[]) => execFileSync('task', ['rc.confirmation=off', 'rc.verbose=nothing', ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 10_000 });
  for (const description of ['Buy milk', 'Call Ada', 'Fix bike', 'Plan trip', 'Write report']) task('add', description);
  await start({ command: 'bash', args: ['--norc', '--noprofile'], env: { ...env, PS1: '$ ' }, cols: 100, rows: 24, session: 'task' });
  await callOk(context, 'tui_wait_for', { text: '$ ', session: 'task' });
  await callOk(context, 'tui_type', { text: 'clear; task rc.verbose=label rc._forcecolor=on list\n', session: 'task' });
  await callOk(context, 'tui_wait_for', { newText: '$ ', all: [{ stableMs: 200 }], session: 'task' });
  const all = nodes(await callOk(context, 'tui_snapshot', { session: 'task' }));
  const list = all.find((node) => node.role === 'list' && node.children?.[0]?.role === 'header');
  assert.ok(list, 'the report is a list under its header');
  const [header, ...rows] = list.children!;
  assert.deepEqual(rows.filter((row) => row.selected).map((row) => row.name), [], 'no row is selected');
  const names = header!.children!.map((cell) => cell.name);
  const cell = (row: (typeof rows)[number], column: string) => row.children![names.indexOf(column)]!.name;
  const exported = (JSON.parse(task('export')) as { id: number; description: string }[]).map((entry) => [String(entry.id), entry.description]);
  assert.deepEqual(rows.map((row) => [cell(row, 'ID'), cell(row, 'Description')]).sort(), exported.sort());
  await callOk(context, 'tui_stop', { session: 'task' });
});
