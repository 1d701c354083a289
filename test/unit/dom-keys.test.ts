import assert from 'node:assert/strict';
import { test } from 'node:test';
import { domCombination } from '../../src/platform/linux/browser/dom-keys.js';
import { parseCombination } from '../../src/platform/linux/input/index.js';

const dom = (keys: string) => domCombination(parseCombination(keys));

test('keys in DOM names, for a page\'s key events: modifiers held around one key, named as KeyboardEvent.key names them', () => {
  assert.deepEqual(dom('ctrl+a'), { modifiers: ['Control'], key: 'a' });
  assert.deepEqual(dom('Return'), { modifiers: [], key: 'Enter' });
  assert.deepEqual(dom('shift+tab'), { modifiers: ['Shift'], key: 'Tab' });
  assert.deepEqual(dom('Down'), { modifiers: [], key: 'ArrowDown' });
  assert.deepEqual(dom('page_down'), { modifiers: [], key: 'PageDown' });
  assert.deepEqual(dom('alt+f4'), { modifiers: ['Alt'], key: 'F4' });
  assert.deepEqual(dom('space'), { modifiers: [], key: ' ' });
  assert.deepEqual(dom('ctrl+plus'), { modifiers: ['Control'], key: '+' });
  // A lone modifier is a key of its own.
  assert.deepEqual(dom('ctrl'), { modifiers: [], key: 'Control' });
});

test('keys with no DOM name here are left to the rungs that can press them: AltGr, the keypad\'s digits, characters past ASCII', () => {
  assert.equal(dom('altgr+e'), undefined);
  assert.equal(dom('kp_5'), undefined);
  assert.equal(dom('é'), undefined);
});
