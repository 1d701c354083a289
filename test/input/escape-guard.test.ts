// The Escape guard on a real X server: a person's Escape (xdotool, another client) is seen within milliseconds,
// the driver's own XTEST Escape is not, other keys are not, and the watchdog releases the guard.
import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { after, before, describe, test } from 'node:test';
import { armEscapeGuard, pressKey } from '../../src/platform/linux/input/index.js';
import type { X11Connection } from '../../src/platform/linux/x11/index.js';
import { TestDesktop } from '../helpers/desktop.js';
import { personPresses } from '../helpers/person.js';

interface Seen {
  escape: Promise<number>;
  watchdog: Promise<number>;
  escapes: number;
  watchdogs: number;
}

function handlers(): { seen: Seen; onEscape(): void; onWatchdog(): void } {
  let escaped!: (at: number) => void;
  let watched!: (at: number) => void;
  const seen: Seen = {
    escape: new Promise((resolve) => (escaped = resolve)),
    watchdog: new Promise((resolve) => (watched = resolve)),
    escapes: 0,
    watchdogs: 0,
  };
  return {
    seen,
    onEscape: () => {
      seen.escapes++;
      escaped(performance.now());
    },
    onWatchdog: () => {
      seen.watchdogs++;
      watched(performance.now());
    },
  };
}

describe('the Escape guard (XInput2 raw key events)', () => {
  let desktop: TestDesktop;
  let x: X11Connection;

  before(async () => {
    desktop = await TestDesktop.start();
    x = await desktop.x11();
  });

  after(async () => {
    x?.close();
    await desktop?.stop();
  });

  test("a person's Escape is seen, once, within 100 ms of xdotool returning", async () => {
    const { seen, ...armed } = handlers();
    const release = await armEscapeGuard(x, armed, 30_000);
    const started = performance.now();
    const returned = await personPresses(desktop.env(), 'Escape');
    const at = await seen.escape;
    release();
    console.log(`escape seen ${(at - started).toFixed(1)} ms after xdotool started, ${(at - returned).toFixed(1)} ms after it returned`);
    assert.ok(at - returned < 100, `seen ${at - returned} ms after xdotool returned`);
    assert.equal(seen.escapes, 1);
    assert.equal(seen.watchdogs, 0);
  });

  test("other keys and the driver's own Escape are not taken for the person's", async () => {
    const { seen, ...armed } = handlers();
    const release = await armEscapeGuard(x, armed, 30_000);
    await personPresses(desktop.env(), 'a');
    await pressKey(x, 'escape');
    // The raw events of both presses reach this connection before the reply to a later request.
    await x.sync();
    assert.equal(seen.escapes, 0, 'neither "a" nor the driver\'s own Escape counted');
    await personPresses(desktop.env(), 'Escape');
    await seen.escape;
    release();
    assert.equal(seen.escapes, 1, 'the person\'s Escape after them is seen');
  });

  test('a released guard sees nothing; the watchdog releases a guard left armed', async () => {
    const released = handlers();
    const release = await armEscapeGuard(x, released, 30_000);
    release();
    const forgotten = handlers();
    const armedAt = performance.now();
    await armEscapeGuard(x, forgotten, 300);
    const firedAt = await forgotten.seen.watchdog;
    assert.ok(firedAt - armedAt >= 290 && firedAt - armedAt < 1000, `watchdog after ${firedAt - armedAt} ms`);
    await personPresses(desktop.env(), 'Escape');
    await x.sync();
    assert.equal(released.seen.escapes, 0, 'a released guard is not called');
    assert.equal(forgotten.seen.escapes, 0, 'the watchdog released the guard: Escape no longer reaches it');
    assert.equal(forgotten.seen.watchdogs, 1);
  });
});
