// The object with the keyboard focus where a window's walk does not reach it. Qt lists an item view's in-place
// editor among no object's children, though the editor's parent chain leads up to the view: PCManFM-Qt's rename
// field, opened by F2 and drawn over the file's icon with the name selected, was missing from the tree, the diff
// and the focused element (type_text with no element went to the tab bar's current tab). Such an object, focused
// and showing, is read with its subtree and added under the nearest of its ancestors the walk holds, after that
// ancestor's own children. GTK3 does the same with a tree view's in-place cell editor (the entry a Return or a click
// on an editable cell opens), in windows whose reads come from their live mirror, to which the rule applies too.
// GTK3 also lists no menu a widget pops up itself (gtk_menu_popup, as Gnumeric's GOOptionMenu does for Format Cells'
// Style:, Underline: and Script:) among its button's children, though the menu's parent is that button; it announces
// the item under the pointer focused and marks it SELECTED, never FOCUSED. The first time such a menu opened it made
// no other announcement, and the click read "no effect seen" with the menu on screen: a showing menu, or a showing
// menu item that says SELECTED, the focus last announced in is such a popup's, and is added as a focused object is.
// What such an object was added under stays there once the focus leaves it: Qt's item view keeps the widgets an app sets
// on its cells (QTreeWidget::setItemWidget: DB Browser for SQLite's Type combo box in each row of its table editor) in
// the viewport that holds the in-place editor, which the view does not list either. They were read while the editor had
// the focus and left the tree, on screen all the while, once a Return committed the edit.
import { ATSPI_ROLE, ATSPI_STATE } from '../../../cup/atspi/constants.js';
import type { AtspiRawNode } from '../../../cup/atspi/raw-node.js';
import { hasState } from '../../../cup/atspi/states.js';
import type { AtspiClient } from './client.js';
import { ancestry, parentOf, readRole, readStates } from './operations.js';
import { readTree, type ReadTreeOptions, type ReadTreeResult } from './tree-reader.js';

/** The most nodes read under an object added this way (an editor holds a handful). */
const maxAddedNodes = 200;

const menuRoles: ReadonlySet<number> = new Set([ATSPI_ROLE.MENU, ATSPI_ROLE.POPUP_MENU]);
const menuItemRoles: ReadonlySet<number> = new Set([ATSPI_ROLE.MENU_ITEM, ATSPI_ROLE.CHECK_MENU_ITEM, ATSPI_ROLE.RADIO_MENU_ITEM]);

/**
 * Whether the object the app last announced focused holds the focus now, as its states and role say: FOCUSED, or (GTK3's
 * popup menus, see the file's comment) a menu, or a menu item that says SELECTED.
 */
async function holdsFocus(client: AtspiClient, ref: { bus: string; path: string }, states: readonly number[]): Promise<boolean> {
  if (hasState(states, ATSPI_STATE.FOCUSED)) return true;
  const role = await readRole(client, ref).catch(() => undefined);
  return role !== undefined && (menuRoles.has(role) || (menuItemRoles.has(role) && hasState(states, ATSPI_STATE.SELECTED) === true));
}

/**
 * Focused objects' ancestors as last asked, by bus and path, for the reads of the app's other windows, which the
 * focus is not in: each would ask the whole chain again. An object keeps its place while it lives.
 */
const ancestors = new Map<string, string[]>();
const maxRemembered = 64;

async function ancestorsOf(client: AtspiClient, ref: { bus: string; path: string }): Promise<string[]> {
  const key = `${ref.bus}${ref.path}`;
  const known = ancestors.get(key);
  if (known) return known;
  const { paths } = await ancestry(client, ref);
  if (ancestors.size >= maxRemembered) ancestors.delete(ancestors.keys().next().value!);
  ancestors.set(key, paths);
  return paths;
}

/** Whether the tree holds the object at `path`. */
function holds(node: AtspiRawNode, path: string): boolean {
  return node.path === path || node.children.some((child) => holds(child, path));
}

