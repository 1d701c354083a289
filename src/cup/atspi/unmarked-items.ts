import type { CupNode } from '../types.js';
import { ATSPI_ROLE } from './constants.js';

/**
 * The items of a view (a file manager's icons, a list's items, a table's cells, a tree's items): what a view shows as
 * data, not a widget of its own with a sensitivity of its own.
 */
export const VIEW_ITEM_ATSPI_ROLES: ReadonlySet<number> = new Set([ATSPI_ROLE.ICON, ATSPI_ROLE.LIST_ITEM, ATSPI_ROLE.TABLE_CELL, ATSPI_ROLE.TREE_ITEM]);

/**
 * Whether a view leaves its items' sensitivity unmarked: the view itself is enabled, and not one of its items says
 * enabled or sensitive. Caja's icon view (its own accessible objects, not GTK's) gives its file icons neither state,
 * so every file read disabled and a click on one was refused (element_disabled), where a person opens them. A view
 * that greys out some items marks the others enabled; one greyed out whole says so itself.
 */
export function itemsLeftUnmarked(viewDisabled: boolean, itemsDisabled: readonly boolean[]): boolean {
  return !viewDisabled && itemsDisabled.length > 0 && itemsDisabled.every(Boolean);
}

/** The children of a converted view whose items it leaves unmarked (itemsLeftUnmarked) are not disabled for it. */
export function enableUnmarkedItems(view: CupNode, children: readonly CupNode[], atspiRoles: readonly number[]): void {
  const items = children.filter((_, index) => VIEW_ITEM_ATSPI_ROLES.has(atspiRoles[index]!));
  const disabled = (node: CupNode) => node.states?.includes('disabled') === true;
  if (!itemsLeftUnmarked(disabled(view), items.map(disabled))) return;
  for (const item of items) item.states = item.states!.filter((state) => state !== 'disabled');
}
