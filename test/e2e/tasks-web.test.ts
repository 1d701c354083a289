// One real task per browser of the corpus: fill the conformance page's order form and submit it, the way an
// agent does it over the official MCP client SDK against `cup-driver mcp`, judged by the page's own output
// (its result region, read by Debian's pyatspi).
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Agent, delivery, need } from '../helpers/agent.js';
import { TestDesktop } from '../helpers/desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { corpusApp, eventually, withApp } from '../helpers/task-apps.js';

describe('agent tasks in web browsers, over MCP', () => {
  let desktop: TestDesktop;
  let agent: Agent;
  let oracle: PyatspiOracle;

  before(async () => {
    desktop = await TestDesktop.start();
    agent = await Agent.start('mcp', desktop.env({ XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'cup-config-')) }));
    oracle = new PyatspiOracle(desktop.env());
  });

  after(async () => {
    oracle?.close();
    await agent?.close();
    await desktop?.stop();
  });

  /** Name, bread and Order; returns how each step went (and the refusal the agent worked around). */
  async function orderSandwich(id: string): Promise<string> {
    return withApp(desktop, corpusApp(id), async ({ window }) => {
      const target = { pid: window.pid, id: window.id };
      const steps: string[] = [];
      const name = need(await agent.state(target), 'textbox', 'Name');
      steps.push(`type_text ${delivery(await agent.act('type_text', { window_id: window.id, element_index: name.index, text: 'Ada Lovelace' }))}`);
      const bread = need(await agent.state(target), 'combobox', 'Bread');
      const chosen = await agent.call('set_value', { window_id: window.id, element_index: bread.index, value: 'Sourdough' });
      if (chosen.ok) {
        steps.push(`set_value ${delivery([chosen])}`);
      } else {
        // The refusal must name the problem; an agent then moves the choice with the keyboard (Rye -> Sourdough).
        assert.match(chosen.text, /Sourdough/, chosen.text);
        steps.push(`set_value refused ("${chosen.text.split('\n')[0]}"), press_key Down ${delivery(await agent.act('press_key', { window_id: window.id, element_index: bread.index, key: 'Down' }))}`);
      }
      const order = need(await agent.state(target), 'button', 'Order');
      steps.push(`click Order ${delivery(await agent.act('click', { window_id: window.id, element_index: order.index }))}`);
      const texts = await eventually(() => oracle.texts(window.pid, ''), (all) => all.some((text) => text.startsWith('Ordered ')));
      assert.ok(texts.includes('Ordered Sourdough for Ada Lovelace'), `pyatspi's texts of the page: ${JSON.stringify(texts.filter((text) => /Order|Nothing/.test(text)))}\n${agent.trace()}`);
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