/** The chain of nodes from the root to each node the tree holds, by path. */
function chainsOf(root: AtspiRawNode): Map<string, AtspiRawNode[]> {
  const chains = new Map<string, AtspiRawNode[]>();
  const visit = (node: AtspiRawNode, above: AtspiRawNode[]) => {
    const chain = [...above, node];
    chains.set(node.path, chain);
    for (const child of node.children) visit(child, chain);
  };
  visit(root, []);
  return chains;
}

/**
 * Whether two objects are one thing on screen: the same role, name and box. Qt announces the focus on a tree view's
 * cell through an object made for the announcement, no child of the view though the view lists the cell itself: JuffEd's
 * settings, its Editor page chosen, read `cel "Editor" {foc,sel}` twice, the second after the last page's cell.
 */
function twins(one: AtspiRawNode, other: AtspiRawNode): boolean {
  const [a, b] = [one.extents, other.extents];
  return one.role === other.role && one.name === other.name && a !== undefined && b !== undefined && a.x === b.x && a.y === b.y && a.w === b.w && a.h === b.h;
}

/** The tree with `added` appended to the children of the last node of `chain`, the nodes on the way copied, not changed. */
function withChild(chain: readonly AtspiRawNode[], added: AtspiRawNode): AtspiRawNode {
  const [node, ...rest] = chain;
  if (rest.length === 0) return { ...node!, children: [...node!.children, added], childCount: node!.childCount + 1 };
  const next = rest[0]!;
  return { ...node!, children: node!.children.map((child) => (child === next ? withChild(rest, added) : child)) };
}

/**
 * The objects added this way, by client (each its own accessibility bus, whose bus names another display's bus reuses)
 * and bus: each the highest ancestor of the focus its parent did not list, with the path of that parent (see the file's
 * comment). A few per app: one per item view whose editor had the focus.
 */
const unlistedFound = new WeakMap<AtspiClient, Map<string, Map<string, string>>>();
const maxUnlistedPerApp = 8;
/** How many unlisted objects deep the focus is looked for, each under the one before. */
const maxUnlistedLevels = 4;
const plainRoles: ReadonlySet<number> = new Set([ATSPI_ROLE.FILLER, ATSPI_ROLE.PANEL]);

/** Whether the node holds, showing, something other than plain containers holding nothing shown (an empty viewport). */
function showsContent(node: AtspiRawNode): boolean {
  return node.children.some((child) => hasState(child.states, ATSPI_STATE.SHOWING) && (!plainRoles.has(child.role) || showsContent(child)));
}

function unlistedOf(client: AtspiClient): Map<string, Map<string, string>> {
  let byBus = unlistedFound.get(client);
  if (!byBus) unlistedFound.set(client, (byBus = new Map()));
  return byBus;
}

function rememberUnlisted(client: AtspiClient, bus: string, top: string, parent: string): void {
  const byBus = unlistedOf(client);
  const found = byBus.get(bus) ?? new Map<string, string>();
  found.delete(top);
  if (found.size >= maxUnlistedPerApp) found.delete(found.keys().next().value!);
  found.set(top, parent);
  byBus.set(bus, found);
}

/**
 * `read` with `top` read and added under the node at `parent`, when the read holds that node and all it lists, and
 * `top` is no twin of what it lists; undefined otherwise. `shownContent`: only when `top` holds something showing.
 */
async function withUnlisted(client: AtspiClient, read: ReadTreeResult, chains: Map<string, AtspiRawNode[]>, top: { bus: string; path: string }, parent: string, options: ReadTreeOptions, shownContent: boolean): Promise<(ReadTreeResult & { addedPaths: string[] }) | undefined> {
  const chain = chains.get(parent);
  const holder = chain?.at(-1);
  // Where the walk left some of the listed children unread (out of view in a read of what is shown, past a cap), the
  // object may be among them, and is left out with them.
  if (!chain || !holder || read.truncated || holder.children.length < holder.childCount) return undefined;
  const added = await readTree(client, top, { ...options, maxNodes: Math.min(options.maxNodes, maxAddedNodes) }).catch(() => undefined);
  if (!added?.root || added.failure || holder.children.some((child) => twins(child, added.root!))) return undefined;
  if (shownContent && !showsContent(added.root)) return undefined;
  // The added objects were read now: a mirror's read that says which objects it read (MirrorRead.current) counts them.
  return { ...read, root: withChild(chain, added.root), nodeCount: read.nodeCount + added.nodeCount, calls: read.calls + added.calls + 1, addedPaths: [...chainsOf(added.root).keys()] };
}

