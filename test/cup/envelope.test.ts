import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CUP_VERSION, assignIds, buildEnvelope, countNodes } from '../../src/cup/envelope.js';
import { validateEnvelope } from '../../src/cup/validate.js';
import { node } from './build.js';

const tree = [node(0, 'window', 'W', { children: [node(1, 'button', 'A'), node(2, 'list', 'L', { children: [node(3, 'listitem', 'x')] })] })];

test('buildEnvelope sets version 0.1.0 and leaves undefined optional fields out entirely', () => {
  const built = buildEnvelope({ platform: 'linux', screen: { w: 800, h: 600, scale: undefined }, tree, app: undefined, tools: undefined });
  assert.equal(CUP_VERSION, '0.1.0');
  assert.deepEqual(Object.keys(built), ['version', 'platform', 'screen', 'tree']);
  assert.deepEqual(Object.keys(built.screen), ['w', 'h']);
  assert.equal(built.version, '0.1.0');
});

test('buildEnvelope keeps given fields in schema order, and the result validates', () => {
  const built = buildEnvelope({
    tools: [{ name: 'search' }],
    windows: [{ title: 'W', foreground: true, pid: 1, bounds: null }],
    tree,
    scope: 'foreground',
    app: { name: 'App', pid: 1, bundleId: undefined },
    screen: { w: 800, h: 600, scale: 2 },
    timestamp: 1740067200000,
    platform: 'web',
  });
  assert.deepEqual(Object.keys(built), ['version', 'platform', 'timestamp', 'screen', 'app', 'scope', 'tree', 'windows', 'tools']);
  assert.deepEqual(built.app, { name: 'App', pid: 1 });
  assert.deepEqual(validateEnvelope(JSON.parse(JSON.stringify(built))), { valid: true, errors: [] });
});

test('assignIds numbers nodes e0, e1, ... in depth-first pre-order without touching the input', () => {
  const input = [node(7, 'window', 'A', { children: [node(9, 'list', 'B', { children: [node(1, 'listitem', 'C')] }), node(3, 'button', 'D')] }), node(5, 'window', 'E')];
  const before = JSON.stringify(input);
  const renumbered = assignIds(input);
  const ids: string[] = [];
  const collect = (nodes: typeof renumbered): void => nodes.forEach((entry) => { ids.push(`${entry.id}:${entry.name}`); collect(entry.children ?? []); });
  collect(renumbered);
  assert.deepEqual(ids, ['e0:A', 'e1:B', 'e2:C', 'e3:D', 'e4:E']);
  assert.equal(JSON.stringify(input), before);
});

test('countNodes counts every node, roots included', () => {
  assert.equal(countNodes(tree), 4);
  assert.equal(countNodes([]), 0);
});
