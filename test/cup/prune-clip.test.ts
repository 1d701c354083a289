import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pruneTree } from '../../src/cup/prune.js';
import type { CupNode, CupRect } from '../../src/cup/types.js';
import { compactBody, envelope, node } from './build.js';

const DASH = '\u2014';
const rect = (x: number, y: number, w: number, h: number): CupRect => ({ x, y, w, h });

/** A scrollable list at 100,100 200x200 (well inside the 1000x800 screen) holding `children`. */
function scroller(children: CupNode[]): CupNode[] {
  return [node(0, 'list', 'Feed', { bounds: rect(100, 100, 200, 200), actions: ['scroll'], children })];
}

function item(id: number, bounds: CupRect, extra: Partial<CupNode> = {}): CupNode {
  return node(id, 'listitem', `i${id}`, { bounds, ...extra });
}

test('a child entirely above the scroll viewport is clipped and counted as up', () => {
  assert.deepEqual(compactBody(scroller([item(1, rect(100, 50, 50, 40)), item(2, rect(100, 100, 50, 40))])), [
    '[e0] lst "Feed" 100,100 200x200 [scr]',
    '  [e2] li "i2"',
    `  # 1 more item ${DASH} scroll up to see`,
  ]);
});

test('a child entirely below is counted as down', () => {
  assert.equal(compactBody(scroller([item(1, rect(100, 350, 50, 40))]))[1], `  # 1 more item ${DASH} scroll down to see`);
});

test('a child entirely left is counted as left', () => {
  assert.equal(compactBody(scroller([item(1, rect(20, 150, 50, 40))]))[1], `  # 1 more item ${DASH} scroll left to see`);
});

test('a child entirely right is counted as right', () => {
  assert.equal(compactBody(scroller([item(1, rect(400, 150, 50, 40))]))[1], `  # 1 more item ${DASH} scroll right to see`);
});

test('directions are checked above, below, left, right: the first that applies counts', () => {
  const aboveLeft = compactBody(scroller([item(1, rect(0, 0, 50, 50))]));
  assert.equal(aboveLeft[1], `  # 1 more item ${DASH} scroll up to see`);
  const belowRight = compactBody(scroller([item(1, rect(500, 500, 50, 50))]));
  assert.equal(belowRight[1], `  # 1 more item ${DASH} scroll down to see`);
  const leftBelow = pruneTree(envelope(scroller([item(1, rect(0, 400, 50, 50))])));
  assert.deepEqual(leftBelow.items.at(-1), { kind: 'hint', depth: 1, counts: { up: 0, down: 1, left: 0, right: 0 }, total: 1 });
});

test('touching an edge counts as outside, on every side', () => {
  const touching = [
    item(1, rect(150, 60, 10, 40)), // bottom edge at the viewport top
    item(2, rect(150, 300, 10, 40)), // top edge at the viewport bottom
    item(3, rect(60, 150, 40, 10)), // right edge at the viewport left
    item(4, rect(300, 150, 40, 10)), // left edge at the viewport right
  ];
  const pruned = pruneTree(envelope(scroller(touching)));
  assert.equal(pruned.keptCount, 1);
  assert.deepEqual(pruned.items.at(-1), { kind: 'hint', depth: 1, counts: { up: 1, down: 1, left: 1, right: 1 }, total: 4 });
});

test('overlapping the viewport by one pixel keeps the child', () => {
  const overlapping = [
    item(1, rect(150, 60, 10, 41)),
    item(2, rect(150, 299, 10, 40)),
    item(3, rect(60, 150, 41, 10)),
    item(4, rect(299, 150, 40, 10)),
  ];
  assert.equal(pruneTree(envelope(scroller(overlapping))).keptCount, 5);
});

test('the hint joins directions with / in the order up, down, left, right', () => {
  const children = [item(1, rect(500, 150, 10, 10)), item(2, rect(20, 150, 10, 10)), item(3, rect(150, 500, 10, 10)), item(4, rect(150, 0, 10, 10)), item(5, rect(150, 10, 10, 10))];
  assert.deepEqual(compactBody(scroller(children)), [
    '[e0] lst "Feed" 100,100 200x200 [scr]',
    `  # 5 more items ${DASH} scroll up/down/left/right to see`,
  ]);
});

