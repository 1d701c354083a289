import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import { isAlive } from '../../src/platform/linux/desktop/processes.js';
import { sessionMembers } from '../../src/tui/process-session.js';
import { runTool } from '../../src/tools/run.js';
import { callOk } from '../helpers/tools.js';
import { nodes, PYTHON, tuiFixtures, useTerminals } from '../tui/helpers.js';
import { failsWith } from '../helpers/tools.js';

const BASH = { command: 'bash', args: ['--norc', '--noprofile', '-i'], env: { PS1: '$ ', HISTFILE: '/dev/null' } };

describe('bash on a real pseudo-terminal', () => {
  const { context, start } = useTerminals();

  /** Waits (bounded) until bash's prompt stands alone on screen line `row`: it is ready for the next command. */
  async function promptOnLine(row: number): Promise<void> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const lines = (await callOk(context, 'tui_render_text')).structured.lines as string[];
      if (lines[row]?.trimEnd() === '$') return;
      assert.ok(Date.now() < deadline, `no prompt on line ${row}: ${JSON.stringify(lines.slice(0, row + 1))}`);
      await sleep(20);
    }
  }

  test('run a command, read its output and its exit status, then exit with a code', async () => {
    await start(BASH);
    await callOk(context, 'tui_wait_for', { text: '$ ' });
    await callOk(context, 'tui_type', { text: 'printf "%s\\n" alpha beta; (exit 3)\n' });
    // Typed text is echoed, so wait for output the command line itself does not contain.
    await callOk(context, 'tui_wait_for', { selector: 'role=text name=beta' });
    // Keys typed before bash prints its next prompt are echoed by the terminal and then again by bash.
    await promptOnLine(3);
    await callOk(context, 'tui_type', { text: 'echo "status=$?"\n' });
    await callOk(context, 'tui_wait_for', { selector: 'role=text name=status=3' });
    const text = await callOk(context, 'tui_render_text');
    assert.deepEqual((text.structured.lines as string[]).slice(0, 5), ['$ printf "%s\\n" alpha beta; (exit 3)', 'alpha', 'beta', '$ echo "status=$?"', 'status=3']);
    // The prompt with the cursor is the focused field, once bash has printed it after the output.
    await promptOnLine(5);
    const snapshot = await callOk(context, 'tui_snapshot');
    const field = nodes(snapshot).find((node) => node.focused);
    assert.deepEqual([field?.role, field?.name], ['textbox', '$']);
    // Title changes and the bell are events; the title also names the root node.
    await callOk(context, 'tui_type', { text: 'printf "\\033]0;cup title\\007\\a"; echo rang-$((3 + 4))\n' });
    await callOk(context, 'tui_wait_for', { text: 'rang-7' });
    const title = await callOk(context, 'tui_last_event', { kind: 'title' });
    assert.deepEqual((title.structured.event as { data: unknown }).data, { title: 'cup title' });
    assert.equal(((await callOk(context, 'tui_last_event', { kind: 'bell' })).structured.event as { kind: string }).kind, 'bell');
    const titled = await callOk(context, 'tui_snapshot');
    assert.equal(titled.structured.title, 'cup title');
    assert.equal(nodes(titled)[0]!.name, 'cup title');
    await callOk(context, 'tui_type', { text: 'exit 7\n' });
    await callOk(context, 'tui_wait_for', { exited: true });
    const exit = await callOk(context, 'tui_last_event', { kind: 'exit' });
    assert.deepEqual((exit.structured.event as { data: unknown }).data, { code: 7 });
    const stopped = await callOk(context, 'tui_stop');
    assert.deepEqual(stopped.structured.exit, { code: 7 });
    await failsWith(context, 'tui_snapshot', {}, 'no_driver');
  });

  test('UTF-8 split across reads stays whole; wide characters take two cells', async () => {
    await start({ command: PYTHON, args: [`${tuiFixtures}/split_utf8.py`], session: 'utf8' });
    await callOk(context, 'tui_wait_for', { text: 'DONE', session: 'utf8' });
    const snapshot = await callOk(context, 'tui_snapshot', { session: 'utf8' });
    const visual = snapshot.structured.visual as { lines: string[]; wide: [number, number][] };
    assert.equal(visual.lines[0], 'café 中文 😀 über');
    assert.equal(visual.lines[1], '宽字符|end');
    assert.ok(!visual.lines.join('').includes('\ufffd'), 'no replacement characters');
    // 宽字符 covers columns 0-5, so "|" is in column 6.
    assert.deepEqual(visual.wide.filter(([row]) => row === 1), [[1, 0], [1, 2], [1, 4]]);
    const bar = nodes(snapshot).find((node) => node.role === 'text' && node.name === '宽字符|end');
    assert.deepEqual(bar?.bounds, { x: 0, y: 1, w: 10, h: 1 });
    await callOk(context, 'tui_stop', { session: 'utf8' });
  });

  test('a program stopped at once after its start leaves nothing behind (its session may not exist yet)', async () => {
    for (let round = 0; round < 20; round++) {
      const started = await start({ ...BASH, session: `quick-${round}` });
      const pid = Number(started.structured.pid);
      await callOk(context, 'tui_stop', { session: `quick-${round}` });
      assert.equal(isAlive(pid), false, `round ${round}: pid ${pid} outlived tui_stop`);
    }
  });

  test('several sessions at once, each with its own single-instance guard', async () => {
    await start({ ...BASH, session: 'one' });
    await start({ ...BASH, session: 'two', cols: 100, rows: 30 });
    await failsWith(context, 'tui_start', { ...BASH, session: 'one' }, 'already_started');
    await callOk(context, 'tui_type', { text: 'echo from-$((1))\n', session: 'one' });
    await callOk(context, 'tui_type', { text: 'echo from-$((2))\n', session: 'two' });
    await callOk(context, 'tui_wait_for', { text: 'from-1', session: 'one', all: [{ idle: true, idleMs: 50 }] });
    await callOk(context, 'tui_wait_for', { text: 'from-2', session: 'two' });
    const one = await callOk(context, 'tui_render_text', { session: 'one' });
    const two = await callOk(context, 'tui_snapshot', { session: 'two', format: 'none' });
    assert.ok(!(one.structured.lines as string[]).join('\n').includes('from-2'));
    assert.equal((two.structured.visual as { cols: number }).cols, 100);
    const capabilities = await callOk(context, 'tui_capabilities');
    assert.deepEqual((capabilities.structured.sessions as { session: string }[]).map((entry) => entry.session).sort(), ['one', 'two']);
    // The dotted name the seed used works too.
    await callOk(context, 'tui.stop', { session: 'two' });
    await callOk(context, 'tui_stop', { session: 'one' });
  });

  test('scrollback is kept and readable; resize reaches the program', async () => {
    await start({ ...BASH, session: 'scroll' });
    await callOk(context, 'tui_type', { text: 'seq 1 200; echo seq-$((40 + 2))\n', session: 'scroll' });
    await callOk(context, 'tui_wait_for', { text: 'seq-42', session: 'scroll' });
    const text = await callOk(context, 'tui_render_text', { scrollback: 500, session: 'scroll' });
    const history = text.structured.scrollback as string[];
    assert.ok(history.includes('1') && history.includes('100'), 'early lines are in the scrollback');
    await callOk(context, 'tui_resize', { cols: 60, rows: 20, session: 'scroll' });
    await callOk(context, 'tui_type', { text: 'clear; stty size\n', session: 'scroll' });
    await callOk(context, 'tui_wait_for', { text: '20 60', session: 'scroll' });
    const resize = await callOk(context, 'tui_last_event', { kind: 'resize', session: 'scroll' });
    assert.deepEqual((resize.structured.event as { data: unknown }).data, { cols: 60, rows: 20 });
    await callOk(context, 'tui_stop', { session: 'scroll' });
  });

  test('tui_stop ends background jobs and their children too, with nothing left behind', async () => {
    const started = await start({ ...BASH, session: 'jobs' });
    const pid = started.structured.pid as number;
    await callOk(context, 'tui_type', { text: 'sleep 300 & (sleep 301 | cat) & echo jobs-$((6 * 7))\n', session: 'jobs' });
    await callOk(context, 'tui_wait_for', { text: 'jobs-42', session: 'jobs' });
    // The echo can come before the background subshell has forked its pipeline: wait (bounded) for all four.
    let members = sessionMembers(pid);
    for (const deadline = Date.now() + 3000; members.length < 4 && Date.now() < deadline; members = sessionMembers(pid)) await sleep(20);
    assert.ok(members.length >= 4, `bash and its jobs: ${JSON.stringify(members)}`);
    await callOk(context, 'tui_stop', { session: 'jobs' });
    for (const member of members) assert.equal(isAlive(member.pid), false, `pid ${member.pid} survived`);
  });

  test('a wait that cannot be met times out with the screen in the error', async () => {
    await start({ ...BASH, session: 'slow' });
    await callOk(context, 'tui_wait_for', { text: '$ ', session: 'slow' });
    const began = Date.now();
    const result = await failsWith(context, 'tui_wait_for', { text: 'never-shown', timeoutMs: 300, session: 'slow' }, 'timeout');
    assert.ok(Date.now() - began < 2000);
    assert.match(result.summary, /timed out after 300 ms waiting for text "never-shown"; the screen shows:\n\$/);
    await failsWith(context, 'tui_wait_for', { session: 'slow' }, 'invalid_arguments');
    const tooLong = await runTool('tui_wait_for', { text: 'x', timeoutMs: 120_000, session: 'slow' }, context);
    assert.equal(tooLong.failure, 'usage');
    await callOk(context, 'tui_stop', { session: 'slow' });
  });

  test('a cancelled wait ends at once with "cancelled", and the program goes on', async () => {
    await start({ ...BASH, session: 'cancel' });
    await callOk(context, 'tui_wait_for', { text: '$ ', session: 'cancel' });
    const controller = new AbortController();
    const waiting = runTool('tui_wait_for', { text: 'never-shown', timeoutMs: 30_000, session: 'cancel' }, { ...context, signal: controller.signal });
    await sleep(100);
    const cancelledAt = Date.now();
    controller.abort();
    const result = await waiting;
    // Bound against a hang: the 30 s timeout would be the only other way out.
    assert.ok(Date.now() - cancelledAt < 1000, `the wait ended ${Date.now() - cancelledAt} ms after the cancel`);
    assert.equal(result.structured.error, 'cancelled', result.summary);
    assert.match(result.summary, /the wait for text "never-shown" was cancelled by the caller after \d+ ms/);
    // The terminal is untouched by the cancelled wait: it still answers.
    await callOk(context, 'tui_type', { text: 'echo after-$((6 * 7))\n', session: 'cancel' });
    await callOk(context, 'tui_wait_for', { text: 'after-42', session: 'cancel' });
    await callOk(context, 'tui_stop', { session: 'cancel' });
  });
});
