// A GTK 4 window with a header bar draws its own frame inside an X window with a shadow margin around it. What GTK
// places below the frame (a collapsed revealer's child keeps its box there, VISIBLE) is drawn nowhere, however little
// of the margin it reaches into: Clocks' collapsed view switcher bar read as a second row of tabs on screen, and a
// selector for one tab was refused as ambiguous. The oracle is pyatspi (the frame's box and the button's, VISIBLE,
// below it).
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { accessibleWindowState, callOk, pyatspiWalk, type Element } from '../helpers/tools.js';

describe('GTK 4 content below the window frame, in its shadow margin', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk4', { title: 'Frame Margin Fixture', rows: 3, extraArgs: ['--collapsed-bar'] });
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
});
