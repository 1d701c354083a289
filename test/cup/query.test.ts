import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toCompact } from '../../src/cup/compact.js';
import { toMarkdown } from '../../src/cup/markdown.js';
import { filterTree, filterTreeText } from '../../src/cup/query.js';
import type { CupNode } from '../../src/cup/types.js';
import { envelope, exampleEnvelope, node } from './build.js';

const HEADER = '# CUP 0.1.0 | windows | 2560x1440\n# 30 nodes (35 before pruning)\n\n';

test('keeps the header unchanged, matching lines and their ancestors, in order with their ids', () => {
  const text = filterTreeText(toCompact(exampleEnvelope()), 'json');
  assert.equal(
    text,
    HEADER +
      '[e18] win "Visual Studio Code" {foc}\n' +
      '  [e27] tre "Explorer" {foc}\n' +
      '    [e28] ti "schema" 0,64 260x22 {exp} [clk,exp,col] (L1)\n' +
      '      [e29] ti "cup.schema.json" 22,86 238x22 [clk] (L2)\n' +
      '      [e30] ti "example.json" 22,108 238x22 [clk] (L2)\n',
  );
});

test('matching is case-insensitive and covers the whole line, codes included', () => {
  const text = filterTreeText(toCompact(exampleEnvelope()), 'SPEAKER');
  assert.equal(text, `${HEADER}[e0] tlbr "Taskbar"\n  [e12] grp "System tray"\n    [e14] btn "Speaker: 45%" 2430,1400 32x32 [clk] (range=0..100)\n`);
  assert.match(filterTreeText(toCompact(exampleEnvelope()), '{PRS}'), /\[e7\][^]*\[e10\]/);
});

test('a compact line\'s role and state codes match their full names, as in the JSON and Markdown views', () => {
  const compact = toCompact(exampleEnvelope());
  const byRole = filterTreeText(compact, 'treeitem');
  assert.match(byRole, /\[e28\] ti "schema"/);
  assert.match(byRole, /\[e30\] ti "example.json"/);
  assert.doesNotMatch(byRole, / btn /, 'no button matches "treeitem"');
  assert.match(filterTreeText(compact, 'expanded'), /\[e28\] ti "schema" [^\n]*\{exp\}/);
  assert.match(filterTreeText(compact, 'button'), /\[e14\] btn "Speaker: 45%"/);
});

test('geometry and ids are not searched as text: an id matches only exactly', () => {
  const keys = [node(0, 'window', 'Calculator', { children: [node(7, 'button', '7', { bounds: { x: 36, y: 294, w: 55, h: 40 } }), node(9, 'button', '9', { bounds: { x: 170, y: 294, w: 55, h: 40 } })] })];
  for (const text of [toCompact(envelope(keys)), toMarkdown(envelope(keys))]) {
    const lines = filterTreeText(text, '7').split('\n');
    assert.ok(lines.some((line) => line.includes('"7"')), text);
    assert.ok(!lines.some((line) => line.includes('"9"')), 'x=170 does not make the 9 key match "7"');
    assert.ok(!filterTreeText(text, '294').includes('"9"'), 'nor does its y');
    const byId = filterTreeText(text, 'e9').split('\n');
    assert.ok(byId.some((line) => line.includes('"9"')) && !byId.some((line) => line.includes('"7"')));
  }
  assert.ok(!filterTreeText(toCompact(envelope(keys)), 'e').includes('"7"'), 'e is no id, and no id is searched as text');
});

test('a matching ancestor does not pull in its non-matching children', () => {
  const text = filterTreeText(toCompact(exampleEnvelope()), 'Explorer');
  assert.equal(text, `${HEADER}[e0] tlbr "Taskbar"\n  [e8] btn "File Explorer — 1 running window — pinned" 1375,1400 40x32 [clk]\n[e18] win "Visual Studio Code" {foc}\n  [e27] tre "Explorer" {foc}\n`);
});

test('no match leaves the header alone', () => {
  assert.equal(filterTreeText(toCompact(exampleEnvelope()), 'zzz'), HEADER);
});

const scrolled: CupNode[] = [
  node(0, 'window', 'W', {
    children: [
      node(1, 'list', 'Inbox', {
        bounds: { x: 0, y: 0, w: 100, h: 100 },
        actions: ['scroll'],
        children: [node(2, 'listitem', 'Hello'), node(3, 'listitem', 'Bye', { bounds: { x: 0, y: 200, w: 10, h: 10 } })],
      }),
      node(4, 'button', 'Send'),
    ],
  }),
];

test('a hint line stays when its parent line is kept, even as an ancestor only', () => {
  const text = filterTreeText(toCompact(envelope(scrolled)), 'hello');
  assert.deepEqual(text.split('\n').slice(3), [
    '[e0] win "W"',
    '  [e1] lst "Inbox" 0,0 100x100 [scr]',
    '    [e2] li "Hello"',
    '    # 1 more item — scroll down to see',
    '',
  ]);
});

