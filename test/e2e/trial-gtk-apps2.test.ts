// What GNOME's libadwaita apps showed a new user wrong, reproduced in the GTK4 fixture (--adw): GNOME Characters' Copy
// Character showed a toast, of which GTK 4.8 announces nothing, and its click read "no effect seen" with advice to click
// again in the foreground over a diff that showed the toast; Clocks' New Alarm dialog read `cmb "Ring Duration"` with no
// value, and set_value "10 minutes" was refused as no option of it, its options being "". And GNOME Sudoku's Menu,
// left open by an invoke_menu naming no entry of it, was closed by the next invoke_menu's click, which then found no
// entries (reproduced with the GTK3 fixture's popover); Seahorse's "Add new items" menu, popped up from a button its
// folded sidebar hides, was refused to a real click as lying in a closed menu. The oracles are pyatspi and the fixture's
// own status label.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk, failsWith, pyatspiWalk, type Element } from '../helpers/tools.js';

describe('GNOME apps tried as a new user: a toast announced by nothing, a combo row, menu buttons, a popover of a hidden button', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk4', { title: 'Adwaita Fixture', rows: 3, extraArgs: ['--adw'] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  test('a click whose one effect is a toast GTK 4.8 announces nothing of is confirmed by the elements the toast added', async () => {
    const toast = () => fixtures.oracle.find(window.pid, window.title, 'label', 'Code copied');
    assert.equal((await toast()).found, false, 'pyatspi: no toast before the click');
    const before = await fixtures.oracle.statusText(window.pid, window.title);
    await callOk(fixtures.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
    const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=button name="Copy code"' });
    const result = clicked.structured as unknown as ActionResult;
    assert.equal((await toast()).found, true, 'pyatspi: the click showed the toast');
    assert.equal(await fixtures.oracle.statusText(window.pid, window.title), before, 'the status label is as it was: the toast is the click\'s only effect');
    assert.deepEqual([result.path, result.effect], ['x11_atspi', 'confirmed'], clicked.body);
    assert.equal(result.escalation, undefined, clicked.body);
    assert.ok(result.evidence?.some((line) => /\[e\d+\] text "Code copied" added/.test(line)), clicked.body);
  });

  test('a combo row shows its choice as its value; set_value, which it cannot take, says the real route, which then chooses', async () => {
    const status = async () => (await fixtures.oracle.status(window.pid, window.title)).ring;
    assert.equal(await status(), '5 minutes');
    const onBus = await fixtures.oracle.find(window.pid, window.title, 'combo box', 'Ring Duration');
    assert.ok(onBus.found, 'pyatspi finds the combo row');
    const value = async () => ((await callOk(fixtures.context, 'find_elements', { window_id: window.id, selector: 'role=combobox name="Ring Duration"' })).structured as { matches: Element[] }).matches.map((match) => match.value);
    assert.deepEqual(await value(), ['5 minutes']);
    const set = await callOk(fixtures.context, 'set_value', { window_id: window.id, selector: 'role=combobox name="Ring Duration"', value: '10 minutes' });
    const result = set.structured as unknown as ActionResult;
    assert.deepEqual([result.path, result.effect, result.escalation?.recommended], ['none', 'suspected_noop', 'foreground'], set.body);
    assert.match(result.escalation?.reason ?? '', /delivery_mode "foreground", then click its option "10 minutes"/, set.body);
    assert.equal(await status(), '5 minutes', 'nothing was chosen');
    // The route it names: a real click opens the popover, a real click on the option chooses it.
    await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=combobox name="Ring Duration"', delivery_mode: 'foreground' });
    await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=listitem name="10 minutes"', selector_timeout_ms: 3000, delivery_mode: 'foreground' });
    assert.equal(await status(), '10 minutes', 'the fixture took the choice');
    assert.deepEqual(await value(), ['10 minutes']);
  });

  test('invoke_menu through a menu button whose menu a refusal left open closes it first, and chooses in it as opened anew; a menu open after the choice is said open', async () => {
    const popover = await fixtures.launch('gtk3', { title: 'Popover Menu', extraArgs: ['--popover', '--popover-checks'] });
    try {
      // GTK3 says its menu button's toggle on, its popover open, as checked.
      const pressed = async () => (await pyatspiWalk(popover.pid, popover.title, fixtures.desktop.env())).find((node) => node.role === 'toggle button' && node.name === 'View options')?.states.includes('checked');
      const refused = await failsWith(fixtures.context, 'invoke_menu', { window_id: popover.id, path: ['View options', 'Zoom sideways'] }, 'menu_item_not_found');
      assert.match(refused.summary, /what it opened is left open/, refused.summary);
      assert.equal(await pressed(), true, 'pyatspi: the menu button is pressed, its popover left open');
      const chosen = await callOk(fixtures.context, 'invoke_menu', { window_id: popover.id, path: ['View options', 'Zoom in'] });
      assert.equal((chosen.structured as unknown as ActionResult).effect, 'confirmed', chosen.body);
      assert.equal((await fixtures.waitForStatus(popover, (status) => status.lastKey === 'zoom:in')).lastKey, 'zoom:in', chosen.body);
      assert.equal(await pressed(), false, 'pyatspi: the popover closed with the choice');
      assert.doesNotMatch(chosen.body ?? '', /stays open/, chosen.body);
      // A check item's toggle leaves its popover open, as GTK3 does for a person's click: the result says so.
      const toggled = await callOk(fixtures.context, 'invoke_menu', { window_id: popover.id, path: ['Display', 'Show Grid'] });
      assert.equal((await fixtures.waitForStatus(popover, (status) => status.lastKey === 'display:grid:on')).lastKey, 'display:grid:on', toggled.body);
      const grid = (await pyatspiWalk(popover.pid, popover.title, fixtures.desktop.env())).find((node) => node.name === 'Show Grid');
      assert.equal(grid?.states.includes('showing'), true, 'pyatspi: the popover is open still');
      assert.ok((toggled.structured as unknown as ActionResult).evidence?.some((line) => /the menu of \[e\d+\] button "Display" stays open after the choice/.test(line)), toggled.body);
    } finally {
      process.kill(popover.pid);
    }
  });

  test("a popover shown from a menu button that is not drawn takes a real click on its items (GTK3 keeps it that button's child)", async () => {
    const opener = await fixtures.launch('gtk3', { title: 'Hidden Opener', extraArgs: ['--hidden-opener'] });
    try {
      await callOk(fixtures.context, 'click', { window_id: opener.id, selector: 'role=button name="Add new items"' });
      // pyatspi: the item and its ancestors up to the window, each with whether it says SHOWING.
      const chain = spawnSync('/usr/bin/python3', ['-c', [
        'import pyatspi',
        'def find(o):',
        "    if o.getRoleName() == 'push button' and o.name == 'Password keyring': return o",
        '    for child in o:',
        '        found = child and find(child)',
        '        if found: return found',
        `app = [a for a in pyatspi.Registry.getDesktop(0) if a and a.get_process_id() == ${opener.pid}][0]`,
        'o = find(app)',
        'while o and o.getRoleName() != "application":',
        "    print(o.getRoleName(), '|', o.name, '|', o.getState().contains(pyatspi.STATE_SHOWING))",
        '    o = o.parent',
      ].join('\n')], { env: fixtures.desktop.env(), encoding: 'utf8', timeout: 30_000 });
      assert.match(chain.stdout, /^push button \| Password keyring \| True$/m, `pyatspi: the popover shows its items\n${chain.stdout}${chain.stderr}`);
      assert.match(chain.stdout, /^toggle button \| Sidebar menu \| False$/m, `pyatspi: the item lies under its menu button, which is not showing\n${chain.stdout}`);
      const clicked = await callOk(fixtures.context, 'click', { window_id: opener.id, selector: 'role=button name="Password keyring"', delivery_mode: 'foreground' });
      assert.equal((clicked.structured as unknown as ActionResult).path, 'x11_pixel_fg', clicked.body);
      assert.equal((await fixtures.waitForStatus(opener, (status) => status.lastKey === 'added:Password keyring')).lastKey, 'added:Password keyring', clicked.body);
    } finally {
      process.kill(opener.pid);
    }
  });
});
