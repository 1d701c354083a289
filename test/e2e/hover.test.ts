// hover judged by the X server (xdotool: where the pointer is; xwininfo: which window is in front) and by pyatspi
// (the tool tip GTK3 shows, the counter a click would have changed), never by the driver's own reading.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { moveTo } from '../../src/platform/linux/input/index.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { repositoryRoot } from '../helpers/desktop.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk, failsWith } from '../helpers/tools.js';

const tip = 'Adds one to the counter';

describe('hover', () => {
  let fixtures: FixtureDesktop;
  let gtk3: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    gtk3 = await fixtures.launch('gtk3', { extraArgs: ['--tooltip', tip] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  /** The Increment button's screen box as pyatspi reads it. */
  async function buttonBox(): Promise<[number, number, number, number]> {
    const button = await fixtures.oracle.find(gtk3.pid, gtk3.title, 'push button', 'Increment');
    assert.ok(button.found && button.extents, 'pyatspi finds the Increment button');
    return button.extents;
  }

  /**
   * pyatspi listening for the fixture's tool tips (GTK3 leaves them out of the tree, so their events are where they
   * show): shown() polls, for a moment, until one of them has shown.
   */
  async function watchToolTips(): Promise<{ shown(): Promise<string[]>; heard(): { showing?: boolean; text?: string }[]; stop(): void }> {
    const child = spawn('/usr/bin/python3', [`${repositoryRoot}/test/fixtures/oracle/tool_tip_events.py`, String(gtk3.pid), '20'], { env: fixtures.desktop.env(), stdio: ['ignore', 'pipe', 'inherit'] });
    const lines: { ready?: boolean; showing?: boolean; text?: string; error?: string }[] = [];
    createInterface({ input: child.stdout }).on('line', (line) => lines.push(JSON.parse(line)));
    for (const deadline = Date.now() + 10_000; !lines.some((line) => line.ready); await sleep(20)) {
      assert.ok(Date.now() < deadline && child.exitCode === null, 'the pyatspi listener started');
    }
    return {
      /** Every line heard so far: {showing, text}. */
      heard: () => lines.filter((line) => line.showing !== undefined),
      async shown() {
        for (const deadline = Date.now() + 2000; Date.now() < deadline && !lines.some((line) => line.showing); ) await sleep(50);
        assert.deepEqual(lines.filter((line) => line.error), []);
        // GTK3 may say one showing twice (VISIBLE, then SHOWING).
        return [...new Set(lines.filter((line) => line.showing).map((line) => line.text!))];
      },
      stop: () => void child.kill('SIGTERM'),
    };
  }

  function inside(point: { x: number; y: number }, [x, y, w, h]: [number, number, number, number]): boolean {
    return point.x >= x && point.x < x + w && point.y >= y && point.y < y + h;
  }

  async function hoverIncrement(): Promise<{ result: ActionResult; body: string }> {
    const increment = await fixtures.element(gtk3, 'Increment');
    const called = await callOk(fixtures.context, 'hover', { window_id: gtk3.id, element_index: increment.index });
    return { result: called.structured as unknown as ActionResult, body: `${called.summary}\n${called.body ?? ''}` };
  }

  test('the pointer comes to rest on the button, its tool tip appears and is the evidence; nothing is clicked', async () => {
    await moveTo(fixtures.x, { x: 1, y: 1 });
    const counter = (await fixtures.status(gtk3)).counter;
    const tips = await watchToolTips();
    const { result, body } = await hoverIncrement().finally(() => sleep(300));
    const shown = await tips.shown().finally(() => tips.stop());

    assert.equal(result.effect, 'confirmed', body);
    assert.equal(result.path, 'x11_pixel_fg');
    assert.ok(result.evidence?.includes(`tool tip shown: "${tip}"`), body);

    assert.deepEqual(shown, [tip], 'pyatspi sees the tool tip shown');
    const pointer = await fixtures.readers.pointer();
    assert.ok(inside(pointer, await buttonBox()), `xdotool puts the pointer at ${pointer.x},${pointer.y}, on the button`);
    await sleep(200);
    assert.deepEqual(await fixtures.readers.pointer(), pointer, 'the pointer stays there');
    assert.equal((await fixtures.status(gtk3)).counter, counter, 'no click reached the button');
  });

  test('by a point in window pixels: the pointer lands exactly there, and the tool tip is the evidence', async () => {
    await moveTo(fixtures.x, { x: 1, y: 1 });
    // Out of GTK3's browse mode (half a second after a tool tip hides), which otherwise decides when the next shows.
    await sleep(1000);
    const [bx, by, bw, bh] = await buttonBox();
    const frame = await fixtures.readers.geometry(gtk3.id);
    const at = { x: Math.round(bx + bw / 2) - frame.x, y: Math.round(by + bh / 2) - frame.y };
    const tips = await watchToolTips();
    const called = await callOk(fixtures.context, 'hover', { window_id: gtk3.id, ...at, dwell_ms: 1500 });
    const shown = await tips.shown().finally(() => tips.stop());
    const result = called.structured as unknown as ActionResult;
    assert.equal(result.effect, 'confirmed', `${called.summary}\n${called.body}`);
    assert.ok(result.evidence?.includes(`tool tip shown: "${tip}"`), called.body);
    assert.deepEqual(shown, [tip], 'pyatspi sees the tool tip shown');
    assert.deepEqual(await fixtures.readers.pointer(), { x: frame.x + at.x, y: frame.y + at.y }, 'xdotool: the pointer is at the point');
  });

  test('leaving a tool tip for a button that shows nothing is no effect: the tool tip hiding does not confirm the hover', async () => {
    const tips = await watchToolTips();
    assert.deepEqual(await tips.shown(), [], 'no tool tip shows again');
    const disabled = await fixtures.element(gtk3, 'Disabled button');
    const called = await callOk(fixtures.context, 'hover', { window_id: gtk3.id, element_index: disabled.index, dwell_ms: 800 });
    await sleep(300);
    const heard = tips.heard();
    tips.stop();
    const result = called.structured as unknown as ActionResult;
    assert.equal(result.effect, 'suspected_noop', `${called.summary}\n${called.body}`);
    assert.equal(result.escalation?.recommended, 'px');
    // GTK3 says it hidden twice (VISIBLE and SHOWING off).
    assert.ok(heard.length > 0 && heard.every((line) => line.showing === false && line.text === tip), `pyatspi hears the Increment tool tip hide, and none show: ${JSON.stringify(heard)}`);
    const box = (await fixtures.oracle.find(gtk3.pid, gtk3.title, 'push button', 'Disabled button')).extents!;
    assert.ok(inside(await fixtures.readers.pointer(), box), 'xdotool: the pointer is on the disabled button');
  });

  test('a window over the button is passed: the fixture is raised, left in front, and shows the tool tip under the pointer', async () => {
    await moveTo(fixtures.x, { x: 1, y: 1 });
    await sleep(300);
    const cover = await fixtures.desktop.launchFixture('gtk4', { title: 'Cover', size: `${gtk3.bounds.width + 40}x${gtk3.bounds.height + 40}` });
    try {
      await fixtures.x.configureWindow(cover.window.id, { x: gtk3.bounds.x - 20, y: gtk3.bounds.y - 40 });
      await callOk(fixtures.context, 'bring_to_front', { pid: cover.window.pid, window_id: cover.window.id });
      await sleep(300);
      const readers = fixtures.readers;
      assert.equal(await readers.frontMost([cover.window.id, gtk3.id]), cover.window.id, 'xwininfo: the cover is in front');

      const tips = await watchToolTips();
      const { result, body } = await hoverIncrement();
      const shown = await tips.shown().finally(() => tips.stop());
      assert.equal(result.effect, 'confirmed', body);
      assert.match(result.evidence?.[0] ?? '', new RegExp(`^window ${gtk3.id} raised first: window ${cover.window.id} "Cover"`), body);
      assert.equal(await readers.frontMost([cover.window.id, gtk3.id]), gtk3.id, 'xwininfo: the fixture is in front and stays there');
      assert.deepEqual(shown, [tip], 'pyatspi sees the tool tip shown');
      assert.ok(inside(await readers.pointer(), await buttonBox()), 'xdotool puts the pointer on the button');
    } finally {
      cover.process.kill('SIGKILL');
    }
  });

  test('bad arguments are refused before the pointer moves', async () => {
    const increment = await fixtures.element(gtk3, 'Increment');
    const pointer = await fixtures.readers.pointer();
    await failsWith(fixtures.context, 'hover', { window_id: gtk3.id, element_index: increment.index, dwell_ms: 60_000 }, 'invalid_arguments');
    await failsWith(fixtures.context, 'hover', { window_id: gtk3.id }, 'missing_target');
    await failsWith(fixtures.context, 'hover', { window_id: gtk3.id, element_index: increment.index, x: 5, y: 5 }, 'conflicting_target');
    assert.deepEqual(await fixtures.readers.pointer(), pointer, 'xdotool: the pointer did not move');
  });
});
