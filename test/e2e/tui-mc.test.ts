// Midnight Commander through the real tools: panels, tables, selection by colour, the menu bar and the
// function-key bar read off the screen of a program nobody tuned the heuristics for.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { flattenNodes, type UINode } from '../../src/tui/ui-node.js';
import { callOk } from '../helpers/tools.js';
import { exitCode, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

interface Screen {
  all: UINode[];
  focus: string | null;
  panels: UINode[];
}

async function screen(): Promise<Screen> {
  const { frame } = (await callOk(context, 'tui_snapshot', { visual: false, format: 'none' })).structured as { frame: { nodes: UINode[]; focus: string | null } };
  const all = flattenNodes(frame.nodes);
  return { all, focus: frame.focus, panels: all.filter((node) => node.role === 'panel') };
}

function rowsOf(panel: UINode): UINode[] {
  return flattenNodes(panel.children ?? []).filter((node) => node.role === 'row');
}

function selectedIn(panel: UINode): string[] {
  return rowsOf(panel).filter((row) => row.selected).map((row) => row.name.split(' ')[0]!);
}

/** The panel holding the focused node, 0 for the left one and 1 for the right one. */
function activePanel(state: Screen): number {
  return state.panels.findIndex((panel) => flattenNodes([panel]).some((node) => node.id === state.focus));
}

test('mc: two titled panels of files, the selection bar read as the selected row of the active panel, key hints and a menu bar that work', async () => {
  const work = mkdtempSync(join(tmpdir(), 'cup-mc-'));
  const files = join(work, 'files');
  const home = join(work, 'home');
  mkdirSync(files);
  mkdirSync(home);
  for (const name of ['a.txt', 'b.txt']) writeFileSync(join(files, name), `${name}\n`);
  // -u: no subshell, so no shell start-up files take part; a home of its own for mc's settings.
  await start({ command: 'mc', args: ['-u', files, files], cwd: work, env: { HOME: home }, cols: 100, rows: 30 });
  await callOk(context, 'tui_wait_for', { selector: 'role=row selected', all: [{ selector: 'role=button name=Quit' }, { stableMs: 200 }] });

  let state = await screen();
  assert.deepEqual(state.panels.map((panel) => [panel.name, panel.bounds!.x, panel.bounds!.w]), [[files, 0, 50], [files, 50, 50]]);
  for (const panel of state.panels) {
    const table = flattenNodes([panel]).find((node) => node.role === 'table');
    assert.ok(table, 'each panel holds a table');
    assert.deepEqual(table.children![0]!.children!.map((cell) => cell.name).slice(1), ['Size', 'Modify time']);
    assert.deepEqual(rowsOf(panel).map((row) => row.name.split(' ')[0]), ['/..', 'a.txt', 'b.txt']);
  }
  assert.deepEqual(state.panels.map(selectedIn), [['/..'], []]);
  assert.equal(activePanel(state), 0);

  await callOk(context, 'tui_press', { key: 'Down' });
  await callOk(context, 'tui_wait_for', { selector: 'role=row name^=a.txt selected' });
  state = await screen();
  assert.deepEqual(state.panels.map(selectedIn), [['a.txt'], []]);
  assert.equal(state.all.find((node) => node.id === state.focus)?.name.split(' ')[0], 'a.txt');
  assert.equal((await callOk(context, 'tui_count', { selector: 'role=row name~=b.txt' })).structured.count, 2);

  await callOk(context, 'tui_press', { key: 'Tab' });
  await callOk(context, 'tui_wait_for', { selector: 'role=panel [index=1] >> role=row selected', all: [{ stableMs: 150 }] });
  state = await screen();
  assert.equal(activePanel(state), 1, 'Tab moved focus to the right panel');
  assert.deepEqual(state.panels.map(selectedIn), [[], ['/..']]);

  // The menu bar: its items are menu items, and a click on one opens that menu.
  const menu = state.all.find((node) => node.role === 'menubar');
  assert.deepEqual(menu?.children?.map((item) => item.role === 'menuitem' && item.name), ['Left', 'File', 'Command', 'Options', 'Right']);
  await callOk(context, 'tui_click', { selector: 'role=menuitem name=File' });
  await callOk(context, 'tui_wait_for', { text: 'Chmod' });
  await callOk(context, 'tui_press_sequence', { keys: ['Escape', 'Escape'] });
  await callOk(context, 'tui_wait_for', { selector: 'role=menubar', all: [{ stableMs: 300 }] });

  // The command line runs shell commands (mc's way out, documented with the start policy); the file on disk says it ran.
  await callOk(context, 'tui_type', { text: 'touch made-by-mc.txt\n' });
  await callOk(context, 'tui_wait_for', { selector: 'role=row name^=made-by-mc.txt' });
  assert.ok(existsSync(join(files, 'made-by-mc.txt')));

  // Key hints: "3View" is F3, pressed by tui_focus on the hint; it opens the viewer on the selected file.
  await callOk(context, 'tui_focus', { selector: 'role=row name^=a.txt [index=1]' });
  const view = await callOk(context, 'tui_focus', { selector: 'role=button name=View' });
  assert.equal(view.structured.method, 'shortcut');
  await callOk(context, 'tui_wait_for', { text: join(files, 'a.txt'), all: [{ stableMs: 200 }] });
  const viewer = await screen();
  assert.ok(viewer.all.some((node) => node.role === 'text' && node.name === 'a.txt'), 'the viewer shows the file');
  // The viewer's own bar leaves F6 without a label ("5Goto  6  7Search"): no hint for it, the others keep their keys.
  const hints = viewer.all.filter((node) => node.role === 'button' && node.shortcut).map((node) => node.shortcut);
  assert.ok(hints.includes('F5') && hints.includes('F7') && !hints.includes('F6'), hints.join(' '));
  await callOk(context, 'tui_press', { key: 'F10' });
  await callOk(context, 'tui_wait_for', { selector: 'role=menubar', all: [{ stableMs: 200 }] });

  // "10Quit" is F10: clicking the hint presses it, and mc (which by default does not ask) quits.
  const quit = state.all.find((node) => node.role === 'button' && node.name === 'Quit');
  assert.equal(quit?.shortcut, 'F10');
  const clicked = await callOk(context, 'tui_click', { selector: 'role=button name=Quit' });
  assert.equal(clicked.structured.key, 'F10');
  assert.equal(await exitCode(context), 0);
  await callOk(context, 'tui_stop');
});

test('mc: files marked with Insert are the selected rows (drawn in a colour of their own), the bar\'s row keeps focus, and F5 copies exactly the rows shown selected', async () => {
  const work = mkdtempSync(join(tmpdir(), 'cup-mc-marks-'));
  const files = join(work, 'files');
  const target = join(work, 'target');
  const home = join(work, 'home');
  for (const dir of [files, target, home]) mkdirSync(dir);
  for (const name of ['a.txt', 'b.txt', 'c.txt', 'd.txt']) writeFileSync(join(files, name), `${name}\n`);
  // A directory and an executable, which mc draws in colours of their own by type: not marks.
  mkdirSync(join(files, 'sub'));
  writeFileSync(join(files, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
  await start({ command: 'mc', args: ['-u', files, target], cwd: work, env: { HOME: home }, cols: 100, rows: 30 });
  await callOk(context, 'tui_wait_for', { selector: 'role=row selected', all: [{ selector: 'role=button name=Quit' }, { stableMs: 200 }] });

  // "/..", "/sub", a.txt, b.txt, ...: Insert marks the row under the bar and moves the bar down.
  await callOk(context, 'tui_press_sequence', { keys: ['Down', 'Down', 'Insert', 'Down', 'Insert'] });
  await callOk(context, 'tui_wait_for', { text: 'in 2 files', all: [{ stableMs: 200 }] });
  const state = await screen();
  const marked = selectedIn(state.panels[0]!);
  assert.deepEqual(marked, ['a.txt', 'c.txt'], 'the marked rows are the selected ones; the bar\'s row d.txt is not');
  assert.equal(state.all.find((node) => node.id === state.focus)?.name.split(' ')[0], 'd.txt', 'the bar\'s row has the focus');

  // The Copy dialog: the source mask under its label is a field, not a list item.
  await callOk(context, 'tui_press', { key: 'F5' });
  await callOk(context, 'tui_wait_for', { selector: 'role=dialog name=Copy >> role=button name=Background' });
  const copy = await screen();
  const dialog = copy.all.find((node) => node.role === 'dialog' && node.name === 'Copy')!;
  const inDialog = flattenNodes([dialog]);
  assert.deepEqual(inDialog.filter((node) => node.role === 'listitem' || node.role === 'list'), []);
  const fields = inDialog.filter((node) => node.role === 'textbox');
  assert.deepEqual(fields.map((node) => [node.name, node.value]), [['Copy 2 files with source mask', '*'], ['to', target]]);
  await callOk(context, 'tui_press', { key: 'Enter' });

  // The disk: what F5 copied is what the snapshot showed selected.
  const deadline = Date.now() + 10_000;
  while (readdirSync(target).length < marked.length && Date.now() < deadline) await sleep(50);
  await callOk(context, 'tui_wait_for', { selector: 'role=panel [index=1] >> role=row name^=c.txt', all: [{ stableMs: 200 }] });
  assert.deepEqual(readdirSync(target).sort(), marked);
  await callOk(context, 'tui_press', { key: 'F10' });
  assert.equal(await exitCode(context), 0);
  await callOk(context, 'tui_stop');
});
