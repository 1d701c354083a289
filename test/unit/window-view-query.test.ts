// get_window_state's query over a window whose text is longer than the compact view's safety cap: Meld's full tree
// (819 nodes) was cut at 40000 characters before the query looked at it, so what lay past the cut was never found,
// and the footer said "793 of 819 nodes shown" of an answer that showed 20.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CupNode } from '../../src/cup/types.js';
import { windowView, type ViewRequest } from '../../src/tools/perception/window-view.js';

const rows = 3000;
const root: CupNode = {
  id: 'e0', role: 'window', name: 'Big',
  children: [{ id: 'e1', role: 'list', name: 'Items', children: Array.from({ length: rows }, (_, index) => ({ id: `e${index + 2}`, role: 'listitem' as const, name: `Row ${index + 1} of the long list` })) }],
};
const reading = { root, handles: new Map(), identities: new Map(), truncated: false };
const request = (query: string | undefined): ViewRequest => ({
  platform: 'linux', screen: { w: 1280, h: 800 }, app: { name: 'Big' }, format: 'compact', detail: 'full', query, maxElements: 5000, maxDepth: 100,
});

test('a query finds what lies past the safety cap, and the cap counts what the query kept', () => {
  const whole = windowView(reading, request(undefined)).text;
  assert.match(whole, /# output truncated at 40000 characters/, 'without a query the text is cut');
  assert.doesNotMatch(whole, /Row 3000 of/, 'and the last row is past the cut');

  const found = windowView(reading, request('Row 3000 of'));
  assert.match(found.text, /\[e3001\] li "Row 3000 of the long list"/);
  assert.doesNotMatch(found.text, /output truncated/, 'three lines fit under the cap');
  assert.deepEqual(found.elements.map((element) => element.index), [0, 1, 3001]);

  // A query that keeps more than fits is cut in turn, and its footer counts the query's lines.
  const many = windowView(reading, request('long list'));
  const footer = /# output truncated at 40000 characters: (\d+) of (\d+) nodes shown/.exec(many.text);
  assert.ok(footer, many.text.slice(-300));
  assert.equal(Number(footer[2]), rows + 2, 'every row matched, with the list and the window');
  assert.equal(Number(footer[1]), many.elements.length, 'the footer counts the lines shown');
});

test("a query's header counts the node lines it kept, not the whole window's", () => {
  const whole = windowView(reading, request(undefined)).text;
  assert.match(whole, new RegExp(`^# ${rows + 2} nodes \\(`, 'm'));
  const found = windowView(reading, request('Row 3000 of'));
  // gedit's query read said "20 nodes" in its header over the 6 lines it showed.
  assert.match(found.text, /^# 3 nodes \(\d+ before pruning\)$/m, found.text.slice(0, 300));
  assert.equal(found.elements.length, 3);
});
