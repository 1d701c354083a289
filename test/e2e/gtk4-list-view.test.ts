// GTK 4.8 marks an item of a GtkListView SELECTABLE only once it has been selected, while the list offers the
// Selection interface all along: a background click on an item never selected yet must still select it. The oracle
// is pyatspi: the item's states on the bus before and after.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk, pyatspiWalk, type OracleNode } from '../helpers/tools.js';

describe('GTK 4.8 list view items', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk4', { title: 'List View Fixture', rows: 3, extraArgs: ['--list-view'] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  /** The states of the Fruits list's items on the bus, in order. */
  async function fruitStates(): Promise<string[][]> {
    const nodes = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    const list = nodes.findIndex((node) => node.role === 'list' && node.name === 'Fruits');
    assert.ok(list >= 0, 'pyatspi finds the Fruits list');
    const items: OracleNode[] = [];
    for (const node of nodes.slice(list + 1)) {
      if (node.depth <= nodes[list]!.depth) break;
      if (node.depth === nodes[list]!.depth + 1 && node.role === 'list item') items.push(node);
    }
    return items.map((item) => item.states);
  }

  test('an item never selected, which GTK leaves unmarked as selectable, is selected by a background click', async () => {
    const before = await fruitStates();
    assert.equal(before.length, 3);
    // The quirk this test is about: without it, there is nothing to tell.
    assert.ok(!before[1]!.includes('selectable') && !before[1]!.includes('selected'), `pyatspi: Banana is not marked selectable: ${JSON.stringify(before)}`);

    const found = await callOk(fixtures.context, 'find_elements', { pid: window.pid, window_id: window.id, selector: 'role=listitem name=Banana' });
    const [banana] = (found.structured as { matches: { actions: string[] }[] }).matches;
    assert.ok(banana?.actions.includes('select'), `the item offers select: ${found.body}`);

    const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=listitem name=Banana' });
    const result = clicked.structured as unknown as ActionResult;
    assert.equal(result.effect, 'confirmed', clicked.summary);
    assert.equal(result.path, 'x11_atspi', 'sent through accessibility, in the background');
    assert.deepEqual((await fruitStates()).map((states) => states.includes('selected')), [false, true, false], 'pyatspi: Banana is the selected item');
  });
});
