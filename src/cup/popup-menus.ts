// Menus an action opened or closed in popups over its window (a context menu from a right click, shift+F10 or the
// Menu key): they are no window the window manager lists, so no "window opened" line names them, and the app's own
// announcements of them read as objects "in its other windows" and an application's "child added". The window's tree
// reads them over its content (see open-popups.ts), so the diff has them; one line each says which menu came or went.
import { indexOf, type TreeDiff } from './diff.js';
import type { CupNode } from './types.js';

const itemRoles = new Set(['menuitem', 'menuitemcheckbox', 'menuitemradio']);
/** Items named at most in one line. */
const maxItems = 8;

/** The menus of a tree that are popups: a menu no menu item, menu bar or combo box holds (those are its own menus and lists). */
function popupMenus(root: CupNode): CupNode[] {
  const found: CupNode[] = [];
  const walk = (node: CupNode, inOwner: boolean) => {
    if (node.role === 'menu' && !inOwner) found.push(node);
    const owner = inOwner || itemRoles.has(node.role) || node.role === 'menubar' || node.role === 'combobox' || node.role === 'menu';
    for (const child of node.children ?? []) walk(child, owner);
  };
  walk(root, false);
  return found;
}

/**
 * A menu's own items: its children of an item's role and those of the containers it holds (a web page's role=group of
 * radio items, "Zoom 100%", "Zoom 150%", under role=menu; Jupyter's `<li title=...>` around each item, which Gecko
 * makes a titled section), not a submenu's. The line had counted only the menu's children: a View menu of two check
 * items and a group of two radio items read "2 items", Jupyter's Cell menu of nine items "2 items", its submenus.
 */
function menuItems(menu: CupNode): CupNode[] {
  return (menu.children ?? []).flatMap((child) => (itemRoles.has(child.role) ? [child] : child.role === 'menu' ? [] : menuItems(child)));
}

/** Each item by its name, one the app greys out marked so (Pluma's text menu opens with Cut, Copy and Delete greyed out). */
function itemsOf(menu: CupNode): string[] {
  return menuItems(menu).map((child) => `${JSON.stringify(child.name)}${child.states?.includes('disabled') ? ' {dis}' : ''}`);
}

function menuLine(menu: CupNode, what: string): string {
  const items = itemsOf(menu);
  const named = items.slice(0, maxItems).join(', ') + (items.length > maxItems ? `, and ${items.length - maxItems} more` : '');
  return `${what} ([${menu.id}]${menu.name ? ` ${JSON.stringify(menu.name)}` : ''}): ${items.length} item${items.length === 1 ? '' : 's'}${named ? `, ${named}` : ''}`;
}

/** The popup menus of `root` whose items are all among `indices` (an unnamed menu is no line of the diff: its items are). */
function menusOf(root: CupNode | undefined, indices: ReadonlySet<number>): CupNode[] {
  if (!root || indices.size === 0) return [];
  return popupMenus(root).filter((menu) => {
    const items = menuItems(menu);
    return items.length > 0 && items.every((item) => indices.has(indexOf(item)));
  });
}

/**
 * One line per popup menu whose items the diff added (`menu opened over the window ([e113]): 6 items, "Cut", ...`)
 * or removed (`menu over the window closed ...`). `before` and `after` are the trees the diff's removed and added
 * indices belong to.
 */
export function popupMenuLines(diff: TreeDiff, before: CupNode | undefined, after: CupNode | undefined): string[] {
  const indices = (nodes: TreeDiff['added']) => new Set(nodes.filter((node) => itemRoles.has(node.role)).map((node) => node.index));
  // A menu the app keeps in the tree while closed (Gecko's page context menu, hidden and collapsed) opens and closes
  // by its states: a right click in Firefox read only "[e13] menu: -hid, -off".
  const turned = (state: 'added' | 'removed') => new Set(diff.changed.filter((node) => node.role === 'menu' && node.changes.states?.[state].includes('hidden')).map((node) => node.index));
  const [shown, hidden] = [turned('removed'), turned('added')];
  const popups = after ? popupMenus(after) : [];
  return [
    ...[...menusOf(after, indices(diff.added)), ...popups.filter((menu) => shown.has(indexOf(menu)))].map((menu) => menuLine(menu, 'menu opened over the window')),
    ...menusOf(before, indices(diff.removed)).map((menu) => menuLine(menu, 'menu over the window closed (index of the snapshot before)')),
    ...popups.filter((menu) => hidden.has(indexOf(menu))).map((menu) => menuLine(menu, 'menu over the window closed')),
  ];
}
