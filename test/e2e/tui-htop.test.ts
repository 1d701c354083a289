import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { UINode } from '../../src/tui/ui-node.js';
import { callOk } from '../helpers/tools.js';
import { resultText } from '../../src/tools/call-result.js';
import { exitCode, nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

function processList(all: UINode[]): { header: UINode; rows: UINode[]; selected: UINode[] } {
  const list = all.find((node) => node.role === 'list' && node.children?.[0]?.role === 'header');
  assert.ok(list, 'the process list is recognised as a list with a header');
  const [header, ...rows] = list.children!;
  return { header: header!, rows, selected: rows.filter((row) => row.selected) };
}

test('htop: the process list is a list with one selected row; keys move it; F10 quits', async () => {
  // A config dir of its own: htop writes its settings on exit and must not read a user's.
  await start({ command: 'htop', env: { HTOPRC: '/dev/null' }, cols: 100, rows: 30 });
  await callOk(context, 'tui_wait_for', { selector: 'role=list >> role=listitem selected', all: [{ selector: 'role=button name=Quit' }] });
  const first = processList(nodes(await callOk(context, 'tui_snapshot')));
  assert.match(first.header.name, /PID\s+USER/);
  assert.ok(first.rows.length >= 3, `${first.rows.length} rows`);
  assert.equal(first.selected.length, 1);
  assert.ok(first.rows.every((row) => /^\d+ /.test(row.name)), 'each row starts with a pid');
  const index = first.rows.indexOf(first.selected[0]!);

  await callOk(context, 'tui_press', { key: 'Down' });
  // The row below the old selection is waited for: a selected row and a stable screen were there before Down took effect.
  await callOk(context, 'tui_wait_for', { selector: `id=${first.rows[index + 1]!.id} selected`, all: [{ stableMs: 150 }] });
  const second = processList(nodes(await callOk(context, 'tui_snapshot')));
  assert.equal(second.selected.length, 1);
  assert.equal(second.rows.indexOf(second.selected[0]!), index + 1, 'Down selected the next row');

  // tui_focus on another row moves there with arrow keys and confirms it on the screen.
  const target = second.rows[index + 3]!;
  const focus = await callOk(context, 'tui_focus', { selector: `id=${target.id}` });
  assert.equal(focus.structured.method, 'keys');
  const third = processList(nodes(await callOk(context, 'tui_snapshot')));
  assert.equal(third.rows.indexOf(third.selected[0]!), index + 3);

  // The [eN] the snapshot's tree tags a row with is a selector's id too: the tree is all an agent reads.
  const tree = resultText(await callOk(context, 'tui_snapshot'));
  const back = third.rows[index + 1]!;
  const tag = tree.split('\n').find((line) => line.includes(` li "${back.name.slice(0, 40)}`))?.match(/\[(e\d+)\]/)?.[1];
  assert.ok(tag, `the tree shows the row: ${tree}`);
  const queried = await callOk(context, 'tui_query', { selector: `id=${tag}` });
  assert.equal((queried.structured.node as UINode | null)?.id, back.id, `id=${tag} is the row the tree shows as [${tag}]`);
  await callOk(context, 'tui_focus', { selector: `id=${tag}` });
  const fourth = processList(nodes(await callOk(context, 'tui_snapshot')));
  assert.equal(fourth.rows.indexOf(fourth.selected[0]!), index + 1, `tui_focus id=${tag} selected that row`);
  assert.equal((await callOk(context, 'tui_query', { selector: 'id=e99999' })).structured.node, null, 'an index past the tree matches nothing');

  const quit = nodes(await callOk(context, 'tui_snapshot')).find((node) => node.role === 'button' && node.name === 'Quit');
  assert.equal(quit?.shortcut, 'F10');
  await callOk(context, 'tui_press', { key: quit!.shortcut! });
  assert.equal(await exitCode(context), 0);
  await callOk(context, 'tui_stop');
});
