// What an action's evidence says about the objects the app reported changed must be where they ended, as pyatspi
// reads them afterwards: a state switched several times within the action is its net change, and a label set
// again to the same text is no change of name.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { resultText } from '../../src/tools/call-result.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk, type Element } from '../helpers/tools.js';

describe('action evidence on a real GTK3 app', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk3', { title: 'Evidence Fixture', rows: 3, extraArgs: ['--flicker'] });
  });

  after(async () => {
    await fixtures?.stop();
  });

  function named(list: Element[], name: string): Element {
    const found = list.find((element) => element.role === 'button' && element.name === name);
    assert.ok(found, `no button "${name}"`);
    return found;
  }

  test('a click after which one button went enabled, disabled, enabled and another disabled and back: the evidence says where each ended, and no name line for labels set to the same text', async () => {
    const elements = await fixtures.elements(window);
    const [flicker, flickered, blinked] = ['Flicker', 'Flickered', 'Blinked'].map((name) => named(elements, name));
    assert.equal((await fixtures.oracle.find(window.pid, window.title, 'push button', 'Flickered')).states?.includes('sensitive'), false, 'Flickered starts disabled');

    const called = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: flicker!.index });
    const result = called.structured as unknown as ActionResult;
    const evidence = result.evidence ?? [];
    const text = resultText(called);

    // pyatspi: Flickered ended enabled, Blinked where it began (enabled), both still named as before.
    const [nowFlickered, nowBlinked] = await Promise.all(['Flickered', 'Blinked'].map((name) => fixtures.oracle.find(window.pid, window.title, 'push button', name)));
    assert.equal(nowFlickered.states?.includes('sensitive'), true, 'Flickered ended enabled');
    assert.equal(nowBlinked.states?.includes('sensitive'), true, 'Blinked ended enabled, as it began');

    const lineOf = (element: Element) => evidence.find((line) => line.startsWith(`[e${element.index}] `));
    const flickeredLine = lineOf(flickered!);
    assert.ok(flickeredLine, `the app's events about Flickered are evidence: ${JSON.stringify(evidence)}`);
    assert.match(flickeredLine, /: -dis(,|$)/, 'it went from disabled to enabled');
    assert.doesNotMatch(flickeredLine, /\+dis/, 'nothing reads as it ending disabled');
    const blinkedLine = lineOf(blinked!);
    assert.ok(blinkedLine, `the app's events about Blinked are evidence: ${JSON.stringify(evidence)}`);
    assert.match(blinkedLine, /: \+dis and back(,|$)/, 'a state that ended where it began says so');
    assert.ok(!evidence.some((line) => /name is now "(Flickered|Blinked)"/.test(line)), `a label set to its own text is no new name: ${JSON.stringify(evidence)}`);
    // The diff, read independently of the events, agrees: Flickered lost dis, Blinked is unchanged.
    assert.match(text, new RegExp(`^~ \\[e${flickered!.index}\\] btn "Flickered" states: -dis$`, 'm'), text);
    assert.doesNotMatch(text, new RegExp(`^~ \\[e${blinked!.index}\\] `, 'm'), text);
  });
});
