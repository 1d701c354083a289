// The real pointer through XTEST on the GTK3 and GTK4 fixtures: the Click pad reports the raw presses it got
// (button, click count, position), the slider's value and the list's visible rows show drags and wheel steps.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { activateWindow, click, drag, moveTo, pointerPosition, restorePointer, wheel } from '../../src/platform/linux/input/index.js';
import { centre, FixtureDesktop } from '../helpers/fixture-desktop.js';

describe('the real pointer on real GTK apps', () => {
  let fixtures: FixtureDesktop;
  let gtk3: ClientWindow;
  let gtk4: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    gtk3 = await fixtures.launch('gtk3');
    gtk4 = await fixtures.launch('gtk4');
  });
  after(async () => {
    await fixtures?.stop();
  });
  afterEach(async () => {
    const state = await fixtures.x.queryPointer(fixtures.x.screen.root);
    assert.equal(state.mask & 0x1f00, 0, 'no button is left down');
    assert.deepEqual(await fixtures.x.queryKeymap(), [], 'no key is left down');
  });

  const windowOf = (toolkit: 'gtk3' | 'gtk4') => (toolkit === 'gtk3' ? gtk3 : gtk4);

  /** How far the Items list is scrolled, as pyatspi reads it (larger further down). */
  const scrollOffset = (window: ClientWindow) => fixtures.oracle.scrollOffset(window.pid, window.title, 'Row 1');

  for (const toolkit of ['gtk3', 'gtk4'] as const) {
    test(`${toolkit}: left, right and double clicks reach the Click pad with their button, count and position`, async () => {
      const window = windowOf(toolkit);
      assert.equal(await activateWindow(fixtures.x, window.id), true);
      // Re-read before every click: the GTK4 window widens as the status label grows, and the window manager then
      // moves it left to keep it on the screen.
      const at = async (dx: number, dy: number) => {
        const pad = await fixtures.element(window, 'Click pad');
        return { x: pad.bounds!.x + dx, y: pad.bounds!.y + dy };
      };

      await click(fixtures.x, await at(40, 10));
      assert.equal((await fixtures.waitForStatus(window, (s) => s.pad === '1x1@40,10')).pad, '1x1@40,10');
      await click(fixtures.x, await at(120, 25), { button: 'right' });
      assert.equal((await fixtures.waitForStatus(window, (s) => s.pad === '3x1@120,25')).pad, '3x1@120,25');
      await click(fixtures.x, await at(200, 20), { count: 2 });
      assert.equal((await fixtures.waitForStatus(window, (s) => s.pad === '1x2@200,20')).pad, '1x2@200,20');
      await click(fixtures.x, await at(260, 15), { button: 'middle', count: 3 });
      assert.equal((await fixtures.waitForStatus(window, (s) => s.pad === '2x3@260,15')).pad, '2x3@260,15');
    });

    test(`${toolkit}: a double click sent while this process is kept busy is still one double click`, async () => {
      const window = windowOf(toolkit);
      assert.equal(await activateWindow(fixtures.x, window.id), true);
      // A first click gives the status label the width of a click's report: a GTK4 window widened by it is moved left
      // by the window manager, and the second click of the double would land elsewhere on the pad.
      const first = await fixtures.element(window, 'Click pad');
      await click(fixtures.x, { x: first.bounds!.x + 100, y: first.bounds!.y + 20 });
      await fixtures.waitForStatus(window, (s) => s.pad === '1x1@100,20');
      // Past the double-click time (400 ms): GTK4 took a double click begun within it, elsewhere, for two single clicks.
      await sleep(450);
      const pad = await fixtures.element(window, 'Click pad');
      // A loaded machine, as CI's at a load of 20: from the moment the first press is on its way, this process gets
      // no turn for 600 ms, longer than any toolkit's double-click time.
      const xtest = fixtures.x.xtest;
      const fakeInput = xtest.fakeInput;
      let stalled = false;
      xtest.fakeInput = (type, detail, options) => {
        const sent = fakeInput.call(xtest, type, detail, options);
        if (type === 'ButtonPress' && !stalled) {
          stalled = true;
          setImmediate(() => {
            for (const until = Date.now() + 600; Date.now() < until; );
          });
        }
        return sent;
      };
      try {
        await click(fixtures.x, { x: pad.bounds!.x + 150, y: pad.bounds!.y + 20 }, { count: 2 });
      } finally {
        xtest.fakeInput = fakeInput;
      }
      assert.ok(stalled, 'the stall came (the premise)');
      assert.equal((await fixtures.waitForStatus(window, (s) => s.pad === '1x2@150,20')).pad, '1x2@150,20');
    });

    test(`${toolkit}: dragging the Volume slider's knob changes its value`, async () => {
      const window = windowOf(toolkit);
      assert.equal(await activateWindow(fixtures.x, window.id), true);
      const slider = await fixtures.element(window, 'Volume');
      const before = (await fixtures.status(window)).slider;
      assert.equal(before, 50);
      const bounds = slider.bounds!;
      // GTK3 draws the value above the trough; the knob sits in the lower part. GTK4 shows no value.
      const y = toolkit === 'gtk3' ? bounds.y + bounds.h - 10 : bounds.y + Math.round(bounds.h / 2);
      const knob = { x: bounds.x + Math.round(bounds.w / 2), y };
      await drag(fixtures.x, knob, { x: knob.x + Math.round(bounds.w * 0.3), y }, { steps: 10, durationMs: 200 });
      const after = await fixtures.waitForStatus(window, (s) => s.slider >= 70);
      assert.ok(after.slider >= 70 && after.slider <= 90, `slider at ${after.slider} after dragging 30% of its width to the right`);
    });

    test(`${toolkit}: the wheel over the Items list scrolls it, and back`, async () => {
      const window = windowOf(toolkit);
      assert.equal(await activateWindow(fixtures.x, window.id), true);
      const list = await fixtures.element(window, 'Row 3');
      const top = await scrollOffset(window);
      await wheel(fixtures.x, centre(list), 'down', 5);
      let scrolled = top;
      for (let attempt = 0; attempt < 40 && scrolled === top; attempt++) scrolled = await sleep(50).then(() => scrollOffset(window));
      assert.ok(scrolled > top, `the list scrolled down: offset ${top} -> ${scrolled}`);
      await wheel(fixtures.x, centre(list), 'up', 10);
      let back = scrolled;
      for (let attempt = 0; attempt < 40 && back !== top; attempt++) back = await sleep(50).then(() => scrollOffset(window));
      assert.equal(back, top, 'and back to the top');
    });
  }

  // Where the pointer is, is read by xdotool; the driver's own pointerPosition must agree with it.
  test('actions report where the pointer was, and restorePointer puts it back', async () => {
    const readers = fixtures.readers;
    await moveTo(fixtures.x, { x: 5, y: 6 });
    assert.deepEqual(await readers.pointer(), { x: 5, y: 6 });
    assert.deepEqual(await pointerPosition(fixtures.x), { x: 5, y: 6 });
    const pad = await fixtures.element(gtk3, 'Click pad');
    const previous = await click(fixtures.x, centre(pad));
    assert.deepEqual(previous, { x: 5, y: 6 });
    assert.deepEqual(await readers.pointer(), centre(pad));
    await restorePointer(fixtures.x, previous);
    assert.deepEqual(await readers.pointer(), { x: 5, y: 6 }, 'the pointer is restored');
    assert.deepEqual(await moveTo(fixtures.x, { x: 100.4, y: 200.6 }), { x: 5, y: 6 });
    assert.deepEqual(await readers.pointer(), { x: 100, y: 201 });
  });

  test('bad points, buttons and counts are refused before the pointer moves', async () => {
    await moveTo(fixtures.x, { x: 10, y: 10 });
    const { width, height } = fixtures.x.screen;
    await assert.rejects(click(fixtures.x, { x: width + 5, y: 10 }), new RegExp(`the click point \\(${width + 5}, 10\\) is off the screen, which spans 0..${width - 1} x 0..${height - 1}`));
    await assert.rejects(click(fixtures.x, { x: Number.NaN, y: 10 }), /the click point must have numeric x and y/);
    await assert.rejects(click(fixtures.x, { x: 10, y: 10 }, { button: 'side' as 'left' }), /button must be one of left, middle, right, got "side"/);
    await assert.rejects(click(fixtures.x, { x: 10, y: 10 }, { button: 'constructor' as 'left' }), /button must be one of left, middle, right, got "constructor"/);
    await assert.rejects(click(fixtures.x, { x: 10, y: 10 }, { count: 0 }), /count must be a whole number from 1 to 10, got 0/);
    await assert.rejects(click(fixtures.x, { x: 10, y: 10 }, { modifiers: ['hyper'] }), /"hyper" is not a modifier/);
    await assert.rejects(wheel(fixtures.x, { x: 10, y: 10 }, 'sideways' as 'up'), /direction must be one of up, down, left, right/);
    await assert.rejects(drag(fixtures.x, { x: 10, y: 10 }, { x: 20, y: -1 }), /the drag end \(20, -1\) is off the screen/);
    assert.deepEqual(await fixtures.readers.pointer(), { x: 10, y: 10 });
  });
});
