// A shell's command line is a focused textbox whose value is what was typed: not the right prompt a shell
// draws at the row's end (zsh's RPROMPT), and not the suggestion it shows past the cursor in faint type
// (fish's autosuggestion), which a key would accept but Enter does not run. The judges are the shells
// themselves: the command they record in their history files and what the command prints.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

async function focusedField(session: string) {
  const focused = nodes(await callOk(context, 'tui_snapshot', { session })).filter((node) => node.focused);
  assert.equal(focused.length, 1, JSON.stringify(focused));
  assert.equal(focused[0]!.role, 'textbox');
  return focused[0]!;
}

/** The file's lines once `done` holds for them (a shell writes its history as the command starts). */
async function linesOf(file: string, done: (lines: string[]) => boolean): Promise<string[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    let lines: string[] = [];
    try {
      lines = readFileSync(file, 'utf8').trim().split('\n');
    } catch {
      // not written yet
    }
    if (done(lines) || Date.now() > deadline) return lines;
    await sleep(50);
  }
}

test('zsh: the right prompt at the row\'s end is not in the command line\'s value; the value is the command zsh records', async () => {
  const home = mkdtempSync(join(tmpdir(), 'cup-tui-zsh-'));
  const history = join(home, 'history');
  writeFileSync(join(home, '.zshrc'), `PROMPT='%# '\nRPROMPT='[%?] right side'\nHISTFILE=${history}\nSAVEHIST=100\nHISTSIZE=100\nsetopt INC_APPEND_HISTORY\n`);
  await start({ command: 'zsh', args: ['-i'], cwd: home, env: { HOME: home, ZDOTDIR: home }, session: 'zsh' });
  await callOk(context, 'tui_wait_for', { text: 'right side', all: [{ stableMs: 200 }], session: 'zsh' });
  await callOk(context, 'tui_type', { text: 'echo one   two', session: 'zsh' });
  await callOk(context, 'tui_wait_for', { text: 'echo one   two', all: [{ stableMs: 100 }], session: 'zsh' });
  const field = await focusedField('zsh');
  const all = nodes(await callOk(context, 'tui_snapshot', { session: 'zsh' }));
  assert.ok(all.some((node) => node.role === 'text' && node.name === '[0] right side'), 'the right prompt is text of its own');
  const right = all.find((node) => node.name === '[0] right side')!;
  assert.ok(field.bounds!.x + field.bounds!.w <= right.bounds!.x, 'the field stops before the right prompt');

  await callOk(context, 'tui_press', { key: 'Enter', session: 'zsh' });
  const recorded = await linesOf(history, (lines) => lines.length > 0 && lines[0] !== '');
  assert.deepEqual(recorded, [field.value]);
  await callOk(context, 'tui_stop', { session: 'zsh' });
});

test('fish: an autosuggestion drawn past the cursor in faint type is not the value; Enter runs what the value says', async () => {
  const home = mkdtempSync(join(tmpdir(), 'cup-tui-fish-'));
  const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_DATA_HOME: join(home, 'data') };
  const history = join(home, 'data', 'fish', 'fish_history');
  await start({ command: 'fish', cwd: home, env, session: 'fish' });
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox focused', all: [{ stableMs: 300 }], session: 'fish' });
  await callOk(context, 'tui_type', { text: 'echo suggested-word\n', session: 'fish' });
  // The echo of the typed line holds the word too: the wait names the command's own output, on a row of its own, and
  // the next prompt's field after it. Typed before that, "echo sug" could meet the output below as the suggestion.
  await callOk(context, 'tui_wait_for', { newText: '\nsuggested-word', all: [{ selector: 'role=textbox focused' }, { stableMs: 300 }], session: 'fish' });
  // fish suggests the whole earlier command, in grey, as soon as the start of it is typed.
  await callOk(context, 'tui_type', { text: 'echo sug', session: 'fish' });
  await callOk(context, 'tui_wait_for', { text: 'echo suggested-word', newText: 'gested-word', all: [{ stableMs: 200 }], session: 'fish' });
  const field = await focusedField('fish');
  assert.equal(field.value, 'echo sug');

  await callOk(context, 'tui_press', { key: 'Enter', session: 'fish' });
  const commands = (lines: string[]) => lines.filter((line) => line.startsWith('- cmd: ')).map((line) => line.slice(7));
  const recorded = await linesOf(history, (lines) => commands(lines).length >= 2);
  assert.deepEqual(commands(recorded), ['echo suggested-word', field.value]);
  await callOk(context, 'tui_stop', { session: 'fish' });
});

