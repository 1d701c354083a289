import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import sharp from 'sharp';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ToolContext } from '../../src/tools/context.js';
import { toRgb } from '../../src/platform/linux/x11/index.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk } from '../helpers/tools.js';

const magenta = 0xff00ff;

async function screenshotPixels(context: ToolContext, window: ClientWindow): Promise<Buffer> {
  const result = await callOk(context, 'get_window_state', { pid: window.pid, window_id: window.id, max_elements: 50 });
  return sharp(result.images[0]!.data).removeAlpha().raw().toBuffer();
}

function countMagenta(rgb: Buffer): number {
  let count = 0;
  for (let i = 0; i < rgb.length; i += 3) if (rgb[i] === 255 && rgb[i + 1] === 0 && rgb[i + 2] === 255) count++;
  return count;
}

describe('capturing a window that another window covers', () => {
  let fixtures: FixtureDesktop;
  let context: ToolContext;
  let window: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    context = fixtures.context;
    window = await fixtures.launch('gtk3');
    // The tree being readable does not mean the window has painted yet.
    await sleep(300);
  });

  after(async () => {
    await fixtures?.stop();
  });

  test('the screenshot shows the window itself, not the window on top of it', async () => {
    const before = await screenshotPixels(context, window);
    assert.equal(countMagenta(before), 0);
    const x = fixtures.x;
    // An override-redirect window the window manager leaves exactly where we put it: over the whole fixture.
    const cover = await x.createWindow({
      parent: x.screen.root,
      ...{ x: window.bounds.x, y: window.bounds.y, width: window.bounds.width, height: window.bounds.height },
      backgroundPixel: magenta,
      overrideRedirect: true,
    });
    await x.mapWindow(cover);
    await x.sync();
    await sleep(200);
    try {
      const { width, height } = window.bounds;
      const onScreen = await x.getImage(x.screen.root, window.bounds.x, window.bounds.y, width, height);
      const screenRgb = toRgb(onScreen, width, height, x.setup);
      assert.ok(countMagenta(screenRgb) > width * height * 0.9, 'the fixture really is covered on screen');

      const covered = await screenshotPixels(context, window);
      assert.equal(covered.length, before.length);
      assert.ok(countMagenta(covered) < width * height * 0.01, 'no cover pixels in the capture');
      let difference = 0;
      for (let i = 0; i < covered.length; i++) difference += Math.abs(covered[i]! - before[i]!);
      assert.ok(difference / covered.length < 2, `mean difference ${difference / covered.length} against the uncovered capture`);
    } finally {
      await x.destroyWindow(cover);
      await x.sync();
    }
  });
});