test('a clipped child counts itself plus all its raw descendants, whatever pruning would do to them', () => {
  const clipped = item(1, rect(150, 500, 10, 10), {
    children: [node(2, 'generic', '', { children: [node(3, 'separator'), node(4, 'img', '')] }), node(5, 'text', 'x')],
  });
  assert.equal(compactBody(scroller([clipped]))[1], `  # 5 more items ${DASH} scroll down to see`);
});

test('the hint comes after the whole subtree of its node, one level deeper than the node', () => {
  const children = [item(1, rect(150, 150, 10, 10), { children: [node(2, 'button', 'Deep')] }), item(3, rect(150, 500, 10, 10))];
  assert.deepEqual(compactBody([node(9, 'window', 'W', { children: scroller(children) })]), [
    '[e9] win "W"',
    '  [e0] lst "Feed" 100,100 200x200 [scr]',
    '    [e1] li "i1"',
    '      [e2] btn "Deep"',
    `    # 1 more item ${DASH} scroll down to see`,
  ]);
});

test('a hint is always "items", even for one', () => {
  assert.match(compactBody(scroller([item(1, rect(150, 500, 10, 10))]))[1] ?? '', /# 1 more item /);
});

test('without a scroll container, the screen is the viewport', () => {
  const tree = [node(0, 'window', 'W', { children: [item(1, rect(1000, 10, 10, 10)), item(2, rect(990, 790, 10, 10))] })];
  assert.deepEqual(compactBody(tree), ['[e0] win "W"', '  [e2] li "i2"', `  # 1 more item ${DASH} scroll right to see`]);
});

test('a node without scroll action does not narrow the viewport', () => {
  const tree = [node(0, 'list', 'L', { bounds: rect(100, 100, 200, 200), children: [item(1, rect(500, 500, 10, 10))] })];
  assert.deepEqual(compactBody(tree), ['[e0] lst "L"', '  [e1] li "i1"']);
});

test('a scroll container without bounds does not narrow the viewport', () => {
  const tree = [node(0, 'list', 'L', { actions: ['scroll'], children: [item(1, rect(500, 500, 10, 10))] })];
  assert.deepEqual(compactBody(tree), ['[e0] lst "L" [scr]', '  [e1] li "i1"']);
});

test('children without bounds are never clipped', () => {
  assert.deepEqual(compactBody(scroller([node(1, 'listitem', 'Nowhere')])), ['[e0] lst "Feed" 100,100 200x200 [scr]', '  [e1] li "Nowhere"']);
});

test('a scroll container viewport is its bounds intersected with the inherited viewport', () => {
  // The document runs past the right screen edge; a child inside the document but off screen is clipped.
  const tree = [
    node(0, 'document', 'Page', {
      bounds: rect(0, 0, 2000, 800),
      actions: ['scroll'],
      children: [item(1, rect(1500, 10, 10, 10)), item(2, rect(900, 10, 10, 10))],
    }),
  ];
  assert.deepEqual(compactBody(tree), [
    '[e0] doc "Page" 0,0 2000x800 [scr]',
    '  [e2] li "i2"',
    `  # 1 more item ${DASH} scroll right to see`,
  ]);
});

test('nested scroll containers narrow the viewport step by step, each with its own hint', () => {
  const inner = node(2, 'list', 'Inner', {
    bounds: rect(100, 200, 200, 200), // sticks out below the outer viewport (100..300)
    actions: ['scroll'],
    children: [item(3, rect(150, 210, 10, 10)), item(4, rect(150, 350, 10, 10))],
  });
  const tree = scroller([inner, item(5, rect(150, 600, 10, 10))]);
  assert.deepEqual(compactBody(tree), [
    '[e0] lst "Feed" 100,100 200x200 [scr]',
    '  [e2] lst "Inner" 100,200 200x200 [scr]',
    '    [e3] li "i3"',
    `    # 1 more item ${DASH} scroll down to see`,
    `  # 1 more item ${DASH} scroll down to see`,
  ]);
});

test('roots are never clipped', () => {
  const tree = [node(0, 'window', 'Far away', { bounds: rect(5000, 5000, 10, 10), actions: ['click'] })];
  assert.deepEqual(compactBody(tree), ['[e0] win "Far away" 5000,5000 10x10 [clk]']);
});

test('a hoisted node is itself clip-tested before it is hoisted', () => {
  const hoisted = node(1, 'generic', '', { bounds: rect(150, 500, 10, 10), children: [item(2, rect(150, 150, 10, 10))] });
  assert.deepEqual(compactBody(scroller([hoisted])), ['[e0] lst "Feed" 100,100 200x200 [scr]', `  # 2 more items ${DASH} scroll down to see`]);
});

test('children of a hoisted node take its place without a clip test of their own', () => {
  const hoisted = node(1, 'generic', '', { bounds: rect(150, 150, 10, 10), children: [item(2, rect(150, 500, 10, 10))] });
  assert.deepEqual(compactBody(scroller([hoisted])), ['[e0] lst "Feed" 100,100 200x200 [scr]', '  [e2] li "i2"']);
});

test('grandchildren under a hoisted node are tested as usual against the inherited viewport', () => {
  const lifted = item(2, rect(150, 500, 10, 10), {
    children: [node(3, 'button', 'In', { bounds: rect(150, 150, 10, 10) }), node(4, 'button', 'Out', { bounds: rect(150, 500, 10, 10) })],
  });
  const tree = scroller([node(1, 'generic', '', { children: [lifted] })]);
  assert.deepEqual(compactBody(tree), [
    '[e0] lst "Feed" 100,100 200x200 [scr]',
    '  [e2] li "i2"',
    '    [e3] btn "In"',
    `    # 1 more item ${DASH} scroll down to see`,
  ]);
});

test('a hoisted scrollable node does not narrow the viewport of its children', () => {
  const hoisted = node(1, 'generic', '', {
    bounds: rect(100, 100, 50, 50),
    actions: ['scroll'],
    children: [item(2, rect(200, 200, 10, 10), { children: [node(3, 'button', 'B', { bounds: rect(250, 250, 10, 10) })] })],
  });
  assert.deepEqual(compactBody(scroller([hoisted])), ['[e0] lst "Feed" 100,100 200x200 [scr]', '  [e2] li "i2"', '    [e3] btn "B"']);
});

test('clipping happens before the child own skip test, so skipped-looking children are still counted', () => {
  assert.equal(compactBody(scroller([node(1, 'separator', '', { bounds: rect(150, 500, 10, 10) })]))[1], `  # 1 more item ${DASH} scroll down to see`);
});

test('detail full clips nothing', () => {
  const tree = scroller([item(1, rect(150, 500, 10, 10))]);
  assert.deepEqual(compactBody(tree, { detail: 'full' }), ['[e0] lst "Feed" 100,100 200x200 [scr]', '  [e1] li "i1"']);
});

test('pruneTree reports kept and raw counts and depth-tagged items', () => {
  const pruned = pruneTree(envelope(scroller([item(1, rect(150, 150, 10, 10)), item(2, rect(150, 500, 10, 10))])));
  assert.equal(pruned.keptCount, 2);
  assert.equal(pruned.rawCount, 3);
  assert.deepEqual(
    pruned.items.map((entry) => [entry.kind, entry.depth, entry.kind === 'node' ? entry.node.id : entry.total]),
    [['node', 0, 'e0'], ['node', 1, 'e1'], ['hint', 1, 1]],
  );
});

test('an object of no size on the viewport edge is not counted as scrolled away; past the edge it is', () => {
  // GTK 4 keeps a hidden scroll bar as a 0x0 box at its pane's top-left corner: touching the top edge, it and its
  // child read as "2 more items - scroll up to see" though nothing was above.
  const hidden = node(1, 'scrollbar', '', { bounds: rect(100, 100, 0, 0), children: [node(2, 'generic', '', { bounds: rect(100, 100, 0, 0) })] });
  const onEdges = [hidden, node(3, 'generic', 'bottom', { bounds: rect(150, 300, 0, 0) }), node(4, 'generic', 'right', { bounds: rect(300, 150, 0, 5) })];
  const shown = pruneTree(envelope(scroller([...onEdges, item(5, rect(100, 120, 50, 40))])));
  assert.equal(shown.items.filter((entry) => entry.kind === 'hint').length, 0, JSON.stringify(shown.items));
  assert.equal(shown.keptCount, 2);
  const past = pruneTree(envelope(scroller([node(6, 'generic', 'above', { bounds: rect(150, 99, 0, 0) }), node(7, 'generic', 'below', { bounds: rect(150, 301, 10, 0) })])));
  assert.deepEqual(past.items.at(-1), { kind: 'hint', depth: 1, counts: { up: 1, down: 1, left: 0, right: 0 }, total: 2 });
});
