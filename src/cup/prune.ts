// The pruning pass of COMPACT.md, kept apart from any text so the compact and Markdown renderings
// show exactly the same nodes and hints.
import { countNodes } from './envelope.js';
import { actionsWithoutFocus, hasNonFocusAction, isDrawnSurface, platformCount, platformFlag } from './fields.js';
import { isDrawnListMarker } from './list-markers.js';
import { clipDirection, intersectRect } from './rect.js';
import { normaliseWhitespace } from './text.js';
import type { CupDetail, CupEnvelope, CupNode, CupRect } from './types.js';

/** Clipped raw nodes per scroll direction: "above" the viewport is `up`, "below" is `down`. */
export interface ClipCounts {
  up: number;
  down: number;
  left: number;
  right: number;
}

export interface PrunedNode {
  kind: 'node';
  node: CupNode;
  /** Depth in the pruned tree (roots are 0), not in the raw tree. */
  depth: number;
}

export interface PrunedHint {
  kind: 'hint';
  /** One deeper than the node whose children were clipped. */
  depth: number;
  counts: ClipCounts;
  total: number;
  /** The items are a closed menu's, not scrolled away: opening the menu shows them. */
  closedMenu?: boolean;
  /** The closed menu is a combo box's list of choices, which set_value chooses from by a choice's text unopened. */
  choices?: boolean;
  /** The node's toolkit draws its items and exposes none of them (total 0): only the screenshot shows them. */
  notExposed?: boolean;
  /** The node is hidden (a side pane the app hides): scrolling it brings nothing in; showing it does. */
  hidden?: boolean;
}

export type PrunedItem = PrunedNode | PrunedHint;

export interface PrunedTree {
  /** Depth-first order; a hint follows the last item of its node's subtree. */
  items: PrunedItem[];
  /** Node items emitted (hints excluded). */
  keptCount: number;
  /** Every node of the raw tree. */
  rawCount: number;
}

/** A subtree of the pruned tree before it is flattened into depth-tagged items. */
type Branch =
  | { kind: 'node'; node: CupNode; children: Branch[] }
  | { kind: 'hint'; counts: ClipCounts; total: number; closedMenu?: boolean; choices?: boolean; notExposed?: boolean; hidden?: boolean };

type Direction = keyof ClipCounts;

// COMPACT.md also skips `status`; a status bar holds what an agent must read (a document's encoding and
// line count, a search's result count, a live region's message), so its content is kept like any other.
const SKIPPED_ROLES: ReadonlySet<string> = new Set(['scrollbar', 'separator', 'titlebar', 'tooltip']);

/** Live regions: what they say is their content, and empty they say nothing (isEmptyLiveRegion). */
const LIVE_REGION_ROLES: ReadonlySet<string> = new Set(['alert', 'status', 'log', 'marquee', 'timer']);

const LANDMARK_ROLES: ReadonlySet<string> = new Set([
  'region', 'document', 'main', 'complementary', 'navigation', 'search', 'banner', 'contentinfo', 'form',
]);

export function pruneTree(envelope: Pick<CupEnvelope, 'tree' | 'screen'>, detail: CupDetail = 'compact'): PrunedTree {
  const screen: CupRect = { x: 0, y: 0, w: envelope.screen.w, h: envelope.screen.h };
  const roots = envelope.tree;
  const branches =
    detail === 'full'
      ? roots.map(keepAll)
      : roots.flatMap((root) => visit(root, undefined, roots, screen, screen));
  const items: PrunedItem[] = [];
  flatten(branches, 0, items);
  return {
    items,
    keptCount: items.filter((item) => item.kind === 'node').length,
    rawCount: detail === 'full' ? countNodes(roots) : countOutsideClosedMenus(roots),
  };
}

/**
 * The nodes a view of what is shown counts: all but the items under closed menus, which a reading of what is shown
 * may or may not hold (it reads none, and the live mirror keeps those a whole reading read), so that the count of
 * the same window is the same either way.
 */
export function countOutsideClosedMenus(roots: readonly CupNode[]): number {
  return tallyClosedMenus(roots).outside;
}

