// What GTK 4.8 and libadwaita apps (Characters, Fonts) showed the driver wrong, reproduced in the GTK4 fixture: GJS's
// type names ("Gjs_SidebarRow") named rows, and a label whose text looks like a type name ("JavaScript", a font's
// "D050000L") lost it; a menu button was named after its open popover's items. The oracle is pyatspi: what the bus says.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk, pyatspiWalk } from '../helpers/tools.js';

describe('GTK 4.8 apps: type names and menu buttons', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk4', { title: 'GTK4 Apps Fixture', rows: 3, extraArgs: ['--names'] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  test('rows GTK names by their GJS type are named by their content, and a label reading like a type name keeps it', async () => {
    const onBus = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    // The quirks: GTK 4.8 names a row with no name of its own by its type, and a label by its text.
    assert.deepEqual(onBus.filter((node) => node.role === 'table row').map((node) => node.name), ['Gjs_PlaceRow', 'Gjs_PlaceRow'], 'pyatspi reads the type names');
    assert.ok(onBus.some((node) => node.role === 'label' && node.name === 'JavaScript'), 'pyatspi reads the label JavaScript');

    const elements = await fixtures.elements(window);
    assert.deepEqual(elements.filter((element) => element.role === 'row').map((element) => element.name), ['Home', 'Music']);
    assert.ok(elements.some((element) => element.role === 'text' && element.name === 'JavaScript'), `the label keeps its text: ${JSON.stringify(elements.map((element) => element.name))}`);

    const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=row name=Music' });
    assert.equal((clicked.structured as unknown as ActionResult).effect, 'confirmed', clicked.body);
    const rows = (await pyatspiWalk(window.pid, window.title, fixtures.desktop.env())).filter((node) => node.role === 'table row');
    assert.deepEqual(rows.map((row) => row.states.includes('selected')), [false, true], 'pyatspi: the second row, Music, is selected');
  });

  test('a menu button is not named after the items of the popover it opened', async () => {
    // The menu button is the object pyatspi finds first by the name GTK gives it (its toggle button inside is the other),
    // known to the driver by its size.
    const onBus = await fixtures.oracle.find(window.pid, window.title, 'push button', 'GtkMenuButton');
    assert.ok(onBus.found && onBus.extents, 'pyatspi finds the menu button');
    const [, , w, h] = onBus.extents;
    const button = (await fixtures.elements(window)).find((element) => element.role === 'button' && element.bounds?.w === w && element.bounds.h === h);
    assert.ok(button && button.name === '', `the menu button reads unnamed while its menu is closed: ${JSON.stringify(button)}`);
    const reread = async () => (await fixtures.elements(window)).find((element) => element.index === button.index);
    const opened = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: button.index, delivery_mode: 'foreground' });
    assert.equal((opened.structured as unknown as ActionResult).effect, 'confirmed', opened.body);
    try {
      const onBus = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
      assert.ok(onBus.some((node) => node.role === 'menu item' && node.name === 'About Fixture'), 'pyatspi: the popover holds its items');
      const open = await reread();
      assert.ok(open && open.states.includes('expanded'), `the menu button reads expanded: ${JSON.stringify(open)}`);
      assert.ok(!open.name.includes('About Fixture') && !open.name.includes('Preferences'), `the button's name is not its menu's: "${open.name}"`);
      const items = (await fixtures.elements(window)).filter((element) => element.role === 'menuitem').map((element) => element.name);
      assert.deepEqual(items.slice(-2), ['Preferences', 'About Fixture'], 'the popover\'s items follow the menu bar\'s');
    } finally {
      await callOk(fixtures.context, 'press_key', { window_id: window.id, key: 'Escape', delivery_mode: 'foreground' });
    }
  });
});
