// tmux with one pane on the left and two stacked on the right: the edge between left and right runs through
// the `├` where the right side's divider meets it, and still splits the screen, so the focused command line
// is the active pane's own (named by its prompt, not by the edge glyph before it). The judge is tmux's own
// account of its panes (list-panes), asked over its private server socket.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

test('tmux: with a pane split below another beside a third, the focused field lies in the active pane tmux reports', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-tmux-'));
  const socket = `cup-tui-${process.pid}`;
  const shell = "'bash --norc --noprofile'";
  const session = 'tmux';
  // destroy-unattached ends tmux's server with the session once the driver's client is gone.
  const tmux = `exec tmux -L ${socket} -f /dev/null new-session ${shell} \\; set -g destroy-unattached on \\; split-window -h ${shell} \\; split-window -v ${shell}`;
  await start({
    command: 'bash',
    args: ['--norc', '--noprofile', '-c', tmux],
    cwd: directory,
    env: { HOME: directory, PS1: '$ ' },
    cols: 100,
    rows: 24,
    session,
  });
  // Keys typed before the active pane's bash has printed its prompt are echoed twice (the terminal's echo, then bash's):
  // the wait names the prompt with the cursor after it, not only the split.
  await callOk(context, 'tui_wait_for', { text: '├', all: [{ selector: 'role=textbox focus' }, { stableMs: 300 }], session });
  await callOk(context, 'tui_type', { text: 'echo typed-here', session });
  await callOk(context, 'tui_wait_for', { text: 'echo typed-here', all: [{ stableMs: 200 }], session });
  const panes = execFileSync('tmux', ['-L', socket, 'list-panes', '-F', '#{pane_active} #{pane_left} #{pane_top} #{pane_width} #{pane_height}'], { encoding: 'utf8' })
    .trim().split('\n').map((line) => line.split(' ').map(Number));
  assert.equal(panes.length, 3);
  const [, left, top, width, height] = panes.find((pane) => pane[0] === 1)!;
  const focused = nodes(await callOk(context, 'tui_snapshot', { session })).filter((node) => node.focused);
  assert.equal(focused.length, 1);
  const field = focused[0]!;
  assert.equal(field.role, 'textbox');
  // The active pane's own text, as tmux holds it: its command line is the prompt, a blank, what was typed.
  const paneLines = execFileSync('tmux', ['-L', socket, 'capture-pane', '-p'], { encoding: 'utf8' }).split('\n').filter((line) => line.trim() !== '');
  const commandLine = paneLines[paneLines.length - 1]!;
  assert.equal(`${field.name} ${field.value}`, commandLine.trimEnd());
  assert.equal(field.value, 'echo typed-here');
  const { x, y, w } = field.bounds!;
  assert.ok(x === left && y >= top! && y < top! + height! && x + w <= left! + width!, `field ${JSON.stringify(field.bounds)} outside the active pane ${[left, top, width, height]}`);
  await callOk(context, 'tui_stop', { session });
});

test('tmux: beside a pane that shows nothing yet, the active pane is a window of its own (its prompt no part of the edge)', async () => {
  // bc -q beside python3: the left pane printed nothing, so the edge had text on one side only and split nothing; the
  // REPL's field read "│>>>" and every line of it opened with the edge glyph. The judge is tmux's capture of the pane.
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-tmux-'));
  const socket = `cup-tui-${process.pid}-blank`;
  const session = 'tmux-blank';
  // `cat` prints nothing until it is typed to; the active pane, split off to the right, runs bash.
  const tmux = `exec tmux -L ${socket} -f /dev/null new-session cat \\; set -g destroy-unattached on \\; split-window -h 'bash --norc --noprofile'`;
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', tmux], cwd: directory, env: { HOME: directory, PS1: '$ ' }, cols: 100, rows: 24, session });
  await callOk(context, 'tui_wait_for', { text: '│', all: [{ selector: 'role=textbox focus' }, { stableMs: 300 }], session });
  await callOk(context, 'tui_type', { text: 'echo typed-here', session });
  await callOk(context, 'tui_wait_for', { text: 'echo typed-here', all: [{ stableMs: 200 }], session });
  const paneLines = execFileSync('tmux', ['-L', socket, 'capture-pane', '-p'], { encoding: 'utf8' }).split('\n').filter((line) => line.trim() !== '');
  const all = nodes(await callOk(context, 'tui_snapshot', { session }));
  const focused = all.filter((node) => node.focused);
  assert.deepEqual(focused.map((node) => [node.role, `${node.name} ${node.value}`]), [['textbox', paneLines[paneLines.length - 1]!.trimEnd()]]);
  assert.deepEqual(all.filter((node) => node.name.includes('│')).map((node) => node.name), []);
  await callOk(context, 'tui_stop', { session });
});
