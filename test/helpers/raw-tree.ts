import type { AtspiRawNode } from '../../src/cup/atspi/raw-node.js';

/** Every node of a raw tree that passes the test, depth first. */
export function findAllRaw(node: AtspiRawNode | undefined, test: (node: AtspiRawNode) => boolean): AtspiRawNode[] {
  if (!node) return [];
  return [...(test(node) ? [node] : []), ...node.children.flatMap((child) => findAllRaw(child, test))];
}
