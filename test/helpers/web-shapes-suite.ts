// Page shapes a new user met first in Chromium and Firefox: a tab panel (ARIA tabs), a <details> and a reorderable list
// box built on a <ul>. What the driver reads is judged by the page's own output line (#out, read by pyatspi) and by
// pyatspi's roles and attributes. One browser per test file.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { accessibleWindowState, callOk } from './tools.js';
import { act, fullTree, pageSays, webRig, type BrowserId } from './web-browser.js';

export function webShapesSuite(browser: BrowserId): void {
  describe(`${browser}: page shapes: a tab panel, a disclosure, a list's items, a list box of list items`, () => {
    const rig = webRig(browser, { page: 'disclosure', title: 'CUP Web Disclosure' });

    test('a page\'s tab panel (a scroll pane to the browser) reads as the tab panel its tab shows, with no scroll, and follows the tab chosen', async () => {
      const window = await rig.open('disclosure', 'CUP Web Disclosure');
      // pyatspi: the browser exposes the page's role=tabpanel as a scroll pane, which xml-roles says is a tab panel.
      const panes = await rig.oracle.attributes(window.pid, window.title, ['scroll pane']);
      assert.ok(panes.some((pane) => pane.name === 'Profile' && pane.attributes['xml-roles'] === 'tabpanel'), `pyatspi: ${JSON.stringify(panes.map((pane) => [pane.name, pane.attributes['xml-roles']]))}`);
      const panel = (await fullTree(rig.context, window)).find((node) => node.name === 'Profile' && node.role !== 'tab');
      assert.equal(panel?.role, 'tabpanel', `the panel of the tab Profile: ${JSON.stringify(panel && { role: panel.role, actions: panel.actions })}`);
      assert.ok(!panel.actions?.includes('scroll'), `a tab panel that scrolls nothing offers no scroll: ${JSON.stringify(panel.actions)}`);

      const chosen = await act(rig.context, window, 'click', 'tab', 'Billing');
      assert.equal(chosen.effect, 'confirmed', chosen.summary);
      await pageSays(rig.oracle, window, 'out: tab=Billing open=none details=closed');
      const compact = (await accessibleWindowState(rig.context, window, { include_screenshot: false })).result.body!;
      assert.match(compact, /\] tpnl "Billing"\n\s+\[e\d+\] txt "Card ending 4242\."/, compact);
      assert.doesNotMatch(compact, /tpnl "Profile"|\[scr\]\n\s+\[e\d+\] txt "Card/, compact);
    });

    test('a <details> opened and closed: the evidence speaks of its summary by the name the tree reads, not the triangle Gecko puts before it as it turns', async () => {
      const window = await rig.open('disclosure', 'CUP Web Disclosure');
      for (const [state, mark] of [['open', '\u25BE'], ['closed', '\u25B8']] as const) {
        const toggled = await act(rig.context, window, 'click', 'button', 'Advanced options');
        await pageSays(rig.oracle, window, new RegExp(`^out: .* details=${state}$`));
        const evidence = ((toggled as { evidence?: string[] }).evidence ?? []).join(' | ');
        assert.equal(toggled.effect, 'confirmed', `${toggled.summary} ${evidence}`);
        // Firefox names the summary with the triangle once toggled (pyatspi), which the tree leaves out.
        if (browser === 'firefox-esr') assert.ok((await rig.oracle.find(window.pid, window.title, 'push button', `${mark} Advanced options`)).found, `pyatspi: the summary is named "${mark} Advanced options"`);
        assert.doesNotMatch(evidence, /[\u25B8\u25BE]/u, `the evidence quotes no name the tree does not give: ${evidence}`);
      }
    });

    test('a list\'s items read as their words: the marker the list draws before each is neither in its name nor a line of its own', async () => {
      const window = await rig.open('todo', 'CUP Web Todo');
      await pageSays(rig.oracle, window, 'out: todos=none notes=Milk');
      // pyatspi: Blink exposes the marker as a text object of its own (its tag ::marker); Gecko names the item by it.
      if (browser === 'chromium') {
        const statics = await rig.oracle.attributes(window.pid, window.title, ['static']);
        assert.ok(statics.some((node) => node.attributes.tag === '::marker'), `pyatspi: ${JSON.stringify(statics.map((node) => [node.name, node.attributes.tag]))}`);
      }
      const items = (await fullTree(rig.context, window)).filter((node) => node.role === 'listitem').map((node) => node.name);
      assert.deepEqual(items, ['Milk'], 'the item reads as the page wrote it');
      const compact = (await accessibleWindowState(rig.context, window, { include_screenshot: false })).result.body!;
      assert.doesNotMatch(compact, /txt "\u2022"/u, compact);
    });

    test('a list box\'s options built on a list\'s items are named by the page\'s words, not the list marker drawn before them: a selector by those words finds them', async () => {
      const window = await rig.open('sortable', 'CUP Web Sortable');
      const order = ['Blue Monday', 'Heroes', 'Atmosphere', 'Age of Consent'];
      const options = (await fullTree(rig.context, window)).filter((node) => node.role === 'option').map((node) => node.name);
      assert.deepEqual(options, order, 'the options read as the page writes them');
      const found = await callOk(rig.context, 'find_elements', { window_id: window.id, selector: 'role=option name=Atmosphere' });
      assert.equal((found.structured as { matches: unknown[] }).matches.length, 1, found.summary);
      const chosen = await callOk(rig.context, 'click', { window_id: window.id, selector: 'role=option name=Atmosphere' });
      assert.equal((chosen.structured as { effect: string }).effect, 'confirmed', chosen.summary);
      await pageSays(rig.oracle, window, `out: order=${order.join('|')} selected=Atmosphere`);
      // Moved up, it reads in its new place under the same name, as the page's order says.
      const moved = await act(rig.context, window, 'click', 'button', 'Move up');
      assert.equal(moved.effect, 'confirmed', moved.summary);
      const after = ['Blue Monday', 'Atmosphere', 'Heroes', 'Age of Consent'];
      await pageSays(rig.oracle, window, `out: order=${after.join('|')} selected=Atmosphere`);
      assert.deepEqual((await fullTree(rig.context, window)).filter((node) => node.role === 'option').map((node) => node.name), after);
    });
  });
}
