import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { LinuxToolContext } from '../../src/server/session.js';
import { TestDesktop } from '../helpers/desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { callOk, testContext } from '../helpers/tools.js';

interface Element {
  index: number;
  role: string;
  name: string;
  bounds?: { x: number; y: number; w: number; h: number };
}

/** A real click on a row scrolled far out of its short list: the driver scrolls it in, then clicks it. */
describe('scroll into view before a foreground click', () => {
  let desktop: TestDesktop;
  let window: ClientWindow;
  let context: LinuxToolContext;
  let oracle: PyatspiOracle;

  before(async () => {
    desktop = await TestDesktop.start();
    window = (await desktop.launchFixture('gtk3', { title: 'CUP Scroll Fixture', rows: 200 })).window;
    context = testContext();
    oracle = new PyatspiOracle(desktop.env());
  });

  after(async () => {
    oracle?.close();
    context?.desktop.close();
    await desktop?.stop();
  });

  async function row(name: string): Promise<Element> {
    const state = await callOk(context, 'get_window_state', { pid: window.pid, window_id: window.id, query: name, include_screenshot: false });
    const found = (state.structured.elements as Element[]).find((element) => element.role === 'option' && element.name === name);
    assert.ok(found, `${name} is in the tree`);
    return found;
  }

  for (const name of ['Row 150', 'Row 200', 'Row 3']) {
    test(`a foreground click on "${name}" scrolls it into view and lands on it`, async () => {
      const target = await row(name);
      const visibleBefore = target.bounds !== undefined;
      const clicked = await callOk(context, 'click', { window_id: window.id, element_index: target.index, delivery_mode: 'foreground' });
      assert.equal(clicked.structured.effect, 'confirmed', clicked.summary);
      assert.equal(clicked.structured.scrolled_into_view === true, !visibleBefore, `scrolled_into_view says whether it had to scroll (${clicked.summary})`);
      assert.equal((await oracle.status(window.pid, window.title)).selected, name, 'the app selected the row that was clicked (pyatspi)');
      assert.ok((await row(name)).bounds, `${name} is on screen afterwards`);
    });
  }
});
