// Input aimed at a window that closed after the tool found it: the call fails saying the window is gone.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ToolError } from '../../src/errors.js';
import { activateWindow, raiseWindow } from '../../src/platform/linux/input/windows.js';
import { useXvfbConnection } from './xvfb.js';

const { conn } = useXvfbConnection();

test('activating or raising a window destroyed meanwhile is window_gone, not an internal error', async () => {
  const window = await conn().createWindow({ parent: conn().screen.root, x: 10, y: 10, width: 50, height: 50 });
  await conn().mapWindow(window);
  // The server knew it (the precondition), then it goes, as a crashed app's window does.
  assert.equal((await conn().getWindowAttributes(window)).mapState, 'viewable');
  await conn().destroyWindow(window);
  for (const act of [() => activateWindow(conn(), window, { timeoutMs: 500 }), () => raiseWindow(conn(), window)]) {
    await assert.rejects(act(), (error: unknown) => {
      assert.ok(error instanceof ToolError, `not a ToolError: ${String(error)}`);
      assert.equal(error.code, 'window_gone', error.message);
      assert.match(error.message, new RegExp(`window ${window} .*does not exist any more`));
      return true;
    });
  }
});
