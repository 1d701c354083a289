// A value read back after an action is told as the tree writes it: scrolling Pluma's document three pages read
// 'value of the scroll position: "0" → "972.5999999999999"' in the evidence over the diff's '~ [e134] sb value: "0" →
// "972.6"'. The tree's own writing of a scroll bar holding that number is the judge.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ATSPI_ROLE_NAMES, ATSPI_STATE_NAMES } from '../../src/cup/atspi/constants.js';
import { atspiToCup } from '../../src/cup/atspi/convert.js';
import { encodeStateSet } from '../../src/cup/atspi/states.js';
import type { LinuxDesktop } from '../../src/platform/linux/linux-desktop.js';
import { valueProbe } from '../../src/platform/linux/actions/verification.js';

/** How the tree writes a vertical scroll bar's value holding `current`. */
function treeValue(current: number): string | undefined {
  const states = ['STATE_ENABLED', 'STATE_SENSITIVE', 'STATE_VISIBLE', 'STATE_SHOWING', 'STATE_VERTICAL'].filter((state) => ATSPI_STATE_NAMES.includes(state));
  const bar = {
    bus: ':1.5',
    path: '/org/a11y/atspi/accessible/1',
    role: ATSPI_ROLE_NAMES.indexOf('ROLE_SCROLL_BAR'),
    name: '',
    description: '',
    states: encodeStateSet(states),
    interfaces: ['Accessible', 'Component', 'Value'],
    childCount: 0,
    children: [],
    value: { current, min: 0, max: 2000 },
  };
  return atspiToCup(bar, { extentsOrigin: { x: 0, y: 0 }, visibleArea: { x: 0, y: 0, w: 800, h: 600 }, gtk4NameQuirks: false }).root.value;
}

test('a value probe tells the numbers it read as the tree writes them', () => {
  // The probe only reads when asked: describing two readings needs no desktop.
  const probe = valueProbe(undefined as unknown as LinuxDesktop, { bus: ':1.5', path: '/org/a11y/atspi/accessible/1' }, 'the scroll position');
  const [before, after] = [0, 972.5999999999999];
  assert.equal(treeValue(after), '972.6', 'the tree writes the number meant');
  assert.equal(probe.describe!(String(before), String(after)), `value of the scroll position: "${treeValue(before)}" → "${treeValue(after)}"`);
  // Whole numbers and text that is no number are told as read.
  assert.equal(probe.describe!('540', '560'), 'value of the scroll position: "540" → "560"');
});
