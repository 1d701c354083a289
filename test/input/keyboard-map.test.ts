// The keyboard map as a real X server (Xvfb with its default XKB keymap) has it: keys and levels, modifier keys,
// spare keycodes and temporary bindings; and that inputs held when an action fails are released.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { HeldInputs } from '../../src/platform/linux/input/held-inputs.js';
import { KeyboardMap } from '../../src/platform/linux/input/keyboard-map.js';
import { TemporaryKeys } from '../../src/platform/linux/input/temporary-keys.js';
import { useXvfbConnection } from '../x11/xvfb.js';
import { keyboardSnapshot } from '../helpers/fixture-desktop.js';

describe('the keyboard map of a real X server', () => {
  const { conn: x } = useXvfbConnection();
  let map: KeyboardMap;

  before(async () => {
    map = await KeyboardMap.load(x());
  });

  test('finds the key and shift level of a keysym, plain before shifted', () => {
    const a = map.find(0x61);
    const capitalA = map.find(0x41);
    assert.ok(a && capitalA);
    assert.equal(a.keycode, capitalA.keycode);
    assert.deepEqual([a.shift, capitalA.shift, a.level3], [false, true, false]);
    assert.equal(map.find(0x21)?.shift, true, '! is shifted 1 on the US layout');
    assert.equal(map.find(0x1004f60), undefined, 'no key types 你');
  });

  test('a keypad key\'s Num Lock level is not taken for a shifted one: KP_5 is left to a spare keycode', () => {
    const begin = map.find(0xff9d);
    assert.ok(begin && !begin.shift, 'KP_Begin is the plain level of the keypad\'s 5');
    assert.equal(map.keysymsOf(begin.keycode)[1], 0xffb5, 'the same key holds KP_5 on its second level, which Num Lock reaches');
    assert.equal(map.find(0xffb5), undefined, 'Shift with that key gives KP_Begin (XKB\'s KEYPAD type)');
    assert.equal(map.find(0xff8d)?.shift, false, 'KP_Enter is a plain level');
  });

  test('modifier keys come from the modifier mapping, with their state bits', () => {
    assert.equal(map.modifierKey('shift')?.mask, 1);
    assert.equal(map.modifierKey('ctrl')?.mask, 4);
    assert.equal(map.modifierKey('alt')?.mask, 8);
    assert.equal(map.modifierKey('super')?.mask, 64);
    assert.equal(map.modifierKey('altgr')?.mask, 128);
    assert.deepEqual(map.keysymsOf(map.modifierKey('ctrl')!.keycode)[0], 0xffe3);
  });

  test('spare keycodes have no keysyms and no modifier role', () => {
    const spare = map.spareKeycodes();
    assert.ok(spare.length >= 4, `${spare.length} spare keycodes`);
    assert.deepEqual(spare, [...spare].sort((a, b) => b - a), 'highest first');
    for (const keycode of spare) {
      assert.ok(map.keysymsOf(keycode).every((keysym) => keysym === 0));
      assert.ok(!map.modifiers.keycodes.includes(keycode));
    }
  });

  test('temporary bindings show on the server, are reused, and are all restored', async () => {
    const before = await keyboardSnapshot(x());
    const settled: number[] = [];
    const keys = new TemporaryKeys(x(), map, async () => {
      settled.push(Date.now());
    });
    await keys.bind([0x1004f60, 0x1002713]);
    const ni = keys.keycodeOf(0x1004f60)!;
    assert.deepEqual((await x().getKeyboardMapping(ni, 1)).keysyms.slice(0, 4), [0x1004f60, 0x1004f60, 0x1004f60, 0x1004f60]);
    await keys.bind([0x1004f60]);
    assert.equal(keys.keycodeOf(0x1004f60), ni, 'an existing binding is reused');
    assert.equal(settled.length, 0, 'binding into free keycodes needs no settling');

    // Fill every spare keycode (evicting the two earlier bindings, after settling), then ask for one more.
    const many = Array.from({ length: keys.capacity }, (_, index) => 0x1000400 + index);
    await keys.bind(many);
    assert.equal(settled.length, 1);
    assert.equal(keys.keycodeOf(0x1004f60), undefined);
    await keys.bind([0x1002603, ...many.slice(1)]);
    assert.equal(settled.length, 2);
    const sun = keys.keycodeOf(0x1002603);
    assert.ok(sun !== undefined);
    assert.equal((await x().getKeyboardMapping(sun, 1)).keysyms[0], 0x1002603);
    assert.equal(keys.keycodeOf(many[0]!), undefined, 'the one binding not needed any more made room');
    await assert.rejects(keys.bind(Array.from({ length: keys.capacity + 1 }, (_, index) => 0x1000500 + index)), /only \d+ spare keycodes/);

    await keys.restore();
    assert.equal(settled.length, 3, 'restoring waits for the app first');
    assert.deepEqual(await keyboardSnapshot(x()), before);
  });

  test('keys and buttons held when an action fails are all released', async () => {
    const held = new HeldInputs(x());
    const shift = map.requireModifierKey('shift').keycode;
    const ctrl = map.requireModifierKey('ctrl').keycode;
    await assert.rejects(
      (async () => {
        try {
          await held.pressKey(ctrl);
          await held.pressKey(shift);
          await held.pressButton(1);
          assert.deepEqual(await x().queryKeymap(), [ctrl, shift].sort((a, b) => a - b));
          assert.equal((await x().queryPointer(x().screen.root)).mask & 0x100, 0x100, 'button 1 is down');
          throw new Error('the action failed half-way');
        } finally {
          await held.releaseAll();
        }
      })(),
      /failed half-way/,
    );
    assert.deepEqual(await x().queryKeymap(), []);
    assert.equal((await x().queryPointer(x().screen.root)).mask & 0x1f00, 0);
  });
});
