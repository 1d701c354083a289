// Foreground type_text of characters the keyboard map lacks, many more distinct ones than there are spare keycodes,
// so that bindings are recycled while typing: the text arrives exactly in a GTK 3 entry and in a Qt editor (read by
// pyatspi), and the keyboard is exactly as before afterwards, in the core map and in the XKB map as xkbcomp (another
// X client) dumps it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import { KeyboardMap } from '../../src/platform/linux/input/keyboard-map.js';
import { chooseKeysym } from '../../src/platform/linux/input/keystrokes.js';
import { textCharacterKeysyms, textCharacters } from '../../src/platform/linux/input/keysyms.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { FixtureDesktop, keyboardSnapshot } from '../helpers/fixture-desktop.js';
import { callOk, type Element } from '../helpers/tools.js';

const text = 'fg: äöüß€ŁΩ漢字 αβγδεζηθικλμνξπρστ — ✓ end';

interface Typed {
  effect: string;
  path: string;
}

describe('foreground typing of characters missing from the keyboard map', () => {
  let fixtures: FixtureDesktop;
  let gtk3: ClientWindow;
  let qt: ClientWindow;
  let coreBefore: unknown;
  let xkbBefore: string;

  /** The server's whole XKB keymap as xkbcomp reads it. */
  async function xkbDump(): Promise<string> {
    return (await promisify(execFile)('xkbcomp', ['-xkb', fixtures.desktop.state.display, '-'], { env: fixtures.desktop.env(), timeout: 10_000 })).stdout;
  }

  async function typeInto(window: ClientWindow, field: Element): Promise<{ typed: Typed; msPerCharacter: number }> {
    const started = performance.now();
    const typed = (await callOk(fixtures.context, 'type_text', { window_id: window.id, element_index: field.index, text, delivery_mode: 'foreground' })).structured as unknown as Typed;
    return { typed, msPerCharacter: (performance.now() - started) / textCharacters(text).length };
  }

  async function assertKeyboardAsBefore(): Promise<void> {
    assert.deepEqual(await keyboardSnapshot(fixtures.x), coreBefore, 'core keyboard and modifier map as before');
    assert.equal(await xkbDump(), xkbBefore, 'XKB keymap (xkbcomp) as before');
    assert.deepEqual(await fixtures.x.queryKeymap(), [], 'no key is left down');
  }

  before(async () => {
    fixtures = await FixtureDesktop.start();
    gtk3 = await fixtures.launch('gtk3');
    qt = (await fixtures.desktop.launch('featherpad', [], 'Untitled')).window;
    coreBefore = await keyboardSnapshot(fixtures.x);
    xkbBefore = await xkbDump();
  });

  after(async () => {
    await fixtures?.stop();
  });

  test('the text needs more temporary bindings than there are spare keycodes', async () => {
    const map = await KeyboardMap.load(fixtures.x);
    const unmapped = new Set(textCharacters(text).filter((character) => chooseKeysym(map, textCharacterKeysyms(character)).unmapped));
    assert.ok(map.spareKeycodes().length > 0, 'the keyboard has spare keycodes');
    assert.ok(unmapped.size > map.spareKeycodes().length, `${unmapped.size} characters need binding, ${map.spareKeycodes().length} spare keycodes`);
    assert.ok(textCharacters(text).some((character) => !unmapped.has(character) && character !== ' '), 'the text mixes in characters on the map');
  });

  test('GTK 3 entry: the text arrives exactly, the keyboard is as before', async (t) => {
    const field = (await fixtures.elements(gtk3)).find((element) => element.name === 'Paste target');
    assert.ok(field, 'the fixture shows its Paste target entry');
    await callOk(fixtures.context, 'set_value', { window_id: gtk3.id, element_index: field.index, value: '' });
    const { typed, msPerCharacter } = await typeInto(gtk3, field);
    assert.equal(typed.path, 'key_events_fg', JSON.stringify(typed));
    assert.equal((await fixtures.oracle.find(gtk3.pid, gtk3.title, 'text', 'Paste target')).text, text);
    assert.equal(typed.effect, 'confirmed', JSON.stringify(typed));
    await assertKeyboardAsBefore();
    t.diagnostic(`gtk3: ${msPerCharacter.toFixed(1)} ms per character`);
  });

  test('Qt editor (featherpad): the text arrives exactly, the keyboard is as before', async (t) => {
    const editor = (await fixtures.elements(qt)).find((element) => element.role === 'textbox' && element.states.includes('editable'));
    assert.ok(editor, 'featherpad shows its editable text');
    const { typed, msPerCharacter } = await typeInto(qt, editor);
    assert.equal(typed.path, 'key_events_fg', JSON.stringify(typed));
    assert.equal((await fixtures.oracle.findWithState(qt.pid, '', 'text', 'editable')).text, text);
    await assertKeyboardAsBefore();
    t.diagnostic(`featherpad: ${msPerCharacter.toFixed(1)} ms per character`);
  });
});