/**
 * The items of closed menus and closed lists of choices, which a view of what is shown does not list: those opening
 * each outermost one shows, as its hint says. Not a submenu's inside it as well, which a reading of what is shown
 * never reads and the live mirror keeps once a whole reading read them: the same window gives the same count either way.
 */
export function countClosedMenuItems(roots: readonly CupNode[]): number {
  return tallyClosedMenus(roots).items;
}

/** The nodes outside closed menus (and closed lists of choices), and the items those menus hold, outermost ones only. */
function tallyClosedMenus(roots: readonly CupNode[], parent?: CupNode, tally = { outside: 0, items: 0 }): { outside: number; items: number } {
  const closedList = parent && closedChoiceList(parent);
  for (const node of roots) {
    tally.outside++;
    if (isClosedMenu(node) || node === closedList) tally.items += menuItemCount(node);
    // What a hidden container holds is counted where it was read: a reading of what is shown leaves it unread
    // (hidden-containers.ts), and none of it is then among the children, except where a live mirror keeps the window
    // (Chromium's hidden toolbars), whose readings all read it: there a reading of what is shown counts what a whole one does.
    else tallyClosedMenus(node.children ?? [], node, tally);
  }
  return tally;
}

function keepAll(node: CupNode): Branch {
  return { kind: 'node', node, children: [...(node.children ?? []).map(keepAll), ...unreadHint(node), ...closedMenuHint(unreadMenuItems(node), node.role === 'combobox')] };
}

/**
 * The count of a closed menu's items, where it has any: an empty one (Firefox's address bar's closed list) has nothing
 * to open for. `choices`: they are a combo box's choices, which set_value takes by their text without opening the list.
 */
function closedMenuHint(total: number, choices: boolean): Branch[] {
  return total > 0 ? [{ kind: 'hint', counts: noCounts(), total, closedMenu: true, ...(choices ? { choices: true } : {}) }] : [];
}

/**
 * A hint for the children a platform left unread (it read only the visible part of a container with
 * far more children than can be shown), carried as `unreadChildren: {up, down, left, right}` in the
 * node's platform fields. Unread children are not in the tree, so even detail `full` says they exist.
 */
function unreadHint(node: CupNode): Branch[] {
  const counts = unreadCounts(node);
  const total = counts.up + counts.down + counts.left + counts.right;
  return [...(total > 0 ? [{ kind: 'hint' as const, counts, total, ...hiddenHint(node) }] : []), ...notExposedHint(node)];
}

/**
 * Whether what a node holds unread is hidden with it: a container the app hides (Pluma's closed side pane and
 * the file browser of thousands of rows in it), or one not shown with no place at all (Caja's folder tree on a side
 * pane's page behind the shown one), has no part in view, so its reader counts every child as below, and "scroll
 * down" would bring none of them in. Only showing it does. A container scrolled out of view keeps its place.
 */
export function unreadWhileHidden(node: CupNode): boolean {
  return node.states?.includes('hidden') === true || (node.states?.includes('offscreen') === true && node.bounds === undefined);
}

function hiddenHint(node: CupNode): { hidden?: true } {
  return unreadWhileHidden(node) ? { hidden: true } : {};
}

/**
 * A hint for items the platform says its toolkit draws without exposing them (`itemsNotExposed` in the node's platform
 * fields): a tree view that looks empty in the tree, though its rows are on screen.
 */
function notExposedHint(node: CupNode): Branch[] {
  return platformFlag(node, 'itemsNotExposed') ? [{ kind: 'hint', counts: noCounts(), total: 0, notExposed: true }] : [];
}

function noCounts(): ClipCounts {
  return { up: 0, down: 0, left: 0, right: 0 };
}

/** The children a platform left unread under a node (its platform fields' unreadChildren), by direction. */
export function unreadCounts(node: CupNode): ClipCounts {
  const counts = noCounts();
  for (const fields of Object.values(node.platform ?? {})) {
    const unread = fields?.unreadChildren as Partial<Record<Direction, unknown>> | undefined;
    if (typeof unread !== 'object' || unread === null) continue;
    for (const direction of Object.keys(counts) as Direction[]) {
      const count = unread[direction];
      if (typeof count === 'number' && count > 0) counts[direction] += count;
    }
  }
  return counts;
}

