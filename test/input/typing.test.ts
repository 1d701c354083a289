// Typing real text into the GTK3 and GTK4 fixtures with XTEST: what the entry ends up holding (the status label's
// text=) is exactly what was typed, and the keyboard map is exactly as before, with no key left down.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { pressKey, typeText } from '../../src/platform/linux/input/index.js';
import { FixtureDesktop, keyboardSnapshot } from './fixture-desktop.js';

describe('typing text into real GTK apps', () => {
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

  const sample = 'héllo wörld — ✓ 你好';

  for (const toolkit of ['gtk3', 'gtk4'] as const) {
    test(`${toolkit}: Latin-1, typographic and CJK characters arrive exactly`, async () => {
      const window = toolkit === 'gtk3' ? gtk3 : gtk4;
      await fixtures.focus(window, 'Name field');
      const result = await typeText(fixtures.x, sample);
      assert.deepEqual(result, { characters: [...sample].length, temporarilyBound: ['é', 'ö', '—', '✓', '你', '好'] });
      const status = await fixtures.waitForStatus(window, (s) => s.text === sample);
      assert.equal(status.text, sample);
      assert.deepEqual(await keyboardSnapshot(fixtures.x), keyboardBefore, 'restored right after the call');
    });
  }

  test('more distinct missing characters than spare keycodes: bindings are recycled, the text still arrives exactly', async () => {
    const text = 'αβγδεζηθικλμνξοπρστυφχψω абвгдеж';
    await fixtures.focus(gtk3, 'Name field');
    await pressKey(fixtures.x, 'a', ['ctrl']);
    const result = await typeText(fixtures.x, text, { delayMs: 0 });
    assert.ok(result.temporarilyBound.length > 30, `${result.temporarilyBound.length} characters needed binding`);
    assert.equal((await fixtures.waitForStatus(gtk3, (s) => s.text === text)).text, text);
  });

  test('a busy app (stopped for 300 ms while the keys arrive) still reads bound characters before they are unbound', async () => {
    await fixtures.focus(gtk4, 'Name field');
    await pressKey(fixtures.x, 'a', ['ctrl']);
    process.kill(gtk4.pid, 'SIGSTOP');
    const resume = setTimeout(() => process.kill(gtk4.pid, 'SIGCONT'), 300);
    try {
      await typeText(fixtures.x, 'ab你好✓');
    } finally {
      clearTimeout(resume);
      process.kill(gtk4.pid, 'SIGCONT');
    }
    assert.equal((await fixtures.waitForStatus(gtk4, (s) => s.text === 'ab你好✓')).text, 'ab你好✓');
  });

  test('with Caps Lock on, text still arrives as written', async () => {
    await fixtures.focus(gtk3, 'Name field');
    await pressKey(fixtures.x, 'a', ['ctrl']);
    await pressKey(fixtures.x, 'capslock');
    try {
      assert.equal((await fixtures.x.queryPointer(fixtures.x.screen.root)).mask & 2, 2, 'Caps Lock is on');
      await typeText(fixtures.x, 'Hello, World 1!');
      assert.equal((await fixtures.waitForStatus(gtk3, (s) => s.text === 'Hello, World 1!')).text, 'Hello, World 1!');
    } finally {
      await pressKey(fixtures.x, 'capslock');
    }
    assert.equal((await fixtures.x.queryPointer(fixtures.x.screen.root)).mask & 2, 0);
  });

  test('a control character is refused before anything is typed', async () => {
    await fixtures.focus(gtk3, 'Name field');
    await pressKey(fixtures.x, 'a', ['ctrl']);
    await typeText(fixtures.x, 'kept');
    await assert.rejects(typeText(fixtures.x, 'x\u0007y'), /control character U\+0007 cannot be typed; use a key name such as "return"/);
    await assert.rejects(typeText(fixtures.x, 'abc', { delayMs: -1 }), /delayMs must be a whole number from 0 to 10000, got -1/);
    assert.equal((await fixtures.waitForStatus(gtk3, (s) => s.text === 'kept')).text, 'kept');
  });
});
