// A GTK 4 window with a header bar draws its own frame inside an X window with a shadow margin around it. What GTK
// places below the frame (a collapsed revealer's child keeps its box there, VISIBLE) is drawn nowhere, however little
// of the margin it reaches into: Clocks' collapsed view switcher bar read as a second row of tabs on screen, and a
// selector for one tab was refused as ambiguous. The oracle is pyatspi (the frame's box and the button's, VISIBLE,
// below it). A popover is the opposite case: drawn in a popup window of its own, what hangs below the window is on
// screen (xwininfo places the popup there), and a selector for it is to find it so.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { accessibleWindowState, callOk, pyatspiWalk, type Element } from '../helpers/tools.js';

describe('GTK 4 content below the window frame: in its shadow margin, or in a popover', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk4', { title: 'Frame Margin Fixture', rows: 3, size: '480x300', extraArgs: ['--collapsed-bar', '--bottom-menu'] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  test('is offscreen: the collapsed bar\'s button is neither shown nor matched as on screen, the controls in the frame are', async () => {
    // The fixture collapses its bar 400 ms after it starts; the button then lies below the frame.
    let frameHeight = 0;
    let button: [number, number, number, number] | null = null;
    for (let attempt = 0; attempt < 20; attempt++) {
      const nodes = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
      frameHeight = nodes.find((node) => node.role === 'frame')?.window_extents?.[3] ?? 0;
      const found = nodes.find((node) => node.role === 'push button' && node.name === 'Bar action');
      assert.ok(found?.states.includes('visible'), 'pyatspi: GTK keeps the button VISIBLE');
      button = found!.window_extents;
      if (frameHeight > 0 && button && button[1] >= frameHeight) break;
      await sleep(200);
    }
    // The case this test is about: the button starts below the frame, within the few pixels of the margin.
    assert.ok(button && button[1] >= frameHeight && button[1] < frameHeight + 5 && button[3] > 0, `pyatspi: the button ${JSON.stringify(button)} starts just below the frame (${frameHeight} high)`);

    const { result, state } = await accessibleWindowState(fixtures.context, window, { include_screenshot: false });
    const named = (name: string): Element | undefined => state.elements.find((element) => element.name === name);
    assert.ok(named('Bar action')?.states.includes('offscreen'), `the button is offscreen: ${JSON.stringify(named('Bar action'))}`);
    assert.ok(!named('Increment')?.states.includes('offscreen'), 'a button inside the frame is on screen');
    const line = (result.body ?? '').split('\n').find((text) => text.includes('"Bar action"'));
    assert.ok(line === undefined || line.includes('{off}'), `the compact reading marks the button offscreen, or leaves it out: ${line}`);

    const found = await callOk(fixtures.context, 'find_elements', { window_id: window.id, selector: 'role=button name="Bar action"' });
    assert.match(found.body ?? '', /offscreen/, found.body);
  });

  test('a popover hanging below the window shows its items on screen, where its popup window is', async () => {
    // High on the screen, so the menu opens down, past the window's bottom edge.
    const frame = await callOk(fixtures.context, 'set_window_frame', { window_id: window.id, x: 80, y: 0, width: window.bounds.width, height: window.bounds.height });
    const bounds = (frame.structured as { frame: { x: number; y: number; w: number; h: number } }).frame;
    const opened = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=button name=More >> role=button' });
    assert.ok(opened.ok, opened.body);
    const waited = await callOk(fixtures.context, 'wait_for', { window_id: window.id, selector: 'role=menuitem name="Bottom about"', timeout_ms: 5000 });
    assert.ok(waited.ok, waited.body);
    const popups = [];
    for (const id of await fixtures.readers.visibleWindowsOf(window.pid)) if (id !== window.id) popups.push(await fixtures.readers.geometry(id));
    const windowBottom = bounds.y + bounds.h;
    const popup = popups.find((box) => box.y + box.height > windowBottom && box.height > 40);
    // The case this test is about: the menu's popup window reaches below the fixture's window.
    assert.ok(popup, `xwininfo: a popup window reaches below the window's bottom (${windowBottom}): ${JSON.stringify(popups)}`);

    const { state } = await accessibleWindowState(fixtures.context, window, { include_screenshot: false });
    const items = state.elements.filter((element) => element.role === 'menuitem' && element.name.startsWith('Bottom '));
    assert.equal(items.length, 4, JSON.stringify(items));
    for (const item of items) {
      assert.ok(!item.states.includes('offscreen'), `${item.name} is on screen: ${JSON.stringify(item)}`);
      const { x, y, w, h } = item.bounds!;
      assert.ok(x >= popup.x && y >= popup.y && x + w <= popup.x + popup.width && y + h <= popup.y + popup.height, `${item.name} ${JSON.stringify(item.bounds)} lies in the popup ${JSON.stringify(popup)}`);
    }
    assert.ok(items.some((item) => item.bounds!.y >= windowBottom), 'an item lies wholly below the window');

    const chosen = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=menuitem name="Bottom about"' });
    assert.ok(chosen.ok, chosen.body);
    assert.equal((await fixtures.status(window)).lastKey, 'menu:About', 'pyatspi: the status says the About item was chosen');
  });
});
