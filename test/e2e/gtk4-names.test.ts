// GTK 4.8 names a widget whose label has a mnemonic by the label as written ("_Save Save", "_Wrap lines"), which no
// agent asking for the button "Save" would match. The oracle is pyatspi: it reads those names from the bus, and the
// fixture's counter (read by pyatspi too) says that the button found by its shown name was the one clicked.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk, pyatspiWalk, type Element } from '../helpers/tools.js';

describe('GTK 4.8 names of controls with mnemonics and of notebook tabs', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk4', { title: 'Mnemonic Fixture', extraArgs: ['--mnemonics', '--notebook', '--relabel'] });
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

  test('notebook tabs, all named "Tab" by GTK 4.8, are named by the labels drawn on them, and one is selected by that name', async () => {
    const tabsOnBus = async () => (await pyatspiWalk(window.pid, window.title, fixtures.desktop.env())).filter((node) => node.role === 'page tab');
    const before = await tabsOnBus();
    // The quirk this test is about: without it, there is nothing to tell.
    assert.deepEqual(before.map((node) => node.name), ['Tab', 'Tab'], 'pyatspi reads the name GTK gives every tab');

    const elements = await fixtures.elements(window);
    assert.deepEqual(elements.filter((element) => element.role === 'tab').map((element) => element.name), ['Info', 'Source']);

    const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=tab name=Source' });
    assert.equal((clicked.structured as unknown as ActionResult).effect, 'confirmed', clicked.summary);
    assert.deepEqual((await tabsOnBus()).map((node) => node.states.includes('selected')), [false, true], 'pyatspi: the second tab is the selected one');
    // GTK 4.8 announces each tab's name "Tab" again, and SELECTABLE turning on, as the selection moves: the evidence
    // read 'tab "Info": selectable on, -sel, name is now "Tab"' of tabs pyatspi still names "Tab" and the tree by their labels.
    assert.deepEqual((await tabsOnBus()).map((node) => node.name), ['Tab', 'Tab'], 'pyatspi: GTK names both tabs as before');
    assert.doesNotMatch(clicked.body ?? '', /name is now|renamed/, `no tab is told renamed: ${clicked.body}`);
    assert.doesNotMatch(clicked.body ?? '', /selectable on/, `nor newly selectable: ${clicked.body}`);
    assert.match(clicked.body ?? '', /tab "Info": -sel/, `the evidence tells the first tab deselected: ${clicked.body}`);
  });

  test('a button GTK renames to the same shown label as it enables it is told enabled, not renamed', async () => {
    const apply = async () => (await pyatspiWalk(window.pid, window.title, fixtures.desktop.env())).find((node) => node.role === 'push button' && node.name === '_Apply Apply');
    assert.ok(!(await apply())?.states.includes('sensitive'), 'pyatspi: Apply starts disabled');
    const typed = await callOk(fixtures.context, 'type_text', { window_id: window.id, selector: 'role=textbox name="Name field"', text: 'abc' });
    assert.equal((typed.structured as unknown as ActionResult).effect, 'confirmed', typed.body);
    // The oracle: pyatspi reads the same name as before, now enabled. GTK 4.8 announces that name again as it enables
    // the button, and the evidence said `name is now "_Apply Apply"` of the button the tree names Apply.
    assert.ok((await apply())?.states.includes('sensitive'), 'pyatspi: Apply is enabled, its name unchanged');
    const line = (typed.body ?? '').split('\n').find((text) => text.includes('button "Apply"'));
    assert.ok(line && line.includes('-dis'), `the evidence says Apply was enabled: ${typed.body}`);
    assert.ok(!line.includes('name is now'), `and not that it was renamed: ${line}`);
  });

  test('a button GTK names by its label twice is told renamed by the labels shown, as the tree and the diff name it', async () => {
    const buttons = async () => (await pyatspiWalk(window.pid, window.title, fixtures.desktop.env())).filter((node) => node.role === 'push button').map((node) => node.name);
    // The quirk this test is about: a button with use-underline and no mark in its label is named "Start Start".
    assert.ok((await buttons()).includes('Start Start'), `pyatspi reads GTK's name: ${JSON.stringify(await buttons())}`);
    const counterBefore = (await fixtures.status(window)).counter;
    const clicked = await callOk(fixtures.context, 'click', { window_id: window.id, selector: 'role=button name=Start' });
    assert.equal((clicked.structured as unknown as ActionResult).effect, 'confirmed', clicked.body);
    assert.equal((await fixtures.status(window)).counter, counterBefore + 1, 'pyatspi: the Start button counted the click');
    assert.ok((await buttons()).includes('Pause Pause'), 'pyatspi: GTK renamed it "Pause Pause"');
    const body = clicked.body ?? '';
    // Clocks' stopwatch read `name of [e236]: "Start Start" → "Pause Pause"` and `[e236] button "Start": name is now
    // "Pause Pause"` above a diff saying "Start" → "Pause".
    assert.doesNotMatch(body, /Start Start|Pause Pause/, `no evidence line names the button by GTK's doubled label: ${body}`);
    assert.match(body, /"Start" → "Pause"|name is now "Pause"/, `the evidence tells the rename by the labels shown: ${body}`);
  });
});

