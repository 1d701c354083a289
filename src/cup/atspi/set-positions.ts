// The items a list leaves out of the page, told by its items' place in their set.
import { ATSPI_STATE } from './constants.js';
import type { AtspiRawNode, UnreadChildren } from './raw-node.js';
import { atspiRoleName } from './roles.js';
import { hasState } from './states.js';

/**
 * The items of a list that are in no child of it, before its first and after its last, from its items' place in
 * their set (the posinset and setsize attributes browsers expose from aria-posinset and aria-setsize): a virtualised
 * list keeps only the rows in view in the page, and a list of 1000 contacts read as 9 items and "1 more". Items the
 * read left unread (`read`: a huge or scrolled container's) are children, counted there, not here. None when the
 * items give no such place, or disagree on their set's size.
 */
export function itemsOutsideList(raw: AtspiRawNode, read: UnreadChildren | undefined): UnreadChildren | undefined {
  const places = raw.children.flatMap((child) => placeGiven(child) ?? []);
  if (places.length === 0 || places.some((place) => place.setSize !== places[0]!.setSize)) return undefined;
  const positions = places.map((place) => place.posInSet);
  const up = Math.max(0, Math.min(...positions) - 1 - (read?.up ?? 0));
  const down = Math.max(0, places[0]!.setSize - Math.max(...positions) - (read?.down ?? 0));
  return up + down > 0 ? { up, down, left: 0, right: 0 } : undefined;
}

/** A place in a set, as CUP's attributes give it: 1-based position and the set's size. */
export interface SetPlace {
  posInSet: number;
  setSize: number;
}

const menuItemRoles: ReadonlySet<string> = new Set(['ROLE_MENU_ITEM', 'ROLE_CHECK_MENU_ITEM', 'ROLE_RADIO_MENU_ITEM', 'ROLE_MENU']);

/**
 * The roles of items a place in a set is given to (ARIA's aria-posinset roles as the browsers map them: an article, a
 * comment, a list item or option, a menu's items, a tab, a tree item, a radio button, a term, a tree grid's row). Another
 * object's posinset and setsize are not its own place: Chromium gives a <select> its chosen option's (3 of 3 with the
 * third chosen), which its options' count tells already, and the label or form holding the select read '# 2 more
 * items — scroll up to see' of two children both read.
 */
const placedItemRoles: ReadonlySet<string> = new Set([
  'ROLE_ARTICLE', 'ROLE_COMMENT', 'ROLE_LIST_ITEM', ...menuItemRoles, 'ROLE_PAGE_TAB', 'ROLE_TREE_ITEM', 'ROLE_RADIO_BUTTON', 'ROLE_DESCRIPTION_TERM', 'ROLE_TABLE_ROW',
]);

/** A place in a set the object's own attributes give (browsers' posinset and setsize, from ARIA or computed), for an item of a set. */
function placeGiven(raw: AtspiRawNode): SetPlace | undefined {
  if (!placedItemRoles.has(atspiRoleName(raw.role))) return undefined;
  const posInSet = Number(raw.attributes?.posinset);
  const setSize = Number(raw.attributes?.setsize);
  return Number.isInteger(posInSet) && Number.isInteger(setSize) && posInSet >= 1 && setSize >= posInSet ? { posInSet, setSize } : undefined;
}

/**
 * The items that make a set of a holder's children, by the holder's role: a list's items, a tab list's tabs, a menu's
 * items (a submenu's item included, which GTK gives the role menu). Radio buttons are not counted by their siblings:
 * their set is their group, which a box of them need not be; tree items neither, whose sets are levels of the tree.
 */
const listRoles: ReadonlySet<string> = new Set(['ROLE_LIST', 'ROLE_LIST_BOX']);
const setItemRoles: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['ROLE_LIST', new Set(['ROLE_LIST_ITEM'])],
  ['ROLE_LIST_BOX', new Set(['ROLE_LIST_ITEM'])],
  ['ROLE_PAGE_TAB_LIST', new Set(['ROLE_PAGE_TAB'])],
  ['ROLE_MENU', menuItemRoles],
  ['ROLE_POPUP_MENU', menuItemRoles],
  ['ROLE_MENU_BAR', menuItemRoles],
]);

/**
 * Each child's place in the set its parent holds: from its own attributes where it has them, else counted among its
 * siblings that are items of the set (a native toolkit's list, tab list or menu gives none), as ARIA counts an item with
 * no aria-posinset. Hidden items are not in the set (a menu's item the app keeps hidden). Only where every item is in
 * the read: not where children went unread, but those of a huge list's hidden part, when every child read is an item;
 * not in a list whose toolkit lists only some of its items (`listsSomeItemsOnly`).
 */
export function placesInSet(raw: AtspiRawNode, listsSomeItemsOnly = false): Map<AtspiRawNode, SetPlace> {
  const places = new Map<AtspiRawNode, SetPlace>();
  for (const child of raw.children) {
    const given = placeGiven(child);
    if (given) places.set(child, given);
  }
  const itemRoles = setItemRoles.get(atspiRoleName(raw.role));
  if (listsSomeItemsOnly && listRoles.has(atspiRoleName(raw.role))) return places;
  if (!itemRoles || raw.offscreenChildren || raw.closedMenuItems !== undefined) return places;
  // Where the holder says VISIBLE (the toolkit sets it), an item without it is hidden.
  const judgesVisible = hasState(raw.states, ATSPI_STATE.VISIBLE) === true;
  const items = raw.children.filter((child) => itemRoles.has(atspiRoleName(child.role)) && (!judgesVisible || hasState(child.states, ATSPI_STATE.VISIBLE) === true));
  const unread = raw.unreadChildren;
  if (unread && (items.length !== raw.children.length || unread.left + unread.right > 0)) return places;
  if (!unread && raw.childCount > raw.children.length) return places;
  const before = unread?.up ?? 0;
  const setSize = before + items.length + (unread?.down ?? 0);
  items.forEach((item, i) => {
    if (!places.has(item)) places.set(item, { posInSet: before + i + 1, setSize });
  });
  return places;
}
