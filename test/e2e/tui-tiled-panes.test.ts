// ytree tiles one box into panes: a rule down from a ┬ in the top border to a ┴ in the bottom one parts the
// directory tree and its files (split by a divider ending on the rule, ├───┤) from a column of statistics
// panels. Read as one box, the rule made a two-column table whose rows joined a directory to a statistic, and a
// tree row's guides ("├─" before the lit "sub1") kept its selection from counting as one. The judges are the
// file system's directories and ytree's own "Path:" line, which names the directory its cursor is on.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

test('ytree: the directory tree is a list of its own beside the statistics panes, its selection the directory ytree is on', async () => {
  const home = mkdtempSync(join(tmpdir(), 'cup-tui-ytree-'));
  const root = join(home, 'root');
  for (const name of ['alpha', 'beta', 'gamma']) mkdirSync(join(root, name), { recursive: true });
  writeFileSync(join(root, 'notes.txt'), 'notes\n');
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', 'cd root && exec ytree'], cwd: home, env: { HOME: home }, cols: 100, rows: 30, session: 'ytree' });
  await callOk(context, 'tui_wait_for', { text: 'DISK Statistics', all: [{ stableMs: 300 }], session: 'ytree' });
  for (const expected of [root, join(root, 'alpha'), join(root, 'beta')]) {
    await callOk(context, 'tui_wait_for', { text: `Path: ${expected}\n`, all: [{ stableMs: 200 }], session: 'ytree' });
    const lines = (await callOk(context, 'tui_render_text', { session: 'ytree' })).structured.lines as string[];
    assert.equal(lines[0], `Path: ${expected}`);
    const all = nodes(await callOk(context, 'tui_snapshot', { session: 'ytree' }));
    const lists = all.filter((node) => node.role === 'list');
    assert.equal(lists.length, 1, JSON.stringify(all.map((node) => [node.role, node.name])));
    // The tree: the directory ytree started in, then its subdirectories, each behind its guides, nothing else.
    const names = (lists[0]!.children ?? []).map((item) => item.name.replace(/^[\u2500-\u257f\s]+/u, ''));
    assert.deepEqual(names, [root, 'alpha', 'beta', 'gamma']);
    const selected = (lists[0]!.children ?? []).filter((item) => item.selected);
    assert.equal(selected.length, 1);
    assert.ok(expected.endsWith(selected[0]!.name.replace(/^[\u2500-\u257f\s]+/u, '')), `${selected[0]!.name} is not ${expected}`);
    assert.equal(all.find((node) => node.focused)?.id, selected[0]!.id);
    // The statistics pane's label and count, right-aligned in rows alike, read together: one file on the disk.
    assert.ok(all.some((node) => node.role === 'text' && /^Files:\s+1$/.test(node.name)), JSON.stringify(all.map((node) => node.name)));
    await callOk(context, 'tui_press', { key: 'Down', session: 'ytree' });
  }
  await callOk(context, 'tui_stop', { session: 'ytree' });
});
