// The agent cursor on the embedded desktop: it shows where it was moved (on the screen itself, read with GetImage
// on the root), stays above the windows, leaves the real pointer alone, and a real click at its tip reaches the
// app below it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import {
  activateWindow,
  agentCursorState,
  click,
  hideAgentCursor,
  moveAgentCursor,
  moveTo,
  windowAt,
} from '../../src/platform/linux/input/index.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { readPixels } from '../x11/helpers.js';

const fill = 'ff2a7a';
const outline = '101010';

describe('the agent cursor overlay', () => {
  let fixtures: FixtureDesktop;
  let gtk3: ClientWindow;

  /** The screen in a box the arrow's size with its top-left at `at`. */
  const cursorBox = (at: { x: number; y: number }) => readPixels(fixtures.x, fixtures.x.screen.root, 12, 18, at);

  before(async () => {
    fixtures = await FixtureDesktop.start();
    gtk3 = await fixtures.launch('gtk3');
  });
  after(async () => {
    await fixtures?.stop();
  });

  test('before any move it does not exist', async () => {
    assert.deepEqual(await agentCursorState(fixtures.x), { visible: false, x: 0, y: 0, window: undefined });
    await hideAgentCursor(fixtures.x);
  });

  test('it moves, shows on the screen as an arrow at its position, and leaves the real pointer where it was', async () => {
    await moveTo(fixtures.x, { x: 3, y: 4 });
    const state = await moveAgentCursor(fixtures.x, { x: 200, y: 150 });
    assert.equal(state.visible, true);
    assert.deepEqual([state.x, state.y], [200, 150]);
    assert.ok(state.window);
    assert.deepEqual(await agentCursorState(fixtures.x), state);
    const origin = await fixtures.x.translateCoordinates(state.window, fixtures.x.screen.root, 0, 0);
    assert.deepEqual([origin.x, origin.y], [200, 150]);
    assert.deepEqual(await fixtures.readers.pointer(), { x: 3, y: 4 }, 'the real pointer did not move (xdotool)');

    const pixel = await cursorBox({ x: 200, y: 150 });
    assert.equal(pixel(0, 0), outline, 'the tip');
    assert.equal(pixel(3, 8), fill, 'inside the arrow');
    assert.equal(pixel(8, 8), outline, 'its diagonal edge');
    assert.notEqual(pixel(10, 2), fill, 'outside the arrow the desktop shows');
    assert.notEqual(pixel(10, 2), outline);

    await moveAgentCursor(fixtures.x, { x: 420, y: 330 });
    const moved = await cursorBox({ x: 420, y: 330 });
    assert.equal(moved(3, 8), fill);
    const old = await cursorBox({ x: 200, y: 150 });
    assert.notEqual(old(3, 8), fill, 'gone from the old position');
  });

  test('it stays above windows activated since, and a real click at its tip reaches the app below', async () => {
    const pad = await fixtures.element(gtk3, 'Click pad');
    const tip = { x: pad.bounds!.x + 50, y: pad.bounds!.y + 12 };
    await moveAgentCursor(fixtures.x, tip);
    assert.equal(await activateWindow(fixtures.x, gtk3.id), true);
    const state = await moveAgentCursor(fixtures.x, tip);
    assert.equal(await fixtures.readers.frontMost([state.window!, gtk3.id]), state.window, 'above the app in the stacking order (xwininfo)');
    assert.equal((await cursorBox(tip))(3, 8), fill, 'drawn over the app');

    assert.equal((await windowAt(fixtures.x, tip)).client, gtk3.id, 'the point belongs to the app, not to the cursor');
    await click(fixtures.x, tip);
    assert.equal((await fixtures.waitForStatus(gtk3, (s) => s.pad === '1x1@50,12')).pad, '1x1@50,12');
    await click(fixtures.x, { x: tip.x + 4, y: tip.y + 6 }, { button: 'right' });
    assert.equal((await fixtures.waitForStatus(gtk3, (s) => s.pad === '3x1@54,18')).pad, '3x1@54,18', 'through the arrow\'s body too');
  });

  test('hiding it takes it off the screen; moving shows it again', async () => {
    const { x, y } = await agentCursorState(fixtures.x);
    await hideAgentCursor(fixtures.x);
    const hidden = await agentCursorState(fixtures.x);
    assert.equal(hidden.visible, false);
    assert.equal((await fixtures.x.getWindowAttributes(hidden.window!)).mapState, 'unmapped');
    assert.notEqual((await cursorBox({ x, y }))(3, 8), fill);
    await moveAgentCursor(fixtures.x, { x: 10, y: 10 });
    assert.equal((await cursorBox({ x: 10, y: 10 }))(3, 8), fill);
    await assert.rejects(moveAgentCursor(fixtures.x, { x: -1, y: 10 }), /the agent cursor position \(-1, 10\) is off the screen/);
  });
});
