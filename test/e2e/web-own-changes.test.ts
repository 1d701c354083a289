// A web page that changes by itself (a ticker) must not confirm a click that did nothing: Blink tells every tick,
// and a click on a page is given a second and a half for its first sign, ten ticks' time. Nor does the focus Blink
// gives a button it clicks. The oracle is pyatspi:
// the ticker did tick while the click was judged, and the page's click count moved only when Count was clicked.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { webRig } from '../helpers/web-browser.js';
import { callOk } from '../helpers/tools.js';

describe('a web page that changes by itself (chromium)', () => {
  const rig = webRig('chromium');

  test('a click on an idle button is no effect though the ticker beside it ticked; a click that counts is confirmed, and one on a field by its focus', async () => {
    const window = await rig.open('ticker', 'CUP Web Ticker');
    const texts = () => rig.oracle.texts(window.pid, window.title);
    const numberIn = async (prefix: string) => {
      const text = (await texts()).find((candidate) => candidate.startsWith(prefix));
      assert.ok(text, `pyatspi finds "${prefix}"`);
      return Number(text.slice(prefix.length));
    };
    const elements = (await callOk(rig.context, 'get_window_state', { pid: window.pid, window_id: window.id, include_screenshot: false })).structured.elements as { index: number; role: string; name: string }[];
    const button = (name: string) => elements.find((element) => element.role === 'button' && element.name === name)!;
    // The driver listens from its first reading: the ticker's next two values are waited on to go.
    for (let i = 0; i < 2; i++) {
      const now = await numberIn('Ticks: ');
      await callOk(rig.context, 'wait_for', { pid: window.pid, window_id: window.id, selector: `name="Ticks: ${now}"`, gone: true, timeout_ms: 5000 });
    }

    const ticksBefore = await numberIn('Ticks: ');
    const idle = await callOk(rig.context, 'click', { window_id: window.id, element_index: button('Idle').index });
    const idleResult = idle.structured as unknown as ActionResult;
    assert.ok((await numberIn('Ticks: ')) > ticksBefore, 'the ticker ticked while the click was judged');
    assert.equal(await numberIn('Clicks: '), 0, 'the page counted no click');
    assert.equal(idleResult.effect, 'suspected_noop', `${idle.summary}: ${JSON.stringify(idleResult.evidence)}`);
    assert.match(idleResult.escalation?.reason ?? '', /on its own/, JSON.stringify(idleResult.escalation));

    const count = await callOk(rig.context, 'click', { window_id: window.id, element_index: button('Count').index });
    const countResult = count.structured as unknown as ActionResult;
    assert.equal(await numberIn('Clicks: '), 1, 'pyatspi: the page counted the click');
    assert.equal(countResult.effect, 'confirmed', count.summary);
    // Blink tells the count's new text by its paragraph's children; the focus it gives a button it clicks is no evidence.
    assert.ok(countResult.evidence?.some((line) => line.includes('child added')), `the count's paragraph is evidence: ${JSON.stringify(countResult.evidence)}`);
    assert.deepEqual(countResult.evidence?.filter((line) => /[+-]foc/.test(line)), [], JSON.stringify(countResult.evidence));

    // A click on a field is confirmed by the focus it gives the field: Blink's fields have no EditableText, their
    // EDITABLE state says what they are.
    const field = elements.find((element) => element.role === 'textbox' && element.name === 'Note');
    assert.ok(field, 'the field is an element');
    // A real click: Blink's field has neither a click action nor EditableText for a background one.
    const clicked = await callOk(rig.context, 'click', { window_id: window.id, element_index: field.index, delivery_mode: 'foreground' });
    const result = clicked.structured as unknown as ActionResult;
    assert.ok((await rig.oracle.find(window.pid, window.title, 'entry', 'Note')).states?.includes('focused'), 'pyatspi: the field has the focus');
    assert.equal(result.effect, 'confirmed', clicked.summary);
    assert.ok(result.evidence?.some((line) => line.includes(`[e${field.index}]`) && line.includes('+foc')), JSON.stringify(result.evidence));
  });
});
