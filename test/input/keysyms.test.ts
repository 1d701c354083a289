// Key names and characters → keysyms: the names the tools accept and the errors for the others.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { canonicalKeyName, characterKeysyms, parseCombination, parseKey } from '../../src/platform/linux/input/keysyms.js';

describe('key names', () => {
  test('named keys are case-insensitive and know the usual aliases', () => {
    const keysym = (name: string) => {
      const key = parseKey(name);
      assert.equal(key.kind, 'key', name);
      return key.kind === 'key' ? key.keysyms[0] : -1;
    };
    assert.equal(keysym('Return'), 0xff0d);
    assert.equal(keysym('enter'), 0xff0d);
    assert.equal(keysym('ESC'), 0xff1b);
    assert.equal(keysym('PgDn'), 0xff56);
    assert.equal(keysym('page_up'), 0xff55);
    assert.equal(keysym('ArrowLeft'), 0xff51);
    assert.equal(keysym('del'), 0xffff);
    assert.equal(keysym('F1'), 0xffbe);
    assert.equal(keysym('f24'), 0xffd5);
    assert.equal(keysym('space'), 0x20);
    assert.equal(keysym('plus'), 0x2b);
    assert.equal(keysym('backslash'), 0x5c);
  });

  test('a single letter names its key; other characters stand for themselves', () => {
    assert.deepEqual(parseKey('A'), { kind: 'key', keysyms: [0x61], name: 'A' });
    assert.deepEqual(parseKey('z'), { kind: 'key', keysyms: [0x7a], name: 'z' });
    assert.deepEqual(parseKey('!'), { kind: 'key', keysyms: [0x21], name: '!' });
    assert.deepEqual(parseKey('7'), { kind: 'key', keysyms: [0x37], name: '7' });
    assert.deepEqual(parseKey('é'), { kind: 'key', keysyms: [0xe9], name: 'é' });
    assert.deepEqual(parseKey('Ж'), { kind: 'key', keysyms: [0x1000436], name: 'Ж' });
    assert.deepEqual(parseKey('你'), { kind: 'key', keysyms: [0x1004f60], name: '你' });
    assert.deepEqual(parseKey('€'), { kind: 'key', keysyms: [0x10020ac, 0x20ac], name: '€' });
  });

  test('modifier names and their aliases', () => {
    const modifier = (name: string) => {
      const key = parseKey(name);
      return key.kind === 'modifier' ? key.modifier : undefined;
    };
    assert.deepEqual(['Ctrl', 'control', 'shift', 'alt', 'option', 'meta', 'super', 'cmd', 'command', 'win', 'AltGr'].map(modifier), [
      'ctrl', 'ctrl', 'shift', 'alt', 'alt', 'super', 'super', 'super', 'super', 'super', 'altgr',
    ]);
  });

  test('X\'s and xdotool\'s names are keys too, and case, spaces, hyphens and underscores in a name do not count', () => {
    const keysym = (name: string) => {
      const key = parseKey(name);
      return key.kind === 'key' ? key.keysyms[0] : key.modifier;
    };
    assert.equal(keysym('KP_Enter'), 0xff8d);
    assert.equal(keysym('kp_5'), 0xffb5);
    assert.equal(keysym('KP_Add'), 0xffab);
    assert.equal(keysym('ISO_Left_Tab'), 0xfe20);
    assert.equal(keysym('Page Down'), 0xff56);
    assert.equal(keysym('page-up'), 0xff55);
    assert.equal(keysym('Caps_Lock'), 0xffe5);
    assert.equal(keysym('ContextMenu'), 0xff67);
    assert.deepEqual(['Control_L', 'Control_R', 'Shift_R', 'Alt_L', 'Super_L', 'ISO_Level3_Shift'].map(keysym), ['ctrl', 'ctrl', 'shift', 'alt', 'super', 'altgr']);
    // A single character stays itself: "-" and "_" are keys, not separators.
    assert.equal(keysym('-'), 0x2d);
    assert.equal(keysym('_'), 0x5f);
  });

  test('each key has one canonical name, whichever spelling named it', () => {
    const canonical = (name: string) => {
      const key = parseKey(name);
      assert.equal(key.kind, 'key');
      return key.kind === 'key' ? canonicalKeyName(key.keysyms[0]!) : '';
    };
    assert.deepEqual([' ', 'space', 'SPACE'].map(canonical), ['space', 'space', 'space']);
    assert.deepEqual(['ArrowRight', 'right', 'Right'].map(canonical), ['right', 'right', 'right']);
    assert.deepEqual(['enter', 'Return', 'esc', 'Escape', '+', 'plus', '-', 'A', 'a', 'Ж'].map(canonical), ['return', 'return', 'escape', 'escape', 'plus', 'plus', 'minus', 'a', 'a', 'ж']);
  });

  test('a name that is no key says which one was likely meant', () => {
    assert.throws(() => parseKey('ctrl-s'), /unknown key "ctrl-s": a combination is written with "\+", as "ctrl\+s"/);
    assert.throws(() => parseKey('shift tab'), /as "shift\+tab"/);
    assert.throws(() => parseKey('shft'), /unknown key "shft" \(did you mean "shift"\?\)/);
    assert.throws(() => parseKey('escpae'), /did you mean "escape"/);
    assert.throws(() => parseCombination('ctrl+shift+pgae_down'), /did you mean "pagedown"/);
    // Words that are not keys before the last are no combination: the whole list is given.
    assert.throws(() => parseKey('page-left'), (error: Error) => !/combination is written/.test(error.message) && /expected modifiers/.test(error.message));
  });

  test('an unknown name is refused with the names that would work', () => {
    assert.throws(() => parseKey('hyperspace'), (error: Error) => {
      assert.match(error.message, /unknown key "hyperspace"/);
      assert.match(error.message, /return/);
      assert.match(error.message, /f1\.\.f24/);
      assert.match(error.message, /ctrl/);
      assert.match(error.message, /any single character/);
      return true;
    });
    assert.throws(() => parseKey(''), /empty key name/);
    assert.throws(() => parseKey('constructor'), /unknown key "constructor"/);
  });

  test('combinations split on "+", with the plus key written "plus" or as a trailing "+"', () => {
    const names = (combination: string | string[]) => parseCombination(combination).map((key) => (key.kind === 'modifier' ? key.modifier : key.keysyms[0]));
    assert.deepEqual(names('ctrl+shift+t'), ['ctrl', 'shift', 0x74]);
    assert.deepEqual(names('Ctrl + C'), ['ctrl', 0x63]);
    assert.deepEqual(names('ctrl++'), ['ctrl', 0x2b]);
    assert.deepEqual(names('ctrl+plus'), ['ctrl', 0x2b]);
    assert.deepEqual(names('+'), [0x2b]);
    assert.deepEqual(names(['cmd', 'space']), ['super', 0x20]);
    // A name in a list written as a combination (press_key's key "ctrl+shift+s") is that combination; "+" stays a key.
    assert.deepEqual(names(['ctrl+shift+s']), ['ctrl', 'shift', 0x73]);
    assert.deepEqual(names(['alt', 'ctrl+t']), ['alt', 'ctrl', 0x74]);
    assert.deepEqual(names(['ctrl', '+']), ['ctrl', 0x2b]);
    assert.throws(() => parseCombination('ctrl++a'), /a key is missing between "\+" signs/);
    // Modifiers are held around the key wherever they are written; a second key is no combination.
    assert.deepEqual(names(['a', 'ctrl']), ['ctrl', 0x61]);
    assert.deepEqual(names('s+shift+ctrl'), ['shift', 'ctrl', 0x73]);
    assert.deepEqual(names('ctrl+shift'), ['ctrl', 'shift']);
    assert.throws(() => parseCombination('a+b'), /"a\+b" holds 2 keys that are not modifiers \("a", "b"\); a combination is modifiers and one key/);
    assert.throws(() => parseCombination(['ctrl', 'x', 'ctrl+s']), /holds 2 keys/);
    assert.throws(() => parseCombination([]), /empty key combination/);
  });

  test('characters: Latin-1 keysyms are code points, others Unicode keysyms, with older alternatives known', () => {
    assert.deepEqual(characterKeysyms('a'), [0x61]);
    assert.deepEqual(characterKeysyms('ü'), [0xfc]);
    assert.deepEqual(characterKeysyms('✓'), [0x1002713, 0xaf3]);
    assert.deepEqual(characterKeysyms('—'), [0x1002014, 0xaa9]);
    assert.deepEqual(characterKeysyms('€'), [0x10020ac, 0x20ac]);
    assert.deepEqual(characterKeysyms('😀'), [0x101f600]);
    assert.throws(() => characterKeysyms('\u0007'), /control character U\+0007 cannot be typed/);
    assert.throws(() => characterKeysyms('ab'), /expected one character/);
  });
});
