import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toMarkdown } from '../../src/cup/markdown.js';
import { envelope, exampleEnvelope, node } from './build.js';

test('heading names the app, then platform, screen and node counts, then a blank line', () => {
  const text = toMarkdown(envelope([node(0, 'button', 'OK')], { app: { name: 'Files' } }));
  assert.deepEqual(text.split('\n').slice(0, 3), ['# CUP tree: Files', 'linux · screen 1000x800 · 1 nodes (1 before pruning)', '']);
});

test('without an app name the heading is just "# CUP tree"', () => {
  assert.equal(toMarkdown(envelope([node(0, 'button', 'OK')])).split('\n')[0], '# CUP tree');
  assert.equal(toMarkdown(envelope([node(0, 'button', 'OK')], { app: { name: '' } })).split('\n')[0], '# CUP tree');
});

test('each node is a list item: full role, quoted name, element index, value, states, actions, bounds', () => {
  const subject = node(12, 'combobox', 'City "x"', {
    value: 'Oslo',
    states: ['expanded'],
    actions: ['focus', 'expand'],
    bounds: { x: 1, y: 2, w: 3, h: 4 },
  });
  assert.equal(
    toMarkdown(envelope([subject])).split('\n')[3],
    '- combobox "City \\"x\\"" [element_index 12] · value: "Oslo" · states: expanded · actions: expand · bounds: 1,2 3x4',
  );
});

test('empty fields are left out, and bounds need an action besides focus', () => {
  const subject = node(3, 'list', '', { actions: ['focus'], bounds: { x: 1, y: 2, w: 3, h: 4 } });
  assert.equal(toMarkdown(envelope([subject])).split('\n')[3], '- list [element_index 3]');
});

test('the value is shown for any role', () => {
  assert.match(toMarkdown(envelope([node(0, 'progressbar', 'Upload', { value: '40%' })])), /value: "40%"/);
});

test('an id outside the e<digits> pattern is shown whole', () => {
  assert.match(toMarkdown(envelope([node(0, 'button', 'B', { id: 'x7' })])), /\[element_index x7\]/);
});

test('nesting follows the pruned tree, two spaces per depth, with hints as italic items', () => {
  const tree = [
    node(0, 'list', 'Feed', {
      bounds: { x: 0, y: 0, w: 100, h: 100 },
      actions: ['scroll'],
      children: [
        node(1, 'generic', '', { children: [node(2, 'listitem', 'One', { bounds: { x: 0, y: 0, w: 10, h: 10 } })] }),
        node(3, 'listitem', 'Two', { bounds: { x: 0, y: 300, w: 10, h: 10 } }),
      ],
    }),
  ];
  assert.deepEqual(toMarkdown(envelope(tree)).split('\n').slice(3), [
    '- list "Feed" [element_index 0] · actions: scroll · bounds: 0,0 100x100',
    '  - listitem "One" [element_index 2]',
    '  - *1 more item \u2014 scroll down to see*',
    '',
  ]);
});

test('the example renders the same nodes as the compact golden file', () => {
  const text = toMarkdown(exampleEnvelope());
  const indices = [...text.matchAll(/element_index (\d+)/g)].map((match) => Number(match[1]));
  const expected = [0, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34];
  assert.deepEqual(indices, expected);
  assert.match(text, /^      - treeitem "cup\.schema\.json" \[element_index 29\] · actions: click · bounds: 22,86 238x22$/m);
  assert.match(text, /30 nodes \(35 before pruning\)/);
});

test('detail full renders every node', () => {
  const text = toMarkdown(exampleEnvelope(), { detail: 'full' });
  assert.equal([...text.matchAll(/element_index/g)].length, 35);
  assert.match(text, /^  - titlebar "doc\.md — computer-use-protocol" \[element_index 19\]$/m);
});