/** `read` with the app's focused object added where the walk did not reach it and its ancestors lead into the window. */
async function withFocused(client: AtspiClient, read: ReadTreeResult, bus: string, options: ReadTreeOptions): Promise<ReadTreeResult & { addedPaths?: string[] }> {
  const path = client.events.focusedIn(bus);
  if (!path || !read.root || read.failure || read.root.bus !== bus) return read;
  // Looked for before the chains are built: the focus is nearly always in the tree, and a mirrored read is a few ms.
  if (holds(read.root, path)) return read;
  const ref = { bus, path };
  const states = await readStates(client, ref).catch(() => undefined);
  if (!states || !hasState(states, ATSPI_STATE.SHOWING) || !(await holdsFocus(client, ref, states))) return read;
  const paths = await ancestorsOf(client, ref);
  // An object added may itself not list the next one down: DB Browser for SQLite's column filter field lies in a header
  // widget the table does not list, which lists only its empty viewport. Each is added under the one before, down to
  // the focus.
  let result: ReadTreeResult & { addedPaths?: string[] } = read;
  for (let level = 0; level < maxUnlistedLevels && !holds(result.root!, path); level++) {
    const chains = chainsOf(result.root!);
    const held = paths.findIndex((ancestor) => chains.has(ancestor));
    // The focus is in another window of the app (or the walk reached none of its ancestors).
    if (held < 0) return result;
    // The highest ancestor the walk missed is what its parent does not list: it is added with what it holds.
    const top = held === 0 ? ref : { bus, path: paths[held - 1]! };
    const added = await withUnlisted(client, result, chains, top, paths[held]!, options, false);
    if (!added) return result;
    rememberUnlisted(client, bus, top.path, paths[held]!);
    result = { ...added, addedPaths: [...(result.addedPaths ?? []), ...added.addedPaths] };
  }
  return result;
}

/**
 * `read` with the objects the focus once led to (rememberUnlisted) added again under their parent, where the read holds
 * it and not them: each still that parent's child, showing, and holding something showing (an item view's viewport once
 * its editor closed holds only the widgets on its cells, if any). One that is gone is forgotten.
 */
async function withRemembered(client: AtspiClient, read: ReadTreeResult & { addedPaths?: string[] }, bus: string, options: ReadTreeOptions): Promise<ReadTreeResult & { addedPaths?: string[] }> {
  const found = unlistedFound.get(client)?.get(bus);
  if (!found || !read.root || read.failure || read.root.bus !== bus) return read;
  let result = read;
  // The tree's chains are built once, and again only after an object was added to it.
  let chains = chainsOf(result.root!);
  for (const [top, parent] of [...found]) {
    if (chains.has(top) || !chains.has(parent)) continue;
    const ref = { bus, path: top };
    const [parentNow, states] = await Promise.all([parentOf(client, ref).catch(() => undefined), readStates(client, ref).catch(() => undefined)]);
    // Qt gives a destroyed object's path to the next one it makes: a path that no longer has that parent is forgotten.
    if (parentNow?.path !== parent || !states || hasState(states, ATSPI_STATE.DEFUNCT)) {
      found.delete(top);
      continue;
    }
    if (!hasState(states, ATSPI_STATE.SHOWING)) continue;
    const added = await withUnlisted(client, result, chains, ref, parent, options, true);
    if (!added) continue;
    result = { ...added, addedPaths: [...(result.addedPaths ?? []), ...added.addedPaths] };
    chains = chainsOf(result.root!);
  }
  return result;
}

/**
 * `read` (a walk of the window from its top level, on `bus`) with the app's focused object added where the walk did
 * not reach it and its ancestors lead into the window, and what the focus led to before added again (see the file's
 * comment). Anything unreadable leaves `read` as it is.
 */
export async function withFocusOutsideTree(client: AtspiClient, read: ReadTreeResult, bus: string, options: ReadTreeOptions): Promise<ReadTreeResult & { addedPaths?: string[] }> {
  return withRemembered(client, await withFocused(client, read, bus, options), bus, options);
}
