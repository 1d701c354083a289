// Typing real text into the GTK3 and GTK4 fixtures with XTEST: what the entry ends up holding (the status label's
// text=) is exactly what was typed, and the keyboard map is exactly as before, with no key left down.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { pressKey, typeText } from '../../src/platform/linux/input/index.js';
import { keyboardSnapshot, useKeyboardFixtures } from '../helpers/fixture-desktop.js';

describe('typing text into real GTK apps', () => {
  const setup = useKeyboardFixtures();

  const sample = 'héllo wörld — ✓ 你好';

  for (const toolkit of ['gtk3', 'gtk4'] as const) {
    test(`${toolkit}: Latin-1, typographic and CJK characters arrive exactly`, async () => {
      const window = toolkit === 'gtk3' ? setup().gtk3 : setup().gtk4;
      await setup().fixtures.focus(window, 'Name field');
      const result = await typeText(setup().fixtures.x, sample);
      assert.deepEqual(result, { characters: [...sample].length, temporarilyBound: ['é', 'ö', '—', '✓', '你', '好'] });
      const status = await setup().fixtures.waitForStatus(window, (s) => s.text === sample);
      assert.equal(status.text, sample);
      assert.deepEqual(await keyboardSnapshot(setup().fixtures.x), setup().keyboardBefore, 'restored right after the call');
    });
  }

  test('more distinct missing characters than spare keycodes: bindings are recycled, the text still arrives exactly', async () => {
    const text = 'αβγδεζηθικλμνξοπρστυφχψω абвгдеж';
    await setup().fixtures.focus(setup().gtk3, 'Name field');
    await pressKey(setup().fixtures.x, 'a', ['ctrl']);
    const result = await typeText(setup().fixtures.x, text, { delayMs: 0 });
    assert.ok(result.temporarilyBound.length > 30, `${result.temporarilyBound.length} characters needed binding`);
    assert.equal((await setup().fixtures.waitForStatus(setup().gtk3, (s) => s.text === text)).text, text);
  });

  test('a busy app (stopped for 300 ms while the keys arrive) still reads bound characters before they are unbound', async () => {
    await setup().fixtures.focus(setup().gtk4, 'Name field');
    await pressKey(setup().fixtures.x, 'a', ['ctrl']);
    process.kill(setup().gtk4.pid, 'SIGSTOP');
    const resume = setTimeout(() => process.kill(setup().gtk4.pid, 'SIGCONT'), 300);
    try {
      await typeText(setup().fixtures.x, 'ab你好✓');
    } finally {
      clearTimeout(resume);
      process.kill(setup().gtk4.pid, 'SIGCONT');
    }
    assert.equal((await setup().fixtures.waitForStatus(setup().gtk4, (s) => s.text === 'ab你好✓')).text, 'ab你好✓');
  });

  test('with Caps Lock on, text still arrives as written', async () => {
    await setup().fixtures.focus(setup().gtk3, 'Name field');
    await pressKey(setup().fixtures.x, 'a', ['ctrl']);
    await pressKey(setup().fixtures.x, 'capslock');
    try {
      assert.equal((await setup().fixtures.x.queryPointer(setup().fixtures.x.screen.root)).mask & 2, 2, 'Caps Lock is on');
      await typeText(setup().fixtures.x, 'Hello, World 1!');
      assert.equal((await setup().fixtures.waitForStatus(setup().gtk3, (s) => s.text === 'Hello, World 1!')).text, 'Hello, World 1!');
    } finally {
      await pressKey(setup().fixtures.x, 'capslock');
    }
    assert.equal((await setup().fixtures.x.queryPointer(setup().fixtures.x.screen.root)).mask & 2, 0);
  });

  test('a control character is refused before anything is typed', async () => {
    await setup().fixtures.focus(setup().gtk3, 'Name field');
    await pressKey(setup().fixtures.x, 'a', ['ctrl']);
    await typeText(setup().fixtures.x, 'kept');
    await assert.rejects(typeText(setup().fixtures.x, 'x\u0007y'), /control character U\+0007 cannot be typed; use a key name such as "return"/);
    await assert.rejects(typeText(setup().fixtures.x, 'abc', { delayMs: -1 }), /delayMs must be a whole number from 0 to 10000, got -1/);
    assert.equal((await setup().fixtures.waitForStatus(setup().gtk3, (s) => s.text === 'kept')).text, 'kept');
  });
});