/**
 * Prunes a node that has already passed (or, as a root or hoisted child, was exempt from) the clip
 * test, and returns what takes its place in its parent's child list.
 *
 * For the children of a hoisted node, `parent` is the hoisted node's own parent (the kept node they
 * end up under, or none at the top) and `siblings` are the hoisted node's raw children; they
 * inherit the viewport the hoisted node got, because a hoisted node never narrows the viewport even
 * if it could scroll, and they are not clip-tested themselves (COMPACT.md, Clarifications).
 */
function visit(node: CupNode, parent: CupNode | undefined, siblings: readonly CupNode[], viewport: CupRect, screen: CupRect): Branch[] {
  const rawChildren = node.children ?? [];
  if (isHoisted(node)) {
    return [...rawChildren.flatMap((child) => visit(child, parent, rawChildren, viewport, screen)), ...unreadHint(node)];
  }
  if (isSkipped(node, parent, siblings)) return [];

  if (isClosedMenu(node)) {
    // Hundreds of items of closed menus (an office suite has seven hundred) would crowd out the window's
    // own controls, and none can be seen until its menu opens: they are counted, not listed. The count is
    // of the items opening the menu shows, its own: a submenu's come with that submenu, and a read of what is
    // shown reads none of them (unreadMenuItems), only their number.
    return [{ kind: 'node', node, children: closedMenuHint(menuItemCount(node), node.role === 'combobox') }];
  }
  // An open menu's items are drawn in a popup of their own, over the window: the scroll pane around its menu bar
  // (LibreOffice docks its menu bar in one) does not clip them, as scrolling it would never bring them into view.
  const childViewport = isMenu(node)
    ? screen
    : node.bounds && node.actions?.includes('scroll')
      ? intersectRect(node.bounds, viewport)
      : viewport;
  const counts = noCounts();
  const children: Branch[] = [];
  // An editable combo box holds its text field beside its list of choices: the field is kept, a closed list counted.
  const closedList = closedChoiceList(node);
  for (const child of rawChildren) {
    if (child === closedList) {
      children.push(...closedMenuHint(menuItemCount(child), true));
      continue;
    }
    const direction = child.bounds && !spillsIntoView(child, childViewport, node) && clipDirection(child.bounds, childViewport);
    if (direction) {
      counts[direction] += countNodes([child]);
      continue;
    }
    children.push(...visit(child, node, rawChildren, childViewport, screen));
  }
  const unread = unreadCounts(node);
  for (const direction of Object.keys(counts) as Direction[]) counts[direction] += unread[direction];
  const total = counts.up + counts.down + counts.left + counts.right;
  if (total > 0) children.push({ kind: 'hint', counts, total, ...hiddenHint(node) });
  children.push(...notExposedHint(node));

  // A collapsed landmark's hint stays with its child: the clipped items were siblings of that child,
  // and dropping the hint would hide that there is more to scroll to.
  if (isCollapsibleLandmark(node, children)) return children;
  return [{ kind: 'node', node, children }];
}

/**
 * A node placed out of the view that shows what it holds there all the same, judged by its children: one of no size
 * that holds any (its box bounds nothing: Chromium gives its settings page's view managers no height), or one filling
 * the view or its parent in the direction it lies away (laid out to fill it, its content running past its edge: CSS
 * overflow left visible). Chromium's settings page puts the whole page in a main as tall as its scroller; scrolled past
 * that height, the main lay 933 px above the view, and every setting on screen read as "scroll up to see". A child
 * counts when it lies in the view, or is of no size, not off screen, and shows what it holds so.
 */
function spillsIntoView(node: CupNode, viewport: CupRect, parent: CupNode | undefined, depth = 0): boolean {
  const box = node.bounds;
  if (!box || !node.children?.length || depth > maxSpillDepth) return false;
  const empty = box.w === 0 || box.h === 0;
  const away = clipDirection(box, viewport);
  const room = parent?.bounds;
  const fills =
    away === 'up' || away === 'down' ? box.h >= Math.min(viewport.h, room?.h ?? viewport.h) : away !== undefined && box.w >= Math.min(viewport.w, room?.w ?? viewport.w);
  if (!empty && !fills) return false;
  return node.children.some((child) => {
    if (!child.bounds) return false;
    if (child.bounds.w === 0 || child.bounds.h === 0) return !child.states?.includes('offscreen') && spillsIntoView(child, viewport, node, depth + 1);
    return clipDirection(child.bounds, viewport) === undefined;
  });
}