test('zsh menu-select: the completion candidates are a list whose lit one is selected; focus moves to one by the grid\'s arrow keys and Enter runs it', async () => {
  const home = mkdtempSync(join(tmpdir(), 'cup-tui-zmenu-'));
  const names = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota', 'kappa'];
  for (const name of names) writeFileSync(join(home, `${name}.txt`), `content of ${name}\n`);
  const history = join(home, 'history');
  writeFileSync(join(home, '.zshrc'), `PROMPT='%# '\nHISTFILE=${history}\nSAVEHIST=100\nHISTSIZE=100\nsetopt INC_APPEND_HISTORY\nautoload -Uz compinit; compinit -u\nzstyle ':completion:*' menu select\n`);
  await start({ command: 'zsh', args: ['-i'], cwd: home, env: { HOME: home, ZDOTDIR: home }, cols: 80, rows: 24, session: 'zmenu' });
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox focused', all: [{ stableMs: 300 }], session: 'zmenu' });
  await callOk(context, 'tui_type', { text: 'cat ', session: 'zmenu' });
  // The first Tab lists the candidates, the next ones walk them with one lit.
  const deadline = Date.now() + 10_000;
  for (;;) {
    await callOk(context, 'tui_press', { key: 'Tab', session: 'zmenu' });
    const lit = await callOk(context, 'tui_wait_for', { selector: 'role=list >> role=listitem selected', all: [{ stableMs: 150 }], session: 'zmenu', timeoutMs: 1000 }).catch(() => undefined);
    if (lit || Date.now() > deadline) break;
  }
  const items = nodes(await callOk(context, 'tui_snapshot', { session: 'zmenu' })).filter((node) => node.role === 'listitem');
  assert.deepEqual(items.map((item) => item.name).sort(), names.map((name) => `${name}.txt`).sort());
  const selected = items.filter((item) => item.selected);
  assert.equal(selected.length, 1);
  // zsh puts the lit candidate on the command line: the list's selection is the one zsh took.
  const field = await focusedField('zmenu');
  assert.equal(field.value, `cat ${selected[0]!.name}`);

  const target = items.find((item) => item.name === 'kappa.txt' && item.bounds!.y !== selected[0]!.bounds!.y && item.bounds!.x !== selected[0]!.bounds!.x)
    ?? items.find((item) => item.name !== selected[0]!.name && item.bounds!.y !== selected[0]!.bounds!.y && item.bounds!.x !== selected[0]!.bounds!.x)!;
  const focus = await callOk(context, 'tui_focus', { selector: `role=listitem name="${target.name}"`, session: 'zmenu' });
  assert.equal(focus.structured.method, 'keys');
  assert.equal((await focusedField('zmenu')).value, `cat ${target.name}`);
  // Enter takes the candidate, the next one runs the line.
  await callOk(context, 'tui_press', { key: 'Enter', session: 'zmenu' });
  await callOk(context, 'tui_wait_for', { selector: 'role=list', gone: true, session: 'zmenu' });
  await callOk(context, 'tui_press', { key: 'Enter', session: 'zmenu' });
  await callOk(context, 'tui_wait_for', { newText: `content of ${target.name.replace('.txt', '')}`, session: 'zmenu' });
  assert.deepEqual(await linesOf(history, (lines) => lines[0] !== undefined && lines[0] !== ''), [`cat ${target.name}`]);
  await callOk(context, 'tui_stop', { session: 'zmenu' });
});

const BASH = { command: 'bash', args: ['--norc', '--noprofile', '-i'] };

