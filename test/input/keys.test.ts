// Key names and combinations pressed with XTEST into the GTK3 and GTK4 fixtures; the status label (last_key=,
// text=, counter=) and the entries' values say what the apps received.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pressCombination, pressKey, typeText } from '../../src/platform/linux/input/index.js';
import { useKeyboardFixtures } from '../helpers/fixture-desktop.js';

describe('keys and combinations in real GTK apps', () => {
  const setup = useKeyboardFixtures();

  const windowOf = (toolkit: 'gtk3' | 'gtk4') => (toolkit === 'gtk3' ? setup().gtk3 : setup().gtk4);

  for (const toolkit of ['gtk3', 'gtk4'] as const) {
    test(`${toolkit}: F5, Escape and Tab reach the window by name`, async () => {
      const window = windowOf(toolkit);
      for (const [key, keyval] of [['F5', 'F5'], ['escape', 'Escape'], ['f1', 'F1'], ['Tab', 'Tab']] as const) {
        await setup().fixtures.focus(window, 'Name field');
        await pressKey(setup().fixtures.x, key);
        assert.equal((await setup().fixtures.waitForStatus(window, (s) => s.lastKey === keyval)).lastKey, keyval, `after "${key}"`);
      }
    });

    test(`${toolkit}: Return activates the focused button, repeat presses it again`, async () => {
      const window = windowOf(toolkit);
      // The click itself presses the button once and leaves the focus on it.
      await setup().fixtures.focus(window, 'Increment');
      const start = (await setup().fixtures.waitForStatus(window, (s) => s.counter > 0)).counter;
      await pressKey(setup().fixtures.x, 'return');
      assert.equal((await setup().fixtures.waitForStatus(window, (s) => s.counter === start + 1)).counter, start + 1);
      await pressKey(setup().fixtures.x, 'enter', [], { repeat: 3 });
      assert.equal((await setup().fixtures.waitForStatus(window, (s) => s.counter === start + 4)).counter, start + 4);
    });

    test(`${toolkit}: ctrl+a then typing replaces the entry's text; backspace repeats`, async () => {
      const window = windowOf(toolkit);
      await setup().fixtures.focus(window, 'Name field');
      await typeText(setup().fixtures.x, 'old text');
      await setup().fixtures.waitForStatus(window, (s) => s.text.endsWith('old text'));
      await pressCombination(setup().fixtures.x, 'ctrl+a');
      await typeText(setup().fixtures.x, 'new');
      assert.equal((await setup().fixtures.waitForStatus(window, (s) => s.text === 'new')).text, 'new');
      await pressKey(setup().fixtures.x, 'BackSpace', [], { repeat: 2 });
      assert.equal((await setup().fixtures.waitForStatus(window, (s) => s.text === 'n')).text, 'n');
      // A shifted character as a key: Shift comes with it.
      await pressCombination(setup().fixtures.x, ['!']);
      await pressKey(setup().fixtures.x, '你');
      assert.equal((await setup().fixtures.waitForStatus(window, (s) => s.text === 'n!你')).text, 'n!你');
    });
  }

  test('ctrl+c in the GTK3 app, ctrl+v in the GTK4 app: the text goes through the real clipboard', async () => {
    const copied = `clip ${process.pid} ✓`;
    await setup().fixtures.focus(setup().gtk3, 'Name field');
    await pressKey(setup().fixtures.x, 'a', ['ctrl']);
    await typeText(setup().fixtures.x, copied);
    await setup().fixtures.waitForStatus(setup().gtk3, (s) => s.text === copied);
    await pressCombination(setup().fixtures.x, 'ctrl+a');
    await pressCombination(setup().fixtures.x, 'ctrl+c');

    await setup().fixtures.focus(setup().gtk4, 'Paste target');
    await pressCombination(setup().fixtures.x, 'ctrl+a');
    await pressKey(setup().fixtures.x, 'delete');
    await pressCombination(setup().fixtures.x, ['control', 'v']);
    const deadline = Date.now() + 3000;
    let value: string | undefined;
    while (Date.now() < deadline && value !== copied) value = (await setup().fixtures.element(setup().gtk4, 'Paste target')).value;
    assert.equal(value, copied);
  });

  test('bad names are refused before anything is pressed', async () => {
    await assert.rejects(pressKey(setup().fixtures.x, 'hyperspace'), /unknown key "hyperspace"; expected modifiers ctrl, .*; keys return, enter, .*f1\.\.f24/);
    await assert.rejects(pressKey(setup().fixtures.x, 'a', ['hyper']), /"hyper" is not a modifier; expected one of ctrl, control, shift/);
    await assert.rejects(pressCombination(setup().fixtures.x, 'ctrl+'), /a key is missing between "\+" signs/);
    await assert.rejects(pressKey(setup().fixtures.x, 'a', [], { repeat: 0 }), /repeat must be a whole number from 1 to 1000, got 0/);
  });
});
