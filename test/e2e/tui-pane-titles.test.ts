// Panes of lists side by side without a box, under one title bar whose words break where the panes do
// (vifm: each pane's directory over its file list): each run of the bar is its pane's list's name, and the
// current file of the active pane is the focused item. The judges are vifm's own screen rows (as
// tui_render_text gives them), the directories on disk, and vifm's own `N/M` count of its cursor.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { UINode } from '../../src/tui/ui-node.js';
import { callOk } from '../helpers/tools.js';
import { nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

test('vifm: each pane\'s path over it names its list; the cursor moved by keys, in either pane, is the focused item', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-vifm-'));
  for (const [pane, files] of [['left', ['apple.txt', 'berry.txt', 'cherry.txt']], ['right', ['notes.md', 'plan.md']]] as const) {
    mkdirSync(join(directory, pane));
    for (const file of files) writeFileSync(join(directory, pane, file), `${file}\n`);
  }
  const session = 'vifm';
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', 'exec vifm left right'], cwd: directory, env: { HOME: directory }, cols: 80, rows: 20, session });
  await callOk(context, 'tui_wait_for', { text: 'cherry.txt', all: [{ text: 'plan.md' }, { stableMs: 300 }], session, timeoutMs: 15_000 });
  const screen = async () => (await callOk(context, 'tui_render_text', { session })).structured.lines as string[];
  const lists = async () => nodes(await callOk(context, 'tui_snapshot', { session })).filter((node) => node.role === 'list');
  const names = (list: UINode) => (list.children ?? []).map((item) => item.name.split(' ')[0]!);

  // The title row holds each pane's path, starting over the pane's list.
  const [title] = await screen();
  const panes = await lists();
  assert.equal(panes.length, 2);
  for (const list of panes) {
    const words = title!.slice(list.bounds!.x - 1, list.bounds!.x + list.bounds!.w).trim();
    assert.equal(list.name, words);
  }
  assert.deepEqual(panes.map((list) => list.name), ['~/left', '~/right']);
  // Each list holds its directory's entries (after `../`), as on disk.
  assert.deepEqual(names(panes[0]!).slice(1), readdirSync(join(directory, 'left')).sort());
  assert.deepEqual(names(panes[1]!).slice(1), readdirSync(join(directory, 'right')).sort());

  // vifm counts its cursor's position in the active pane at the bottom right: the focused item is that entry.
  const focusedAt = async (count: string, pane: number) => {
    await callOk(context, 'tui_wait_for', { text: count, all: [{ stableMs: 200 }], session });
    const current = await lists();
    const focused = current.flatMap((list, index) => (list.children ?? []).filter((item) => item.focused).map((item) => ({ index, item })));
    assert.equal(focused.length, 1);
    assert.equal(focused[0]!.index, pane);
    const position = Number(count.split('/')[0]) - 1;
    assert.equal(focused[0]!.item, current[pane]!.children![position]);
    assert.equal(focused[0]!.item.selected, true);
  };
  await focusedAt('1/4', 0);
  await callOk(context, 'tui_press_sequence', { keys: ['j', 'j'], session });
  await focusedAt('3/4', 0);
  assert.equal(names((await lists())[0]!)[2], 'berry.txt');
  // Tab makes the other pane active; its cursor, moved down one, is the focused item now.
  await callOk(context, 'tui_press_sequence', { keys: ['Tab', 'j'], session });
  await focusedAt('2/3', 1);
  assert.equal((await screen()).some((line) => line.includes('notes.md')), true);
  await callOk(context, 'tui_stop', { session });
});
