// GTK 4.8 names a widget whose label has a mnemonic by the label as written ("_Save Save", "_Wrap lines"), which no
// agent asking for the button "Save" would match. The oracle is pyatspi: it reads those names from the bus, and the
// fixture's counter (read by pyatspi too) says that the button found by its shown name was the one clicked.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk, pyatspiWalk, type Element } from '../helpers/tools.js';

describe('GTK 4 names of controls with mnemonics', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk4', { title: 'Mnemonic Fixture', extraArgs: ['--mnemonics'] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  test('are the labels as shown, and a selector by that name finds and clicks the button', async () => {
    const oracle = await pyatspiWalk(window.pid, window.title, fixtures.desktop.env());
    const onBus = oracle.filter((node) => node.role === 'push button' || node.role === 'check box').map((node) => node.name);
    // The quirk this test is about: without it, there is nothing to tell.
    assert.ok(onBus.includes('_Save Save') && onBus.includes('_Wrap lines'), `pyatspi reads GTK's names: ${JSON.stringify(onBus)}`);

    const elements = await fixtures.elements(window);
    const named = (role: string) => elements.filter((element) => element.role === role).map((element) => element.name);
    assert.ok(named('button').includes('Save'), JSON.stringify(named('button')));
    assert.ok(named('checkbox').includes('Wrap lines'), JSON.stringify(named('checkbox')));
    assert.deepEqual(elements.filter((element) => element.role !== 'text' && element.name.includes('_')).map((element) => `${element.role} ${element.name}`), [], 'no control keeps a mnemonic mark in its name (the status text names last_key)');

    const found = await callOk(fixtures.context, 'find_elements', { pid: window.pid, window_id: window.id, selector: 'role=button name=Save' });
    const matches = (found.structured as { matches: Element[] }).matches;
    assert.equal(matches.length, 1, found.body);

    const counterBefore = (await fixtures.status(window)).counter;
    const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: matches[0]!.index });
    assert.equal((clicked.structured as unknown as ActionResult).effect, 'confirmed', clicked.summary);
    assert.equal((await fixtures.status(window)).counter, counterBefore + 1, 'pyatspi: the Save button counted the click');
  });
});
