// Widgets a page builds from divs with ARIA, as component libraries do (test/fixtures/web/aria-widgets.html): a menu
// button's menu of check and radio items, a slider and a spin button whose page keeps their number. Each widget writes
// what it holds into a line of the page, read by pyatspi; one browser per test file.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { callOk } from './tools.js';
import { act, pageSays, webRig, type BrowserId } from './web-browser.js';

const title = 'CUP ARIA Widgets';

interface Outcome {
  summary: string;
  effect: string;
  path: string;
  evidence?: string[];
  escalation?: { recommended: string; reason: string };
}

export function ariaWidgetsSuite(browser: BrowserId): void {
  describe(`${browser}: ARIA widgets a page builds from divs`, () => {
    const rig = webRig(browser, { page: 'aria-widgets', title });

    test('a menu button\'s menu whose radio items are in a group: the click that opens it counts every item, the group\'s too', async () => {
      const window = await rig.open('aria-widgets', title);
      const opened = await act(rig.context, window, 'click', 'button', 'View');
      assert.equal(opened.effect, 'confirmed', opened.summary);
      await pageSays(rig.oracle, window, /^view: open=true /);
      // pyatspi: the menu holds the four items, two of them inside its group.
      for (const [role, name] of [['check menu item', 'Show ruler'], ['check menu item', 'Word wrap'], ['radio menu item', 'Zoom 100%'], ['radio menu item', 'Zoom 150%']]) {
        assert.ok((await rig.oracle.find(window.pid, window.title, role!, name!)).found, `pyatspi: ${role} "${name}"`);
      }
      const evidence = (opened as { evidence?: string[] }).evidence ?? [];
      const line = evidence.find((each) => each.startsWith('menu opened over the window'));
      // It had read '2 items, "Show ruler", "Word wrap"'.
      assert.match(line ?? '', /: 4 items, "Show ruler", "Word wrap", "Zoom 100%", "Zoom 150%"$/, evidence.join(' | '));
      const picked = await act(rig.context, window, 'click', 'menuitemradio', 'Zoom 150%');
      assert.equal(picked.effect, 'confirmed', picked.summary);
      await pageSays(rig.oracle, window, /^view: open=false .* zoom=150%$/);
    });

    test('an ARIA slider behind another app\'s window: Right steps it in the background by its increment action where it offers one (Blink, which drops sent keys), as sent keys do in Gecko', async () => {
      const window = await rig.open('aria-widgets', title);
      const was = Number(/^month=(\d+) /.exec(await pageSays(rig.oracle, window, /^month=\d+ \w+$/))![1]);
      const key = was < 12 ? 'right' : 'left';
      const next = was < 12 ? was + 1 : was - 1;
      const cover = await rig.desktop.launchFixture('gtk3', { title: 'Cover' });
      try {
        await callOk(rig.context, 'bring_to_front', { window_id: cover.window.id });
        const pressed = (await act(rig.context, window, 'press_key', 'slider', 'Month', { key })) as Outcome;
        // Blink's had been refused: '"right" has no accessibility equivalent', though the slider offers increment.
        assert.deepEqual([pressed.path, pressed.effect], [browser === 'chromium' ? 'x11_atspi' : 'key_events', 'confirmed'], JSON.stringify(pressed));
        await pageSays(rig.oracle, window, new RegExp(`^month=${next} \\w+$`));
      } finally {
        cover.process.kill('SIGKILL');
      }
    });
  });
}
