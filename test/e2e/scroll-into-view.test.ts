import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { LinuxToolContext } from '../../src/server/session.js';
import { TestDesktop } from '../helpers/desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { accessibleWindowState, callOk, testContext } from '../helpers/tools.js';

interface Element {
  index: number;
  role: string;
  name: string;
  bounds?: { x: number; y: number; w: number; h: number };
}

/**
 * A real click on a row scrolled far out of its short list: the driver scrolls it in, then clicks it. GTK3's
 * scroll bar takes a value through accessibility, GTK 4.8's through the range it holds.
 */
for (const toolkit of ['gtk3', 'gtk4'] as const)
describe(`scroll into view before a foreground click (${toolkit})`, () => {
  let desktop: TestDesktop;
  let window: ClientWindow;
  let context: LinuxToolContext;
  let oracle: PyatspiOracle;

  before(async () => {
    desktop = await TestDesktop.start();
    window = (await desktop.launchFixture(toolkit, { title: `CUP Scroll Fixture ${toolkit}`, rows: 200 })).window;
    context = testContext();
    oracle = new PyatspiOracle(desktop.env());
  });

  after(async () => {
    oracle?.close();
    context?.desktop.close();
    await desktop?.stop();
  });

  async function row(name: string): Promise<Element> {
    const { state } = await accessibleWindowState(context, window, { query: name, include_screenshot: false, detail: 'full' });
    const elements = state.elements as Element[];
    const found = elements.find((element) => element.name === name);
    assert.ok(found, `${name} is in the tree: ${JSON.stringify(elements.map((element) => [element.role, element.name]))}`);
    return found;
  }

  // The list shows about 16 rows at a time: each of the first three is out of view when it is clicked.
  for (const [name, outOfView] of [['Row 150', true], ['Row 200', true], ['Row 3', true], ['Row 4', false]] as const) {
    test(`a foreground click on "${name}" ${outOfView ? 'scrolls it into view and ' : ''}lands on it`, async () => {
      const target = await row(name);
      const clicked = await callOk(context, 'click', { window_id: window.id, element_index: target.index, delivery_mode: 'foreground' });
      assert.equal(clicked.structured.effect, 'confirmed', clicked.summary);
      assert.equal(clicked.structured.scrolled_into_view === true, outOfView, `scrolled_into_view says whether it had to scroll (${clicked.summary})`);
      assert.equal((await oracle.status(window.pid, window.title)).selected, name, 'the app selected the row that was clicked (pyatspi)');
      assert.ok((await row(name)).bounds, `${name} is on screen afterwards`);
    });
  }

  test('a background scroll of the list moves it through accessibility (GTK 4.8 gives the Value to its scroll bar\'s range, not the bar)', async () => {
    // The oracle's values of the objects that carry the scroll position: GTK3's scroll bars, GTK 4.8's GtkRange fillers.
    const positions = () => oracle.values(window.pid, window.title, toolkit === 'gtk3' ? 'scroll bar' : 'filler');
    const before = await positions();
    const list = (await accessibleWindowState(context, window, { include_screenshot: false })).state.elements.find((element: Element) => element.role === 'listitem' || element.role === 'option')!;
    const scrolled = await callOk(context, 'scroll', { window_id: window.id, element_index: list.index, direction: 'down', by: 'page', amount: 2 });
    assert.equal(scrolled.structured.effect, 'confirmed', scrolled.summary);
    assert.equal(scrolled.structured.path, 'x11_atspi', 'through accessibility, not the wheel');
    const after = await positions();
    assert.ok(after.some((value, i) => value > before[i]!), `pyatspi: a scroll position moved down (${JSON.stringify(before)} → ${JSON.stringify(after)})`);
  });
});
