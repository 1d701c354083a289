// Waiting for what a program prints after the last input: in a REPL the prompt an agent waits for after a
// command is already on screen from before, so `text` is met at once; `newText` only once the command's own
// output and the next prompt have come. The oracle is sqlite3's answer to the same query, run on its own.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { runTool } from '../../src/tools/run.js';
import { callOk } from '../helpers/tools.js';
import { useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

/** A query that keeps sqlite3 busy for a while (a recursive count) before it prints its one number. */
const slowQuery = 'with recursive c(x) as (select 1 union all select x + 1 from c where x < 1500000) select count(*) * 7 from c;';

test('newText: a REPL\'s next prompt after a slow query is waited for, not one already on screen; scrolled lines count', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-new-text-'));
  const answer = execFileSync('sqlite3', [':memory:', slowQuery], { timeout: 30_000, encoding: 'utf8' }).trim();
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', 'exec sqlite3'], cwd: directory, session: 'repl', rows: 12, cols: 60 });
  await callOk(context, 'tui_wait_for', { newText: 'sqlite> ', session: 'repl' });
  // A few commands first, so prompts fill the screen.
  for (let i = 0; i < 3; i++) {
    await callOk(context, 'tui_type', { text: `select ${i};\n`, session: 'repl' });
    await callOk(context, 'tui_wait_for', { newText: 'sqlite> ', session: 'repl' });
  }
  await callOk(context, 'tui_type', { text: `${slowQuery}\n`, session: 'repl' });
  // The old way: the prompt text is on screen from before, so the wait is met with the answer not there yet.
  const early = await callOk(context, 'tui_render_text', { session: 'repl' });
  assert.ok(!(early.body ?? '').split('\n').includes(answer), `the answer is not on screen yet: ${early.body}`);
  await callOk(context, 'tui_wait_for', { text: 'sqlite> ', timeoutMs: 100, session: 'repl' });
  await callOk(context, 'tui_wait_for', { newText: 'sqlite> ', timeoutMs: 30_000, session: 'repl' });
  const lines = ((await callOk(context, 'tui_render_text', { session: 'repl' })).body ?? '').split('\n');
  const at = lines.indexOf(answer);
  assert.ok(at >= 0, `sqlite3's answer ${answer} is on screen once the new prompt came: ${lines.join(' | ')}`);
  assert.match(lines[at + 1] ?? '', /^sqlite> ?$/, 'the new prompt follows the answer');

  // Output that scrolls the input line off the screen still counts from where the input was.
  await callOk(context, 'tui_type', { text: 'select value from generate_series(1, 40);\n', session: 'repl' });
  await callOk(context, 'tui_wait_for', { newText: '\n40\nsqlite>', timeoutMs: 10_000, session: 'repl' });
  // Its first rows have scrolled off the 12-row screen: only the output since the input still holds them.
  await callOk(context, 'tui_wait_for', { newText: '\n1\n2\n3\n', timeoutMs: 1000, session: 'repl' });
  const offScreen = await runTool('tui_wait_for', { text: '\n1\n2\n3\n', timeoutMs: 200, session: 'repl' }, context);
  assert.equal(offScreen.structured.error, 'timeout', 'the first rows are no longer on the screen');
  // Nothing printed since the last input: a wait for new text times out, naming the screen.
  await callOk(context, 'tui_type', { text: 'select', session: 'repl' });
  const result = await runTool('tui_wait_for', { newText: 'sqlite> ', timeoutMs: 300, session: 'repl' }, context);
  assert.equal(result.ok, false, result.summary);
  assert.equal(result.structured.error, 'timeout', result.summary);
  await callOk(context, 'tui_stop', { session: 'repl' });
});

test('newText: output the terminal had received but not yet parsed when the input was sent counts as printed before it', async () => {
  const session = 'mark';
  await start({ command: 'sh', args: ['-c', 'printf "first> "; read line; sleep 0.5; echo "got $line"; printf "second> "; exec sleep 60'], session });
  // The session's own terminal, read in this process: its events say what output has arrived.
  const lease = context.sessions.lease(session);
  const terminal = lease.context.terminals.require(session);
  lease.release();
  // Type the moment the first prompt has reached the terminal, before xterm parses it (on a timer): setImmediate runs
  // after the I/O that delivered it and before any timer. The prompt is the program's output before the input.
  for (const deadline = Date.now() + 10_000; !String(terminal.events.last('output')?.data.text ?? '').includes('first> '); ) {
    assert.ok(Date.now() < deadline, 'sh printed no first prompt');
    await new Promise((resolve) => setImmediate(resolve));
  }
  await callOk(context, 'tui_type', { text: 'hello\n', session });
  // The prompt printed after the input is the second one, after sh's answer half a second later: the first must not meet the wait.
  await callOk(context, 'tui_wait_for', { newText: '> ', session });
  const lines = (await callOk(context, 'tui_render_text', { session })).structured.lines as string[];
  assert.deepEqual(lines.slice(0, 2).map((line) => line.trimEnd()), ['first> hello', 'got hello'], 'the wait ended after the answer');
  await callOk(context, 'tui_stop', { session });
});
