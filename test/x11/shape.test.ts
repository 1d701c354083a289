// SHAPE: bounding and input regions as the server keeps them, and what an empty input region does to clicks.
// Also QueryKeymap, which tells which keys are down.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EventMask, type X11EventOf } from '../../src/platform/linux/x11/index.js';
import { readPixels, waitForEvent } from './helpers.js';
import { useXvfbConnection } from './xvfb.js';

const { conn } = useXvfbConnection();

test('the server has SHAPE 1.1 or later (input regions)', async () => {
  const version = await conn().shape.queryVersion();
  assert.ok(version.major > 1 || (version.major === 1 && version.minor >= 1), `SHAPE ${version.major}.${version.minor}`);
});

test('a bounding region of rectangles is what the window covers on screen', async () => {
  const root = conn().screen.root;
  const window = await conn().createWindow({ parent: root, x: 40, y: 40, width: 20, height: 20, backgroundPixel: 0xff0000, overrideRedirect: true });
  const rectangles = [
    { x: 0, y: 0, width: 4, height: 20 },
    { x: 4, y: 0, width: 16, height: 4 },
  ];
  await conn().checked(() => conn().shape.rectangles(window, 'Bounding', rectangles));
  await conn().mapWindow(window);
  const region = await conn().shape.getRectangles(window, 'Bounding');
  // The server keeps regions as y-x banded rectangles: the L splits into the top band and the rest of the stem.
  assert.deepEqual(region, [
    { x: 0, y: 0, width: 20, height: 4 },
    { x: 0, y: 4, width: 4, height: 16 },
  ]);
  const pixel = await readPixels(conn(), root, 20, 20, { x: 40, y: 40 });
  const red = (x: number, y: number) => pixel(x, y) === 'ff0000';
  assert.equal(red(1, 10), true, 'inside the stem');
  assert.equal(red(10, 1), true, 'inside the bar');
  assert.equal(red(10, 10), false, 'outside the shape the root shows through');
  await conn().destroyWindow(window);
});

test('an empty input region lets a button press through to the window below', async () => {
  const root = conn().screen.root;
  const below = await conn().createWindow({ parent: root, x: 200, y: 200, width: 100, height: 100, eventMask: EventMask.ButtonPress });
  const above = await conn().createWindow({
    parent: root, x: 220, y: 220, width: 40, height: 40, overrideRedirect: true, eventMask: EventMask.ButtonPress,
  });
  await conn().mapWindow(below);
  await conn().mapWindow(above);
  assert.deepEqual(await conn().shape.getRectangles(above, 'Input'), [{ x: 0, y: 0, width: 40, height: 40 }], 'unshaped: the whole window');
  await conn().checked(() => conn().shape.rectangles(above, 'Input', []));
  assert.deepEqual(await conn().shape.getRectangles(above, 'Input'), []);
  // The bounding region is untouched: the window is still drawn.
  assert.deepEqual(await conn().shape.getRectangles(above, 'Bounding'), [{ x: 0, y: 0, width: 40, height: 40 }]);

  assert.equal((await conn().translateCoordinates(root, root, 230, 230)).child, below, 'TranslateCoordinates skips it too');
  await conn().xtest.fakeInput('MotionNotify', 0, { x: 230, y: 230 });
  const pressed = waitForEvent(conn(), (event): event is X11EventOf<'ButtonPress'> => event.name === 'ButtonPress');
  await conn().xtest.fakeInput('ButtonPress', 1);
  await conn().xtest.fakeInput('ButtonRelease', 1);
  const press = await pressed;
  assert.deepEqual([press.event, press.eventX, press.eventY], [below, 30, 30]);
  await conn().destroyWindow(above);
  await conn().destroyWindow(below);
});

test('QueryKeymap lists exactly the keys that are down', async () => {
  assert.deepEqual(await conn().queryKeymap(), []);
  await conn().xtest.fakeInput('KeyPress', 38);
  await conn().xtest.fakeInput('KeyPress', 50);
  assert.deepEqual(await conn().queryKeymap(), [38, 50]);
  await conn().xtest.fakeInput('KeyRelease', 38);
  await conn().xtest.fakeInput('KeyRelease', 50);
  assert.deepEqual(await conn().queryKeymap(), []);
});
