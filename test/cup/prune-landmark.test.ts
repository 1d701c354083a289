import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compactBody, node } from './build.js';

const link = (id: number) => node(id, 'link', `L${id}`, { actions: ['click'] });

for (const role of ['document', 'main', 'complementary', 'navigation', 'search', 'banner', 'contentinfo', 'form']) {
  test(`an unnamed ${role} with exactly one remaining child is replaced by it`, () => {
    const tree = [node(0, 'window', 'W', { children: [node(1, role, '', { children: [link(2)] })] })];
    assert.deepEqual(compactBody(tree), ['[e0] win "W"', '  [e2] lnk "L2" [clk]']);
  });
}

test('a non-landmark role with one child is not collapsed', () => {
  const tree = [node(0, 'list', '', { children: [link(1)] })];
  assert.deepEqual(compactBody(tree), ['[e0] lst', '  [e1] lnk "L1" [clk]']);
});

test('a named landmark is not collapsed', () => {
  const tree = [node(0, 'navigation', 'Site', { children: [link(1)] })];
  assert.deepEqual(compactBody(tree), ['[e0] nav "Site"', '  [e1] lnk "L1" [clk]']);
});

test('a landmark with two remaining children is not collapsed', () => {
  const tree = [node(0, 'navigation', '', { children: [link(1), link(2)] })];
  assert.deepEqual(compactBody(tree), ['[e0] nav', '  [e1] lnk "L1" [clk]', '  [e2] lnk "L2" [clk]']);
});

test('a landmark with an action besides focus is not collapsed; focus alone does not prevent it', () => {
  const scrolling = [node(0, 'main', '', { actions: ['scroll'], children: [link(1)] })];
  assert.deepEqual(compactBody(scrolling), ['[e0] main [scr]', '  [e1] lnk "L1" [clk]']);
  const focusable = [node(0, 'main', '', { actions: ['focus'], children: [link(1)] })];
  assert.deepEqual(compactBody(focusable), ['[e1] lnk "L1" [clk]']);
});

test('remaining children are counted after pruning: skipped ones do not count, hoisted ones do', () => {
  const skipped = [node(0, 'main', '', { children: [node(1, 'separator'), link(2)] })];
  assert.deepEqual(compactBody(skipped), ['[e2] lnk "L2" [clk]']);
  const hoisted = [node(0, 'main', '', { children: [node(1, 'generic', '', { children: [link(2), link(3)] })] })];
  assert.deepEqual(compactBody(hoisted), ['[e0] main', '  [e2] lnk "L2" [clk]', '  [e3] lnk "L3" [clk]']);
});

test('the replacing child keeps its own subtree, one level up', () => {
  const tree = [node(0, 'form', '', { children: [node(1, 'list', 'L', { children: [link(2)] })] })];
  assert.deepEqual(compactBody(tree), ['[e1] lst "L"', '  [e2] lnk "L2" [clk]']);
});

test('collapses chain bottom-up through nested landmarks', () => {
  const tree = [node(0, 'main', '', { children: [node(1, 'form', '', { children: [link(2)] })] })];
  assert.deepEqual(compactBody(tree), ['[e2] lnk "L2" [clk]']);
});

test('a collapsed landmark keeps its hint, after the child at the child level', () => {
  const tree = [
    node(0, 'window', 'W', {
      bounds: { x: 0, y: 0, w: 100, h: 100 },
      actions: ['scroll'],
      children: [
        node(1, 'main', '', {
          children: [
            node(2, 'link', 'Visible', { bounds: { x: 0, y: 0, w: 10, h: 10 } }),
            node(3, 'link', 'Below', { bounds: { x: 0, y: 200, w: 10, h: 10 } }),
          ],
        }),
      ],
    }),
  ];
  assert.deepEqual(compactBody(tree), [
    '[e0] win "W" 0,0 100x100 [scr]',
    '  [e2] lnk "Visible"',
    '  # 1 more item \u2014 scroll down to see',
  ]);
});

test('detail full does not collapse landmarks', () => {
  const tree = [node(0, 'navigation', '', { children: [link(1)] })];
  assert.deepEqual(compactBody(tree, { detail: 'full' }), ['[e0] nav', '  [e1] lnk "L1" [clk]']);
});
