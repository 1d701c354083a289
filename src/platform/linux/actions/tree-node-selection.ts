// Selecting one node of a tree whose nodes take their renderer's role (Java's JTree: cup/atspi/tree-nodes.ts).
import { ATSPI_ROLE } from '../../../cup/atspi/constants.js';
import { isRendererTreeNode, TREE_NODE_ATSPI_ROLE } from '../../../cup/atspi/tree-nodes.js';
import type { AtspiClient } from '../atspi/client.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { children, deselectSelectedChild, indexInParent, parentOf, readRole } from '../atspi/operations.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { liveStates } from './live-states.js';

/** How deep a tree's nodes are looked for, and how many of its nodes are looked at for others selected. */
const maxDepth = 64;
const maxScanned = 1000;

/** A node of such a tree: the tree, and the node's place below it (its index at each level, from the tree down). */
export interface TreeNodePlace {
  tree: ObjectRef;
  place: number[];
}

/**
 * The tree an object is a node of, when it is one (isRendererTreeNode): its ancestors up to the tree are nodes too.
 * A tree item of another toolkit (TREE_ITEM) is selected as any other item is.
 */
export async function treeNodePlace(client: AtspiClient, item: ObjectRef, role: number): Promise<TreeNodePlace | undefined> {
  const ancestorRoles: number[] = [];
  const place: number[] = [];
  for (let at = item; ancestorRoles.length < maxDepth; ) {
    const [parent, index] = await Promise.all([parentOf(client, at), indexInParent(client, at)]);
    if (!parent || index === undefined) return undefined;
    place.unshift(index);
    const parentRole = await readRole(client, parent);
    ancestorRoles.push(parentRole);
    if (parentRole === ATSPI_ROLE.TREE) return isRendererTreeNode(role, ancestorRoles) ? { tree: parent, place } : undefined;
    // Between a node and its tree there are only nodes.
    if (parentRole !== TREE_NODE_ATSPI_ROLE) return undefined;
    at = parent;
  }
  return undefined;
}

/**
 * Deselects every node of the tree but the one at `keep` that says SELECTED. A node's Selection holds only its own
 * children (Swing's AccessibleJTreeNode; the tree's, only its root), so selecting a node through its parent added it
 * to the nodes selected elsewhere in the tree, where a person's click selects it alone. Only expanded nodes are
 * walked: a tree that collapses a node takes its descendants out of its selection (JTree does).
 * `byChildIndex`: the toolkit's DeselectSelectedChild takes the child's index (ToolkitQuirks.deselectsByChildIndex).
 */
export async function deselectOtherNodes(desktop: LinuxDesktop, node: TreeNodePlace, byChildIndex: boolean): Promise<void> {
  const client = await desktop.atspi();
  const keep = node.place.join('/');
  let scanned = 0;
  const visit = async (container: ObjectRef, place: number[]): Promise<void> => {
    const kids = await children(client, container).catch(() => []);
    scanned += kids.length;
    const states = await Promise.all(kids.map((kid) => liveStates(desktop, kid).catch(() => new Set<string>())));
    const selected = kids.flatMap((_, index) => (states[index]!.has('STATE_SELECTED') ? [index] : []));
    // From the last, so the places of those still to look at stay put.
    for (let nth = selected.length - 1; nth >= 0; nth--) {
      const index = selected[nth]!;
      if ([...place, index].join('/') !== keep) await deselectSelectedChild(client, container, byChildIndex ? index : nth).catch(() => false);
    }
    for (const [index, kid] of kids.entries()) {
      if (scanned > maxScanned || place.length >= maxDepth) return;
      if (states[index]!.has('STATE_EXPANDED')) await visit(kid, [...place, index]);
    }
  };
  await visit(node.tree, []);
}
