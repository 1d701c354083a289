// A debugger's prompt, a word in parentheses ("(gdb) ", "(Pdb) "), is the focused field where commands are
// typed, as a shell's "$ " is. The oracle is the debugger's own answer to what was typed into that field.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { nodes, PYTHON, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

async function focusedField(session: string) {
  return nodes(await callOk(context, 'tui_snapshot', { session })).find((node) => node.focused);
}

test('gdb and pdb: the "(gdb)" and "(Pdb)" prompts are focused fields holding what is typed; the debugger answers it', async () => {
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', 'exec gdb -q -nx'], session: 'gdb' });
  await callOk(context, 'tui_wait_for', { text: '(gdb)', all: [{ stableMs: 200 }], session: 'gdb' });
  assert.deepEqual(await focusedField('gdb').then((node) => [node?.role, node?.name, node?.value]), ['textbox', '(gdb)', '']);
  await callOk(context, 'tui_type', { text: 'print 6*7', session: 'gdb' });
  await callOk(context, 'tui_wait_for', { text: '(gdb) print 6*7', session: 'gdb' });
  assert.equal((await focusedField('gdb'))?.value, 'print 6*7');
  await callOk(context, 'tui_type', { text: '\n', session: 'gdb' });
  await callOk(context, 'tui_wait_for', { text: '$1 = 42', session: 'gdb' });
  await callOk(context, 'tui_stop', { session: 'gdb' });

  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-pdb-'));
  writeFileSync(join(directory, 'area.py'), 'w, h = 6, 7\nprint(w * h)\n');
  await start({ command: PYTHON, args: ['-m', 'pdb', 'area.py'], cwd: directory, env: { PYTHONDONTWRITEBYTECODE: '1' }, session: 'pdb' });
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox name="(Pdb)" focus', session: 'pdb' });
  await callOk(context, 'tui_type', { text: 'next\n', session: 'pdb' });
  await callOk(context, 'tui_wait_for', { newText: '(Pdb)', session: 'pdb' });
  await callOk(context, 'tui_type', { text: 'p w * h', session: 'pdb' });
  await callOk(context, 'tui_wait_for', { text: '(Pdb) p w * h', session: 'pdb' });
  assert.deepEqual(await focusedField('pdb').then((node) => [node?.name, node?.value]), ['(Pdb)', 'p w * h']);
  await callOk(context, 'tui_type', { text: '\n', session: 'pdb' });
  await callOk(context, 'tui_wait_for', { newText: '42', session: 'pdb' });
  await callOk(context, 'tui_stop', { session: 'pdb' });
});

test('gdb -tui: the source window is a document of the file\'s lines (its current line too, after its B+> marks), the bar under it a status line', async () => {
  // gdb's source window drew `B+>     2  int add(...)` with the line's text lit: the marks before its number kept it
  // out of the numbered text, and it read as a menu of three candidates ("B+>", "2", the code). The lit status bar
  // under the window (`In: add  L2  PC: 0x...`) was the column header of a "list" of the command lines below it.
  // Judges: the source file on disk, and gdb's own report of where it stopped.
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-gdbtui-'));
  const source = ['#include <stdio.h>', 'int add(int a, int b) { return a + b; }', 'int main(void) {', '  int s = 0;', '  for (int i = 0; i < 3; i++) s = add(s, i);', '  printf("%d\\n", s);', '  return 0;', '}'];
  writeFileSync(join(directory, 'prog.c'), `${source.join('\n')}\n`);
  execFileSync('gcc', ['-g', '-O0', '-o', 'prog', 'prog.c'], { cwd: directory });
  const session = 'gdbtui';
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', 'exec gdb -q -nx -tui ./prog'], cwd: directory, env: { HOME: directory }, cols: 100, rows: 30, session });
  await callOk(context, 'tui_wait_for', { text: '(gdb)', all: [{ stableMs: 200 }], session });
  await callOk(context, 'tui_type', { text: 'break add\nrun\n', session });
  // gdb's report, and the window redrawn with the stop: the marks and the status bar naming the function.
  await callOk(context, 'tui_wait_for', { newText: 'Breakpoint 1, add', all: [{ text: 'B+>' }, { text: 'In: add' }, { stableMs: 300 }], session });
  const screen = ((await callOk(context, 'tui_render_text', { session })).structured.lines as string[]).join('\n');
  const report = /Breakpoint 1, (\w+) \(.*\) at \S*prog\.c:(\d+)/.exec(screen)?.slice(1);
  assert.ok(report, `gdb reported where it stopped:\n${screen}`);
  const [fn, line] = [report[0]!, Number(report[1])];
  const all = nodes(await callOk(context, 'tui_snapshot', { session }));
  const documents = all.filter((node) => node.role === 'document' || node.role === 'textarea');
  assert.equal(documents.length, 1, JSON.stringify(all.map((node) => [node.role, node.name])));
  const lines = (documents[0]!.children ?? []).map((node) => node.name).filter((name) => name !== '');
  // Every line the window shows, the stopped one with its marks among them, is the file's own from line 1 or 2 on.
  // Named as the file's lines without their indentation, as every line of text is named.
  const fileLines = source.map((text) => text.trim());
  const first = fileLines.indexOf(lines[0]!);
  assert.ok(first >= 0 && first <= line - 1, `window opens with ${JSON.stringify(lines[0])}`);
  assert.deepEqual(lines, fileLines.slice(first, first + lines.length));
  assert.ok(lines.includes(fileLines[line - 1]!), `the line gdb stopped at (${line}) is in the window`);
  assert.deepEqual(all.filter((node) => node.role === 'listitem' || node.role === 'header').map((node) => node.name), []);
  const status = all.find((node) => node.role === 'status');
  assert.ok(status && status.name.includes(`In: ${fn}`) && status.name.includes(`L${line}`), `status line: ${JSON.stringify(status?.name)}`);
  assert.deepEqual(all.filter((node) => node.focused).map((node) => [node.role, node.name]), [['textbox', '(gdb)']]);
  await callOk(context, 'tui_stop', { session });
});
