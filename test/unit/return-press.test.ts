// What a Return press's note says when the field it was typed into went with it: a table's inline editor that the page
// replaces by the text it took (fixture web/shapes3.html, Firefox) read 'its text went from "9" to "\u0000gone"', the
// probe's own mark of a gone object quoted to the agent.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { returnChanged } from '../../src/platform/linux/actions/return-press.js';
import { goneMark } from '../../src/platform/linux/actions/verification.js';

const observation = { evidence: ['[e114] is gone'], changed: true, listening: true };

test('a Return that took its field away says the field is gone with the text it held, in words and with no mark of the probe\'s', () => {
  const gone = returnChanged('[e114]', '9', goneMark, observation);
  assert.deepEqual(gone?.evidence, ['[e114] took the Return press: it held "9" and is gone with it (what else changed is below)', '[e114] is gone']);
  assert.ok(!gone.evidence.some((line) => line.includes('\u0000')), 'no mark in the words');
  const emptied = returnChanged('[e5]', 'Call mum', '', observation);
  assert.equal(emptied?.evidence[0], '[e5] took the Return press: its text went from "Call mum" to "" (what else changed is below)');
});
