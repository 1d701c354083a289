// Window activation through the real window manager (openbox): a window behind another comes to the front with
// the focus, a minimized one is restored, the foreground helper puts things back, and windowAt tells which
// window owns a screen point. Every claim about focus, stacking and the pointer is judged by Debian's own X clients
// (xprop, xwininfo, xdotool), not by the driver's reading of the same state.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { listClientWindows, type ClientWindow } from '../../src/platform/linux/windows.js';
import { encodeClientMessage, EventMask } from '../../src/platform/linux/x11/index.js';
import {
  activateWindow,
  activeWindow,
  ActivationError,
  click,
  inForeground,
  isActive,
  moveTo,
  pointerPosition,
  pressKey,
  raiseWindow,
  restoreActivation,
  typeText,
  windowAt,
} from '../../src/platform/linux/input/index.js';
import { centre, FixtureDesktop } from '../helpers/fixture-desktop.js';
import type { XReaders } from '../helpers/x-readers.js';

describe('activating windows through the window manager', () => {
  let fixtures: FixtureDesktop;
  let gtk3: ClientWindow;
  let gtk4: ClientWindow;
  let readers: XReaders;

  /** Active for the window manager (xprop) and holding the X keyboard focus (xdotool): both, independently. */
  async function assertActive(window: ClientWindow, message?: string): Promise<void> {
    assert.equal(await readers.activeWindow(), window.id, message ?? `${window.title} is _NET_ACTIVE_WINDOW`);
    assert.equal(await readers.inputFocus(), window.id, message ?? `${window.title} has the keyboard focus`);
  }

  before(async () => {
    fixtures = await FixtureDesktop.start();
    readers = fixtures.readers;
    gtk3 = await fixtures.launch('gtk3');
    gtk4 = await fixtures.launch('gtk4');
    // Both at the same place, so whichever is behind is completely covered.
    for (const window of [gtk3, gtk4]) await fixtures.x.configureWindow(window.id, { x: 40, y: 40 });
    const deadline = Date.now() + 5000;
    for (;;) {
      const windows = await listClientWindows(fixtures.x);
      const placed = [gtk3, gtk4].map((window) => windows.find((candidate) => candidate.id === window.id)!);
      if (placed.every((window) => Math.abs(window.bounds.x - placed[0]!.bounds.x) <= 2 && Math.abs(window.bounds.y - placed[0]!.bounds.y) <= 2)) break;
      assert.ok(Date.now() < deadline, 'the window manager moved both windows');
      await sleep(50);
    }
  });
  after(async () => {
    await fixtures?.stop();
  });

  test('a window behind another becomes active, focused and front-most', async () => {
    assert.equal(await activateWindow(fixtures.x, gtk4.id), true);
    assert.equal(await readers.frontMost([gtk3.id, gtk4.id]), gtk4.id);
    const started = Date.now();
    assert.equal(await activateWindow(fixtures.x, gtk3.id), true);
    const elapsed = Date.now() - started;
    await assertActive(gtk3);
    assert.equal(await readers.frontMost([gtk3.id, gtk4.id]), gtk3.id);
    // The driver's own readings agree with the independent ones.
    assert.equal(await activeWindow(fixtures.x), gtk3.id);
    assert.equal(await isActive(fixtures.x, gtk3.id), true);
    assert.ok(elapsed < 1000, `activation took ${elapsed} ms`);
    // Already active: returns at once.
    assert.equal(await activateWindow(fixtures.x, gtk3.id), true);
  });

  test('windowAt names the window a click there would reach', async () => {
    assert.equal(await activateWindow(fixtures.x, gtk4.id), true);
    const pad = centre(await fixtures.element(gtk4, 'Click pad'));
    let hit = await windowAt(fixtures.x, pad);
    assert.equal(hit.client, gtk4.id);
    assert.equal(hit.overrideRedirect, false);
    assert.notEqual(hit.topLevel, 0);
    assert.equal(await activateWindow(fixtures.x, gtk3.id), true);
    hit = await windowAt(fixtures.x, pad);
    assert.equal(hit.client, gtk3.id, 'the same point now belongs to the window in front');

    // A point on no window at all: the bare root.
    const { width, height } = fixtures.x.screen;
    assert.deepEqual(await windowAt(fixtures.x, { x: width - 1, y: height - 1 }), { topLevel: 0, client: undefined, overrideRedirect: false });

    // An override-redirect window (like a menu) covering the point is what a click reaches.
    const popup = await fixtures.x.createWindow({ parent: fixtures.x.screen.root, x: pad.x - 5, y: pad.y - 5, width: 10, height: 10, overrideRedirect: true });
    await fixtures.x.mapWindow(popup);
    try {
      hit = await windowAt(fixtures.x, pad);
      assert.deepEqual(hit, { topLevel: popup, client: undefined, overrideRedirect: true });
    } finally {
      await fixtures.x.destroyWindow(popup);
    }
  });

  test('the foreground helper activates the window for the input, then restores the active window and the pointer', async () => {
    assert.equal(await activateWindow(fixtures.x, gtk3.id), true);
    await moveTo(fixtures.x, { x: 7, y: 9 });
    assert.deepEqual(await readers.pointer(), { x: 7, y: 9 });
    const { value, report } = await inForeground(fixtures.x, gtk4.id, async () => {
      await assertActive(gtk4, 'active with the focus while the input runs');
      assert.equal(await readers.frontMost([gtk3.id, gtk4.id]), gtk4.id, 'in front while the input runs');
      const entry = await fixtures.element(gtk4, 'Name field');
      await click(fixtures.x, centre(entry));
      await typeText(fixtures.x, 'in front');
      return 'done';
    });
    assert.equal(value, 'done');
    assert.deepEqual(report, {
      activated: true, wasActive: false, previousActive: gtk3.id, givenBackTo: gtk3.id, restoredActive: true, pointer: { x: 7, y: 9 }, restoredPointer: true,
    });
    await assertActive(gtk3, 'the previous window is active again');
    assert.equal(await readers.frontMost([gtk3.id, gtk4.id]), gtk3.id, 'and in front again');
    assert.deepEqual(await readers.pointer(), { x: 7, y: 9 }, 'the pointer is back');
    assert.deepEqual(await pointerPosition(fixtures.x), { x: 7, y: 9 });
    assert.equal((await fixtures.waitForStatus(gtk4, (s) => s.text === 'in front')).text, 'in front');
  });

  test('input that says it has sent everything gets the restore alongside its wait, and the keys still land in its window', async () => {
    assert.equal(await activateWindow(fixtures.x, gtk3.id), true);
    const entry = await fixtures.element(gtk4, 'Name field');
    // Long enough that the app is still working through the keys when the window manager moves the focus away.
    const text = 'restored while the app reads its keys '.repeat(4).trim();
    let restoredDuringWait = false;
    const { report } = await inForeground(fixtures.x, gtk4.id, async (sent) => {
      await click(fixtures.x, centre(entry));
      await pressKey(fixtures.x, 'a', ['ctrl']);
      await typeText(fixtures.x, text, { delayMs: 0, holdMs: 0 });
      sent();
      // The input's own wait: the previous window comes back while it runs, judged by xprop and xdotool.
      const deadline = Date.now() + 5000;
      while (Date.now() < deadline && !restoredDuringWait) {
        restoredDuringWait = (await readers.activeWindow()) === gtk3.id && (await readers.inputFocus()) === gtk3.id;
      }
    });
    assert.ok(restoredDuringWait, 'the previous window was active again before the input returned');
    assert.equal(report.restoredActive, true);
    await assertActive(gtk3, 'still active after');
    // Every key was handed to the field's window before the focus moved: the whole text arrives.
    assert.equal((await fixtures.waitForStatus(gtk4, (s) => s.text === text)).text, text);
  });

  test('the foreground helper restores also when the input fails, and rethrows its error', async () => {
    assert.equal(await activateWindow(fixtures.x, gtk3.id), true);
    await moveTo(fixtures.x, { x: 11, y: 13 });
    await assert.rejects(
      inForeground(fixtures.x, gtk4.id, async () => {
        await moveTo(fixtures.x, { x: 300, y: 300 });
        throw new Error('input failed half-way');
      }),
      /input failed half-way/,
    );
    await assertActive(gtk3);
    assert.deepEqual(await readers.pointer(), { x: 11, y: 13 });
  });

  test('an already active window: nothing to restore', async () => {
    assert.equal(await activateWindow(fixtures.x, gtk3.id), true);
    const { report } = await inForeground(fixtures.x, gtk3.id, async () => undefined);
    assert.equal(report.wasActive, true);
    assert.equal(report.restoredActive, false);
    await assertActive(gtk3);
  });

  test('a minimized window is restored and activated, and is back in its place when activation returns', async () => {
    // Where the X server has the window, asked right away (a subprocess would be slower than the slide).
    const origin = async () => {
      const { x, y } = await fixtures.x.translateCoordinates(gtk4.id, fixtures.x.screen.root, 0, 0);
      return { x, y };
    };
    const place = await origin();
    // ICCCM WM_CHANGE_STATE with IconicState (3): how a client asks to be minimized.
    const iconify = encodeClientMessage(gtk4.id, await fixtures.x.internAtom('WM_CHANGE_STATE'), 32, [3]);
    await fixtures.x.sendEvent(fixtures.x.screen.root, false, EventMask.SubstructureRedirect | EventMask.SubstructureNotify, iconify);
    const deadline = Date.now() + 3000;
    while (!(await readers.wmState(gtk4.id)).includes('_NET_WM_STATE_HIDDEN')) {
      assert.ok(Date.now() < deadline, 'the window manager minimized the window');
      await sleep(25);
    }
    assert.notEqual(await readers.mapState(gtk4.id), 'IsViewable');
    assert.equal(await activateWindow(fixtures.x, gtk4.id), true);
    assert.equal((await readers.wmState(gtk4.id)).includes('_NET_WM_STATE_HIDDEN'), false);
    assert.equal(await readers.mapState(gtk4.id), 'IsViewable');
    await assertActive(gtk4);
    // openbox slides a restored window up from the bottom of the screen; real input must wait for it.
    assert.deepEqual(await origin(), place);
  });

  test('raiseWindow brings a window to the front; restoreActivation gives a previous window back', async () => {
    assert.equal(await activateWindow(fixtures.x, gtk4.id), true);
    await raiseWindow(fixtures.x, gtk3.id);
    const deadline = Date.now() + 2000;
    while ((await readers.frontMost([gtk3.id, gtk4.id])) !== gtk3.id && Date.now() < deadline) await sleep(25);
    assert.equal(await readers.frontMost([gtk3.id, gtk4.id]), gtk3.id);
    assert.equal(await restoreActivation(fixtures.x, gtk4.id), true);
    await assertActive(gtk4, 'the previous window is active again');
    assert.equal(await restoreActivation(fixtures.x, 0), false, 'nothing was active before');
  });

  test('a window that does not exist is refused with a clear error', async () => {
    await assert.rejects(activateWindow(fixtures.x, 0x7ffffff), /window 134217727 \(0x7ffffff\) does not exist any more; list_windows gives the current ones/);
    await assert.rejects(activateWindow(fixtures.x, -3), /window must be an X window id \(a positive integer\), got -3/);
    await assert.rejects(inForeground(fixtures.x, 0x7ffffff, async () => undefined), /does not exist/);
  });

  test('a window the window manager will not activate: ActivationError, and the input never runs', async () => {
    assert.equal(await activateWindow(fixtures.x, gtk3.id), true);
    // Override-redirect windows are outside the window manager's care: it ignores requests to activate them.
    const unmanaged = await fixtures.x.createWindow({ parent: fixtures.x.screen.root, x: 0, y: 0, width: 20, height: 20, overrideRedirect: true });
    let ran = false;
    try {
      await assert.rejects(
        inForeground(fixtures.x, unmanaged, async () => {
          ran = true;
        }, { timeoutMs: 300 }),
        (error: unknown) => {
          assert.ok(error instanceof ActivationError);
          assert.match(error.message, /did not become active with the keyboard focus within 300 ms .*; no input was sent/);
          assert.equal(error.report.activated, false);
          return true;
        },
      );
    } finally {
      await fixtures.x.destroyWindow(unmanaged);
    }
    assert.equal(ran, false);
    await assertActive(gtk3);
  });
});
