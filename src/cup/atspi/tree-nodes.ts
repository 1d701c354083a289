import { ATSPI_ROLE } from './constants.js';
import type { AtspiRawNode } from './raw-node.js';

/**
 * Java's tree nodes take their renderer's role, a label, as its list and table cells do: a JTree's root node is the
 * tree's child, each node's children are the nodes under it, and each says EXPANDABLE, EXPANDED or COLLAPSED and
 * SELECTED, with one action, "toggleexpand". Read as text, a tree showed an agent neither its items nor their levels,
 * and role=treeitem found none of them. A label that is a tree's own child, or the child of such a node, is a node of
 * that tree, its level its depth below the tree (1 for the tree's own children): the bridge gives a tree's nodes as
 * its children whether its root is shown or not.
 */
export const TREE_NODE_ATSPI_ROLE = ATSPI_ROLE.LABEL;

/** Whether an object of this AT-SPI role, under these (nearest first), is a node of a tree (see TREE_NODE_ATSPI_ROLE). */
export function isRendererTreeNode(role: number, ancestorRoles: readonly number[]): boolean {
  if (role !== TREE_NODE_ATSPI_ROLE) return false;
  for (const ancestor of ancestorRoles) {
    if (ancestor === ATSPI_ROLE.TREE) return true;
    if (ancestor !== TREE_NODE_ATSPI_ROLE) return false;
  }
  return false;
}

/** The nodes of every tree under `root` that take their renderer's role, each with its level. */
export function rendererTreeNodeLevels(root: AtspiRawNode): Map<AtspiRawNode, number> {
  const levels = new Map<AtspiRawNode, number>();
  const visit = (node: AtspiRawNode, level: number) => {
    for (const child of node.children) {
      if (level > 0 && child.role === TREE_NODE_ATSPI_ROLE) {
        levels.set(child, level);
        visit(child, level + 1);
      } else visit(child, child.role === ATSPI_ROLE.TREE ? 1 : 0);
    }
  };
  visit(root, root.role === ATSPI_ROLE.TREE ? 1 : 0);
  return levels;
}
