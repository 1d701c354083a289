import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keyBindingCombinations } from '../../src/cup/key-binding.js';

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
