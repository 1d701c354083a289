// vi's and the pagers' command line on the last row (`:`, `/`, `?` with the cursor after it) is a focused
// textbox named by its mark, holding what was typed. Judged by the programs themselves: vim writes the
// file the command names, less moves to the line the search names.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { UINode } from '../../src/tui/ui-node.js';
import { callOk } from '../helpers/tools.js';
import { nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

async function focusedTextbox(session: string): Promise<UINode | undefined> {
  return nodes(await callOk(context, 'tui_snapshot', { session })).find((node) => node.role === 'textbox' && node.focused);
}

test('less: the search prompt "/" is a focused textbox, empty at first, then holding the pattern less searches for', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-cmdline-'));
  const file = join(directory, 'haystack.txt');
  writeFileSync(file, Array.from({ length: 300 }, (_, i) => (i === 199 ? 'the NEEDLE is here' : `hay ${i + 1}`)).join('\n'));
  await start({ command: 'less', args: [file], cwd: directory, env: { LESS: '', LESSHISTFILE: '-' }, session: 'less' });
  await callOk(context, 'tui_wait_for', { text: 'hay 1', session: 'less' });
  await callOk(context, 'tui_press', { key: '/', session: 'less' });
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox name="/" focus', timeoutMs: 3000, session: 'less' });
  const empty = await focusedTextbox('less');
  assert.deepEqual([empty?.name, empty?.value ?? ''], ['/', '']);
  await callOk(context, 'tui_type', { text: 'NEEDLE', session: 'less' });
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox name="/" value=NEEDLE', timeoutMs: 3000, session: 'less' });
  await callOk(context, 'tui_press', { key: 'Enter', session: 'less' });
  // less's own answer: the line it found is the first one shown, and its prompt is back.
  await callOk(context, 'tui_wait_for', { selector: 'role=text name="the NEEDLE is here"', all: [{ stableMs: 100 }], session: 'less' });
  const lines = (await callOk(context, 'tui_render_text', { session: 'less' })).structured.lines as string[];
  assert.equal(lines[0], 'the NEEDLE is here');
  assert.equal((await focusedTextbox('less'))?.value ?? '', '');
  await callOk(context, 'tui_stop', { session: 'less' });
});

test('vim: the ":" command line is a focused textbox holding the command vim then runs', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-cmdline-'));
  const target = join(directory, 'written.txt');
  await start({ command: 'vim', args: ['-u', 'NONE', '-n', '-i', 'NONE'], cwd: directory, session: 'vim' });
  await callOk(context, 'tui_wait_for', { stableMs: 200, session: 'vim' });
  await callOk(context, 'tui_type', { text: 'ihello\u001b', session: 'vim' });
  await callOk(context, 'tui_press', { key: ':', session: 'vim' });
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox name=":" focus', timeoutMs: 3000, session: 'vim' });
  await callOk(context, 'tui_type', { text: `w ${target}`, session: 'vim' });
  // The ":" field was focused before the typing: the wait names what vim echoes (a stable screen was also met by one
  // vim had not redrawn yet under load).
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox focus', all: [{ text: `:w ${target}` }, { stableMs: 100 }], session: 'vim' });
  const field = await focusedTextbox('vim');
  assert.deepEqual([field?.name, field?.value], [':', `w ${target}`]);
  assert.equal(existsSync(target), false);
  await callOk(context, 'tui_press', { key: 'Enter', session: 'vim' });
  // The command line already holds the file's name: wait for vim's own report that it wrote it.
  await callOk(context, 'tui_wait_for', { text: 'bytes written', session: 'vim' });
  assert.equal(readFileSync(target, 'utf8'), 'hello\n');
  await callOk(context, 'tui_type', { text: ':q!\n', session: 'vim' });
  await callOk(context, 'tui_wait_for', { exited: true, session: 'vim' });
  await callOk(context, 'tui_stop', { session: 'vim' });
});

test('bash: a prompt that opens with "/" on the last row stays a prompt named by its "$", not a command line', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-cmdline-'));
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-i'], cwd: directory, env: { PS1: '/work$ ' }, rows: 6, session: 'bash' });
  // Enough lines that the prompt stands on the screen's last row.
  await callOk(context, 'tui_type', { text: 'seq 1 10\n', session: 'bash' });
  // Keys typed before bash prints its next prompt are echoed by the terminal and again by bash: wait (bounded) for the
  // prompt alone on the last row, after seq's output (a wait for the prompt's text also met the line typed at it).
  const render = async () => (await callOk(context, 'tui_render_text', { session: 'bash' })).structured.lines as string[];
  for (const deadline = Date.now() + 10_000; (await render()).at(-1)?.trimEnd() !== '/work$'; ) {
    assert.ok(Date.now() < deadline, `no prompt alone on the last row: ${JSON.stringify(await render())}`);
    await sleep(20);
  }
  await callOk(context, 'tui_type', { text: 'echo hi', session: 'bash' });
  // The prompt was a focused field before the typing: the wait names bash's echo of it too.
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox focus', all: [{ text: '/work$ echo hi' }, { stableMs: 100 }], session: 'bash' });
  const lines = (await callOk(context, 'tui_render_text', { session: 'bash' })).structured.lines as string[];
  assert.equal(lines[lines.length - 1]!.trimEnd(), '/work$ echo hi', 'the prompt is on the last row');
  const field = await focusedTextbox('bash');
  assert.deepEqual([field?.name, field?.value], ['/work$', 'echo hi']);
  await callOk(context, 'tui_stop', { session: 'bash' });
});
