import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keyBindingCombinations, keyBindingShortcut, mayBeAccelerator, textFieldTakes } from '../../src/cup/key-binding.js';

test('GTK\'s and Qt\'s key bindings read as combinations in the driver\'s spelling', () => {
  assert.deepEqual(keyBindingCombinations('<Alt>n'), ['alt+n'], 'a GTK button\'s mnemonic');
  assert.deepEqual(keyBindingCombinations('f;<Alt>f;'), ['f', 'alt+f'], 'a GTK menu\'s mnemonic alone and with Alt');
  assert.deepEqual(keyBindingCombinations('s;<Alt>f:s;<Primary>s'), ['s', 'ctrl+s'], 'a menu item: its path through the menus is no combination');
  assert.deepEqual(keyBindingCombinations('Alt+N'), ['alt+n'], 'Qt');
  assert.deepEqual(keyBindingCombinations('<Control><Shift>z'), ['ctrl+shift+z']);
  assert.deepEqual(keyBindingCombinations('<Shift><Control>Z'), ['ctrl+shift+z'], 'modifiers in one order whatever the app wrote');
  assert.deepEqual(keyBindingCombinations('Ctrl++'), ['ctrl++'], 'a plus key');
  assert.deepEqual(keyBindingCombinations(''), []);
  assert.deepEqual(keyBindingCombinations(';;'), []);
});

test('a key binding names its accelerator as a menu shows it, never the mnemonic', () => {
  // GTK: mnemonic;path;accelerator, as a GtkMenuItem with an accelerator reports it.
  assert.equal(keyBindingShortcut('s;<Alt>f:s;<Primary><Shift>s'), 'Ctrl+Shift+S');
  assert.equal(keyBindingShortcut(';;<Primary>q'), 'Ctrl+Q');
  assert.equal(keyBindingShortcut(';;<Shift><Control>z'), 'Ctrl+Shift+Z', 'modifiers in one order whatever the app wrote');
  assert.equal(keyBindingShortcut(';;Delete'), 'Del', 'a named key in the spelling Qt uses');
  assert.equal(keyBindingShortcut(';;<Primary>Page_Down'), 'Ctrl+PgDown');
  assert.equal(keyBindingShortcut(';;<Primary>plus'), 'Ctrl++');
  assert.equal(keyBindingShortcut(';;F1'), 'F1');
  assert.equal(keyBindingShortcut(';;<Alt>w'), 'Alt+W', "GTK's accelerator part is one, Alt with a letter too");
  assert.equal(keyBindingShortcut('<Alt>f;<Alt>f;'), undefined, 'a GTK menu with a mnemonic and no accelerator');
  assert.equal(keyBindingShortcut('<Alt>g'), undefined, "a GTK button's mnemonic");
  // Qt: the shortcut alone, already so spelled, or the mnemonic of a control with none.
  assert.equal(keyBindingShortcut('Ctrl+Shift+S'), 'Ctrl+Shift+S');
  assert.equal(keyBindingShortcut('Ctrl+PgDown'), 'Ctrl+PgDown');
  assert.equal(keyBindingShortcut('Del'), 'Del');
  assert.equal(keyBindingShortcut('Alt+F'), undefined, "a Qt menu's mnemonic");
  assert.equal(keyBindingShortcut('Alt+S;Ctrl+Shift+S'), 'Ctrl+Shift+S', 'a mnemonic beside the shortcut');
  assert.equal(keyBindingShortcut(''), undefined);
  assert.equal(keyBindingShortcut(';;'), undefined);
  assert.equal(keyBindingShortcut(';;<Bogus>x'), undefined, 'an unknown modifier is no shortcut to show');
});

test('a menu accelerator has Ctrl or Super, or is a function key; a text field keeps its own editing combinations', () => {
  for (const combo of ['ctrl+s', 'ctrl+shift+s', 'super+e', 'f5', 'shift+f10', 'ctrl+f3']) assert.ok(mayBeAccelerator(combo), combo);
  for (const combo of ['alt+f', 'return', 'a', 'shift+tab', 'escape']) assert.ok(!mayBeAccelerator(combo), combo);
  for (const combo of ['ctrl+z', 'ctrl+shift+z', 'ctrl+v', 'ctrl+left', 'ctrl+shift+end']) assert.ok(textFieldTakes(combo), combo);
  for (const combo of ['ctrl+s', 'ctrl+n', 'ctrl+w', 'f5']) assert.ok(!textFieldTakes(combo), combo);
});
