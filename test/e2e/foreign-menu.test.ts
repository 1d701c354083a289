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
});