test('bash: a completion listing and `ls -C` read one text per name, however few blanks part two columns', async () => {
  const home = mkdtempSync(join(tmpdir(), 'cup-tui-listing-'));
  const names = ['apple', 'banana', 'cherry', 'damson', 'elder', 'fig', 'grape', 'guava', 'kiwi', 'lemon', 'lime', 'mango'];
  for (const name of names) mkdirSync(join(home, name));
  await start({ ...BASH, cwd: home, env: { PS1: '$ ', HISTFILE: '/dev/null' }, cols: 40, rows: 20, session: 'listing' });
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox focused', session: 'listing' });
  await callOk(context, 'tui_type', { text: 'cd ', session: 'listing' });
  // readline lists the directories after a second Tab, each with its "/", in columns as wide as the longest
  // name and one or two blanks: "banana/" is one blank from the next name.
  await callOk(context, 'tui_press_sequence', { keys: ['Tab', 'Tab'], session: 'listing' });
  await callOk(context, 'tui_wait_for', { text: 'mango/', all: [{ stableMs: 200 }], session: 'listing' });
  const lines = (await callOk(context, 'tui_render_text', { session: 'listing' })).structured.lines as string[];
  const listed = lines.filter((line) => line.includes('/'));
  assert.ok(listed.some((line) => /\S \S/.test(line)), `one blank parts two names: ${JSON.stringify(lines)}`);
  const onDisk = readdirSync(home).sort();
  const texts = (result: Awaited<ReturnType<typeof callOk>>, rows: number[]) =>
    nodes(result).filter((node) => node.role === 'text' && rows.includes(node.bounds!.y)).map((node) => node.name).sort();
  const rowsOf = (pattern: RegExp) => lines.flatMap((line, row) => (pattern.test(line) ? [row] : []));
  assert.deepEqual(texts(await callOk(context, 'tui_snapshot', { session: 'listing' }), rowsOf(/\/ /)), onDisk.map((name) => `${name}/`));

  // ls lays the names out in columns two blanks apart at least: each is a text of its own too.
  await callOk(context, 'tui_press', { key: 'ctrl+u', session: 'listing' });
  await callOk(context, 'tui_type', { text: 'clear; ls -C -w 40; echo listed-$((6 * 7))\n', session: 'listing' });
  await callOk(context, 'tui_wait_for', { newText: 'listed-42', session: 'listing' });
  const after = (await callOk(context, 'tui_render_text', { session: 'listing' })).structured.lines as string[];
  // clear left ls's rows at the top, above the echo's.
  const table = after.slice(0, after.indexOf('listed-42')).map((_, row) => row);
  assert.ok(table.some((row) => /\S  \S/.test(after[row]!)), `two blanks part two names: ${JSON.stringify(after)}`);
  assert.deepEqual(texts(await callOk(context, 'tui_snapshot', { session: 'listing' }), table), onDisk);

  // Wide enough for every name on one row, readline keeps its even columns: one row alone shows them.
  await callOk(context, 'tui_resize', { cols: 120, rows: 20, session: 'listing' });
  await callOk(context, 'tui_type', { text: 'clear\n', session: 'listing' });
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox focused', all: [{ stableMs: 200 }], session: 'listing' });
  await callOk(context, 'tui_type', { text: 'cd ', session: 'listing' });
  await callOk(context, 'tui_press_sequence', { keys: ['Tab', 'Tab'], session: 'listing' });
  await callOk(context, 'tui_wait_for', { text: 'mango/', all: [{ stableMs: 200 }], session: 'listing' });
  const wide = (await callOk(context, 'tui_render_text', { session: 'listing' })).structured.lines as string[];
  const row = wide.findIndex((line) => line.startsWith('apple/'));
  assert.ok(row >= 0 && /\S \S/.test(wide[row]!) && wide[row]!.includes('mango/'), `one row, one blank parting two names: ${JSON.stringify(wide)}`);
  assert.deepEqual(texts(await callOk(context, 'tui_snapshot', { session: 'listing' }), [row]), onDisk.map((name) => `${name}/`));
  await callOk(context, 'tui_stop', { session: 'listing' });
});

test('bash: a line longer than the screen, wrapped by the terminal, reads as one command line and one line of output', async () => {
  const home = mkdtempSync(join(tmpdir(), 'cup-tui-wrap-'));
  const history = join(home, 'history');
  await start({ ...BASH, cwd: home, env: { PS1: '$ ', HISTFILE: history }, cols: 40, rows: 20, session: 'wrap' });
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox focused', session: 'wrap' });
  const word = 'one-two-three-four-five-six-seven-eight-nine-ten-eleven';
  const command = `printf '%s\\n' ${word} 'and more' > out.txt`;
  await callOk(context, 'tui_type', { text: command, session: 'wrap' });
  await callOk(context, 'tui_wait_for', { text: 'out.txt', all: [{ stableMs: 150 }], session: 'wrap' });
  // The command line covers three rows, the last holding the cursor but no prompt.
  const field = await focusedField('wrap');
  assert.equal(field.bounds!.h, Math.ceil(`$ ${command}`.length / 40), JSON.stringify(field));
  await callOk(context, 'tui_press', { key: 'Enter', session: 'wrap' });
  // bash's history holds the command as bash read it.
  await callOk(context, 'tui_type', { text: 'history -w\n', session: 'wrap' });
  assert.deepEqual((await linesOf(history, (lines) => lines.length >= 2))[0], field.value);
  assert.equal(field.name, '$');

  // What cat prints is one line of the file, wrapped by the terminal: one text, over two rows.
  await callOk(context, 'tui_type', { text: 'clear; cat out.txt\n', session: 'wrap' });
  await callOk(context, 'tui_wait_for', { newText: 'and more', all: [{ stableMs: 150 }], session: 'wrap' });
  const printed = readFileSync(join(home, 'out.txt'), 'utf8').split('\n');
  const lines = (await callOk(context, 'tui_render_text', { session: 'wrap' })).structured.lines as string[];
  assert.ok(!lines.includes(printed[0]!), `the terminal wrapped the line: ${JSON.stringify(lines)}`);
  const texts = nodes(await callOk(context, 'tui_snapshot', { session: 'wrap' })).filter((node) => node.role === 'text');
  const line = texts.find((node) => node.name === printed[0]);
  assert.ok(line, JSON.stringify(texts.map((node) => node.name)));
  assert.equal(line.bounds!.h, 2);
  assert.ok(texts.some((node) => node.name === printed[1]));
  await callOk(context, 'tui_stop', { session: 'wrap' });
});
