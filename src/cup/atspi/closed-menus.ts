// Which menus are closed, from AT-SPI facts alone. One rule serves the reader (a read of what is shown leaves a
// closed menu's items unread) and the element numbering (a whole read numbers those items after everything else),
// so both readings give every shown element the same number.
import { ATSPI_ROLE, ATSPI_STATE } from './constants.js';
import { atspiRoleName, cupRoleFor } from './roles.js';
import { hasState } from './states.js';

/**
 * Roles whose children are a menu's items, shown only while it is open: GTK3's menus and submenu openers
 * (ROLE_MENU), Qt's menu-bar entries (a menu item holding its popup) and popups. Their CUP roles are the
 * menu and menuitem that the compact pruning folds into "open the menu to see".
 */
const menuRoles: ReadonlySet<number> = new Set([ATSPI_ROLE.MENU, ATSPI_ROLE.POPUP_MENU, ATSPI_ROLE.MENU_ITEM]);

export function holdsMenuItems(role: number): boolean {
  return menuRoles.has(role);
}

/**
 * An item that is not drawn: not SHOWING, and where the toolkit's SHOWING is not trusted to mean on screen, not
 * VISIBLE either (Qt clears both on a closed popup). The converter places such items offscreen, the pruning
 * counts a menu of them as closed.
 */
function undrawn(states: readonly number[], showingReliable: boolean): boolean {
  if (hasState(states, ATSPI_STATE.SHOWING)) return false;
  return showingReliable || !hasState(states, ATSPI_STATE.VISIBLE);
}

/**
 * Whether a menu is closed: none of its items is drawn. `items` are its children's state sets; without them, the
 * answer is known only where the menu's own states decide it (a menu that is not SHOWING, in a toolkit that sets
 * SHOWING exactly, has no item on screen), else undefined: ask the items. A menu that reports neither VISIBLE nor
 * SHOWING is never taken for closed: some bridges set neither on anything, open menus included. `parentRole`: the
 * menu's parent's, where known.
 */
export function closedMenu(
  menu: { role: number; states: readonly number[] },
  items: readonly (readonly number[])[] | undefined,
  showingReliable: boolean,
  parentRole?: number,
): boolean | undefined {
  if (!holdsMenuItems(menu.role)) return false;
  const showing = hasState(menu.states, ATSPI_STATE.SHOWING) === true;
  if (showingReliable && !showing) return true;
  if (!showing && !hasState(menu.states, ATSPI_STATE.VISIBLE)) return false;
  if (!items) return undefined;
  // A menu marked SHOWING is in a part of the tree where the toolkit sets SHOWING, and an open menu's items are drawn:
  // none of them showing is a closed menu there, whatever its items say of VISIBLE. Java's bridge keeps a closed
  // JMenu's items VISIBLE and clears only SHOWING, which it sets as the menu opens (Freeplane's menu bar holds 540).
  // Not a combo box's list, which its combo box's collapsed state judges (prune.ts): Gecko's <select> keeps its
  // options in a menu that shows, open or closed, its <optgroup>s never showing, and counting them counted the groups.
  const showingSays = showingReliable || (showing && parentRole !== ATSPI_ROLE.COMBO_BOX);
  return items.length > 0 && items.every((states) => undrawn(states, showingSays));
}

/**
 * A menu's child that is its popup (CUP role menu) rather than an item: Qt's menu-bar entry holds one popup,
 * which holds the items. Opening the entry shows the popup's items, so those are what a closed one counts.
 */
export function isPopupOf(menuRole: number, childRole: number): boolean {
  return cupRoleFor({ atspiRole: atspiRoleName(childRole), parentAtspiRole: atspiRoleName(menuRole), named: false, modal: false }) === 'menu';
}

/**
 * How many of a menu's children the app keeps hidden in it, which opening the menu does not show: those not VISIBLE,
 * where the toolkit's SHOWING and VISIBLE are exact (GTK3, whose closed menus keep their items VISIBLE; its menus
 * built from a UI file hold a hidden placeholder first and a hidden "Empty" last, and Transmission's Edit menu read
 * "# 6 more items" when opening it showed 4). None where every child is hidden: the toolkit hides them all while the
 * menu is closed (LibreOffice's second menu bar); nor elsewhere, where VISIBLE says nothing of it (Qt clears it on a
 * closed menu's items).
 */
export function itemsKeptHidden(items: readonly (readonly number[])[], showingReliable: boolean): number {
  return keptHidden(items, showingReliable).filter(Boolean).length;
}

/** Which of a menu's children (by their states) the app keeps hidden in it, by itemsKeptHidden's rule. */
export function keptHidden(items: readonly (readonly number[])[], showingReliable: boolean): boolean[] {
  const hidden = items.map((states) => showingReliable && !hasState(states, ATSPI_STATE.VISIBLE));
  return hidden.every(Boolean) ? hidden.map(() => false) : hidden;
}
