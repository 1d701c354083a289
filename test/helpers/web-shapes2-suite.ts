// More page shapes a new user met in Chromium and Firefox: a <select multiple> chosen by clicks, and a contenteditable
// holding a list, typed into item by item and new items made by Return (fixture shapes2.html); a button drawn in SVG
// and a table sorted by its headers and edited in place (shapes3.html). The page's own output line (#out, read by
// pyatspi) is the judge. One browser per test file.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { accessibleWindowState, callOk } from './tools.js';
import { act, pageSays, webRig, type BrowserId } from './web-browser.js';

export function webShapes2Suite(browser: BrowserId): void {
  describe(`${browser}: page shapes: a multiple-choice list box, a list in a contenteditable, an SVG button, a table edited in place`, () => {
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
      // Chromium reads sent keys only in the active window (README: Typing into a page's fields).
      if (browser === 'chromium') await callOk(rig.context, 'bring_to_front', { window_id: window.id });
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
      if (browser === 'chromium') await callOk(rig.context, 'bring_to_front', { window_id: window.id });
      // The Return splits the item: "Bread" goes into a new item, which the item typed into never shows.
      const typed = await act(rig.context, window, 'type_text', 'listitem', 'Call mum', { text: '\nBread' });
      assert.equal(typed.effect, 'confirmed', `${typed.summary} ${JSON.stringify(typed.escalation)}`);
      await pageSays(rig.oracle, window, /^out: .* notes=.*\|Call mum\|Bread feed=/);
    });

    test('a button drawn in SVG, a table sorted by its header and a price edited in place: the Return that keeps the price takes its field away, and the evidence says so in words', async () => {
      const window = await rig.open('shapes3', 'CUP Web Shapes Three');
      const played = await callOk(rig.context, 'click', { window_id: window.id, selector: 'role=button name=Play' });
      assert.equal((played.structured as { effect: string }).effect, 'confirmed', played.summary);
      await pageSays(rig.oracle, window, /^out: plays=1 /);
      const sorted = await callOk(rig.context, 'click', { window_id: window.id, selector: 'role=columnheader name=Price' });
      assert.equal((sorted.structured as { effect: string }).effect, 'confirmed', sorted.summary);
      await pageSays(rig.oracle, window, /^out: .* rows=Pear:3,Fig:4,Apple:5 sort=Price-ascending /);
      // Gecko gives a cell no action (the page listens on the table's body), so the cell is clicked with real input
      // there; Blink's cell clicks through accessibility. Chromium then takes the keys in its active window only.
      const firefox = browser === 'firefox-esr';
      const opened = await callOk(rig.context, 'click', { window_id: window.id, selector: 'role=cell name=5', ...(firefox ? { delivery_mode: 'foreground' } : {}) });
      if (!firefox) await callOk(rig.context, 'bring_to_front', { window_id: window.id });
      assert.equal((opened.structured as { effect: string }).effect, 'confirmed', opened.summary);
      const kept = await callOk(rig.context, 'type_text', { window_id: window.id, selector: 'role=textbox name="Price of Apple"', text: '8\n', selector_timeout_ms: 3000 });
      await pageSays(rig.oracle, window, /^out: .* rows=Pear:3,Fig:4,Apple:8 /);
      assert.equal((kept.structured as { effect: string }).effect, 'confirmed', kept.summary);
      const evidence = ((kept.structured as { evidence?: string[] }).evidence ?? []).join(' | ');
      assert.doesNotMatch(`${kept.summary} ${evidence}`, /\u0000/, evidence);
    });
  });
}
