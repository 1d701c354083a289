import type { AtspiRawNode } from '../../../cup/atspi/raw-node.js';
import type { ObjectRef } from './object-ref.js';

interface Place {
  node: AtspiRawNode;
  holder: AtspiRawNode;
}

function subtree(node: AtspiRawNode): AtspiRawNode[] {
  const nodes: AtspiRawNode[] = [];
  for (const stack = [node]; stack.length > 0; ) {
    const next = stack.pop()!;
    nodes.push(next);
    stack.push(...next.children);
  }
  return nodes;
}

/**
 * Keeps each accessible object once in a walked tree, under the parent it names as its own, and returns how many
 * nodes were dropped. A toolkit may list one object as the child of two: Java's open menu lists its items under
 * the menu and again under the popup the layered pane holds, so every item of an open jEdit menu was two elements
 * (two indices, and a selector naming one item "matched 2 elements"). Where the object's parent is neither
 * holder (or it does not answer), the first place in the tree's order is kept. Asks only objects seen twice.
 */
export async function keepEachObjectOnce(root: AtspiRawNode, parentOf: (node: AtspiRawNode) => Promise<ObjectRef | undefined>): Promise<number> {
  const places = new Map<string, Place[]>();
  // Depth first in the children's order: the same tree gives the same first place.
  const stack = [root];
  while (stack.length > 0) {
    const holder = stack.pop()!;
    for (const node of holder.children) {
      const key = `${node.bus} ${node.path}`;
      places.set(key, [...(places.get(key) ?? []), { node, holder }]);
    }
    stack.push(...[...holder.children].reverse());
  }
  let dropped = 0;
  // Nodes inside a copy already dropped: their places no longer count (a submenu's items, listed under both copies).
  const detached = new Set<AtspiRawNode>();
  for (const listed of places.values()) {
    const found = listed.filter(({ node }) => !detached.has(node));
    if (found.length < 2) continue;
    const parent = await parentOf(found[0]!.node).catch(() => undefined);
    const keep = found.find(({ holder }) => parent !== undefined && holder.bus === parent.bus && holder.path === parent.path) ?? found[0]!;
    for (const place of found) {
      if (place === keep) continue;
      place.holder.children.splice(place.holder.children.indexOf(place.node), 1);
      // The holder does not hold it: its count stays that of what it holds (a shorter list is a cut-short walk).
      place.holder.childCount = Math.max(place.holder.children.length, place.holder.childCount - 1);
      const gone = subtree(place.node);
      for (const node of gone) detached.add(node);
      dropped += gone.length;
    }
  }
  return dropped;
}
