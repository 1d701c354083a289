// Key names and combinations pressed with XTEST into the GTK3 and GTK4 fixtures; the status label (last_key=,
// text=, counter=) and the entries' values say what the apps received.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { pressCombination, pressKey, typeText } from '../../src/platform/linux/input/index.js';
import { FixtureDesktop, keyboardSnapshot } from './fixture-desktop.js';

describe('keys and combinations in real GTK apps', () => {
  let fixtures: FixtureDesktop;
  let gtk3: ClientWindow;
  let gtk4: ClientWindow;
  let keyboardBefore: unknown;

  before(async () => {
    fixtures = await FixtureDesktop.start();
    gtk3 = await fixtures.launch('gtk3');
    gtk4 = await fixtures.launch('gtk4');
    keyboardBefore = await keyboardSnapshot(fixtures.x);
  });
  after(async () => {
    await fixtures?.stop();
  });
  afterEach(async () => {
    assert.deepEqual(await fixtures.x.queryKeymap(), [], 'no key is left down');
    assert.deepEqual(await keyboardSnapshot(fixtures.x), keyboardBefore, 'the keyboard map is as it was');
  });

  const windowOf = (toolkit: 'gtk3' | 'gtk4') => (toolkit === 'gtk3' ? gtk3 : gtk4);

  for (const toolkit of ['gtk3', 'gtk4'] as const) {
    test(`${toolkit}: F5, Escape and Tab reach the window by name`, async () => {
      const window = windowOf(toolkit);
      for (const [key, keyval] of [['F5', 'F5'], ['escape', 'Escape'], ['f1', 'F1'], ['Tab', 'Tab']] as const) {
        await fixtures.focus(window, 'Name field');
        await pressKey(fixtures.x, key);
        assert.equal((await fixtures.waitForStatus(window, (s) => s.lastKey === keyval)).lastKey, keyval, `after "${key}"`);
      }
    });

    test(`${toolkit}: Return activates the focused button, repeat presses it again`, async () => {
      const window = windowOf(toolkit);
      // The click itself presses the button once and leaves the focus on it.
      await fixtures.focus(window, 'Increment');
      const start = (await fixtures.waitForStatus(window, (s) => s.counter > 0)).counter;
      await pressKey(fixtures.x, 'return');
      assert.equal((await fixtures.waitForStatus(window, (s) => s.counter === start + 1)).counter, start + 1);
      await pressKey(fixtures.x, 'enter', [], { repeat: 3 });
      assert.equal((await fixtures.waitForStatus(window, (s) => s.counter === start + 4)).counter, start + 4);
    });

    test(`${toolkit}: ctrl+a then typing replaces the entry's text; backspace repeats`, async () => {
      const window = windowOf(toolkit);
      await fixtures.focus(window, 'Name field');
      await typeText(fixtures.x, 'old text');
      await fixtures.waitForStatus(window, (s) => s.text.endsWith('old text'));
      await pressCombination(fixtures.x, 'ctrl+a');
      await typeText(fixtures.x, 'new');
      assert.equal((await fixtures.waitForStatus(window, (s) => s.text === 'new')).text, 'new');
      await pressKey(fixtures.x, 'BackSpace', [], { repeat: 2 });
      assert.equal((await fixtures.waitForStatus(window, (s) => s.text === 'n')).text, 'n');
      // A shifted character as a key: Shift comes with it.
      await pressCombination(fixtures.x, ['!']);
      await pressKey(fixtures.x, '你');
      assert.equal((await fixtures.waitForStatus(window, (s) => s.text === 'n!你')).text, 'n!你');
    });
  }

  test('ctrl+c in the GTK3 app, ctrl+v in the GTK4 app: the text goes through the real clipboard', async () => {
    const copied = `clip ${process.pid} ✓`;
    await fixtures.focus(gtk3, 'Name field');
    await pressKey(fixtures.x, 'a', ['ctrl']);
    await typeText(fixtures.x, copied);
    await fixtures.waitForStatus(gtk3, (s) => s.text === copied);
    await pressCombination(fixtures.x, 'ctrl+a');
    await pressCombination(fixtures.x, 'ctrl+c');

    await fixtures.focus(gtk4, 'Paste target');
    await pressCombination(fixtures.x, 'ctrl+a');
    await pressKey(fixtures.x, 'delete');
    await pressCombination(fixtures.x, ['control', 'v']);
    const deadline = Date.now() + 3000;
    let value: string | undefined;
    while (Date.now() < deadline && value !== copied) value = (await fixtures.element(gtk4, 'Paste target')).value;
    assert.equal(value, copied);
  });

  test('bad names are refused before anything is pressed', async () => {
    await assert.rejects(pressKey(fixtures.x, 'hyperspace'), /unknown key "hyperspace"; expected modifiers ctrl, .*; keys return, enter, .*f1\.\.f24/);
    await assert.rejects(pressKey(fixtures.x, 'a', ['hyper']), /"hyper" is not a modifier; expected one of ctrl, control, shift/);
    await assert.rejects(pressCombination(fixtures.x, 'ctrl+'), /a key is missing between "\+" signs/);
    await assert.rejects(pressKey(fixtures.x, 'a', [], { repeat: 0 }), /repeat must be a whole number from 1 to 1000, got 0/);
  });
});
