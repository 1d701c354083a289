// More page shapes a new user met in Chromium and Firefox (fixture shapes2.html): a <select multiple> chosen by
// clicks, and a contenteditable holding a list, typed into item by item and new items made by Return. The page's own output line (#out, read by
// pyatspi) is the judge. One browser per test file.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { accessibleWindowState, callOk } from './tools.js';
import { act, pageSays, webRig, type BrowserId } from './web-browser.js';

export function webShapes2Suite(browser: BrowserId): void {
  describe(`${browser}: page shapes: a multiple-choice list box, a list in a contenteditable`, () => {
    const rig = webRig(browser, { page: 'shapes2', title: 'CUP Web Shapes Two' });

    test('a click on an option of a <select multiple> selects it alone, and the page hears it (its change event), as after a person\'s click', async () => {
      const window = await rig.open('shapes2', 'CUP Web Shapes Two');
      await pageSays(rig.oracle, window, /^out: .* toppings=none /);
      for (const option of ['Olives', 'Onions']) {
        const chosen = await callOk(rig.context, 'click', { window_id: window.id, selector: `role=option name=${option}` });
        assert.equal((chosen.structured as { effect: string }).effect, 'confirmed', chosen.summary);
        // Gecko's Selection selected the option in silence: the tree read it selected, the page's script never knew.
        await pageSays(rig.oracle, window, new RegExp(`^out: .* toppings=${option} `));
      }
      const compact = (await accessibleWindowState(rig.context, window, { include_screenshot: false })).result.body!;
      assert.match(compact, /opt "Onions" [^\n]*\{[^}]*sel/, compact);
      assert.doesNotMatch(compact, /opt "Olives" [^\n]*\{[^}]*sel/, compact);
    });

    test('text typed into an item of a list in a contenteditable goes into that item, when the page\'s focus is elsewhere', async () => {
      const window = await rig.open('shapes2', 'CUP Web Shapes Two');
      // The page's focus on a button: the item must be reached through its editing host, not focused itself.
      const pressed = await act(rig.context, window, 'click', 'button', 'Advance upload');
      assert.equal(pressed.effect, 'confirmed', pressed.summary);
      await pageSays(rig.oracle, window, /^out: .* upload=50 /);
      const typed = await act(rig.context, window, 'type_text', 'listitem', 'Buy milk', { text: ' today' });
      assert.equal(typed.effect, 'confirmed', typed.summary);
      await pageSays(rig.oracle, window, /^out: .* notes=Buy milk today\|Call mum /);
    });

    test('lines typed into an item of a list in a contenteditable make new items after it, and the typing reads as done', async () => {
      const window = await rig.open('shapes2', 'CUP Web Shapes Two');
      // The Return splits the item: "Bread" goes into a new item, which the item typed into never shows.
      const typed = await act(rig.context, window, 'type_text', 'listitem', 'Call mum', { text: '\nBread' });
      assert.equal(typed.effect, 'confirmed', `${typed.summary} ${JSON.stringify(typed.escalation)}`);
      await pageSays(rig.oracle, window, /^out: .* notes=.*\|Call mum\|Bread feed=/);
    });
  });
}
