// GTK 4.8 gives its check and radio buttons an Action interface with nothing in it: the tree listed them [clk,tog]
// by role all the same (gtk4-widget-factory's "checkbutton"), and a background click on one was then refused as having
// "no accessibility action". The tree lists a verb only where the toolkit names an action that does it (a switch's
// toggle, a toggle button's click), and the reading names the controls only real input operates, with the route that
// works. pyatspi is the oracle: the actions each control's Action interface names, and its checked state after a click.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import type { OracleNode } from '../helpers/oracle.js';
import { callOk, type Element } from '../helpers/tools.js';

describe('GTK 4.8 controls that name no accessibility action', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk4', { title: 'GTK4 Input Only Fixture', rows: 3, extraArgs: ['--toggles'] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  /** pyatspi's object of that name, whichever role GTK gave it. */
  async function witness(name: string): Promise<OracleNode> {
    for (const role of ['check box', 'radio button', 'toggle button', 'push button', 'switch']) {
      const found = await fixtures.oracle.find(window.pid, window.title, role, name);
      if (found.found) return found;
    }
    assert.fail(`pyatspi finds no control named ${name}`);
  }

  const controls = ['Enable feature', 'Airplane mode', 'Bold', 'Small', 'Large'];

  test('a click or toggle is listed only where pyatspi names an action, and the reading says to click the rest in the foreground', async () => {
    const read = await callOk(fixtures.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
    const elements = (read.structured as { elements: Element[] }).elements;
    const unnamed: Element[] = [];
    for (const name of controls) {
      const element = elements.find((candidate) => candidate.name === name);
      assert.ok(element, `the tree shows ${name}`);
      const named = (await witness(name)).actions ?? [];
      const verbs = element.actions.filter((action) => action === 'click' || action === 'toggle');
      assert.equal(verbs.length > 0, named.length > 0, `${name}: pyatspi names ${JSON.stringify(named)}, the tree lists ${JSON.stringify(element.actions)}`);
      if (named.length === 0) unnamed.push(element);
      // Its box stays in the text: a foreground click needs no more than the element, and the agent sees where it is.
      assert.match(read.body ?? '', new RegExp(`^\\s*\\[e${element.index}\\] \\w+ "${name}" \\d+,\\d+ \\d+x\\d+`, 'm'), `${name} keeps its box: ${read.body}`);
    }
    assert.ok(unnamed.some((element) => element.name === 'Enable feature'), 'pyatspi: GTK 4.8 names no action on the check box');
    for (const element of unnamed) assert.ok(read.summary.includes(`[e${element.index}]`), `the reading names ${element.name}: ${read.summary}`);
    assert.match(read.summary, /only real input operates them, so click with delivery_mode "foreground"/);
  });

  test('a background click on a toggle button, which GTK 4.8 shows as a push button pressed while on, is confirmed by that state', async () => {
    // gtk4-widget-factory's "togglebutton" was toggled by a background click told "no effect seen" after 3.7 s: a push
    // button's PRESSED was taken for the press itself, as Chromium's dialog buttons show it.
    const bold = (await fixtures.elements(window)).find((element) => element.name === 'Bold');
    assert.ok(bold, 'the tree shows the toggle button');
    const before = await witness('Bold');
    assert.equal(before.role, 'push button', 'pyatspi: GTK 4.8 gives the toggle button the push button role (the premise)');
    const wasOn = before.states?.includes('pressed') ?? false;
    const started = Date.now();
    const clicked = (await callOk(fixtures.context, 'click', { window_id: window.id, element_index: bold.index })).structured as unknown as ActionResult;
    const took = Date.now() - started;
    assert.equal((await witness('Bold')).states?.includes('pressed') ?? false, !wasOn, `pyatspi: the click toggled it: ${JSON.stringify(clicked)}`);
    assert.equal(clicked.effect, 'confirmed', JSON.stringify(clicked));
    assert.ok(took < 5000, `the click took ${took} ms`);
  });

  test('such a check box is refused in the background, nothing sent, and a foreground click toggles it', async () => {
    const box = (await fixtures.elements(window)).find((element) => element.name === 'Enable feature');
    assert.ok(box, 'the tree shows the check box');
    const wasChecked = (await witness('Enable feature')).states?.includes('checked') ?? false;
    const background = (await callOk(fixtures.context, 'click', { window_id: window.id, element_index: box.index })).structured as unknown as ActionResult;
    assert.notEqual(background.effect, 'confirmed', JSON.stringify(background));
    assert.match(JSON.stringify(background), /foreground/, 'the refusal names the foreground');
    assert.equal((await witness('Enable feature')).states?.includes('checked') ?? false, wasChecked, 'pyatspi: nothing changed');
    const foreground = (await callOk(fixtures.context, 'click', { window_id: window.id, element_index: box.index, delivery_mode: 'foreground' })).structured as unknown as ActionResult;
    assert.equal((await witness('Enable feature')).states?.includes('checked') ?? false, !wasChecked, `pyatspi: the foreground click toggled it: ${JSON.stringify(foreground)}`);
  });
});
