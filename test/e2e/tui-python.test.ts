import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { nodes, PYTHON, tuiFixtures, useTerminals } from '../tui/helpers.js';
import { failsWith } from '../helpers/tools.js';

const { context, start } = useTerminals();

test('python3 REPL: a multi-line definition, then a call of it', async () => {
  await start({ command: PYTHON, args: ['-q'], env: { PYTHONDONTWRITEBYTECODE: '1' } });
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox name=">>>" focus' });
  await callOk(context, 'tui_type', { text: 'def area(w, h):\n' });
  // The continuation prompt is the focused field now.
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox name="..." focus' });
  await callOk(context, 'tui_type', { text: '    return w * h\n\n' });
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox name=">>>" focus' });
  await callOk(context, 'tui_type', { text: 'print("area", area(6, 7))\n' });
  // Python prints the answer, then readline its next prompt in a write of its own: both are read below.
  await callOk(context, 'tui_wait_for', { selector: 'role=text name="area 42"', all: [{ newText: 'area 42\n>>>' }] });
  const lines = (await callOk(context, 'tui_render_text')).structured.lines as string[];
  assert.deepEqual(lines.slice(0, 6), ['>>> def area(w, h):', '...     return w * h', '...', '>>> print("area", area(6, 7))', 'area 42', '>>>']);
  // Each line the REPL shows is one text, its prompt with it, as the terminal shows it: the continuation lines
  // too ("..." alone ended the block), not the indented code without its prompt.
  const texts = nodes(await callOk(context, 'tui_snapshot')).filter((node) => node.role === 'text');
  assert.deepEqual(texts.filter((node) => node.bounds!.y < 5).map((node) => node.name), lines.slice(0, 5));
  await callOk(context, 'tui_press', { key: 'ctrl+d' });
  await callOk(context, 'tui_wait_for', { exited: true });
  await callOk(context, 'tui_stop');
});

test('sqlite3 and node: each continuation line is one text with its prompt, whatever it holds', async () => {
  // sqlite3 prompts "   ...>" inside a statement; node "... " inside a block, where the line may be a lone "}".
  const repls = [
    { session: 'sqlite', args: ['--norc', '--noprofile', '-c', 'exec sqlite3'], ready: 'sqlite> ', lines: ['select 1,', '  2', ';'], done: '1|2' },
    { session: 'node', args: ['--norc', '--noprofile', '-c', 'exec node'], ready: '> ', lines: ['function f() {', '  return 40 + 2', '}', 'f()'], done: '42' },
  ];
  for (const repl of repls) {
    await start({ command: 'bash', args: repl.args, session: repl.session });
    await callOk(context, 'tui_wait_for', { text: repl.ready, all: [{ stableMs: 200 }], session: repl.session });
    for (const line of repl.lines) {
      await callOk(context, 'tui_type', { text: `${line}\n`, session: repl.session });
      await callOk(context, 'tui_wait_for', { idle: true, idleMs: 100, session: repl.session });
    }
    await callOk(context, 'tui_wait_for', { newText: repl.done, all: [{ stableMs: 200 }], session: repl.session });
    // The judge: the terminal's own rows, from the first line typed to the answer.
    const screen = (await callOk(context, 'tui_render_text', { session: repl.session })).structured.lines as string[];
    const first = screen.findIndex((line) => line.endsWith(repl.lines[0]!));
    const answer = screen.indexOf(repl.done, first);
    assert.ok(first >= 0 && answer > first, JSON.stringify(screen));
    const texts = nodes(await callOk(context, 'tui_snapshot', { session: repl.session })).filter((node) => node.role === 'text');
    const rows = screen.slice(first, answer + 1).map((line) => line.trim());
    assert.deepEqual(texts.filter((node) => node.bounds!.y >= first && node.bounds!.y <= answer).map((node) => node.name.trim()), rows);
    await callOk(context, 'tui_stop', { session: repl.session });
  }
});