test('a hint line goes when its parent line goes, and hints are never matched themselves', () => {
  const text = filterTreeText(toCompact(envelope(scrolled)), 'send');
  assert.deepEqual(text.split('\n').slice(3), ['[e0] win "W"', '  [e4] btn "Send"', '']);
  assert.ok(!filterTreeText(toCompact(envelope(scrolled)), 'scroll down').includes('more items'));
});

test('the safety-cap footer has no parent and is kept', () => {
  const tree = [node(0, 'list', 'L', { children: Array.from({ length: 40 }, (_, index) => node(index + 1, 'listitem', `row ${index}`)) })];
  const text = filterTreeText(toCompact(envelope(tree), { maxChars: 300 }), 'row 1');
  const lines = text.split('\n');
  assert.equal(lines[3], '[e0] lst "L"');
  assert.ok(lines.slice(4).some((line) => line.startsWith('# output truncated')));
});

test('the trailing newline follows the input', () => {
  assert.equal(filterTreeText('# h\n\n[e0] btn "A"\n[e1] btn "B"', '"b"'), '# h\n\n[e1] btn "B"');
});

test('works on the Markdown rendering too', () => {
  const text = filterTreeText(toMarkdown(envelope(scrolled)), 'HELLO');
  assert.deepEqual(text.split('\n'), [
    '# CUP tree',
    'linux · screen 1000x800 · 4 nodes (5 before pruning)',
    '',
    '- window "W" [element_index 0]',
    '  - list "Inbox" [element_index 1] · actions: scroll · bounds: 0,0 100x100',
    '    - listitem "Hello" [element_index 2]',
    '    - *1 more item — scroll down to see*',
    '',
  ]);
});

const jsonTree: CupNode[] = [
  node(0, 'window', 'Mail', {
    children: [
      node(1, 'list', 'Inbox', { children: [node(2, 'listitem', 'Hello'), node(3, 'listitem', 'Invoice')] }),
      node(4, 'textbox', 'To', { value: 'ann@example.com' }),
      node(10, 'button', 'Send'),
    ],
  }),
];

test('filterTree keeps name matches with their ancestors and drops the rest', () => {
  assert.deepEqual(filterTree(jsonTree, 'HELLO'), [
    node(0, 'window', 'Mail', { children: [node(1, 'list', 'Inbox', { children: [node(2, 'listitem', 'Hello')] })] }),
  ]);
});

test('filterTree matches role and value as substrings', () => {
  assert.deepEqual(filterTree(jsonTree, 'TEXTBOX'), [node(0, 'window', 'Mail', { children: [node(4, 'textbox', 'To', { value: 'ann@example.com' })] })]);
  assert.deepEqual(filterTree(jsonTree, 'example.com'), filterTree(jsonTree, 'textbox'));
});

test('filterTree matches ids exactly, so e1 does not pick e10', () => {
  assert.deepEqual(filterTree(jsonTree, 'E1'), [node(0, 'window', 'Mail', { children: [node(1, 'list', 'Inbox')] })]);
});

test('a matching node loses the children that do not match; input is not mutated', () => {
  const before = JSON.stringify(jsonTree);
  assert.deepEqual(filterTree(jsonTree, 'inbox'), [node(0, 'window', 'Mail', { children: [node(1, 'list', 'Inbox')] })]);
  assert.equal(JSON.stringify(jsonTree), before);
});

test('filterTree returns nothing when nothing matches', () => {
  assert.deepEqual(filterTree(jsonTree, 'zzz'), []);
});

test('a query matches typographic punctuation as typed: "-" finds an en dash, "\'" a curly apostrophe, "..." an ellipsis', () => {
  const tree = [
    node(0, 'dialog', 'Save', {
      children: [
        node(1, 'combobox', 'Word 2007–365 (.docx)', { value: 'Word 2007–365 (.docx)' }),
        node(2, 'checkbox', 'Don’t split table over pages'),
        node(3, 'button', 'Save As…'),
      ],
    }),
  ];
  const kept = (query: string) => filterTree(tree, query)[0]?.children?.map((child) => child.id) ?? [];
  assert.deepEqual(kept('2007-365'), ['e1']);
  assert.deepEqual(kept("don't split"), ['e2']);
  assert.deepEqual(kept('save as...'), ['e3']);
  const text = toCompact(envelope(tree));
  assert.match(filterTreeText(text, 'word 2007-365'), /\[e1\] cmb "Word 2007–365 \(\.docx\)"/);
  assert.match(filterTreeText(text, "Don't"), /\[e2\] chk "Don’t split/);
});
