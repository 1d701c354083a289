import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ToolContext } from '../../src/tools/context.js';
import { runTool } from '../../src/tools/run.js';
import { TestDesktop } from '../helpers/desktop.js';
import { accessibleWindowState, callOk, testContext, type WindowState } from '../helpers/tools.js';

/** How long the fixture works without answering on SIGUSR1: longer than a call's 2 s timeout. */
const busyMs = 3500;

describe('a hung application cannot hang the driver', () => {
  let desktop: TestDesktop;
  let context: ToolContext;
  let hung: { process: import('node:child_process').ChildProcess; window: ClientWindow };
  let healthy: ClientWindow;

  async function stateOf(window: ClientWindow): Promise<WindowState> {
    return (await callOk(context, 'get_window_state', { pid: window.pid, window_id: window.id })).structured as unknown as WindowState;
  }

  before(async () => {
    desktop = await TestDesktop.start();
    context = testContext();
    hung = await desktop.launchFixture('gtk3', { title: 'Will hang', extraArgs: ['--busy-ms', String(busyMs)] });
    healthy = (await desktop.launchFixture('gtk4', { title: 'Stays healthy' })).window;
    await accessibleWindowState(context, hung.window);
    await accessibleWindowState(context, healthy);
  });

  after(async () => {
    if (hung?.process.pid) process.kill(hung.process.pid, 'SIGCONT');
    context?.desktop.close();
    await desktop?.stop();
  });

  test('a busy app (its main loop at work past the call timeout) is waited for: the reading comes back whole', async () => {
    const before = await stateOf(hung.window);
    process.kill(hung.process.pid!, 'SIGUSR1');
    // The app takes the signal in its main loop: the reading starts once it is at work.
    await sleep(100);
    const started = Date.now();
    const state = await stateOf(hung.window);
    const elapsed = Date.now() - started;
    assert.equal(state.degraded, false, `${state.degraded_reason} (after ${elapsed} ms)`);
    assert.equal(state.node_count, before.node_count);
    assert.ok(elapsed > 2000 && elapsed < 15_000, `the reading waited out the app's work, past a call's 2 s: ${elapsed} ms`);
  });

  test('a SIGSTOPped app returns a degraded result with its screenshot within 3 s, and other apps still answer', async () => {
    process.kill(hung.process.pid!, 'SIGSTOP');
    try {
      const started = Date.now();
      const state = await stateOf(hung.window);
      const elapsed = Date.now() - started;
      assert.ok(elapsed < 3000, `took ${elapsed} ms`);
      assert.equal(state.degraded, true);
      assert.match(state.degraded_reason ?? '', /did not answer/);
      assert.ok(state.screenshot, 'the screenshot comes from the X server, which still answers');

      const otherStarted = Date.now();
      const other = await stateOf(healthy);
      assert.equal(other.degraded, false);
      assert.ok(other.node_count > 20);
      assert.ok(Date.now() - otherStarted < 2000);
    } finally {
      process.kill(hung.process.pid!, 'SIGCONT');
    }
    // Once resumed, the app answers again through the same connection.
    const deadline = Date.now() + 10_000;
    let resumed = await stateOf(hung.window);
    while (resumed.degraded && Date.now() < deadline) {
      await sleep(200);
      resumed = await stateOf(hung.window);
    }
    assert.equal(resumed.degraded, false);
  });

  test('an action on a stopped app fails after one call timeout with a clear error, and works again once it resumes', async () => {
    const { state } = await accessibleWindowState(context, hung.window);
    const increment = state.elements.find((element) => element.role === 'button' && element.name === 'Increment')!;
    process.kill(hung.process.pid!, 'SIGSTOP');
    try {
      const started = Date.now();
      const result = await runTool('click', { window_id: hung.window.id, element_index: increment.index }, context);
      const elapsed = Date.now() - started;
      assert.equal(result.ok, false, result.summary);
      assert.match(result.summary, /did not answer|did not take a connection/);
      assert.ok(elapsed < 3000, `took ${elapsed} ms`);
    } finally {
      process.kill(hung.process.pid!, 'SIGCONT');
    }
    const clicked = await callOk(context, 'click', { window_id: hung.window.id, element_index: increment.index });
    assert.equal(clicked.structured.effect, 'confirmed');
  });
});