/** How many boxes of no size inside one another spillsIntoView follows. */
const maxSpillDepth = 4;

// COMPACT.md hoists every unnamed generic and region; one that can be clicked (a web div with a click
// handler) is something an agent acts on, so it is kept. Scrolling alone does not keep it: a hoisted
// node's children are shown in its place and scroll with it.
function isHoisted(node: CupNode): boolean {
  if (wrapsItsControl(node)) return true;
  if (node.name || isLive(node)) return false;
  // A surface the app draws (a game's board) is where the agent clicks, by points in the screenshot: it stays, with its box.
  if (isDrawnSurface(node)) return false;
  // An unnamed text that holds objects (a web paragraph around a link) is a container: COMPACT.md would
  // skip it as empty text, and the link with it.
  if (node.role === 'text' && (node.children?.length ?? 0) > 0) return ownVerbs(node).length === 0;
  if (node.role === 'generic' || node.role === 'region') return !ownVerbs(node).some((action) => action !== 'scroll');
  return node.role === 'group' && !hasNonFocusAction(node);
}

/**
 * The verbs a node offers of its own: not focus, nor a click that is only its clickable ancestor's (Blink's
 * clickAncestor: a page listening for clicks on its body, as Sphinx's do, gives one to every paragraph, and the Python
 * documentation read each paragraph as a `txt [clk]` wrapper around another around its words).
 */
function ownVerbs(node: CupNode): string[] {
  return actionsWithoutFocus(node).filter((action) => !(action === 'click' && platformFlag(node, 'clicksAncestor')));
}

/**
 * What the compact view shows nothing of: a container it hoists that holds only such things, an unnamed image, an
 * unnamed text of no children. Chromium's settings menu items hold an icon's wrapper and a ripple, each clickable only
 * through the item, beside the words that name the item: counted as the words' siblings, they kept `txt "Appearance"`
 * under `mi "Appearance"` on every item.
 */
function showsNothing(node: CupNode): boolean {
  if (node.name || node.value !== undefined) return false;
  if (isHoisted(node)) return (node.children ?? []).every(showsNothing);
  return (node.role === 'img' || node.role === 'text') && !node.children?.length;
}

/** A menu, or a menu bar's entry (which holds its menu's items): what opens as a popup. */
function isMenu(node: CupNode): boolean {
  return node.role === 'menu' || node.role === 'menuitem';
}

/**
 * A combo box's list of choices when it has no place on screen: its popup is closed, whatever its items claim (Qt 5
 * keeps a closed combo box's items in the tree as shown, at the screen's corner, in a list of no size). Its choices
 * are a closed menu's items. The list is the combo box's one child, or sits beside the text field of one the user
 * types into (Okular's zoom, Kate's Find). A popup that is a menu is closed when it is hidden or off screen (GTK3's).
 */
function closedChoiceList(node: CupNode): CupNode | undefined {
  if (node.role !== 'combobox') return undefined;
  const lists = (node.children ?? []).filter((child) => child.role === 'list' || child.role === 'menu');
  if (lists.length !== 1) return undefined;
  const popup = lists[0]!;
  // A combo box that says it is collapsed has its popup closed: Gecko keeps a page's <select> options in a menu the
  // drop-down's size, the chosen one marked showing, and the compact view listed every option of a closed drop-down.
  if (node.states?.includes('collapsed')) return popup;
  const unseen = popup.states?.includes('offscreen') === true || popup.states?.includes('hidden') === true;
  // GTK3's closed combo box keeps its choices in a menu that is hidden and off screen, which the pruning skips as
  // unseen with its count: Transmission's "Show:" held 9 choices and the compact text said nothing of them.
  if (popup.role === 'menu') return unseen ? popup : undefined;
  const sized = popup.bounds !== undefined && popup.bounds.w > 0 && popup.bounds.h > 0;
  return !sized || unseen ? popup : undefined;
}