test('a program that asks the terminal for the cursor position, device attributes and background colour gets answers', async () => {
  await start({ command: PYTHON, args: [`${tuiFixtures}/terminal_queries.py`], session: 'queries' });
  await callOk(context, 'tui_wait_for', { exited: true, timeoutMs: 10_000, session: 'queries' });
  const snapshot = await callOk(context, 'tui_snapshot', { session: 'queries' });
  const text = nodes(snapshot).filter((node) => node.role === 'text').map((node) => node.name);
  // The program moved the cursor to row 5, column 10 before asking.
  assert.ok(text.includes('CPR row=5 col=10'), JSON.stringify(text));
  assert.ok(text.some((line) => /^DA1 \d+(;\d+)*$/.test(line)), JSON.stringify(text));
  assert.ok(text.includes('OSC11 rgb:0000/0000/0000'), JSON.stringify(text));
  assert.deepEqual(snapshot.structured.exited, { code: 0 });
  await callOk(context, 'tui_stop', { session: 'queries' });
});

test('mouse clicks arrive as SGR reports at the cell asked for, only once the program enabled reporting', async () => {
  await start({ command: PYTHON, args: [`${tuiFixtures}/mouse_echo.py`], session: 'mouse' });
  await callOk(context, 'tui_wait_for', { text: 'mouse ready', session: 'mouse' });
  await callOk(context, 'tui_click', { x: 9, y: 4, session: 'mouse' });
  await callOk(context, 'tui_wait_for', { text: 'release button=0 col=10 row=5', session: 'mouse' });
  await callOk(context, 'tui_click', { selector: 'role=text name="mouse ready"', button: 'right', session: 'mouse' });
  await callOk(context, 'tui_wait_for', { text: 'press button=2 col=6 row=1', session: 'mouse' });
  await callOk(context, 'tui_type', { text: 'q', session: 'mouse' });
  await callOk(context, 'tui_wait_for', { exited: true, session: 'mouse' });
  await callOk(context, 'tui_stop', { session: 'mouse' });

  await start({ command: 'bash', args: ['--norc'], session: 'nomouse' });
  assert.equal(context.sessions.lease('nomouse').context.terminals.require('nomouse').mouse.reporting, false);
  const result = await failsWith(context, 'tui_click', { x: 1, y: 1, session: 'nomouse' }, 'mouse_unavailable');
  assert.match(result.summary, /has not enabled mouse reporting/);
  await callOk(context, 'tui_stop', { session: 'nomouse' });
});

test('ipython3: a completion menu drawn in one colour, nothing chosen yet, is its completions, none selected; Tab again selects the first', async () => {
  const home = mkdtempSync(join(tmpdir(), 'cup-tui-ipython-'));
  // The oracle: the names Python itself lists in os that start with "pa".
  const names = execFileSync(PYTHON, ['-c', 'import os; print(" ".join(n for n in dir(os) if n.startswith("pa")))'], { timeout: 10_000, encoding: 'utf8' }).trim().split(' ');
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', 'exec /usr/bin/ipython3 --no-banner --no-confirm-exit'], cwd: home, env: { HOME: home }, session: 'ipy' });
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox name="In [1]:" focus', session: 'ipy', timeoutMs: 20_000 });
  await callOk(context, 'tui_type', { text: 'import os\n', session: 'ipy' });
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox name="In [2]:" focus', session: 'ipy' });
  await callOk(context, 'tui_type', { text: 'os.pa', session: 'ipy' });
  await callOk(context, 'tui_press', { key: 'Tab', session: 'ipy' });
  await callOk(context, 'tui_wait_for', { text: names[names.length - 1]!, all: [{ stableMs: 300 }], session: 'ipy' });
  const all = nodes(await callOk(context, 'tui_snapshot', { session: 'ipy' }));
  assert.deepEqual(all.filter((node) => node.selected).map((node) => node.name), []);
  // Under the prompt's row: the completions, one node each.
  const prompt = all.find((node) => node.role === 'textbox' && node.focused)!;
  const shown = all.filter((node) => node.bounds && node.bounds.y > prompt.bounds!.y).map((node) => node.name.replace(/\(\)$/, ''));
  assert.deepEqual([...shown].sort(), [...names].sort());
  await callOk(context, 'tui_press', { key: 'Tab', session: 'ipy' });
  await callOk(context, 'tui_wait_for', { selector: `role=listitem selected name~=${names[0]}`, session: 'ipy' });
  await callOk(context, 'tui_stop', { session: 'ipy' });
});
