import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ToolContext } from '../../src/tools/context.js';
import { resultText } from '../../src/tools/call-result.js';
import { runTool } from '../../src/tools/run.js';
import { TestDesktop } from '../helpers/desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { callOk, pyatspiWalk, testContext, type Element } from '../helpers/tools.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';

/**
 * A terminal emulator's window (LXTerminal, VTE): the screen is one object with the terminal role and no children,
 * whose Text holds the visible rows. The tree shows each row that holds something as text on its row, output shows
 * in diffs and can be waited for, and a row told to act says what works instead. pyatspi's reading of the terminal's
 * text is the oracle for the rows.
 */
describe('a terminal widget: its screen as rows of text', () => {
  let desktop: TestDesktop;
  let context: ToolContext;
  let oracle: PyatspiOracle;
  let terminal: { process: ChildProcess; window: ClientWindow };
  const title = 'CUP Terminal Rows';

  before(async () => {
    desktop = await TestDesktop.start();
    context = testContext();
    oracle = new PyatspiOracle(desktop.env());
    // A shell without start-up files, with a prompt of its own, so the screen holds only what the test wrote.
    terminal = await desktop.launch('lxterminal', ['--no-remote', '-t', title, '-e', 'env PS1="cup$ " bash --norc --noprofile'], title);
  });

  after(async () => {
    oracle?.close();
    await desktop?.stop();
  });

  async function elements(): Promise<Element[]> {
    const state = await callOk(context, 'get_window_state', { pid: terminal.window.pid, window_id: terminal.window.id, include_screenshot: false, detail: 'full' });
    return state.structured.elements as Element[];
  }

  async function screenRows(): Promise<string[]> {
    const text = (await oracle.find(terminal.window.pid, title, 'terminal', 'Terminal')).text ?? '';
    // A row keeps its spaces, as the screen shows them: only those after its last character are no text.
    return text.split('\n').map((line) => line.trimEnd()).filter((line) => line !== '');
  }

  test('each row of the screen that holds something is a text node under the terminal, in order and with its spaces, as pyatspi reads the text', async () => {
    await callOk(context, 'type_text', { window_id: terminal.window.id, text: "printf 'alpha row\\n  beta   row\\n'\n", delivery_mode: 'foreground' });
    let rows: Element[] = [];
    let expected: string[] = [];
    for (const deadline = Date.now() + 5000; Date.now() < deadline; ) {
      const found = await elements();
      const screen = found.find((element) => element.role === 'document' && element.name === 'Terminal');
      assert.ok(screen, 'the terminal is in the tree');
      const box = screen.bounds!;
      rows = found.filter((element) => element.role === 'text' && element.bounds !== undefined && element.bounds.y >= box.y && element.bounds.y < box.y + box.h);
      expected = await screenRows();
      if (expected.includes('  beta   row') && rows.map((row) => row.name).join('\n') === expected.join('\n')) break;
    }
    // Indentation and the spaces between columns are the screen's content (xfce4-terminal showed "  x    y" as "x y").
    assert.ok(expected.includes('alpha row') && expected.includes('  beta   row'), expected.join('\n'));
    assert.deepEqual(rows.map((row) => row.name), expected);
    assert.ok(rows.every((row) => row.role === 'text'));
    // Placed on their rows: one under another, inside the terminal.
    const tops = rows.map((row) => row.bounds!.y);
    assert.deepEqual([...tops].sort((a, b) => a - b), tops);
    assert.equal(new Set(tops).size, tops.length);
  });

  test('output shows in the diff as added rows, and wait_for finds a row as it appears', async () => {
    const word = `cup-row-${process.pid}`;
    // One plan: the typing, then the wait for the output; its diff runs from before the one to after the other.
    const planned = await callOk(context, 'run_actions', {
      window_id: terminal.window.id,
      steps: [
        { tool: 'type_text', arguments: { text: `sleep 0.3; echo ${word}\n`, delivery_mode: 'foreground' } },
        { tool: 'wait_for', arguments: { selector: `role=text name="${word}"`, timeout_ms: 5000 } },
      ],
    });
    const text = resultText(planned);
    assert.equal(planned.structured.completed_steps, 2, text);
    assert.match(text, new RegExp(`^\\+ \\[e\\d+\\] txt "cup\\$ sleep 0\\.3; echo ${word}"$`, 'm'), text);
    assert.match(text, new RegExp(`^\\+ \\[e\\d+\\] txt "${word}"$`, 'm'), text);
    assert.ok((await screenRows()).includes(word), 'pyatspi: the terminal shows it');
    // The typing's evidence quotes the screen where it changed, not from its top (which output leaves as it was).
    const typing = (planned.structured.steps as { result?: { evidence?: string[] } }[])[0]!.result?.evidence ?? [];
    assert.ok(typing.some((line) => /^text of the focused element: .* → "[^"]*cup\$ s/.test(line)), typing.join('\n'));
    // Rows that stayed keep their index: the one the diff named is the same row now.
    const added = /^\+ \[e(\d+)\] txt "cup\$ sleep/m.exec(text)!;
    const now = (await elements()).find((element) => element.index === Number(added[1]));
    assert.equal(now?.name, `cup$ sleep 0.3; echo ${word}`);
  });

  test('an action on a row is refused with what works: keys into the terminal, or a click at the row\'s pixels', async () => {
    const found = await elements();
    const row = found.find((element) => element.role === 'text' && element.name === 'alpha row')!;
    assert.ok(row, 'the row is there');
    const result = await runTool('click', { window_id: terminal.window.id, element_index: row.index }, context);
    assert.equal(result.ok, false);
    assert.equal(result.structured.error, 'terminal_row');
    const match = /element_index (\d+) .*click at x=(\d+), y=(\d+) \(window pixels/.exec(result.summary);
    assert.ok(match, result.summary);
    assert.equal(found.find((element) => element.index === Number(match[1]))?.name, 'Terminal');
    // The point is on the row: inside its box, in window pixels.
    const window = (await context.desktop.windows()).find((candidate) => candidate.id === terminal.window.id)!;
    const [x, y] = [Number(match[2]) + window.bounds.x, Number(match[3]) + window.bounds.y];
    const box = row.bounds!;
    assert.ok(x >= box.x && x < box.x + box.w && y >= box.y && y < box.y + box.h, `${x},${y} in ${JSON.stringify(box)}`);
  });

  test('keys typed into a terminal scrolled back show the command line and its output in the result, as pyatspi reads them', async () => {
    // Enough lines for a scroll back, then the view scrolled up: the first key makes VTE jump to the bottom, a change
    // of its own long before the shell has echoed the keys and run the line.
    await callOk(context, 'type_text', { window_id: terminal.window.id, text: 'seq 1 60\n', delivery_mode: 'foreground' });
    const screen = (await elements()).find((element) => element.role === 'document' && element.name === 'Terminal')!;
    const scrolled = await callOk(context, 'scroll', { window_id: terminal.window.id, element_index: screen.index, direction: 'up', amount: 10 });
    assert.match(resultText(scrolled), /scroll position: "\d+" → "\d+"/, resultText(scrolled));
    const word = `cup-back-${process.pid}`;
    const typed = await callOk(context, 'type_text', { window_id: terminal.window.id, text: `echo ${word}-$((6*7))\n`, delivery_mode: 'foreground' });
    const text = resultText(typed);
    // pyatspi: the terminal shows the output (by now, or a moment later on a loaded machine).
    let shown = false;
    for (const deadline = Date.now() + 5000; !shown && Date.now() < deadline; await sleep(100)) shown = (await screenRows()).includes(`${word}-42`);
    assert.ok(shown, 'pyatspi: the terminal shows the output');
    // The result holds what the terminal shows after the keys: the command line typed and what it printed.
    assert.match(text, new RegExp(`^\\+ \\[e\\d+\\] txt "cup\\$ echo ${word}-\\$\\(\\(6\\*7\\)\\)"$`, 'm'), text);
    assert.match(text, new RegExp(`^\\+ \\[e\\d+\\] txt "${word}-42"$`, 'm'), text);
  });

  test('a key pressed in the background on a terminal is not stood in for by an accessibility action: Ctrl+C is refused, not "copied", and the real key interrupts', async () => {
    const done = join(mkdtempSync(join(tmpdir(), 'cup-terminal-')), 'done');
    await callOk(context, 'type_text', { window_id: terminal.window.id, text: `sleep 4; echo finished > ${done}\n`, delivery_mode: 'foreground' });
    // Ctrl+C in a terminal interrupts the program it runs; copying its (empty) selection was reported delivered.
    const background = await runTool('press_key', { window_id: terminal.window.id, key: 'ctrl+c' }, context);
    assert.equal(background.structured.effect, 'suspected_noop', resultText(background));
    assert.equal(background.structured.path, 'none', resultText(background));
    assert.match(resultText(background), /a terminal: its keys go to the program it runs.*nothing was sent/, resultText(background));
    const foreground = await callOk(context, 'press_key', { window_id: terminal.window.id, key: 'ctrl+c', delivery_mode: 'foreground' });
    assert.equal(foreground.structured.effect, 'confirmed', resultText(foreground));
    await sleep(4500);
    // The shell's file: the line was interrupted, so it never wrote it.
    assert.equal(existsSync(done), false, 'the command line ran to its end: Ctrl+C did not interrupt it');
    const rows = await screenRows();
    assert.ok(rows.includes('^C'), rows.join('\n'));
  });

  test('a command typed in the foreground into a terminal screen its widget paints itself (QTerminal) is judged by the screen\'s pixels: confirmed, not "no effect seen"', async () => {
    // QTermWidget exposes no text: the keyboard focus is on a filler holding the screen's scroll area, and nothing in
    // the tree changes as a command is typed and run there. It read "no effect seen" of a command the shell ran.
    const out = join(mkdtempSync(join(tmpdir(), 'cup-painted-')), 'typed.out');
    const painted = await desktop.launch('qterminal', [], /./, 30_000, { SHELL: '/bin/sh' });
    try {
      await callOk(context, 'get_window_state', { window_id: painted.window.id, include_screenshot: false });
      const called = await callOk(context, 'type_text', { window_id: painted.window.id, text: `echo painted > ${out}\n`, delivery_mode: 'foreground' });
      // The shell's file: the command ran.
      for (const deadline = Date.now() + 5000; !existsSync(out) && Date.now() < deadline; ) await sleep(100);
      assert.equal(existsSync(out) && readFileSync(out, 'utf8'), 'painted\n', 'the shell ran the typed command');
      // pyatspi: no object of the window holds the command line (so the tree alone could not tell).
      const walked = await pyatspiWalk(painted.window.pid, painted.window.title, desktop.env());
      assert.ok(!walked.some((node) => node.name.includes('echo painted')), 'nothing in the tree holds the typed text');
      const result = called.structured as unknown as ActionResult;
      assert.equal(result.effect, 'confirmed', resultText(called));
      assert.match(result.evidence?.[0] ?? '', /^the surface the app draws changed: \d+ pixels/, JSON.stringify(result.evidence));
    } finally {
      painted.process.kill('SIGKILL');
    }
  });
});
