// One real task per browser of the corpus: fill the conformance page's order form and submit it, the way an
// agent does it over the official MCP client SDK against `cup-driver mcp`, judged by the page's own output
// (its result region, read by Debian's pyatspi).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { delivery, need } from '../helpers/agent.js';
import { corpusApp, eventually, withApp, taskRig } from '../helpers/task-apps.js';

describe('agent tasks in web browsers, over MCP', () => {
  const rig = taskRig('mcp');

  /** Name, bread and Order; returns how each step went (and the refusal the agent worked around). */
  async function orderSandwich(id: string): Promise<string> {
    return withApp(rig.desktop, corpusApp(id), async ({ window }) => {
      const target = { pid: window.pid, id: window.id };
      const steps: string[] = [];
      // As an agent does with a page that may still be loading: its form is waited for (CI once read the window
      // while only the browser's own toolbar was in the tree).
      const ready = await rig.agent.call('wait_for', { pid: window.pid, window_id: window.id, selector: 'role=textbox name="Name"', timeout_ms: 20_000 });
      assert.ok(ready.ok, ready.text);
      const name = need(await rig.agent.state(target), 'textbox', 'Name');
      steps.push(`type_text ${delivery(await rig.agent.act('type_text', { window_id: window.id, element_index: name.index, text: 'Ada Lovelace' }))}`);
      const bread = need(await rig.agent.state(target), 'combobox', 'Bread');
      const chosen = await rig.agent.call('set_value', { window_id: window.id, element_index: bread.index, value: 'Sourdough' });
      if (chosen.ok) {
        steps.push(`set_value ${delivery([chosen])}`);
      } else {
        // The refusal must name the problem; an agent then moves the choice with the keyboard (Rye -> Sourdough).
        assert.match(chosen.text, /Sourdough/, chosen.text);
        steps.push(`set_value refused ("${chosen.text.split('\n')[0]}"), press_key Down ${delivery(await rig.agent.act('press_key', { window_id: window.id, element_index: bread.index, key: 'Down' }))}`);
      }
      const order = need(await rig.agent.state(target), 'button', 'Order');
      steps.push(`click Order ${delivery(await rig.agent.act('click', { window_id: window.id, element_index: order.index }))}`);
      const texts = await eventually(() => rig.oracle.texts(window.pid, ''), (all) => all.some((text) => text.startsWith('Ordered ')));
      assert.ok(texts.includes('Ordered Sourdough for Ada Lovelace'), `pyatspi's texts of the page: ${JSON.stringify(texts.filter((text) => /Order|Nothing/.test(text)))}\n${rig.agent.trace()}`);
      return steps.join('; ');
    });
  }

  test('firefox-esr: fill the order form and submit it; the page says "Ordered Sourdough for Ada Lovelace"', async (t) => {
    const started = Date.now();
    t.diagnostic(`firefox-esr: ${await orderSandwich('firefox-esr')}; ${Date.now() - started} ms`);
  });

  test('chromium: fill the order form and submit it; the page says "Ordered Sourdough for Ada Lovelace"', async (t) => {
    const started = Date.now();
    t.diagnostic(`chromium: ${await orderSandwich('chromium')}; ${Date.now() - started} ms`);
  });
});
