// A tree cut to a node and depth limit without renumbering: what a capped read shows of a whole reading.
import { countNodes } from './envelope.js';
import type { CupNode } from './types.js';

/**
 * The first `maxNodes` nodes of the tree in document order (pre-order), none deeper than `maxDepth` below the
 * root. Every node keeps its id: ids are numbered in the same order, so the cut shows the whole reading's
 * element indices, and an index means the same element in both. `cut` counts the nodes left out.
 */
export function cutTree(root: CupNode, maxNodes: number, maxDepth: number): { root?: CupNode; cut: number } {
  let kept = 0;
  let cut = 0;
  const visit = (node: CupNode, depth: number): CupNode | undefined => {
    if (kept >= maxNodes || depth > maxDepth) {
      cut += countNodes([node]);
      return undefined;
    }
    kept++;
    const { children, ...rest } = node;
    if (!children) return { ...rest };
    const keptChildren = children.map((child) => visit(child, depth + 1)).filter((child): child is CupNode => child !== undefined);
    return keptChildren.length > 0 ? { ...rest, children: keptChildren } : { ...rest };
  };
  const result = visit(root, 0);
  return { ...(result ? { root: result } : {}), cut };
}
