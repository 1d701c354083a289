// A list whose first row names its columns in bold type over plain rows (cfdisk's partition list): that row
// is the list's column header, not its first item. The oracle is the partition table sfdisk reads from the
// disk image, before and after the partition focused by keys is deleted and the table written.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { exitCode, nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

/** Start sectors of the partitions sfdisk finds on the image. */
function partitionStarts(image: string): string[] {
  const dump = execFileSync('/usr/sbin/sfdisk', ['--dump', image], { timeout: 10_000, encoding: 'utf8' });
  return [...dump.matchAll(/start=\s*(\d+)/g)].map((match) => match[1]!);
}

test('cfdisk: the bold column names over the partitions are the list\'s header; the partitions are its items, in the disk\'s order', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-cfdisk-'));
  const image = join(directory, 'disk.img');
  execFileSync('truncate', ['-s', '64M', image], { timeout: 10_000 });
  execFileSync('/usr/sbin/sfdisk', ['-q', image], { input: 'label: dos\nstart=2048, size=20480, type=83\nstart=22528, size=40960, type=82\n', timeout: 10_000 });
  const starts = partitionStarts(image);
  assert.deepEqual(starts, ['2048', '22528']);

  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', 'exec cfdisk disk.img'], cwd: directory, session: 'cfdisk' });
  await callOk(context, 'tui_wait_for', { text: 'disk.img2', all: [{ stableMs: 200 }], session: 'cfdisk' });
  const all = nodes(await callOk(context, 'tui_snapshot', { session: 'cfdisk' }));
  const lines = (await callOk(context, 'tui_render_text', { session: 'cfdisk' })).structured.lines as string[];
  const headerRow = lines.findIndex((line) => /^\s*Device\s+Boot\s+Start/.test(line));
  const list = all.find((node) => node.role === 'list')!;
  const [header, ...items] = list.children ?? [];
  assert.deepEqual([header?.role, header?.name, header?.bounds?.y], ['header', lines[headerRow]!.replace(/\s+/g, ' ').trim(), headerRow]);
  // The partitions in the disk's order, then the free space after them; none is the header row.
  const partitions = items.filter((item) => /disk\.img\d/.test(item.name));
  assert.deepEqual(partitions.map((item) => item.name.match(/disk\.img\d\s+(\d+)/)?.[1]), starts);
  assert.equal(items.filter((item) => item.selected).length, 1);
  // Each partition's cells stand under the column names: its device (without the `>>` pointing at the current one) and start.
  const names = (header?.children ?? []).map((cell) => cell.name);
  const cell = (item: (typeof items)[number], column: string) => item.children?.[names.indexOf(column)]?.name;
  assert.deepEqual(partitions.map((item) => [cell(item, 'Device'), cell(item, 'Start')]), starts.map((first, index) => [`disk.img${index + 1}`, first]));

  const focus = await callOk(context, 'tui_focus', { selector: 'role=listitem name~=disk.img2', session: 'cfdisk' });
  assert.equal(focus.structured.method, 'keys');
  await callOk(context, 'tui_press', { key: 'd', session: 'cfdisk' });
  await callOk(context, 'tui_wait_for', { text: 'has been deleted', session: 'cfdisk' });
  await callOk(context, 'tui_focus', { selector: 'role=button name=Write', session: 'cfdisk' });
  await callOk(context, 'tui_press', { key: 'Enter', session: 'cfdisk' });
  await callOk(context, 'tui_wait_for', { text: 'Are you sure', session: 'cfdisk' });
  await callOk(context, 'tui_type', { text: 'yes\n', session: 'cfdisk' });
  await callOk(context, 'tui_wait_for', { text: 'has been altered', session: 'cfdisk' });
  await callOk(context, 'tui_press', { key: 'q', session: 'cfdisk' });
  assert.equal(await exitCode(context, 'cfdisk'), 0);
  assert.deepEqual(partitionStarts(image), ['2048']);
  await callOk(context, 'tui_stop', { session: 'cfdisk' });
});

test('mtr: bold column names over plain rows, nothing lit, are a table\'s header; each hop\'s values are its cells under them', async () => {
  // The oracle: mtr's own report of the same trace, its column names on the HOST line and the hop's address.
  const report = execFileSync('mtr', ['-n', '-r', '-c', '1', '127.0.0.1'], { timeout: 20_000, encoding: 'utf8' }).split('\n');
  const columns = report.find((line) => line.startsWith('HOST:'))!.trim().split(/\s+/).slice(2);
  // "1.|-- 127.0.0.1  0.0%  1 ...": the hop's number, its address, then its values.
  const [, address, loss] = report.find((line) => /^\s*1\.\|--/.test(line))!.trim().split(/\s+/);
  assert.deepEqual(columns.slice(0, 2), ['Loss%', 'Snt'], JSON.stringify(report));
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', 'exec mtr -n 127.0.0.1'], cols: 100, rows: 24, session: 'mtr' });
  await callOk(context, 'tui_wait_for', { text: address!, all: [{ text: 'StDev' }, { stableMs: 200 }], session: 'mtr' });
  const all = nodes(await callOk(context, 'tui_snapshot', { session: 'mtr' }));
  const list = all.find((node) => node.role === 'list');
  assert.ok(list, JSON.stringify(all.map((node) => [node.role, node.name])));
  const [header, ...items] = list.children ?? [];
  const names = (header?.children ?? []).map((cell) => cell.name);
  // The first column is the hosts', then mtr's report's own columns, in its order.
  assert.deepEqual(names.slice(1), columns);
  assert.equal(items.filter((item) => item.selected).length, 0, 'nothing is lit, so nothing is selected');
  const cells = items[0]!.children!.map((cell) => cell.name);
  assert.equal(cells[0], `1. ${address}`);
  assert.equal(cells[names.indexOf('Loss%')], loss);
  assert.match(cells[names.indexOf('Snt')]!, /^\d+$/);
  await callOk(context, 'tui_press', { key: 'q', session: 'mtr' });
  assert.equal(await exitCode(context, 'mtr'), 0);
  await callOk(context, 'tui_stop', { session: 'mtr' });
});
