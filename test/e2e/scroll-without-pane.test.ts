import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ToolContext } from '../../src/tools/context.js';
import { TestDesktop } from '../helpers/desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { callOk, failsWith, testContext } from '../helpers/tools.js';

// Gnumeric (Debian's gnumeric, GTK3) draws its sheet itself: the tree has no scroll pane around the grid, only the
// sheet's two scroll bars beside it, whose range grows as the sheet is scrolled. scroll without an element found
// no region and told the agent to scroll "at a point", which the tool takes no arguments for, in either mode.
// pyatspi's reading of the sheet's vertical scroll bar is the oracle.
describe('scroll: a window whose tree has no scroll pane (Gnumeric\'s sheet)', () => {
  let desktop: TestDesktop;
  let context: ToolContext;
  let oracle: PyatspiOracle;
  let window: ClientWindow;

  before(async () => {
    desktop = await TestDesktop.start();
    context = testContext();
    oracle = new PyatspiOracle(desktop.env());
    // A home of its own: no recent files or saved window state from another run.
    window = (await desktop.launch('gnumeric', [], /Gnumeric/, 30_000, { HOME: mkdtempSync(join(tmpdir(), 'cup-gnumeric-')) })).window;
  });

  after(async () => {
    oracle?.close();
    context?.desktop.close();
    await desktop?.stop();
  });

  /** The sheet's scroll bars' positions as pyatspi reads them (the app registers its tree a moment after it maps). */
  async function barValues(): Promise<number[]> {
    for (let deadline = Date.now() + 15_000; ; await sleep(250)) {
      const values = await oracle.values(window.pid, window.title, 'scroll bar');
      if (values.length >= 2 || Date.now() > deadline) return values;
    }
  }

  test('background says to retry in the foreground; the foreground turns the wheel over the sheet and reads its scroll bar back', async () => {
    const before = await barValues();
    assert.ok(before.length >= 2 && before.every((value) => value === 0), `the sheet starts at its top-left: ${JSON.stringify(before)}`);
    await callOk(context, 'get_window_state', { pid: window.pid, window_id: window.id, include_screenshot: false });

    const refused = await failsWith(context, 'scroll', { pid: window.pid, window_id: window.id, direction: 'down' }, 'nothing_to_scroll');
    assert.match(refused.summary, /delivery_mode "foreground"/);
    assert.doesNotMatch(refused.summary, /at a point/, 'the advice names only what the tool takes');

    const down = await callOk(context, 'scroll', { pid: window.pid, window_id: window.id, direction: 'down', by: 'page', delivery_mode: 'foreground' });
    assert.equal(down.structured.effect, 'confirmed', down.summary);
    let after = await barValues();
    for (const deadline = Date.now() + 5000; !after.some((value) => value > 0) && Date.now() < deadline; await sleep(100)) after = await barValues();
    assert.ok(after.some((value) => value > 0), `pyatspi's scroll bars after scrolling down: ${JSON.stringify(after)}`);
    // The read-back names the bar the app moved, with the value pyatspi reads.
    const evidence = (down.structured.evidence as string[]).join('\n');
    assert.ok(after.some((value) => value > 0 && evidence.includes(`→ "${value}"`)), `evidence ${evidence} vs pyatspi ${JSON.stringify(after)}`);

    const up = await callOk(context, 'scroll', { pid: window.pid, window_id: window.id, direction: 'up', by: 'page', amount: 3, delivery_mode: 'foreground' });
    assert.equal(up.structured.effect, 'confirmed', up.summary);
    let back = await barValues();
    for (const deadline = Date.now() + 5000; back.some((value) => value > 0) && Date.now() < deadline; await sleep(100)) back = await barValues();
    assert.deepEqual(back.map(() => 0), back, `pyatspi's scroll bars after scrolling back up: ${JSON.stringify(back)}`);
  });
});
