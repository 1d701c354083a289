// A window moved partly off the screen: its screenshot shows the whole window, the screen only part of it. Real input
// cannot reach the rest, and the refusal must say that the window is where it is, and how to bring it back, not send
// the agent to scroll. The oracles: the fixture's status read by pyatspi (nothing happened), and what a real click on
// the part on screen still does.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { accessibleWindowState, callOk, failsWith, type Element } from '../helpers/tools.js';

describe('a window partly off the screen', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;
  let checkBox: Element;
  let increment: Element;
  let origin: { x: number; y: number };

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk3');
    // Its top, with the menu bar, the name field and the check box, above the screen; Increment below the top edge.
    await callOk(fixtures.context, 'set_window_frame', { window_id: window.id, x: 100, y: -120, width: 480, height: 640 });
    const placed = await fixtures.readers.geometry(window.id);
    origin = { x: placed.x, y: placed.y };
    assert.ok(origin.y < -100, `xwininfo: the window's top is above the screen (${JSON.stringify(placed)})`);
    const { elements } = (await accessibleWindowState(fixtures.context, window, { detail: 'full' })).state;
    checkBox = elements.find((element) => element.name === 'Enable feature')!;
    increment = elements.find((element) => element.name === 'Increment')!;
    assert.ok(checkBox.bounds!.y + checkBox.bounds!.h <= 0 && increment.bounds!.y > 0, JSON.stringify([checkBox, increment]));
  });

  after(async () => {
    await fixtures?.stop();
  });

  test('a real click on an element in the part off the screen is refused, naming the window and set_window_frame', async () => {
    const before = await fixtures.status(window);
    const refused = await failsWith(fixtures.context, 'click', { window_id: window.id, element_index: checkBox.index, delivery_mode: 'foreground' }, 'element_not_visible');
    assert.equal(refused.structured.placement, 'off_screen', refused.summary);
    assert.match(refused.summary, /off the screen.*set_window_frame with window_id/, refused.summary);
    assert.deepEqual(await fixtures.status(window), before, 'pyatspi: nothing changed');
  });

  test('a real click at a screenshot point in the part off the screen is refused the same way', async () => {
    const before = await fixtures.status(window);
    // The check box's middle in the screenshot (window-local pixels: the window is smaller than any downscaling).
    const x = Math.round(checkBox.bounds!.x + checkBox.bounds!.w / 2 - origin.x);
    const y = Math.round(checkBox.bounds!.y + checkBox.bounds!.h / 2 - origin.y);
    const refused = await failsWith(fixtures.context, 'click', { window_id: window.id, x, y, delivery_mode: 'foreground' }, 'outside_window');
    assert.match(refused.summary, /off the screen.*set_window_frame with window_id/, refused.summary);
    assert.deepEqual(await fixtures.status(window), before, 'pyatspi: nothing changed');
  });

  test('a real click on the part on the screen still lands', async () => {
    const before = await fixtures.status(window);
    const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: increment.index, delivery_mode: 'foreground' });
    assert.equal((clicked.structured as unknown as ActionResult).path, 'x11_pixel_fg', clicked.summary);
    assert.equal((await fixtures.waitForStatus(window, (status) => status.counter > before.counter)).counter, before.counter + 1);
  });
});

describe("a popup reaching past its window's edges", () => {
  let fixtures: FixtureDesktop;

  before(async () => {
    fixtures = await FixtureDesktop.start();
  });

  after(async () => {
    await fixtures?.stop();
  });

  // MATE Calculator's menu read "which the screenshot cannot show nor a click reach" while its items, in the tree,
  // were clicked by index: the note sent the agent to keys and set_window_frame for nothing.
  test("an open list whose items are in the tree is said to be acted on by element_index; one of them clicked so is chosen", async () => {
    const window = await fixtures.launch('gtk3', { extraArgs: ['--many-choices'] });
    await callOk(fixtures.context, 'set_window_frame', { window_id: window.id, x: 100, y: 40, width: 480, height: 640 });
    const month = (await accessibleWindowState(fixtures.context, window, { detail: 'full' })).state.elements.find((element) => element.role === 'combobox' && element.name === 'Month:');
    assert.ok(month, 'the Month: combo box');
    await callOk(fixtures.context, 'click', { window_id: window.id, element_index: month.index, delivery_mode: 'foreground' });
    const { state, result } = await accessibleWindowState(fixtures.context, window, { detail: 'full' });
    const beyond = result.structured.popups_beyond as { x: number; y: number; w: number; h: number }[] | undefined;
    assert.ok(beyond && beyond.length > 0, `the list reaches past the window (the premise): ${result.summary}`);
    const march = state.elements.find((element) => element.name === 'March' && element.bounds);
    assert.ok(march, 'the list\'s March is in the tree');
    const origin = (result.structured.window as { bounds: { x: number; y: number } }).bounds;
    const inTheList = ({ x, y, w, h }: { x: number; y: number; w: number; h: number }) => {
      const [mx, my] = [x + w / 2 - origin.x, y + h / 2 - origin.y];
      return beyond.some((popup) => mx >= popup.x && my >= popup.y && mx < popup.x + popup.w && my < popup.y + popup.h);
    };
    assert.ok(inTheList(march.bounds!), `March lies in the part past the window: ${JSON.stringify(march.bounds)} ${JSON.stringify(beyond)}`);
    assert.match(result.summary, /reaching past the window's edges .*its items are in the tree \(\[e\d+\].*\): act on them by element_index/, result.summary);
    assert.doesNotMatch(result.summary, /nor a click reach:/, result.summary);
    await callOk(fixtures.context, 'click', { window_id: window.id, element_index: march.index });
    assert.equal((await fixtures.waitForStatus(window, (status) => status.lastKey === 'month:March')).lastKey, 'month:March', 'pyatspi: the app took March');
  });
});
