// An app that changes by itself (a clock, a CPU meter, a page's ticker) must not confirm an action that did nothing:
// what it changed before the action as well is no sign of the action; nor is the focus a real click gives a button. The oracle is pyatspi: the ticking label did
// tick while the action was judged (so without the rule it would have been taken for the effect), and the counter
// behind Increment moved only when clicked.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';
import { callOk, type Element } from '../helpers/tools.js';

describe('actions on an app that changes by itself', () => {
  let fixtures: FixtureDesktop;
  let window: ClientWindow;
  let elements: Element[];

  before(async () => {
    fixtures = await FixtureDesktop.start();
    window = await fixtures.launch('gtk3', { title: 'Ticking Fixture', rows: 3, extraArgs: ['--tick-ms', '120', '--redescribe'] });
    elements = await fixtures.elements(window);
  });

  after(async () => {
    await fixtures?.stop();
  });

  const ticks = async () => {
    const label = (await fixtures.oracle.texts(window.pid, window.title)).find((text) => text.startsWith('Ticks: '));
    assert.ok(label, 'pyatspi finds the ticking label');
    return Number(label.slice('Ticks: '.length));
  };
  const counter = async () => Number((await fixtures.oracle.status(window.pid, window.title)).counter);
  const button = (name: string) => {
    const found = elements.find((element) => element.role === 'button' && element.name === name);
    assert.ok(found, `no button "${name}"`);
    return found;
  };

  /**
   * Until the label has ticked twice more: the driver, listening since the first reading, has seen it change on its
   * own. Each value is waited on to go (a value may last too short a time to be seen arriving on a loaded machine).
   */
  async function seenTicking(): Promise<void> {
    for (let i = 0; i < 2; i++) {
      const now = await ticks();
      await callOk(fixtures.context, 'wait_for', { pid: window.pid, window_id: window.id, selector: `role=text name="Ticks: ${now}"`, gone: true, timeout_ms: 5000 });
    }
  }

  test('a click on a button that does nothing is no effect, though the label beside it ticked meanwhile', async () => {
    await seenTicking();
    const [ticksBefore, counterBefore] = [await ticks(), await counter()];
    const called = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: button('Idle').index });
    const result = called.structured as unknown as ActionResult;
    assert.ok((await ticks()) > ticksBefore, 'the label ticked while the click was judged');
    assert.equal(await counter(), counterBefore, 'nothing the app keeps changed');
    assert.equal(result.effect, 'suspected_noop', `${called.summary}: ${JSON.stringify(result.evidence)}`);
    assert.match(result.escalation?.reason ?? '', /on its own/, JSON.stringify(result.escalation));
  });

  test('a real click on the idle button focuses it, which is no effect of the click either', async () => {
    await seenTicking();
    const counterBefore = await counter();
    const called = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: button('Idle').index, delivery_mode: 'foreground' });
    const result = called.structured as unknown as ActionResult;
    assert.ok((await fixtures.oracle.find(window.pid, window.title, 'push button', 'Idle')).states?.includes('focused'), 'pyatspi: the click focused the button');
    assert.equal(await counter(), counterBefore, 'nothing the app keeps changed');
    assert.equal(result.effect, 'suspected_noop', `${called.summary}: ${JSON.stringify(result.evidence)}`);
  });

  test('clicks on the idle button one after the other, for longer than the driver looks back, are each no effect', async () => {
    // After four seconds of quick actions, every tick the driver heard came while one of them was under way.
    await seenTicking();
    const [ticksBefore, counterBefore] = [await ticks(), await counter()];
    const effects: string[] = [];
    for (const started = Date.now(); Date.now() - started < 6000; ) {
      const called = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: button('Idle').index });
      effects.push(`${effects.length + 1}: ${(called.structured as unknown as ActionResult).effect} ${JSON.stringify((called.structured as unknown as ActionResult).evidence)}`);
    }
    assert.ok((await ticks()) > ticksBefore + 20, 'pyatspi: the label ticked all along');
    assert.equal(await counter(), counterBefore, 'nothing the app keeps changed');
    assert.deepEqual(effects.filter((effect) => !effect.includes('suspected_noop')), [], 'every click was no effect');
  });

  test('a click whose button only announces its description again, as it was, is no effect', async () => {
    const counterBefore = await counter();
    const called = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: button('Check again').index });
    const result = called.structured as unknown as ActionResult;
    assert.equal((await fixtures.oracle.find(window.pid, window.title, 'push button', 'Check again')).description, 'Looks for news', 'pyatspi: the description is what it was');
    assert.equal(await counter(), counterBefore, 'nothing the app keeps changed');
    assert.equal(result.effect, 'suspected_noop', `${called.summary}: ${JSON.stringify(result.evidence)}`);
  });

  test('a click whose button only announces again that it is showing and sensitive, and a slider its value, as they were, is no effect', async () => {
    // Java announces SHOWING again of what it lays out again: jEdit's clicks were confirmed by it.
    const counterBefore = await counter();
    const called = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: button('Show again').index });
    const result = called.structured as unknown as ActionResult;
    const states = (await fixtures.oracle.find(window.pid, window.title, 'push button', 'Show again')).states ?? [];
    assert.ok(states.includes('showing') && states.includes('sensitive'), `pyatspi: the button is showing and sensitive, as it was: ${states.join(' ')}`);
    assert.equal((await fixtures.oracle.status(window.pid, window.title)).slider, '50', 'the fixture: the slider announced again is where it was');
    assert.equal(await counter(), counterBefore, 'nothing the app keeps changed');
    assert.equal(result.effect, 'suspected_noop', `${called.summary}: ${JSON.stringify(result.evidence)}`);
  });

  test('a click that acts is confirmed by what it changed, and the ticking label is not listed', async () => {
    await seenTicking();
    const counterBefore = await counter();
    const called = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: button('Increment').index });
    const result = called.structured as unknown as ActionResult;
    assert.equal(await counter(), counterBefore + 1, 'pyatspi: the counter moved');
    assert.equal(result.effect, 'confirmed', called.summary);
    assert.ok(result.evidence?.some((line) => line.includes(`counter=${counterBefore + 1}`)), JSON.stringify(result.evidence));
    assert.ok(!result.evidence?.some((line) => line.includes('Ticks:')), `the ticking label is no evidence: ${JSON.stringify(result.evidence)}`);
  });

  test('forty quick clicks in a row are each confirmed by what they changed', async () => {
    const counterBefore = await counter();
    const effects: string[] = [];
    for (let i = 0; i < 40; i++) {
      const called = await callOk(fixtures.context, 'click', { window_id: window.id, element_index: button('Increment').index });
      effects.push(`${i + 1}: ${(called.structured as unknown as ActionResult).effect}`);
    }
    assert.equal(await counter(), counterBefore + 40, 'pyatspi: each click moved the counter');
    assert.deepEqual(effects.filter((effect) => !effect.endsWith('confirmed')), [], 'every click was confirmed');
  });
});
