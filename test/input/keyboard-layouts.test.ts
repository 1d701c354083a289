// Real typing and shortcuts on keyboards other than the US layout the desktop starts with: the layout changed
// (setxkbmap) after the driver first read the map, and a second layout group switched to, with Caps Lock on. What
// arrives is the GTK3 fixture's own report of its entry's text (its status label), and the keyboard's state is read
// back in the core protocol's key state (group bits and Lock).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { pressKey, typeText } from '../../src/platform/linux/input/index.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { FixtureDesktop } from '../helpers/fixture-desktop.js';

/** The core key state's Lock bit and group bits (13 and 14). */
const lockMask = 2;
const groupShift = 13;

describe('typing on other keyboard layouts', () => {
  let fixtures: FixtureDesktop;
  let gtk3: ClientWindow;

  async function setxkbmap(...args: string[]): Promise<void> {
    await promisify(execFile)('setxkbmap', ['-display', fixtures.desktop.state.display, ...args], { env: fixtures.desktop.env(), timeout: 10_000 });
  }

  async function keyState(): Promise<{ group: number; capsLock: boolean }> {
    const mask = (await fixtures.x.queryPointer(fixtures.x.screen.root)).mask;
    return { group: (mask >> groupShift) & 3, capsLock: (mask & lockMask) !== 0 };
  }

  async function typedIntoNameField(text: string): Promise<string> {
    // The field has the focus (pyatspi) and is emptied (the fixture's report) before the typing: a ctrl+a sent before
    // the click's focus was taken, on a loaded machine, left the last test's text in it.
    await fixtures.focus(gtk3, 'Name field');
    for (const deadline = Date.now() + 5000; !(await fixtures.oracle.find(gtk3.pid, gtk3.title, 'text', 'Name field')).states?.includes('focused'); ) {
      assert.ok(Date.now() < deadline, 'pyatspi: the Name field never took the focus');
    }
    // The emptying is seen before the typing (waitForStatus answers the last status at its deadline): in one CI run
    // the ctrl+a took no effect and the backspace took the last character only, and the text went after the rest.
    let emptied = '';
    for (let attempt = 0; attempt < 3; attempt++) {
      await pressKey(fixtures.x, 'a', ['ctrl']);
      await pressKey(fixtures.x, 'backspace');
      emptied = (await fixtures.waitForStatus(gtk3, (status) => status.text === '')).text;
      if (emptied === '') break;
    }
    assert.equal(emptied, '', 'the fixture: the Name field is empty before the typing');
    await typeText(fixtures.x, text);
    return (await fixtures.waitForStatus(gtk3, (status) => status.text === text)).text;
  }

  before(async () => {
    fixtures = await FixtureDesktop.start();
    gtk3 = await fixtures.launch('gtk3');
  });

  after(async () => {
    await fixtures?.stop();
  });

  test('after setxkbmap de, once the driver speaks XKB, the text arrives as written', async () => {
    // A character the US map lacks is bound to a spare key through XKB: from then on the server tells this
    // connection of a new keyboard by XKB events alone.
    assert.equal(await typedIntoNameField('é'), 'é');
    await setxkbmap('de');
    // QWERTZ swaps y and z; @ is AltGr+q.
    assert.equal(await typedIntoNameField('yz YZ @ äöü ß'), 'yz YZ @ äöü ß');
    await setxkbmap('fr');
    assert.equal(await typedIntoNameField('aqAQ wz 1234'), 'aqAQ wz 1234');
    await setxkbmap('us');
  });

  test('switched to the second layout (Russian) with Caps Lock on: Latin and Cyrillic arrive as written, both stay locked', async () => {
    await setxkbmap('-layout', 'us,ru');
    try {
      await fixtures.x.xkb.setLocks({ group: 1, modifiers: lockMask }, lockMask);
      assert.deepEqual(await keyState(), { group: 1, capsLock: true }, 'the keyboard is on its Russian group with Caps Lock on');
      assert.equal(await typedIntoNameField('abc Привет Hello'), 'abc Привет Hello');
      assert.deepEqual(await keyState(), { group: 1, capsLock: true }, 'the person\'s group and Caps Lock are locked again');
      // A Caps Lock press in between is the action's own toggle, kept.
      await pressKey(fixtures.x, 'capslock');
      assert.deepEqual(await keyState(), { group: 1, capsLock: false });
    } finally {
      await setxkbmap('-layout', 'us');
    }
  });
});
