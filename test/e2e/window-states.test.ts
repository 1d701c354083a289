// Windows in the states a window manager gives them (kept above the others, shaded, minimized), as an agent meets
// them: what list_windows says of them, and where a real click lands. xprop reads the window manager's states and
// pyatspi the fixtures' status labels: what each app really received.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { encodeClientMessage, EventMask } from '../../src/platform/linux/x11/index.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk, failsWith, type Element } from '../helpers/tools.js';

interface Action {
  effect: string;
}

interface Listed {
  window_id: number;
  is_on_screen: boolean;
  minimized: boolean;
  always_on_top?: boolean;
  shaded?: boolean;
  maximized?: boolean;
  fullscreen?: boolean;
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail(`timed out waiting until ${what}`);
    await sleep(50);
  }
}

describe('window states: always on top, shaded, minimized', () => {
  let fixtures: FixtureDesktop;
  let main: ClientWindow;
  let top: ClientWindow;
  let increment: Element;

  /** Asks the window manager to add (1) or remove (0) a _NET_WM_STATE, as a pager or a person's window menu does. */
  async function setState(window: ClientWindow, action: 0 | 1, state: string): Promise<void> {
    const x = fixtures.x;
    const message = encodeClientMessage(window.id, await x.internAtom('_NET_WM_STATE'), 32, [action, await x.internAtom(state), 0, 2]);
    await x.sendEvent(x.screen.root, false, EventMask.SubstructureRedirect | EventMask.SubstructureNotify, message);
    await x.sync();
    const wanted = action === 1;
    await until(`xprop reads ${state} ${wanted ? 'set' : 'cleared'} on ${window.title}`, async () => (await fixtures.readers.wmState(window.id)).includes(state) === wanted);
  }

  async function listed(onScreenOnly = false): Promise<Listed[]> {
    return (await callOk(fixtures.context, 'list_windows', onScreenOnly ? { on_screen_only: true } : {})).structured.windows as Listed[];
  }

  /** Puts the always-on-top window's client area at a screen point (its frame's title bar above it). */
  async function placeTop(x: number, y: number): Promise<void> {
    await callOk(fixtures.context, 'set_window_frame', { window_id: top.id, x, y, width: 300, height: 200 });
  }

  /** A real click at the screenshot point of Increment's middle, which must be refused as covered. */
  async function clickIncrementMiddleFails() {
    const box = increment.bounds!;
    // The window's place now (set_window_frame moved it after launch), as xwininfo reads it.
    const place = await fixtures.readers.geometry(main.id);
    const point = { x: box.x + box.w / 2 - place.x, y: box.y + box.h / 2 - place.y };
    return failsWith(fixtures.context, 'click', { window_id: main.id, ...point, delivery_mode: 'foreground' }, 'point_covered');
  }

  const counters = async () => [(await fixtures.status(main)).counter, (await fixtures.status(top)).counter];

  before(async () => {
    fixtures = await FixtureDesktop.start();
    main = await fixtures.launch('gtk3', { title: 'States main', size: '480x640', extraArgs: ['--waits'] });
    top = await fixtures.launch('gtk3', { title: 'States top', size: '300x200' });
    await callOk(fixtures.context, 'set_window_frame', { window_id: main.id, x: 100, y: 100, width: 480, height: 640 });
    await setState(top, 1, '_NET_WM_STATE_ABOVE');
    increment = await fixtures.element(main, 'Increment');
    assert.ok(increment.bounds && increment.bounds.w >= 60, `Increment has room for a cover over half of it: ${JSON.stringify(increment.bounds)}`);
  });

  after(async () => {
    await fixtures?.stop();
  });

  test('list_windows says which window is kept above the others, as xprop reads _NET_WM_STATE_ABOVE', async () => {
    const windows = await listed();
    assert.equal(windows.find((window) => window.window_id === top.id)?.always_on_top, true);
    assert.equal(windows.find((window) => window.window_id === main.id)?.always_on_top, undefined);
  });

  test('list_windows says which window is maximized (both ways, not one) and which is full screen, as xprop reads _NET_WM_STATE', async () => {
    const wide = await fixtures.launch('gtk3', { title: 'States wide', size: '300x200' });
    try {
      const stateOf = async () => (await listed()).find((window) => window.window_id === wide.id)!;
      assert.deepEqual([(await stateOf()).maximized, (await stateOf()).fullscreen], [undefined, undefined]);
      await setState(wide, 1, '_NET_WM_STATE_MAXIMIZED_VERT');
      assert.equal((await stateOf()).maximized, undefined, 'stretched one way only is not maximized');
      await setState(wide, 1, '_NET_WM_STATE_MAXIMIZED_HORZ');
      assert.equal((await stateOf()).maximized, true);
      const place = await fixtures.readers.geometry(wide.id);
      assert.ok(place.width > 300 && place.height > 200, `xwininfo: the window grew to the work area: ${JSON.stringify(place)}`);
      await setState(wide, 1, '_NET_WM_STATE_FULLSCREEN');
      assert.equal((await stateOf()).fullscreen, true);
      await setState(wide, 0, '_NET_WM_STATE_FULLSCREEN');
      await setState(wide, 0, '_NET_WM_STATE_MAXIMIZED_VERT');
      const restored = await stateOf();
      assert.deepEqual([restored.maximized, restored.fullscreen], [undefined, undefined]);
    } finally {
      process.kill(wide.pid);
    }
  });

  test('a real click at a point an always-on-top window covers is refused, naming it; neither app gets a click', async () => {
    const box = increment.bounds!;
    await placeTop(box.x + 40, box.y - 40);
    const before = await counters();
    const refused = await clickIncrementMiddleFails();
    assert.match(refused.summary, new RegExp(`window ${top.id} "States top" .*kept above other windows`));
    await sleep(300);
    assert.deepEqual(await counters(), before, 'pyatspi: neither window took a click');
  });

  test('mouse_button_down at a point an always-on-top window covers is refused, naming it; no button is held', async () => {
    const box = increment.bounds!;
    await placeTop(box.x + 40, box.y - 40);
    const before = await counters();
    const place = await fixtures.readers.geometry(main.id);
    const refused = await failsWith(fixtures.context, 'mouse_button_down', { window_id: main.id, x: box.x + box.w / 2 - place.x, y: box.y + box.h / 2 - place.y }, 'point_covered');
    assert.match(refused.summary, new RegExp(`window ${top.id} "States top"`));
    // No button is down, as GDK reads the X server's pointer, and neither app took a press.
    assert.deepEqual(await fixtures.readers.buttonsDown(), [], 'GDK: no button held');
    await sleep(300);
    assert.deepEqual(await counters(), before, 'pyatspi: neither window took a click');
  });

  test('a real click on an element whose middle an always-on-top window covers lands on the part that shows', async () => {
    const box = increment.bounds!;
    await placeTop(box.x + 40, box.y - 40);
    const [mainBefore, topBefore] = await counters();
    const clicked = (await callOk(fixtures.context, 'click', { window_id: main.id, element_index: increment.index, delivery_mode: 'foreground' })).structured as unknown as Action;
    assert.equal(clicked.effect, 'confirmed', JSON.stringify(clicked));
    assert.equal((await fixtures.waitForStatus(main, (status) => status.counter === mainBefore! + 1)).counter, mainBefore! + 1, 'pyatspi: Increment was pressed once');
    assert.equal((await fixtures.status(top)).counter, topBefore, 'pyatspi: the window on top took no click');
  });

  test('hover on an element whose middle an always-on-top window covers rests the pointer on the part that shows', async () => {
    const box = increment.bounds!;
    await placeTop(box.x + 40, box.y - 40);
    await callOk(fixtures.context, 'hover', { window_id: main.id, element_index: increment.index, dwell_ms: 0 });
    const pointer = await fixtures.readers.pointer();
    assert.ok(pointer.x >= box.x && pointer.x < box.x + 40 && pointer.y >= box.y && pointer.y < box.y + box.h, `xdotool: the pointer rests on the uncovered part of Increment (${JSON.stringify(pointer)}, Increment ${JSON.stringify(box)})`);
  });

  test('an element an always-on-top window covers wholly is refused, naming it; nothing is clicked', async () => {
    const box = increment.bounds!;
    await placeTop(box.x - 20, box.y - 40);
    const before = await counters();
    const refused = await failsWith(fixtures.context, 'click', { window_id: main.id, element_index: increment.index, delivery_mode: 'foreground' }, 'point_covered');
    assert.match(refused.summary, new RegExp(`covered by window ${top.id} "States top"`));
    await sleep(300);
    assert.deepEqual(await counters(), before, 'pyatspi: neither window took a click');
  });

  test('a real click on an element half under a dialog of its own app lands on the element, not on the dialog', async () => {
    await placeTop(900, 500);
    await callOk(fixtures.context, 'click', { window_id: main.id, selector: 'role=button name="Open dialog later"' });
    const waited = (await callOk(fixtures.context, 'wait_for', { window_title: 'Later dialog' })).structured as { windows: { window_id: number }[] };
    const dialog = waited.windows[0]!.window_id;
    try {
      const box = increment.bounds!;
      // The dialog's Close button fills it: a click anywhere in it closes it.
      await callOk(fixtures.context, 'set_window_frame', { window_id: dialog, x: box.x + 40, y: box.y - 40, width: 240, height: 120 });
      const before = (await fixtures.status(main)).counter;
      const clicked = (await callOk(fixtures.context, 'click', { window_id: main.id, element_index: increment.index, delivery_mode: 'foreground' })).structured as unknown as Action;
      assert.equal(clicked.effect, 'confirmed', JSON.stringify(clicked));
      assert.equal((await fixtures.waitForStatus(main, (status) => status.counter === before + 1)).counter, before + 1, 'pyatspi: Increment was pressed once');
      assert.deepEqual(await fixtures.readers.windowsNamed('Later dialog'), [dialog], 'xdotool: the dialog is still open (its Close button took no click)');
      const refused = await clickIncrementMiddleFails();
      assert.match(refused.summary, new RegExp(`window ${dialog} "Later dialog" \\(of the same app, a dialog of window ${main.id}\\)`));
      assert.deepEqual(await fixtures.readers.windowsNamed('Later dialog'), [dialog], 'xdotool: the dialog is still open');
    } finally {
      if ((await fixtures.readers.windowsNamed('Later dialog')).length > 0) await callOk(fixtures.context, 'click', { window_id: dialog, selector: 'role=button name="Close dialog"' });
    }
  });

  /**
   * A notification bubble as notification-daemon shows one: an override-redirect window of another X client (the
   * test's own connection) typed _NET_WM_WINDOW_TYPE_NOTIFICATION, over `box` of the screen. It stays over whatever
   * window is brought to the front, and list_windows never lists it.
   */
  async function showBubble(box: { x: number; y: number; w: number; h: number }): Promise<() => Promise<void>> {
    const x = fixtures.x;
    const bubble = await x.createWindow({ parent: x.screen.root, x: box.x, y: box.y, width: box.w, height: box.h, backgroundPixel: 0xffff00, overrideRedirect: true });
    await x.changeProperty(bubble, await x.internAtom('_NET_WM_WINDOW_TYPE'), await x.internAtom('ATOM'), 32, [await x.internAtom('_NET_WM_WINDOW_TYPE_NOTIFICATION')]);
    await x.changeProperty(bubble, await x.internAtom('WM_NAME'), await x.internAtom('STRING'), 8, Buffer.from('Notification'));
    await x.mapWindow(bubble);
    await x.sync();
    return async () => {
      await x.destroyWindow(bubble);
      await x.sync();
    };
  }

  test('a real click on an element whose middle another program\'s notification bubble covers lands on the part that shows', async () => {
    await placeTop(900, 500);
    const box = increment.bounds!;
    const hide = await showBubble({ x: box.x + 40, y: box.y - 40, w: 200, h: box.h + 80 });
    try {
      const before = (await fixtures.status(main)).counter;
      const clicked = (await callOk(fixtures.context, 'click', { window_id: main.id, element_index: increment.index, delivery_mode: 'foreground' })).structured as unknown as Action;
      assert.equal(clicked.effect, 'confirmed', JSON.stringify(clicked));
      assert.equal((await fixtures.waitForStatus(main, (status) => status.counter === before + 1)).counter, before + 1, 'pyatspi: Increment was pressed once');
    } finally {
      await hide();
    }
  });

  test('an element a notification bubble covers wholly is refused, naming the bubble; nothing is clicked', async () => {
    await placeTop(900, 500);
    const box = increment.bounds!;
    const hide = await showBubble({ x: box.x - 20, y: box.y - 20, w: box.w + 40, h: box.h + 40 });
    try {
      const before = (await fixtures.status(main)).counter;
      const refused = await failsWith(fixtures.context, 'click', { window_id: main.id, element_index: increment.index, delivery_mode: 'foreground' }, 'point_covered');
      assert.match(refused.summary, /covered by a popup of another program \(X window 0x[0-9a-f]+, "Notification", a notification\)/);
      await sleep(300);
      assert.equal((await fixtures.status(main)).counter, before, 'pyatspi: Increment took no click');
    } finally {
      await hide();
    }
  });

  test('a notification bubble is listed, read and clicked like a window; keys for it are refused, nothing sent', async () => {
    await placeTop(900, 500);
    const { process, window: app } = await fixtures.desktop.launchFixture('gtk3', { title: 'Bubble app', size: '300x200', extraArgs: ['--notification', 'Mail from Ada'] });
    try {
      let bubble: (Listed & { pid: number; title: string; notification?: boolean }) | undefined;
      await until('list_windows lists the bubble', async () => {
        bubble = ((await listed()) as (typeof bubble & object)[]).find((window) => window.pid === app.pid && window.notification === true);
        return bubble !== undefined;
      });
      assert.equal(bubble!.title, 'Notification');
      // The X server: no window manager's window, and typed a notification.
      const x = fixtures.x;
      assert.equal((await x.getWindowAttributes(bubble!.window_id)).overrideRedirect, true, 'X: the bubble is override-redirect');
      assert.deepEqual(await x.getAtomList(bubble!.window_id, '_NET_WM_WINDOW_TYPE'), [await x.internAtom('_NET_WM_WINDOW_TYPE_NOTIFICATION')]);
      const read = await callOk(fixtures.context, 'get_window_state', { window_id: bubble!.window_id, include_screenshot: false });
      const reply = (read.structured.elements as Element[]).find((element) => element.role === 'button' && element.name === 'Reply');
      assert.ok(reply, JSON.stringify(read.structured.elements));
      const keys = await failsWith(fixtures.context, 'press_key', { window_id: bubble!.window_id, key: 'return', delivery_mode: 'foreground' }, 'activation_failed');
      assert.match(keys.summary, /notification bubble, which never takes the keyboard focus/);
      const clicked = (await callOk(fixtures.context, 'click', { window_id: bubble!.window_id, element_index: reply.index, delivery_mode: 'foreground' })).structured as unknown as Action;
      assert.equal(clicked.effect, 'confirmed', JSON.stringify(clicked));
      assert.equal((await fixtures.waitForStatus(app, (status) => status.lastKey === 'notification:reply')).lastKey, 'notification:reply', 'pyatspi: the bubble\'s Reply was pressed');
    } finally {
      process.kill('SIGKILL');
    }
  });

  test('scroll with the wheel over the middle of a window an always-on-top window covers there is refused, the pointer not moved', async () => {
    // xcalc (Xaw) has no accessibility tree: the foreground scroll turns the wheel over its window's middle.
    const { process: xcalc, window: calculator } = await fixtures.desktop.launch('xcalc', [], 'Calculator');
    try {
      const place = await fixtures.readers.geometry(calculator.id);
      await placeTop(place.x + Math.round(place.width / 2) - 150, place.y + Math.round(place.height / 2) - 100);
      await callOk(fixtures.context, 'get_window_state', { window_id: calculator.id, include_screenshot: false });
      const pointer = await fixtures.readers.pointer();
      const refused = await failsWith(fixtures.context, 'scroll', { window_id: calculator.id, direction: 'down', delivery_mode: 'foreground' }, 'point_covered');
      assert.match(refused.summary, new RegExp(`window ${top.id} "States top" .*kept above other windows`));
      assert.deepEqual(await fixtures.readers.pointer(), pointer, 'xdotool: the pointer was not moved');
    } finally {
      xcalc.kill('SIGKILL');
    }
  });

  test('a shaded window is not on screen; a real click unrolls it first and lands on its button', async () => {
    await placeTop(900, 500);
    await fixtures.readers.activate(main.id);
    await setState(main, 1, '_NET_WM_STATE_SHADED');
    const entry = (await listed()).find((window) => window.window_id === main.id);
    assert.equal(entry?.shaded, true, JSON.stringify(entry));
    assert.equal(entry?.is_on_screen, false, JSON.stringify(entry));
    assert.ok(!(await listed(true)).some((window) => window.window_id === main.id), 'on_screen_only leaves the shaded window out');
    const state = await callOk(fixtures.context, 'get_window_state', { window_id: main.id });
    assert.match(state.summary, /shaded/);
    const before = (await fixtures.status(main)).counter;
    const clicked = (await callOk(fixtures.context, 'click', { window_id: main.id, element_index: increment.index, delivery_mode: 'foreground' })).structured as unknown as Action;
    assert.equal(clicked.effect, 'confirmed', JSON.stringify(clicked));
    assert.ok(!(await fixtures.readers.wmState(main.id)).includes('_NET_WM_STATE_SHADED'), 'xprop: the window is unrolled');
    assert.equal((await fixtures.waitForStatus(main, (status) => status.counter === before + 1)).counter, before + 1, 'pyatspi: Increment was pressed once');
  });

  test('a real click on a window on another workspace switches to that workspace and lands on its button', async () => {
    const x = fixtures.x;
    const toWorkspace = async (workspace: number) => {
      // EWMH: a pager asks the window manager to move a window to another workspace with _NET_WM_DESKTOP.
      await x.sendEvent(x.screen.root, false, EventMask.SubstructureRedirect | EventMask.SubstructureNotify, encodeClientMessage(main.id, await x.internAtom('_NET_WM_DESKTOP'), 32, [workspace, 2]));
      await x.sync();
    };
    await toWorkspace(1);
    try {
      await until('list_windows says the window is on another workspace', async () => (await listed()).find((window) => window.window_id === main.id)?.is_on_screen === false);
      const before = (await fixtures.status(main)).counter;
      const clicked = (await callOk(fixtures.context, 'click', { window_id: main.id, element_index: increment.index, delivery_mode: 'foreground' })).structured as unknown as Action;
      assert.equal(clicked.effect, 'confirmed', JSON.stringify(clicked));
      assert.equal((await fixtures.waitForStatus(main, (status) => status.counter === before + 1)).counter, before + 1, 'pyatspi: Increment was pressed once');
    } finally {
      await toWorkspace(0);
    }
  });

  test('on_screen_only leaves a minimized window out', async () => {
    // ICCCM's WM_CHANGE_STATE with IconicState (3): how a client asks to be minimized.
    const x = fixtures.x;
    await x.sendEvent(x.screen.root, false, EventMask.SubstructureRedirect | EventMask.SubstructureNotify, encodeClientMessage(top.id, await x.internAtom('WM_CHANGE_STATE'), 32, [3]));
    await until('xprop reads the window minimized', async () => (await fixtures.readers.wmState(top.id)).includes('_NET_WM_STATE_HIDDEN'));
    const all = await listed();
    assert.equal(all.find((window) => window.window_id === top.id)?.minimized, true);
    const shown = await listed(true);
    assert.ok(!shown.some((window) => window.window_id === top.id), `the minimized window is left out: ${JSON.stringify(shown)}`);
    assert.ok(shown.some((window) => window.window_id === main.id), 'the window on screen stays');
  });
});
