// Real input for one app while another app's menu is open: the menu holds the keyboard and the pointer, so the keys
// would go to it. Two GTK3 fixtures; one opens its context menu (a popup of its own), the other is typed into. pyatspi
// reads both apps, the fixture's status what it received.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk, failsWith } from '../helpers/tools.js';

describe('real input while another app\'s menu is open', () => {
  let fixtures: FixtureDesktop;
  let menuApp: ClientWindow;
  let typedApp: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    menuApp = await fixtures.launch('gtk3', { title: 'Menu app', rows: 3, extraArgs: ['--context-menu'] });
    typedApp = await fixtures.launch('gtk3', { title: 'Typed app', rows: 3 });
  });

  after(async () => {
    await fixtures?.stop();
  });

  test('is refused, naming the menu\'s window, nothing sent; once the menu is closed it goes through', async () => {
    await callOk(fixtures.context, 'right_click', { window_id: menuApp.id, selector: 'name="Click pad"', delivery_mode: 'foreground' });
    const menu = (await fixtures.oracle.topLevels(menuApp.pid)).find((top) => top.name !== menuApp.title && top.showing);
    assert.deepEqual(menu?.items, ['Copy pad', 'Clear pad'], 'pyatspi: the context menu is open');

    const refused = await failsWith(fixtures.context, 'type_text', { window_id: typedApp.id, selector: 'name="Name field"', text: 'Copy', delivery_mode: 'foreground' }, 'input_held_by_menu');
    assert.match(refused.summary, new RegExp(`over window ${menuApp.id} "Menu app" \\(pid ${menuApp.pid}\\).*nothing was sent`));
    await failsWith(fixtures.context, 'click', { window_id: typedApp.id, selector: 'name=Increment', delivery_mode: 'foreground' }, 'input_held_by_menu');
    assert.equal((await fixtures.oracle.find(typedApp.pid, typedApp.title, 'text', 'Name field')).text, '', 'pyatspi: nothing reached the field');
    assert.ok((await fixtures.oracle.topLevels(menuApp.pid)).some((top) => top.name !== menuApp.title && top.showing), 'pyatspi: the menu is still open');
    assert.equal((await fixtures.status(menuApp)).lastKey, '', 'the menu app: no item was chosen');

    // The menu's own app takes its keys: Escape closes it, and the typing then goes where it was meant.
    await callOk(fixtures.context, 'press_key', { window_id: menuApp.id, key: 'escape', delivery_mode: 'foreground' });
    await callOk(fixtures.context, 'type_text', { window_id: typedApp.id, selector: 'name="Name field"', text: 'Copy', delivery_mode: 'foreground' });
    assert.equal((await fixtures.waitForStatus(typedApp, (status) => status.text === 'Copy')).text, 'Copy');
  });

  test('a background Escape closes the app\'s own open menu, a menu bar\'s or a context menu, and other apps\' real input goes through after', async () => {
    // A background click opens a GTK3 menu bar's menu. Escape for it had been refused (GTK ignores sent keys, and
    // accessibility has no Escape), which left the menu open, holding every app's real input.
    const showing = async (name: string) => (await fixtures.oracle.find(menuApp.pid, menuApp.title, 'menu item', name)).states?.includes('showing');
    await callOk(fixtures.context, 'click', { window_id: menuApp.id, selector: 'role=menuitem name=File' });
    assert.equal(await showing('New'), true, 'pyatspi: the File menu is open');
    const closed = await callOk(fixtures.context, 'press_key', { window_id: menuApp.id, key: 'escape' });
    assert.equal(closed.structured.path, 'key_events_grab', closed.summary);
    assert.equal(await showing('New'), false, 'pyatspi: the File menu closed');
    await callOk(fixtures.context, 'set_value', { window_id: typedApp.id, selector: 'name="Name field"', value: '' });
    await callOk(fixtures.context, 'type_text', { window_id: typedApp.id, selector: 'name="Name field"', text: 'Bar', delivery_mode: 'foreground' });
    assert.equal((await fixtures.waitForStatus(typedApp, (status) => status.text === 'Bar')).text, 'Bar', 'the typed app: the keys reached it');

    // A context menu, which accessibility cannot close at all.
    await callOk(fixtures.context, 'right_click', { window_id: menuApp.id, selector: 'name="Click pad"', delivery_mode: 'foreground' });
    const popup = async () => (await fixtures.oracle.topLevels(menuApp.pid)).find((top) => top.name !== menuApp.title && top.showing);
    assert.deepEqual((await popup())?.items, ['Copy pad', 'Clear pad'], 'pyatspi: the context menu is open');
    const escaped = await callOk(fixtures.context, 'press_key', { window_id: menuApp.id, key: 'escape' });
    assert.equal(escaped.structured.path, 'key_events_grab', escaped.summary);
    assert.equal(await popup(), undefined, 'pyatspi: the context menu closed');
    assert.equal((await fixtures.status(menuApp)).lastKey, '', 'the menu app: no item was chosen');
  });

  test('a GTK4 menu, whose popup is typed a torn-off menu, holds real input too, and a background Escape closes it', async () => {
    // GTK4 types its popover menus _NET_WM_WINDOW_TYPE_MENU: with its Edit menu open, typing into another app was lost
    // and read "no effect seen", not refused.
    const gtk4 = await fixtures.launch('gtk4', { title: 'GTK4 menu app' });
    try {
      await callOk(fixtures.context, 'click', { window_id: gtk4.id, selector: 'role=menuitem name=Edit', delivery_mode: 'foreground' });
      // GTK 4.8 says SHOWING of nothing: the entry's EXPANDED says whether its menu is open.
      const open = async () => (await fixtures.oracle.find(gtk4.pid, gtk4.title, 'menu item', 'Edit')).states?.includes('expanded');
      assert.equal(await open(), true, 'pyatspi: the Edit menu is open');
      await callOk(fixtures.context, 'set_value', { window_id: typedApp.id, selector: 'name="Name field"', value: '' });
      await failsWith(fixtures.context, 'type_text', { window_id: typedApp.id, selector: 'name="Name field"', text: 'Four', delivery_mode: 'foreground' }, 'input_held_by_menu');
      const closed = await callOk(fixtures.context, 'press_key', { window_id: gtk4.id, key: 'escape' });
      assert.equal(closed.structured.path, 'key_events_grab', closed.summary);
      assert.equal(await open(), false, 'pyatspi: the Edit menu closed');
      await callOk(fixtures.context, 'type_text', { window_id: typedApp.id, selector: 'name="Name field"', text: 'Four', delivery_mode: 'foreground' });
      assert.equal((await fixtures.waitForStatus(typedApp, (status) => status.text === 'Four')).text, 'Four', 'the typed app: the keys reached it');
    } finally {
      process.kill(gtk4.pid);
    }
  });
});
