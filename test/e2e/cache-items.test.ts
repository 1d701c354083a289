// A walk of a GTK 4 window takes its objects' basics (name, description, child count, role, interfaces, states) from
// the application's Cache.GetItems, one call, instead of two to four calls per object (ToolkitQuirks.basicsInCache).
// The reading must be the one a walk asking each object makes, node by node; pyatspi, asking each object itself, is
// the oracle for the names and states it holds.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { AtspiRawNode } from '../../src/cup/atspi/raw-node.js';
import { ATSPI_ROLE } from '../../src/cup/atspi/constants.js';
import { decodeStateSet } from '../../src/cup/atspi/states.js';
import { readTree, type ReadTreeOptions } from '../../src/platform/linux/atspi/tree-reader.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { TestDesktop } from '../helpers/desktop.js';
import { findAllRaw } from '../helpers/raw-tree.js';
import { accessibleWindowState, pyatspiWalk, testContext } from '../helpers/tools.js';
import type { LinuxToolContext } from '../../src/server/session.js';

/** Where a node is, for a message: its index at each level from the top. */
type Located = { node: AtspiRawNode; at: string };

/** The nodes of a tree in pre-order, each with where it is. */
function located(root: AtspiRawNode, at = 'top'): Located[] {
  return [{ node: root, at }, ...root.children.flatMap((child, i) => located(child, `${at}/${i}`))];
}

/** A state set as pyatspi spells it ("showing", "multi line"). */
function pyatspiStates(words: readonly number[]): string[] {
  return [...decodeStateSet(words)].map((name) => name.slice('STATE_'.length).toLowerCase().replace(/_/g, ' ')).sort();
}

describe('basics from the toolkit cache (GTK 4 Cache.GetItems)', () => {
  const title = 'GTK4 Cache Items';
  let desktop: TestDesktop;
  let context: LinuxToolContext;
  let window: ClientWindow;

  before(async () => {
    desktop = await TestDesktop.start();
    context = testContext();
    ({ window } = await desktop.launchFixture('gtk4', { title, rows: 5, extraArgs: ['--stack', '--names'] }));
    // GTK 4 registers on the bus once its main loop is first idle: read when it has.
    await accessibleWindowState(context, window, { include_screenshot: false });
  });

  after(async () => {
    context?.desktop.close();
    await desktop?.stop();
  });

  test('a walk with the cache reads the same tree as one asking every object, in fewer calls, and pyatspi agrees with its names and states', async () => {
    // The driver's own read finds the window's top level and gives the toolkit's options; it also hands GTK the
    // objects, which its cache holds from then on (GTK 4.8 puts an object there once a client got its reference).
    const limits = { maxNodes: 5000, maxDepth: 1000, budgetMs: 8000, visibleOnly: true };
    const tree = await context.desktop.readWindowTree(window, limits);
    assert.ok(tree.read?.root, tree.missingReason);
    assert.equal(tree.quirks.basicsInCache, true, 'GTK 4 answers its cache items as its objects answer');
    const top = { bus: tree.read.root.bus, path: tree.read.root.path };
    const client = await context.desktop.atspi();
    const options: ReadTreeOptions = {
      ...limits,
      callTimeoutMs: 2000,
      trustShowing: tree.quirks.showingIsReliable,
      propertiesInOneCall: tree.quirks.propertiesInOneCall,
      keepsUndrawnPlaces: tree.quirks.keepsUndrawnPlaces,
      hiddenContentUnread: true,
    };
    const asked = await readTree(client, top, { ...options, basicsFromCache: false });
    const cached = await readTree(client, top, { ...options, basicsFromCache: true });
    assert.ok(asked.root && cached.root && !asked.failure && !cached.failure, `${asked.failure ?? ''} ${cached.failure ?? ''}`);
    assert.equal(cached.nodeCount, asked.nodeCount, 'as many nodes');
    const walked = located(asked.root);
    const fromCache = located(cached.root);
    walked.forEach(({ node, at }, i) => {
      const other = fromCache[i];
      assert.equal(other?.at, at, `node ${i} is at ${at} in both`);
      const { children: _a, ...own } = node;
      const { children: _b, ...otherOwn } = other.node;
      assert.deepEqual(otherOwn, own, `node ${at} (${node.path}) reads alike both ways`);
    });
    assert.ok(cached.calls < asked.calls * 0.7, `the cache saves calls: ${cached.calls} with it, ${asked.calls} asking each object (${asked.nodeCount} nodes)`);

    // pyatspi asks each object for its name and states: the cached reading's buttons and labels say what it answers.
    const oracle = await pyatspiWalk(window.pid, title, desktop.env());
    const checked = findAllRaw(cached.root, (node) => (node.role === ATSPI_ROLE.PUSH_BUTTON || node.role === ATSPI_ROLE.LABEL) && node.name !== '');
    assert.ok(checked.length >= 5, `named buttons and labels in the window: ${checked.length}`);
    for (const node of checked) {
      const role = node.role === ATSPI_ROLE.PUSH_BUTTON ? 'push button' : 'label';
      const seen = oracle.filter((other) => other.role === role && other.name === node.name).map((other) => [...(other.states ?? [])].sort());
      assert.ok(seen.length > 0, `pyatspi finds the ${role} ${JSON.stringify(node.name)}`);
      assert.ok(seen.some((states) => JSON.stringify(states) === JSON.stringify(pyatspiStates(node.states))), `the states of the ${role} ${JSON.stringify(node.name)}: ${pyatspiStates(node.states).join(',')}; pyatspi: ${JSON.stringify(seen)}`);
    }
  });
});
