// Dialogs an action opened or closed inside its own window (a page's JavaScript alert, an in-page <dialog>, a GTK4 or
// Qt dialog drawn in its parent): they are no new top-level window, so no "window opened" or "closed" line names them,
// and the browser may put one in the tree only after the action's first effects were read. The diff read after the
// action has them; one line each says what opened and what it says, or what closed.
import { indexOf, type DiffNode, type TreeDiff } from './diff.js';
import type { CupNode } from './types.js';

const dialogRoles = new Set(['dialog', 'alertdialog']);
/** Words of a dialog quoted at most, and how many of its texts. */
const maxWords = 160;
const maxTexts = 3;

/** The texts a dialog shows (its static texts and headings), other than its own name. */
function wordsOf(dialog: CupNode): string[] {
  const found: string[] = [];
  const walk = (node: CupNode) => {
    for (const child of node.children ?? []) {
      if (found.length >= maxTexts) return;
      const text = child.name.trim();
      if ((child.role === 'text' || child.role === 'heading') && text && text !== dialog.name.trim() && !found.includes(text)) found.push(text);
      walk(child);
    }
  };
  walk(dialog);
  return found;
}

/**
 * The dialog a node added to the window is: a dialog or alert dialog, or a frame inside the window (not a page's
 * frame, which holds a document) whose content is one named panel: Gecko draws a page's alert, confirm and prompt
 * so, the panel named by the prompt's title, and marks it a dialog on some runs only.
 */
function dialogIn(node: CupNode): CupNode | undefined {
  if (dialogRoles.has(node.role)) return node;
  if (node.role !== 'window') return undefined;
  const inside = node.children ?? [];
  const [only] = inside;
  if (inside.length !== 1 || !only || !only.name.trim() || !(dialogRoles.has(only.role) || only.role === 'group' || only.role === 'generic')) return undefined;
  return only;
}

/**
 * One line per dialog the diff added (the outermost, where dialogs nest): `dialog "This page says" opened in the
 * window ([e245]): "Hello there"`. `after` is the tree the diff's added indices belong to.
 */
export function openedDialogLines(diff: TreeDiff, after: CupNode | undefined): string[] {
  return outermostDialogs(after, diff.added).map((dialog) => {
    const words = wordsOf(dialog).join(' ');
    const quoted = words.length > maxWords ? `${words.slice(0, maxWords - 1)}…` : words;
    return `dialog ${JSON.stringify(dialog.name)} opened in the window ([${dialog.id}])${quoted ? `: ${JSON.stringify(quoted)}` : ''}`;
  });
}

/**
 * The dialogs the diff removed (the outermost, where dialogs nest), as the tree before held them. `before` is the tree
 * the diff's removed indices belong to.
 */
export function closedDialogs(diff: TreeDiff, before: CupNode | undefined): CupNode[] {
  return outermostDialogs(before, diff.removed);
}

/** The outermost dialogs of `tree` among the diff's nodes `listed` (added or removed, by the tree's indices). */
function outermostDialogs(tree: CupNode | undefined, listed: readonly DiffNode[]): CupNode[] {
  if (!tree) return [];
  const indices = new Set(listed.filter((node) => dialogRoles.has(node.role) || node.role === 'window').map((node) => node.index));
  if (indices.size === 0) return [];
  const found: CupNode[] = [];
  const walk = (node: CupNode) => {
    const dialog = node !== tree && indices.has(indexOf(node)) ? dialogIn(node) : undefined;
    if (dialog) {
      found.push(dialog);
      return;
    }
    for (const child of node.children ?? []) walk(child);
  };
  walk(tree);
  return found;
}

/**
 * The line of a dialog the action closed, named by its index in the snapshot before:
 * `dialog "Profile" closed in the window (was [e280])`. An Escape that closed a page's modal <dialog> read "the
 * focused element is gone" and "[e280] dialog "Profile": child removed", as if the dialog had only lost a child.
 */
export function closedDialogLine(dialog: CupNode): string {
  return `dialog ${JSON.stringify(dialog.name)} closed in the window (was [${dialog.id}])`;
}
