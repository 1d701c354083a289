import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toCompact } from '../../src/cup/compact.js';
import type { CupWindowInfo } from '../../src/cup/types.js';
import { envelope, node } from './build.js';

const button = node(0, 'button', 'OK', { actions: ['click'] });

function headerOf(text: string): string[] {
  return text.split('\n').slice(0, text.split('\n').indexOf(''));
}

test('first line is "# CUP <version> | <platform> | <w>x<h>" from the envelope', () => {
  const text = toCompact({ version: '9.8.7', platform: 'macos', screen: { w: 1234, h: 567 }, tree: [button] });
  assert.equal(text.split('\n')[0], '# CUP 9.8.7 | macos | 1234x567');
});

test('"# app: <name>" appears only when the envelope has an app', () => {
  assert.equal(headerOf(toCompact(envelope([button], { app: { name: 'Firefox', pid: 7 } })))[1], '# app: Firefox');
  assert.ok(!toCompact(envelope([button])).includes('# app:'));
});

test('"# app: " is written even when the app name is empty or missing', () => {
  assert.equal(headerOf(toCompact(envelope([button], { app: { name: '' } })))[1], '# app: ');
  assert.equal(headerOf(toCompact(envelope([button], { app: { pid: 3 } })))[1], '# app: ');
});

test('node count line: N counts emitted node lines (not hints), M every raw node', () => {
  const tree = [
    node(0, 'window', 'W', {
      actions: ['scroll'],
      bounds: { x: 0, y: 0, w: 100, h: 100 },
      children: [
        node(1, 'button', 'Kept', { bounds: { x: 0, y: 0, w: 10, h: 10 } }),
        node(2, 'separator'),
        node(3, 'button', 'Clipped', { bounds: { x: 0, y: 500, w: 10, h: 10 }, children: [node(4, 'text', 'x')] }),
      ],
    }),
  ];
  const text = toCompact(envelope(tree));
  assert.ok(text.includes('  # 2 more items'));
  assert.equal(headerOf(text)[1], '# 2 nodes (5 before pruning)');
});

test('the count word is always "nodes", even for one node', () => {
  assert.equal(headerOf(toCompact(envelope([button])))[1], '# 1 nodes (1 before pruning)');
});

test('"# 1 WebMCP tool available" is singular for one tool', () => {
  const text = toCompact(envelope([button], { platform: 'web', tools: [{ name: 'search' }] }));
  assert.equal(headerOf(text)[2], '# 1 WebMCP tool available');
});

test('"# <K> WebMCP tools available" is plural for several tools', () => {
  const text = toCompact(envelope([button], { platform: 'web', tools: [{ name: 'a' }, { name: 'b' }] }));
  assert.equal(headerOf(text)[2], '# 2 WebMCP tools available');
});

test('no tools line when tools is empty or absent', () => {
  assert.ok(!toCompact(envelope([button], { tools: [] })).includes('WebMCP'));
  assert.ok(!toCompact(envelope([button])).includes('WebMCP'));
});

const windows: CupWindowInfo[] = [
  { title: 'Editor', foreground: true, pid: 1 },
  { title: 'Terminal', foreground: false },
];

test('foreground scope lists the envelope windows with [fg] on the foreground one', () => {
  const text = toCompact(envelope([button], { scope: 'foreground', windows }));
  assert.deepEqual(headerOf(text).slice(2), ['# --- 2 open windows ---', '#   Editor [fg]', '#   Terminal']);
});

test('window titles keep their first 50 code points, without an ellipsis', () => {
  const title = `${'t'.repeat(48)}😀😀😀tail`;
  const text = toCompact(envelope([button], { scope: 'foreground', windows: [{ title }] }));
  assert.equal(headerOf(text)[3], `#   ${'t'.repeat(48)}😀😀`);
});

test('other scopes show no window list unless windowList is given; [] suppresses it', () => {
  assert.ok(!toCompact(envelope([button], { scope: 'full', windows })).includes('open windows'));
  const listed = toCompact(envelope([button], { scope: 'desktop' }), { windowList: windows });
  assert.deepEqual(headerOf(listed).slice(2), ['# --- 2 open windows ---', '#   Editor [fg]', '#   Terminal']);
  assert.ok(!toCompact(envelope([button], { scope: 'foreground', windows }), { windowList: [] }).includes('open'));
});

test('header order is CUP, app, nodes, tools, windows, then one empty line before the nodes', () => {
  const text = toCompact(
    envelope([button], { app: { name: 'A' }, tools: [{ name: 't' }], scope: 'foreground', windows: [windows[0]!] }),
  );
  assert.deepEqual(text.split('\n'), [
    '# CUP 0.1.0 | linux | 1000x800',
    '# app: A',
    '# 1 nodes (1 before pruning)',
    '# 1 WebMCP tool available',
    '# --- 1 open windows ---',
    '#   Editor [fg]',
    '',
    '[e0] btn "OK" [clk]',
    '',
  ]);
});

test('the text ends with exactly one newline', () => {
  const text = toCompact(envelope([button]));
  assert.ok(text.endsWith('"OK" [clk]\n'));
});

test('a web document that holds only a dialog says the page behind it is inert; one with more content does not', () => {
  const dialog = node(5, 'dialog', 'Confirm', { children: [node(6, 'button', 'OK', { actions: ['click'] })] });
  const covered = toCompact(envelope([node(0, 'window', 'W', { children: [node(1, 'document', 'Shop', { children: [dialog] })] })]));
  assert.ok(
    headerOf(covered).includes('# [e5] dialog "Confirm" is all its page shows to accessibility: a modal dialog makes the page behind it inert (left out of the tree; clicks and keys there do nothing) until the dialog closes'),
    covered,
  );
  const open = toCompact(envelope([node(0, 'window', 'W', { children: [node(1, 'document', 'Shop', { children: [dialog, button] })] })]));
  assert.ok(!open.includes('inert'), open);
});
