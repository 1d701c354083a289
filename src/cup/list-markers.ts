// The marker a browser draws before a list's item, when it exposes it as an object of its own.
import { normaliseWhitespace } from './text.js';
import type { CupNode } from './types.js';

/** Roles of a list's items, whose marker Blink may expose beside their words (a list box's options built on <li>). */
const itemRoles: ReadonlySet<string> = new Set(['listitem', 'option', 'treeitem']);
/** A bullet (disc, circle, square) or a number, as a list's marker shows it. */
const markerWords = /^(?:[\u2022\u25E6\u25AA]|\d{1,6}\.)$/u;

/**
 * Whether a node is the marker drawn before its list item: Blink exposes a page's `::marker` as the item's first child,
 * a text of the bullet or number alone drawn left of the item's box (outside it, as a list draws its markers). It
 * named the item with its words (`li "• Milk"`, where Gecko's item read "Milk") and read as a line of its own,
 * `txt "•"`, under every item of a list. The item's words are what the page wrote; the marker is drawing.
 */
export function isDrawnListMarker(node: CupNode, parent: CupNode | undefined): boolean {
  if (node.role !== 'text' || !parent || !itemRoles.has(parent.role) || parent.children?.[0] !== node) return false;
  if (node.children?.length || !markerWords.test(normaliseWhitespace(node.name))) return false;
  return node.bounds !== undefined && parent.bounds !== undefined && node.bounds.x + node.bounds.w <= parent.bounds.x;
}
