import assert from 'node:assert/strict';
import { test } from 'node:test';
import { boundCombinations, parseKeys } from '../../src/platform/linux/actions/real-input.js';

// Key bindings as GTK and Qt report them (Action.GetKeyBinding: GTK's accelerators, Qt's QKeySequence text), and the
// keys an agent asks for that answer to them: a background hotkey finds its menu item by this comparison.
const cases: [binding: string, asked: string][] = [
  ['<Control>Page_Down', 'ctrl+pagedown'],
  ['Ctrl+PgDown', 'ctrl+pagedown'],
  ['Ctrl+PgUp', 'ctrl+Page_Up'],
  ['<Primary>minus', 'ctrl+-'],
  ['Ctrl+-', 'ctrl+minus'],
  ['Ctrl++', 'ctrl+plus'],
  ['<Primary><Shift>s', 'ctrl+shift+S'],
  ['Ctrl+Shift+S', 'shift+ctrl+s'],
  ['<Alt>y', 'alt+y'],
  ['Ctrl+Del', 'ctrl+delete'],
  ['F11', 'f11'],
];

test('a toolkit\'s key binding compares with the keys asked for, however either spells its keys', () => {
  for (const [binding, asked] of cases) {
    assert.ok(boundCombinations(binding).includes(parseKeys([asked]).canonical), `${binding} answers ${asked}: ${JSON.stringify(boundCombinations(binding))} against ${parseKeys([asked]).canonical}`);
  }
});

test('a binding with a key no name reads is kept as the toolkit wrote it, and one that is no key combination has none', () => {
  assert.deepEqual(boundCombinations('Ctrl+Frobnicate'), ['ctrl+frobnicate']);
  assert.deepEqual(boundCombinations(''), []);
});
