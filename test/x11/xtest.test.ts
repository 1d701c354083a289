// XTEST input: pointer motion, buttons and keys as the server (and other clients) see them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EventMask, type X11EventOf } from '../../src/platform/linux/x11/index.js';
import { waitForEvent } from './helpers.js';
import { useXvfbConnection } from './xvfb.js';

const { conn } = useXvfbConnection();

async function keycodeFor(keysym: number): Promise<number> {
  const { minKeycode, maxKeycode } = conn().setup;
  const mapping = await conn().getKeyboardMapping(minKeycode, maxKeycode - minKeycode + 1);
  const index = mapping.keysyms.findIndex((sym, i) => sym === keysym && i % mapping.keysymsPerKeycode === 0);
  assert.ok(index >= 0, `a keycode produces keysym 0x${keysym.toString(16)}`);
  return minKeycode + index / mapping.keysymsPerKeycode;
}

test('absolute and relative motion move the pointer where queryPointer sees it', async () => {
  const root = conn().screen.root;
  await conn().xtest.fakeInput('MotionNotify', 0, { x: 123, y: 45 });
  let pointer = await conn().queryPointer(root);
  assert.deepEqual([pointer.rootX, pointer.rootY, pointer.root, pointer.sameScreen], [123, 45, root, true]);
  await conn().xtest.fakeInput('MotionNotify', 1, { x: 10, y: -5 });
  pointer = await conn().queryPointer(root);
  assert.deepEqual([pointer.rootX, pointer.rootY], [133, 40]);
  await conn().warpPointer(root, 500, 400);
  pointer = await conn().queryPointer(root);
  assert.deepEqual([pointer.rootX, pointer.rootY], [500, 400]);
});

test('a fake key press reaches the focused window as KeyPress with the same keycode', async () => {
  const window = await conn().createWindow({
    parent: conn().screen.root, x: 0, y: 0, width: 200, height: 200,
    eventMask: EventMask.KeyPress | EventMask.KeyRelease | EventMask.FocusChange,
  });
  await conn().mapWindow(window);
  await conn().checked(() => conn().setInputFocus(window, 'Parent'));
  assert.equal((await conn().getInputFocus()).focus, window);
  const keycode = await keycodeFor(0x61);

  const pressed = waitForEvent(conn(), (event): event is X11EventOf<'KeyPress'> => event.name === 'KeyPress');
  const released = waitForEvent(conn(), (event): event is X11EventOf<'KeyRelease'> => event.name === 'KeyRelease');
  await conn().xtest.fakeInput('KeyPress', keycode);
  await conn().xtest.fakeInput('KeyRelease', keycode);
  const press = await pressed;
  assert.equal(press.detail, keycode);
  assert.equal(press.event, window);
  assert.equal(press.root, conn().screen.root);
  assert.equal(press.sentEvent, false);
  assert.equal((await released).detail, keycode);

  // Shift held during a key shows in the event's state.
  const shift = await keycodeFor(0xffe1);
  const shifted = waitForEvent(conn(), (event): event is X11EventOf<'KeyPress'> => event.name === 'KeyPress' && event.detail === keycode);
  await conn().xtest.fakeInput('KeyPress', shift);
  await conn().xtest.fakeInput('KeyPress', keycode);
  await conn().xtest.fakeInput('KeyRelease', keycode);
  await conn().xtest.fakeInput('KeyRelease', shift);
  assert.equal((await shifted).state & 1, 1);
  await conn().destroyWindow(window);
});

test('button presses land in the window under the pointer, with window coordinates', async () => {
  const window = await conn().createWindow({
    parent: conn().screen.root, x: 300, y: 200, width: 100, height: 100,
    eventMask: EventMask.ButtonPress | EventMask.ButtonRelease,
  });
  await conn().mapWindow(window);
  await conn().xtest.fakeInput('MotionNotify', 0, { x: 310, y: 220 });
  const pressed = waitForEvent(conn(), (event): event is X11EventOf<'ButtonPress'> => event.name === 'ButtonPress');
  await conn().xtest.fakeInput('ButtonPress', 1);
  await conn().xtest.fakeInput('ButtonRelease', 1, { delayMs: 5 });
  const press = await pressed;
  assert.deepEqual([press.detail, press.event, press.eventX, press.eventY, press.rootX, press.rootY], [1, window, 10, 20, 310, 220]);
  await conn().destroyWindow(window);
});
