import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { ToolContext } from '../../src/tools/context.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { fixtureApps, TestDesktop } from '../helpers/desktop.js';
import { callOk, failsWith, testContext } from '../helpers/tools.js';

/**
 * A Tk window, which has no accessibility tree and takes X events another client sends (the x11_pixel and key_events
 * rungs): clicks, keys and the wheel at its points, and what cannot be done there. Judged by the fixture's own log of
 * what its widgets did, and by xcalc's pixels for a window lying over the point.
 */
describe('a Tk app, which has no accessibility tree', () => {
  let desktop: TestDesktop;
  let context: ToolContext;
  let folder: string;
  // Window-local pixels of the fixture's button (placed there by the fixture).
  const button = { x: 280, y: 95 };

  before(async () => {
    desktop = await TestDesktop.start();
    context = testContext();
    folder = mkdtempSync(join(tmpdir(), 'cup-tk-synthetic-'));
  });

  after(async () => {
    context?.desktop.close();
    await desktop?.stop();
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  /** The fixture's log once it has `lines` lines (or 3 s have passed). */
  async function logOnce(file: string, lines: number): Promise<string[]> {
    let log: string[] = [];
    for (const deadline = Date.now() + 3000; log.length < lines && Date.now() < deadline; await sleep(50)) log = readFileSync(file, 'utf8').split('\n').filter(Boolean);
    return log;
  }

  test('a background click on a covered Tk button runs its command, and the window over it gets nothing', async () => {
    const log = join(folder, 'covered.log');
    writeFileSync(log, '');
    const { process: tk, window } = await desktop.launch('/usr/bin/python3', [join(fixtureApps, 'tk_fixture.py'), '--key-log', log, '--title', 'CUP Tk Covered'], 'CUP Tk Covered');
    const { process: cover, window: coverWindow } = await desktop.launch('xcalc', [], 'Calculator');
    try {
      // xcalc laid over the button's point, in front.
      const { x, y } = window.bounds;
      await callOk(context, 'set_window_frame', { window_id: coverWindow.id, x: x + button.x - 100, y: y + button.y - 150, width: coverWindow.bounds.width, height: coverWindow.bounds.height });
      await callOk(context, 'bring_to_front', { window_id: coverWindow.id });
      const xlib = await desktop.x11();
      const coverPixels = async () => createHash('sha256').update((await xlib.getImage(coverWindow.id, 0, 0, coverWindow.bounds.width, coverWindow.bounds.height)).data).digest('hex');
      const before = await coverPixels();
      // The click was walked down from the root to xcalc's key there, and the Tk button, reached, ran nothing
      // for want of the pointer's entering it.
      const result = await callOk(context, 'click', { window_id: window.id, ...button });
      assert.equal(result.structured.path, 'x11_pixel', result.summary);
      assert.deepEqual(await logOnce(log, 1), ['clicked'], 'the Tk button ran its command');
      await sleep(300);
      assert.equal(await coverPixels(), before, 'xcalc, over the point, took no click');
    } finally {
      tk.kill('SIGKILL');
      cover.kill('SIGKILL');
    }
  });

  test('a click whose command draws nothing is not said to have done nothing: the advice says it may have run, to check before sending it again', async () => {
    const log = join(folder, 'undrawn.log');
    writeFileSync(log, '');
    const { process: tk, window } = await desktop.launch('/usr/bin/python3', [join(fixtureApps, 'tk_fixture.py'), '--key-log', log, '--title', 'CUP Tk Undrawn'], 'CUP Tk Undrawn');
    try {
      // The button's command only writes its log: the window's pixels are as they were once the button is up again.
      const result = await callOk(context, 'click', { window_id: window.id, ...button });
      assert.deepEqual(await logOnce(log, 1), ['clicked'], 'the fixture: the command ran');
      const outcome = result.structured as unknown as ActionResult;
      assert.equal(outcome.effect, 'suspected_noop', `the premise: no pixel changed (${result.summary})`);
      // xcalc's memory store read so, with advice to retry, which would store twice.
      assert.match(outcome.escalation?.reason ?? '', /no pixel of the window changed.*it may have run, so check the app's state .* before sending it again; if it did not run, retry/, result.summary);
    } finally {
      tk.kill('SIGKILL');
    }
  });

  test('typing that changed no pixel is not said to have maybe run: xterm drops sent keys, and the advice is the foreground, which types it', async () => {
    const file = join(folder, 'xterm-typed');
    const { process: xterm, window } = await desktop.launch('xterm', ['-T', 'CUP xterm', '-e', 'bash', '--norc', '--noprofile'], 'CUP xterm');
    try {
      const background = await callOk(context, 'type_text', { window_id: window.id, text: `echo typed > ${file}\n` });
      const outcome = background.structured as unknown as ActionResult;
      await sleep(500);
      assert.equal(existsSync(file), false, 'the premise: xterm dropped the sent keys, nothing ran');
      assert.equal(outcome.effect, 'suspected_noop', background.summary);
      // Typed text shows where it goes: unchanged pixels are no command that may have run unseen.
      assert.doesNotMatch(outcome.escalation?.reason ?? '', /may have run/, background.summary);
      assert.match(outcome.escalation?.reason ?? '', /delivery_mode "foreground"/, background.summary);
      await callOk(context, 'type_text', { window_id: window.id, text: `echo typed > ${file}\n`, delivery_mode: 'foreground' });
      for (const deadline = Date.now() + 5000; !existsSync(file) && Date.now() < deadline; await sleep(100));
      assert.equal(readFileSync(file, 'utf8'), 'typed\n', 'the foreground typed it: the shell wrote the file');
    } finally {
      xterm.kill('SIGKILL');
    }
  });

  test('two background clicks a second apart are two clicks, not a double click', async () => {
    const log = join(folder, 'twice.log');
    writeFileSync(log, '');
    const { process: tk, window } = await desktop.launch('/usr/bin/python3', [join(fixtureApps, 'tk_fixture.py'), '--key-log', log, '--title', 'CUP Tk Twice'], 'CUP Tk Twice');
    try {
      // Stamped CurrentTime (0), the second looked simultaneous with the first, and Tk saw a double click.
      await callOk(context, 'click', { window_id: window.id, ...button });
      await sleep(1000);
      await callOk(context, 'click', { window_id: window.id, ...button });
      assert.deepEqual(await logOnce(log, 2), ['clicked', 'clicked']);
      // A double click asked for is still one: both its clicks carry one time.
      await callOk(context, 'double_click', { window_id: window.id, ...button });
      assert.deepEqual((await logOnce(log, 5)).slice(2), ['clicked', 'double', 'clicked']);
    } finally {
      tk.kill('SIGKILL');
    }
  });

  test('text with a character the layout lacks is refused before any key is sent, offering the foreground, which types it', async () => {
    const log = join(folder, 'keyless.log');
    writeFileSync(log, '');
    const { process: tk, window } = await desktop.launch('/usr/bin/python3', [join(fixtureApps, 'tk_fixture.py'), '--key-log', log, '--title', 'CUP Tk Keyless'], 'CUP Tk Keyless');
    try {
      // Active, so that Tk takes sent keys at all.
      await callOk(context, 'bring_to_front', { window_id: window.id });
      // type_text threw `unsupported_character` naming no way out, and press_key `invalid_key`, as if "ö" were no key.
      for (const [tool, args] of [['type_text', { text: 'aö' }], ['press_key', { key: 'ö' }]] as const) {
        const refused = await callOk(context, tool, { window_id: window.id, ...args });
        assert.equal(refused.structured.path, 'none', refused.summary);
        const escalation = refused.structured.escalation as { recommended: string; reason: string };
        assert.equal(escalation.recommended, 'foreground', refused.summary);
        assert.match(escalation.reason, /"ö".*nothing was (typed|sent)/, refused.summary);
      }
      await sleep(300);
      assert.equal(readFileSync(log, 'utf8'), '', 'no key reached Tk, not even the "a" before the "ö"');
      const typed = await callOk(context, 'type_text', { window_id: window.id, text: 'ö', delivery_mode: 'foreground' });
      assert.equal(typed.structured.path, 'key_events_fg', typed.summary);
      assert.deepEqual(await logOnce(log, 1), ['odiaeresis'], 'Tk read the real key');
    } finally {
      tk.kill('SIGKILL');
    }
  });

  test('scroll at a point turns the wheel over the list there, in the background and the foreground, and not the other', async () => {
    const log = join(folder, 'wheel.log');
    writeFileSync(log, '');
    const { process: tk, window } = await desktop.launch('/usr/bin/python3', [join(fixtureApps, 'tk_fixture.py'), '--key-log', log, '--title', 'CUP Tk Wheel'], 'CUP Tk Wheel');
    try {
      await callOk(context, 'get_window_state', { window_id: window.id, include_screenshot: false });
      // Scroll had no point to take: a window with no tree could be scrolled only in the foreground, over its middle.
      const background = await callOk(context, 'scroll', { window_id: window.id, x: 270, y: 160, direction: 'down', amount: 3 });
      assert.equal(background.structured.path, 'x11_pixel', background.summary);
      assert.equal(background.structured.effect, 'confirmed', background.summary);
      const lines = await logOnce(log, 3);
      assert.ok(lines.length > 0 && lines.every((line) => line.startsWith('right top ')), lines.join('\n'));
      assert.ok(Number(lines.at(-1)!.split(' ')[2]) > 0, `the right list scrolled: ${lines.join(', ')}`);
      writeFileSync(log, '');
      const foreground = await callOk(context, 'scroll', { window_id: window.id, x: 90, y: 160, direction: 'down', amount: 1, delivery_mode: 'foreground' });
      assert.equal(foreground.structured.path, 'x11_pixel_fg', foreground.summary);
      const after = await logOnce(log, 1);
      assert.ok(after.length > 0 && after.every((line) => line.startsWith('left top ')), after.join('\n'));
    } finally {
      tk.kill('SIGKILL');
    }
  });

  test('wait_for an element of a window that can never have a tree is refused at once, naming what can be waited for', async () => {
    const log = join(folder, 'wait.log');
    writeFileSync(log, '');
    const { process: tk, window } = await desktop.launch('/usr/bin/python3', [join(fixtureApps, 'tk_fixture.py'), '--key-log', log, '--title', 'CUP Tk Wait'], 'CUP Tk Wait');
    try {
      // Both waited out their whole timeout, the second reading "0 matches" all along.
      for (const gone of [false, true]) {
        const started = Date.now();
        const refused = await failsWith(context, 'wait_for', { window_id: window.id, selector: 'role=button', gone, timeout_ms: 20_000 }, 'no_accessibility');
        assert.ok(Date.now() - started < 10_000, `answered after ${Date.now() - started} ms`);
        assert.match(refused.summary, /Tk has no accessibility support at all.*nothing was waited for: wait with window_title/, refused.summary);
      }
      // A title is still waited for: the window is found by it.
      const titled = await callOk(context, 'wait_for', { window_title: 'CUP Tk Wait', timeout_ms: 5000 });
      assert.equal((titled.structured.windows as { window_id: number }[])[0]?.window_id, window.id);
    } finally {
      tk.kill('SIGKILL');
    }
  });

  test('a background click on an item of a menu the Tk window opened goes to the menu, which lies over the window', async () => {
    const log = join(folder, 'menu.log');
    writeFileSync(log, '');
    const { process: tk, window } = await desktop.launch('/usr/bin/python3', [join(fixtureApps, 'tk_fixture.py'), '--key-log', log, '--title', 'CUP Tk Menu', '--menu'], 'CUP Tk Menu');
    try {
      await callOk(context, 'click', { window_id: window.id, x: 20, y: 10 });
      const posted = (await logOnce(log, 1)).find((line) => line.startsWith('menu at '));
      assert.ok(posted, 'the click on File opened its menu');
      const [screenX, screenY] = posted.split(' ').slice(2).map(Number) as [number, number];
      const bounds = (await callOk(context, 'get_window_state', { window_id: window.id, include_screenshot: false })).structured.window as { bounds: { x: number; y: number } };
      // Walked down from the window alone, the click went to the widget under the menu, which closed it, and Open ran nothing.
      await callOk(context, 'click', { window_id: window.id, x: screenX - bounds.bounds.x, y: screenY - bounds.bounds.y });
      assert.deepEqual((await logOnce(log, 2)).slice(1), ['Open']);
    } finally {
      tk.kill('SIGKILL');
    }
  });

  test('a drag across a Tk canvas, where no object lies, is read back by the window\'s pixels', async () => {
    const log = join(folder, 'drag.log');
    writeFileSync(log, '');
    const { process: tk, window } = await desktop.launch('/usr/bin/python3', [join(fixtureApps, 'tk_fixture.py'), '--key-log', log, '--title', 'CUP Tk Drag'], 'CUP Tk Drag');
    try {
      // It drew a line, and read "effect not observable": nothing of the window was looked at.
      const dragged = await callOk(context, 'drag', { window_id: window.id, from_x: 30, from_y: 95, to_x: 180, to_y: 110, delivery_mode: 'foreground' });
      const [line] = await logOnce(log, 1);
      assert.match(line ?? '', /^drew [1-9]\d*$/, 'the canvas drew the drag');
      assert.equal(dragged.structured.effect, 'confirmed', dragged.summary);
      assert.match(JSON.stringify(dragged.structured.evidence), /the window's pixels changed/, dragged.summary);
    } finally {
      tk.kill('SIGKILL');
    }
  });
});
