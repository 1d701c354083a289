// A web page behind a modal dialog: Blink and Gecko leave the inert page out of the accessibility tree (Gecko
// without marking the dialog modal), so a reading shows the dialog alone while the screenshot still shows the
// page. What the reading should say about it, so an agent does not act on what it sees behind the dialog.
import type { CupNode } from './types.js';

const dialogRoles: ReadonlySet<string> = new Set(['dialog', 'alertdialog']);

/** A web document that holds dialogs only: the page behind them is inert, left out of the tree. */
export function showsDialogsOnly(node: CupNode): boolean {
  const children = node.children ?? [];
  return node.role === 'document' && children.length > 0 && children.every((child) => dialogRoles.has(child.role));
}

/** The dialogs that are all a web document holds, in the tree, document by document. */
export function dialogsOverPages(tree: readonly CupNode[]): CupNode[] {
  const found: CupNode[] = [];
  const visit = (node: CupNode) => {
    if (showsDialogsOnly(node)) found.push(...node.children!);
    else (node.children ?? []).forEach(visit);
  };
  tree.forEach(visit);
  return found;
}

/** The reading's note for a dialog that is all its page holds. */
export function inertPageNote(dialog: CupNode): string {
  const named = dialog.name ? ` "${dialog.name}"` : '';
  return `[${dialog.id}] ${dialog.role}${named} is all its page shows to accessibility: a modal dialog makes the page behind it inert (left out of the tree; clicks and keys there do nothing) until the dialog closes`;
}

/**
 * The nodes of `before` that a modal dialog made inert by `after`, each with that dialog (as `after` reads it): those
 * under a web document that now holds dialogs only, which it did not, and that `after` does not hold.
 */
export function madeInert(before: CupNode, after: CupNode): Map<string, CupNode> {
  const documents = (root: CupNode) => {
    const found = new Map<string, CupNode>();
    const visit = (node: CupNode) => {
      if (node.role === 'document') found.set(node.id, node);
      (node.children ?? []).forEach(visit);
    };
    visit(root);
    return found;
  };
  const now = documents(after);
  const held = new Set<string>();
  const hold = (node: CupNode) => {
    held.add(node.id);
    (node.children ?? []).forEach(hold);
  };
  hold(after);
  const inert = new Map<string, CupNode>();
  for (const [id, was] of documents(before)) {
    const document = now.get(id);
    if (!document || !showsDialogsOnly(document) || showsDialogsOnly(was)) continue;
    const visit = (node: CupNode) => {
      if (!held.has(node.id)) inert.set(node.id, document.children![0]!);
      (node.children ?? []).forEach(visit);
    };
    (was.children ?? []).forEach(visit);
  }
  return inert;
}
