import type { AtspiRawNode } from '../../src/cup/atspi/raw-node.js';

/** Every node of a raw tree that passes the test, depth first. */
export function findAllRaw(node: AtspiRawNode | undefined, test: (node: AtspiRawNode) => boolean): AtspiRawNode[] {
  if (!node) return [];
  return [...(test(node) ? [node] : []), ...node.children.flatMap((child) => findAllRaw(child, test))];
}

/**
 * The objects a whole reading holds that a reading of what is shown does not, by why: held by a container the latter
 * counts as hidden (`hidden`: its hiddenContent) or as a closed menu (`closed menu`: its closedMenuItems), or by
 * nothing it counts (`elsewhere`). Objects are matched by their paths.
 */
export function unreadInShown(whole: AtspiRawNode, shown: AtspiRawNode | undefined): Record<string, number> {
  const shownPaths = new Map(findAllRaw(shown, () => true).map((node) => [node.path, node]));
  const unread: Record<string, number> = {};
  const tally = (node: AtspiRawNode, under: string | undefined) => {
    if (under) unread[under] = (unread[under] ?? 0) + 1;
    const counted = shownPaths.get(node.path);
    if (!under && !counted) unread.elsewhere = (unread.elsewhere ?? 0) + 1;
    const reason = under ?? (counted?.hiddenContent ? 'hidden' : counted?.closedMenuItems ? 'closed menu' : undefined);
    for (const child of node.children) tally(child, reason);
  };
  tally(whole, undefined);
  return unread;
}