/** A combo box whose one child is its closed list of choices: the combo box is a closed menu. */
function hasClosedChoiceList(node: CupNode): boolean {
  return node.children?.length === 1 && closedChoiceList(node) !== undefined;
}

const menuItemRoles: ReadonlySet<string> = new Set(['menuitem', 'menuitemcheckbox', 'menuitemradio']);

/**
 * A button that holds the items (and separators) of the menu it opens (GTK3's menu tool button), none of them on screen.
 * A submenu among them (a menu holding its own items) is one of its items: Qalculate's unit and currency buttons end
 * their menus with "more", and each read its dozen items and the submenu line by line, where the others read a count.
 */
function isClosedMenuButton(node: CupNode): boolean {
  const children = node.children ?? [];
  const unseen = (child: CupNode) => child.states?.includes('offscreen') === true || child.states?.includes('hidden') === true;
  return (
    node.role === 'button' &&
    children.some((child) => menuItemRoles.has(child.role)) &&
    children.every((child) => (menuItemRoles.has(child.role) || child.role === 'menu' || child.role === 'separator') && unseen(child))
  );
}

/** A menu, or a menu bar's entry, none of whose items is on screen (or the platform read none, as closed): the menu is closed. */
export function isClosedMenu(node: CupNode): boolean {
  const children = node.children ?? [];
  if (hasClosedChoiceList(node) || isClosedMenuButton(node)) return true;
  if (!isMenu(node)) return false;
  if (children.length === 0) return unreadMenuItems(node) > 0;
  return children.every((child) => child.states?.includes('offscreen') || child.states?.includes('hidden'));
}

/**
 * The items opening a menu shows: its own, or those of its popup when that is its only child (Qt's menu-bar
 * entries, a combo box's list of choices), less those the app keeps hidden in it, which the platform counts where it
 * can tell (`hiddenMenuItems`: closed-menus.ts's itemsKeptHidden).
 */
function menuItemCount(node: CupNode): number {
  const children = node.children ?? [];
  const holder = children.length === 1 && (children[0]!.role === 'menu' || hasClosedChoiceList(node)) ? children[0]! : node;
  const list = scrolledChoiceList(holder);
  // A combo box's separator is no choice: File Roller's Location box, five places and a rule, read "# 6 more items".
  // (A menu's separators are counted, as the platform counts a closed menu's unread items: telling them apart there
  // costs a call per item, and a menu bar's closed menus hold hundreds.)
  const counted = (child: CupNode) => node.role !== 'combobox' || child.role !== 'separator';
  if (list) return (list.children ?? []).filter(counted).length + unreadMenuItems(list);
  // A group of choices under a heading (a page's <optgroup>) shows its choices: a <select> of four sizes in two
  // groups read "2 more items".
  const shown = (holder.children ?? []).reduce((sum, child) => sum + (!counted(child) ? 0 : child.role === 'group' && child.children?.length ? child.children.length : 1), 0);
  return Math.max(0, shown - platformCount(holder, 'hiddenMenuItems')) + unreadMenuItems(holder);
}

/** How deep a combo box's popup may wrap its list of choices in unnamed holders: a scroll pane and its viewport. */
const CHOICE_LIST_DEPTH = 3;

/**
 * The list of choices a combo box's popup holds inside a scroll pane (Java's JComboBox: popup menu > scroll pane >
 * viewport > list), found through unnamed groups and generics. Counted as its children, the popup held one scroll pane
 * of two children (the viewport and a scroll bar), and every Java combo box read "2 more items", Freeplane's font list too.
 */
