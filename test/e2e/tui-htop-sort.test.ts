// htop's "Sort by" panel (F6) sits beside the process list, the two set apart by a blank gutter, each
// topped by a title row in the header colour. The selection of each is the row lit in another colour, not
// its title. Judged by htop itself: its column header marks the column it sorts by (the ▽/△ after it).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { UINode } from '../../src/tui/ui-node.js';
import { callOk } from '../helpers/tools.js';
import { nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

/** The column htop's header marks as the sort key, read from the raw screen text. */
async function sortedColumn(): Promise<string> {
  const lines = (await callOk(context, 'tui_render_text')).structured.lines as string[];
  const header = lines.find((line) => /\bPID\b.*\bUSER\b/.test(line));
  assert.ok(header, lines.join('\n'));
  const marked = /(\S+?)[▽△]/.exec(header.replace(/^.*?PID/, 'PID'));
  assert.ok(marked, header);
  return marked[1]!.replace(/^.*\s/, '');
}

function listHolding(all: UINode[], name: string): UINode {
  const list = all.find((node) => node.role === 'list' && node.children?.some((child) => child.name === name));
  assert.ok(list, `a list holds ${name}`);
  return list;
}

test('htop: in the Sort by panel the item htop sorts by is the selected one, not the panel title; choosing another sorts by it', async () => {
  await start({ command: 'htop', env: { HTOPRC: '/dev/null' }, cols: 120, rows: 30 });
  await callOk(context, 'tui_wait_for', { selector: 'role=button name=Quit' });
  assert.equal(await sortedColumn(), 'CPU%');
  await callOk(context, 'tui_press', { key: 'F6' });
  await callOk(context, 'tui_wait_for', { selector: 'role=listitem name=PERCENT_MEM', all: [{ stableMs: 200 }] });
  const panel = listHolding(nodes(await callOk(context, 'tui_snapshot')), 'PERCENT_MEM');
  const selected = panel.children!.filter((child) => child.selected).map((child) => child.name);
  assert.deepEqual(selected, ['PERCENT_CPU'], 'the sort key htop marks in its header is the selected item');
  assert.ok(!panel.children!.some((child) => child.role === 'listitem' && /Sort by/.test(child.name)), 'the panel title is not an item');
  // The process list beside it keeps its header and one selected process row.
  const processes = nodes(await callOk(context, 'tui_snapshot')).find((node) => node.role === 'list' && node.children?.[0]?.role === 'header' && /PID/.test(node.children[0].name));
  assert.ok(processes, 'the process list has its header');
  const rows = processes.children!.slice(1).filter((row) => row.selected);
  assert.equal(rows.length, 1);
  assert.match(rows[0]!.name, /^\d+ /);

  await callOk(context, 'tui_focus', { selector: 'role=listitem name=PERCENT_MEM' });
  await callOk(context, 'tui_press', { key: 'Enter' });
  await callOk(context, 'tui_wait_for', { text: 'F6SortBy', all: [{ stableMs: 200 }] });
  assert.equal(await sortedColumn(), 'MEM%');
  await callOk(context, 'tui_press', { key: 'F10' });
  await callOk(context, 'tui_wait_for', { exited: true });
  await callOk(context, 'tui_stop');
});
