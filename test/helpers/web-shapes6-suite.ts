// Page shapes a new user met in a web admin (Django's) in Chromium and Firefox (fixture shapes6.html, the browser's
// first page, one window for every test: the page's state carries from test to test, in order): a form laid out as a
// table whose column headers are its labels, its rows' inputs labelled by nothing of their own; a panel laid over a
// field, whose own field takes a real click meant for the one under it. The page's own output lines (#out, #focus,
// read by pyatspi) are the judges. One browser per test file.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runTool } from '../../src/tools/run.js';
import { callOk } from './tools.js';
import { pageSays, webRig, type BrowserId } from './web-browser.js';

const page = 'shapes6';
const title = 'CUP Web Shapes Six';

export function webShapes6Suite(browser: BrowserId): void {
  describe(`${browser}: page shapes: a form laid out as a table, labelled by its column headers`, () => {
    const rig = webRig(browser, { page, title });

    test('a field a cell holds alone is named by its column header, and a selector by that name reaches the row\'s input', async () => {
      const window = await rig.open(page, title);
      await pageSays(rig.oracle, window, /^out: r0-author=Ann /);
      // The shape: the browser names none of the rows' inputs (pyatspi), bar the one with its own aria-label.
      const boxes = await rig.oracle.attributes(window.pid, window.title, ['check box']);
      assert.equal(boxes.filter((box) => box.name === '').length, 7, JSON.stringify(boxes.map((box) => box.name)));
      const read = await callOk(rig.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
      const text = read.body ?? '';
      // They read `tbx`, `spn`, `cmb` and `chk` with no name under AUTHOR, STARS, MOOD and DELETE?.
      for (const line of [/tbx "Author" [^\n]*val="Bob"/i, /spn "Stars" [^\n]*val="3"/i, /cmb "Mood" [^\n]*val="Happy"/i, /chk "Delete\?" /i, /chk "In stock" /i]) assert.match(text, line, text);
      // A field with a label of its own keeps it; the selection boxes, under a header with no words, stay unnamed.
      assert.match(text, /chk "Discard this review" /, text);
      const rows = await callOk(rig.context, 'find_elements', { window_id: window.id, selector: 'role=row name^=Kettle >> role=checkbox' });
      assert.deepEqual((rows.structured as { matches: { name: string }[] }).matches.map((match) => match.name.toLowerCase()), ['', 'in stock'], rows.summary);
      // The row's "In stock" box is told from its selection box by name: they were two unnamed check boxes.
      await callOk(rig.context, 'click', { window_id: window.id, selector: 'role=row name^=Kettle >> role=checkbox name~="in stock"' });
      await pageSays(rig.oracle, window, /^out: .* p0-stock=off /);
      await pageSays(rig.oracle, window, /^out: .* p0-pick=off /);
      await callOk(rig.context, 'set_value', { window_id: window.id, selector: 'role=row [index=2] >> role=spinbutton name~=stars', value: '4' });
      await pageSays(rig.oracle, window, /^out: .* r0-stars=5 r0-mood=Happy r0-delete=off r1-author=Bob r1-stars=4 /);
      await callOk(rig.context, 'set_value', { window_id: window.id, selector: 'role=row [index=3] >> role=textbox name~=author', value: 'Cy' });
      await pageSays(rig.oracle, window, /^out: .* r2-author=Cy /);
      await callOk(rig.context, 'click', { window_id: window.id, selector: 'role=row [index=2] >> role=checkbox name~="delete?"' });
      await pageSays(rig.oracle, window, /^out: .* r1-delete=on /);
    });

    test('a paragraph\'s words around a <strong> and links are in the reading, not only the strong words and the links', async () => {
      const window = await rig.open(page, title);
      // The judge: the paragraph's words as the browser's Text holds them (Gecko embeds the <strong> as an object).
      const said = (await rig.oracle.texts(window.pid, window.title)).join(' | ');
      assert.match(said, /Welcome to the /, said);
      const read = await callOk(rig.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
      const text = read.body ?? '';
      // Gecko's paragraph read `txt "Widget"` and its two links: its other words were in no node.
      assert.match(text, /"Welcome to the\b/, text);
      assert.match(text, /\bmanual\. See\b/, text);
      assert.match(text, /lnk "Reviews"/, text);
    });

    test('a real click on a field a page\'s panel wholly covers lands in the panel\'s field: it is not confirmed for the field, and the panel\'s field is named', async () => {
      const window = await rig.open(page, title);
      await callOk(rig.context, 'click', { window_id: window.id, selector: 'role=button name="Show panel"' });
      await pageSays(rig.oracle, window, /^focus: show$/);
      await callOk(rig.context, 'wait_for', { window_id: window.id, selector: 'role=textbox name="Coupon code" !hidden' });
      const clicked = await runTool('click', { window_id: window.id, selector: 'role=textbox name=Nickname', delivery_mode: 'foreground' }, rig.context);
      // The judge: the page's focus went to the panel's field, where the click landed.
      await pageSays(rig.oracle, window, /^focus: coupon$/);
      // The focus the panel's field took read as the click's effect on Nickname: "confirmed via x11_pixel_fg".
      const { effect, escalation } = clicked.structured as { effect: string; escalation?: { reason: string } };
      assert.equal(effect, 'suspected_noop', clicked.summary);
      assert.match(escalation?.reason ?? '', /"Coupon code" lay over \[e\d+\] where it was clicked .*took the click/, clicked.summary);
    });
  });
}