function scrolledChoiceList(holder: CupNode, depth = 0): CupNode | undefined {
  if (depth >= CHOICE_LIST_DEPTH) return undefined;
  for (const child of holder.children ?? []) {
    if (child.role === 'list' && depth > 0) return child;
    if ((child.role === 'group' || child.role === 'generic') && !child.name) {
      const found = scrolledChoiceList(child, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The items of a closed menu the platform left unread (a read of what is shown only), carried as
 * `closedMenuItems` in the node's platform fields: not in the tree, so even detail `full` says they exist.
 */
export function unreadMenuItems(node: CupNode): number {
  return platformCount(node, 'closedMenuItems');
}

function isSkipped(node: CupNode, parent: CupNode | undefined, siblings: readonly CupNode[]): boolean {
  if (SKIPPED_ROLES.has(node.role)) return true;
  if (node.bounds && (node.bounds.w === 0 || node.bounds.h === 0)) return true;
  if (node.states?.includes('offscreen') && !hasNonFocusAction(node)) return true;
  // COMPACT.md keeps these for their actions.
  if (unseenAndUnreachable(node)) return true;
  if (node.role === 'img' && !node.name) return true;
  if (isEmptyLiveRegion(node)) return true;
  // A lone text child of a named node that only repeats the parent's name says nothing new. COMPACT.md
  // skips every lone text child of a named parent; that loses text that is not in the name, such as a web
  // page's output paragraph inside an unnamed div of a named document. The marker Blink exposes before a list item's
  // words is no sibling (it goes too): Chromium's `li "Milk"` read with `txt "Milk"` under it, a line per item.
  // Nor is a sibling that draws no words, named by its tool tip: Blink's heading "Widgets manual" beside its permalink,
  // an icon named "Permalink to this heading" by its title, read `txt "Widgets manual"` under it once more.
  const lone = siblings.filter((sibling) => !isDrawnListMarker(sibling, parent) && !showsNothing(sibling) && !namedByToolTip(sibling)).length === 1;
  // An unnamed text that holds objects and acts (Gecko's custom element host with a click listener, around the button
  // its shadow root holds) is kept as the clickable container it is: skipped, it took that button with it.
  if (node.role === 'text' && !node.name && !(node.children?.length)) return true;
  if (node.role === 'text' && node.name && lone && repeatsName(parent?.name, node.name)) return true;
  if (isGroupCaption(node, parent)) return true;
  if (spellsItsRow(node, parent)) return true;
  if (node.role === 'text' && spelledByParent(parent).has(node)) return true;
  if (labelsSiblingControl(node, siblings)) return true;
  if (isDrawnListMarker(node, parent)) return true;
  return false;
}

/** A control named by its tool tip (its description), which shows no words of its own: an icon button or link. */
function namedByToolTip(node: CupNode): boolean {
  return node.role !== 'text' && node.description !== undefined && node.name === node.description;
}

/**
 * A text that is a label and nothing else: named, with no value and no state besides read-only or disabled, and no
 * action but the click a web page's <label> has (Blink's and Gecko's), which does what a click on its control does.
 */
function isPlainLabel(node: CupNode): node is CupNode & { name: string } {
  if (node.role !== 'text' || !node.name || node.value !== undefined) return false;
  if (node.actions?.some((action) => action !== 'click')) return false;
  return !node.states?.some((state) => state !== 'readonly' && state !== 'disabled');
}

/**
 * A page's <label> around the control it names (`<label>E-mail <input></label>`): the control alone says it, by its
 * words, or by its words and the value it shows (a <select> in its label reads "Shipping Standard"). Hoisted, the
 * label's line goes and the control takes its place; a web form read `txt "E-mail" [clk]` over `tbx "E-mail"`.
 */
function wrapsItsControl(node: CupNode): boolean {
  if (!isPlainLabel(node) || node.states?.includes('disabled') || !node.children?.length) return false;
  // Beside the control, the words in a span of their own (`<label><input type=checkbox><span>Show only
  // modified</span></label>`, about:config's): texts saying none but the label's words, or nothing at all.
  const controls = node.children.filter((child) => !showsNothing(child) && !(child.role === 'text' && !child.children?.length && repeatsName(node.name, child.name)));
  if (controls.length !== 1) return false;
  const control = controls[0]!;
  if (control.role === 'text' || control.name === undefined || !hasNonFocusAction(control)) return false;
  const words = normaliseWhitespace(node.name);
  const name = normaliseWhitespace(control.name);
  if (words === name) return true;
  // Its words and a choice it shows: the one it holds, or another of its choices, as Gecko leaves the label's words as
  // they were when the page loaded ("Shipping Standard" over `cmb "Shipping" val="Express"`, after a choice).
  const shown = [control.value, ...choicesOf(control)];
  return shown.some((choice) => choice !== undefined && words === normaliseWhitespace(`${name} ${choice}`));
}

/** The names of a combo box's choices (its options, or its menu's items). */
function choicesOf(control: CupNode): string[] {
  if (control.role !== 'combobox') return [];
  const items = (control.children ?? []).flatMap((child) => (child.role === 'menu' || child.role === 'list' ? (child.children ?? []) : [child]));
  return items.filter((item) => item.role === 'option' || item.role === 'menuitem' || item.role === 'listitem').map((item) => item.name);
}

/**
 * A label beside the control it names (a form's row: Qt's and GTK's "Theme:" before a combo box named "Theme:", a
 * page's <label>): the control's line says its words, and the label's line said them again, a line per field of every
 * form. Only a plain label goes (no action, value, child or state besides read-only, or disabled beside a disabled
 * control), and only beside a control on screen named by exactly its words, or holding one as its own child
 * (KeePassXC's password box names the field inside).
 */
function labelsSiblingControl(node: CupNode, siblings: readonly CupNode[]): boolean {
  if (!isPlainLabel(node) || node.children?.length) return false;
  // A label greyed out with its control (qt5ct's "Color scheme:" beside its disabled combo box) says no more than it.
  const disabled = node.states?.includes('disabled') === true;
  const words = normaliseWhitespace(node.name);
  const namedControl = (candidate: CupNode) =>
    candidate.role !== 'text' &&
    (!disabled || candidate.states?.includes('disabled') === true) &&
    candidate.name !== undefined &&
    normaliseWhitespace(candidate.name) === words &&
    hasNonFocusAction(candidate) &&
    !candidate.states?.includes('offscreen') &&
    !(candidate.bounds && (candidate.bounds.w === 0 || candidate.bounds.h === 0));
  return siblings.some((sibling) => sibling !== node && (namedControl(sibling) || (sibling.role !== 'text' && (sibling.children ?? []).some(namedControl))));
}

/**
 * A group's caption, which names the group: GTK 2 and 3 name a frame by its label and list that label among the
 * frame's children, after what the frame holds (gpicview's Preferences read `grp "Background colors"` and, under it,
 * `txt "Background colors"` once more, below the colour buttons). Only a plain text of exactly the group's words.
 */
function isGroupCaption(node: CupNode, parent: CupNode | undefined): boolean {
  if (node.role !== 'text' || parent?.role !== 'group' || !node.name || !parent.name) return false;
  if (node.children?.length || node.actions?.length || node.value !== undefined) return false;
  return normaliseWhitespace(node.name) === normaliseWhitespace(parent.name);
}

/**
 * A live region holding nothing (no name, value or child): a message's place before any message, which says nothing,
 * whatever actions it lists. Firefox keeps one in its own interface, unnamed and with no box, whose "click ancestor"
 * action made every reading of a Firefox window end with a bare `alrt [clk]`.
 */
function isEmptyLiveRegion(node: CupNode): boolean {
  return LIVE_REGION_ROLES.has(node.role) && !node.name && !node.value && !node.children?.length;
}

/**
 * A cell that only spells part of its row's name, as every cell of that row does (a terminal's process table: top's
 * and htop's rows are named by their line and hold a cell per column, its header a column header per name): the row's
 * line says all its cells do, which listed one per line made the compact text of top three times as long. Cells that
 * can be acted on, hold a value or have states are kept; the JSON envelope and the structured elements keep them all.
 */
function spellsItsRow(node: CupNode, parent: CupNode | undefined): boolean {
  if ((node.role !== 'cell' && node.role !== 'columnheader') || !parent?.name || (parent.role !== 'listitem' && parent.role !== 'columnheader')) return false;
  const cells = parent.children ?? [];
  const bare = (cell: CupNode) => (cell.role === 'cell' || cell.role === 'columnheader') && !cell.children?.length && !cell.actions?.length && cell.value === undefined && !cell.states?.length;
  // Spaces aside: htop's header runs its sort arrow into the next name ("PID△USER"), which its cells cut apart.
  const letters = (text: string) => text.replace(/\s+/g, '');
  return cells.every(bare) && letters(parent.name) === letters(cells.map((cell) => cell.name).join(''));
}

/**
 * The texts among a parent's children whose words, with its other children's, read in order, are the parent's name: a
 * page's search result highlights the words it matched in spans of their own, and Sphinx's `lnk "dataclasses"` read
 * `txt "dataclass"` and `txt "es"` under it, its list item its link and four texts saying its name again. Children the
 * view hoists (an unnamed span) are read through, what it shows nothing of left out; the texts (no verb of their own,
 * nothing inside) go, as the parent's line says their words in their order. Any other child keeps its line.
 */
function spelledByParent(parent: CupNode | undefined): ReadonlySet<CupNode> {
  if (!parent?.name || !parent.children?.length) return noNodes;
  const known = spelledTexts.get(parent);
  if (known) return known;
  const spoken: CupNode[] = [];
  const gather = (children: readonly CupNode[]): boolean =>
    children.every((child) => {
      if (showsNothing(child) || isDrawnListMarker(child, parent)) return true;
      if (isHoisted(child)) return gather(child.children ?? []);
      spoken.push(child);
      return child.name !== '';
    });
  const letters = (text: string) => text.replace(/\s+/g, '');
  const texts = gather(parent.children) && spoken.length > 1 && letters(spoken.map((child) => child.name).join('')) === letters(parent.name)
    ? new Set(spoken.filter((child) => child.role === 'text' && !child.children?.length && ownVerbs(child).length === 0))
    : noNodes;
  spelledTexts.set(parent, texts);
  return texts;
}

const noNodes: ReadonlySet<CupNode> = new Set();
/** spelledByParent's answers, by parent: asked once per child. */
const spelledTexts = new WeakMap<CupNode, ReadonlySet<CupNode>>();

/**
 * Hidden by the app and not on screen (a browser's unused toolbar buttons, a maximized window's Restore, the rows of
 * the list view Qt's file dialog keeps undrawn beside its detail view): nothing there to see or reach, whatever
 * actions it lists.
 */
export function unseenAndUnreachable(node: CupNode): boolean {
  return node.states?.includes('offscreen') === true && node.states.includes('hidden');
}

/** The text appears in the name as whole words (GTK names a button after its label, "Save", or more, "Save As"). */
export function repeatsName(name: string | undefined, text: string): boolean {
  if (!name) return false;
  const haystack = ` ${normaliseWhitespace(name).toLowerCase()} `;
  const needle = normaliseWhitespace(text).toLowerCase();
  if (haystack.includes(` ${needle} `)) return true;
  const at = haystack.indexOf(needle);
  if (at < 0) return false;
  // Also whole words when punctuation rather than a space borders them ("Save:" in "Save: document").
  const wordChar = /[\p{L}\p{N}]/u;
  return !wordChar.test(haystack[at - 1] ?? ' ') && !wordChar.test(haystack[at + needle.length] ?? ' ');
}

/**
 * A region that says a reader announces its changes (aria-live): an unnamed one stays, or its words would lose the
 * marker telling so (Blink makes a page's aria-live div such a region, and its "Saved 1 times" read as plain text).
 */
function isLive(node: CupNode): boolean {
  return node.attributes?.live !== undefined;
}

function isCollapsibleLandmark(node: CupNode, children: readonly Branch[]): boolean {
  return (
    LANDMARK_ROLES.has(node.role) &&
    !node.name &&
    !isLive(node) &&
    !hasNonFocusAction(node) &&
    children.filter((child) => child.kind === 'node').length === 1
  );
}

function flatten(branches: readonly Branch[], depth: number, items: PrunedItem[]): void {
  for (const branch of branches) {
    if (branch.kind === 'hint') {
      items.push({ kind: 'hint', depth, counts: branch.counts, total: branch.total, ...(branch.closedMenu ? { closedMenu: true } : {}), ...(branch.choices ? { choices: true } : {}), ...(branch.notExposed ? { notExposed: true } : {}), ...(branch.hidden ? { hidden: true } : {}) });
    } else {
      items.push({ kind: 'node', node: branch.node, depth });
      flatten(branch.children, depth + 1, items);
    }
  }
}
