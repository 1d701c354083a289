import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ToolError } from '../../src/errors.js';
import { encodeClick, encodeKey, KEY_NAMES, shortcutKey } from '../../src/tui/keys.js';

const normal = { applicationCursorKeys: false };
const application = { applicationCursorKeys: true };

test('named keys send what xterm sends', () => {
  assert.equal(encodeKey('Enter', normal), '\r');
  assert.equal(encodeKey('Tab', normal), '\t');
  assert.equal(encodeKey('Escape', normal), '\x1b');
  assert.equal(encodeKey('Backspace', normal), '\x7f');
  assert.equal(encodeKey('Space', normal), ' ');
  assert.equal(encodeKey('Delete', normal), '\x1b[3~');
  assert.equal(encodeKey('PageDown', normal), '\x1b[6~');
  assert.equal(encodeKey('F1', normal), '\x1bOP');
  assert.equal(encodeKey('F5', normal), '\x1b[15~');
  assert.equal(encodeKey('F10', normal), '\x1b[21~');
  assert.equal(encodeKey('F12', normal), '\x1b[24~');
});

test('arrow keys follow the cursor-key mode the program set', () => {
  assert.equal(encodeKey('Up', normal), '\x1b[A');
  assert.equal(encodeKey('Up', application), '\x1bOA');
  assert.equal(encodeKey('Home', application), '\x1bOH');
  // With a modifier xterm always uses the CSI form.
  assert.equal(encodeKey('shift+Up', application), '\x1b[1;2A');
});

test('names are case-insensitive and have aliases; single characters are sent as they are', () => {
  assert.equal(encodeKey('ENTER', normal), '\r');
  assert.equal(encodeKey('esc', normal), '\x1b');
  assert.equal(encodeKey('ArrowDown', normal), '\x1b[B');
  assert.equal(encodeKey('pgup', normal), '\x1b[5~');
  assert.equal(encodeKey('A', normal), 'A');
  assert.equal(encodeKey('é', normal), 'é');
  assert.equal(encodeKey('+', normal), '+');
});

test('combinations: ctrl, alt, shift and all three', () => {
  assert.equal(encodeKey('ctrl+c', normal), '\x03');
  assert.equal(encodeKey('Ctrl+C', normal), '\x03');
  assert.equal(encodeKey('ctrl+[', normal), '\x1b');
  assert.equal(encodeKey('alt+x', normal), '\x1bx');
  assert.equal(encodeKey('alt+shift+x', normal), '\x1bX');
  assert.equal(encodeKey('shift+Tab', normal), '\x1b[Z');
  assert.equal(encodeKey('ctrl+alt+Delete', normal), '\x1b[3;7~');
  assert.equal(encodeKey('ctrl+F5', normal), '\x1b[15;5~');
  assert.equal(encodeKey('alt+F1', normal), '\x1b[1;3P');
  assert.equal(encodeKey('ctrl+Left', normal), '\x1b[1;5D');
  assert.equal(encodeKey('alt++', normal), '\x1b+');
});

test('an unknown key is an error that lists the valid names', () => {
  for (const bad of ['Enterr', 'hyper+a', 'ctrl+', 'ctrl+1', 'ctrl+Tab']) {
    assert.throws(
      () => encodeKey(bad, normal),
      (error: unknown) => error instanceof ToolError && error.code === 'invalid_key' && error.message.includes(JSON.stringify(bad)) && KEY_NAMES.every((name) => error.message.includes(name)),
      bad,
    );
  }
});

test('mouse clicks: SGR reports with 1-based cells, or the X10 form', () => {
  assert.equal(encodeClick(9, 4, 'left', true), '\x1b[<0;10;5M\x1b[<0;10;5m');
  assert.equal(encodeClick(0, 0, 'right', true), '\x1b[<2;1;1M\x1b[<2;1;1m');
  assert.equal(encodeClick(9, 4, 'left', false), '\x1b[M *%\x1b[M#*%');
  assert.throws(() => encodeClick(300, 4, 'left', false), /beyond/);
});

test('shortcuts as screens show them name the keys that send them', () => {
  const cases: [string, string | undefined, string | undefined][] = [
    ['F10', 'F10', '\x1b[21~'],
    ['^X', 'ctrl+x', '\x18'],
    ['^\\', 'ctrl+\\', '\x1c'],
    ['^/', 'ctrl+_', '\x1f'],
    ['M-U', 'alt+u', '\x1bu'],
    ['F13', undefined, undefined],
    ['Esc', undefined, undefined],
    // Hint rows of the "q Quit", "C-T: Menu", "TAB Chg Win" kind.
    ['q', 'q', 'q'],
    ['?', '?', '?'],
    ['C-T', 'ctrl+t', '\x14'],
    ['TAB', 'Tab', '\t'],
    ['ESC', 'Escape', '\x1b'],
  ];
  for (const [shortcut, key, bytes] of cases) {
    assert.equal(shortcutKey(shortcut), key, shortcut);
    if (key) assert.equal(encodeKey(key, { applicationCursorKeys: false }), bytes, shortcut);
  }
});

test('keys spelled as screens and manuals write them are the keys they name', () => {
  // The tree names nano's hint "^X Exit" with shortcut "^X": an agent presses what it read.
  const cases: [string, string][] = [
    ['^X', '\x18'], ['^\\', '\x1c'], ['^/', '\x1f'], ['M-U', '\x1bu'], ['M-6', '\x1b6'], ['C-T', '\x14'],
    ['Ctrl-X', '\x18'], ['ctrl-c', '\x03'], ['Alt-F4', '\x1b[1;3S'], ['Shift-Tab', '\x1b[Z'],
    ['ctrl-alt-Delete', '\x1b[3;7~'], ['alt--', '\x1b-'],
    ['RET', '\r'], ['SPC', ' '],
  ];
  for (const [key, bytes] of cases) assert.equal(encodeKey(key, normal), bytes, key);
  // A hyphen after something that is no modifier is still an unknown name, said with the spellings that work.
  assert.throws(() => encodeKey('Hyper-x', normal), (error: unknown) => error instanceof ToolError && error.code === 'invalid_key' && error.message.includes('^X (ctrl+x)'));
});
