import { setTimeout as sleep } from 'node:timers/promises';
import { ATSPI_ROLE } from '../../../cup/atspi/constants.js';
import type { AtspiClient } from '../atspi/client.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import {
  actionNames, childCount, children, clearSelection, deselectSelectedChild, deselectTableRow, doAction, grabFocus, indexInParent, isChildSelected, parentOf, readInterfaces, readRole, selectChild,
  selectedChild, selectedCount, selectedTableRows, selectTableRow, tableRowOf,
} from '../atspi/operations.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { liveStates } from './live-states.js';
import { quirksFor } from '../atspi/toolkit.js';
import { deselectOtherNodes, treeNodePlace, type TreeNodePlace } from './tree-node-selection.js';

/**
 * Items of lists, trees, tables, tab strips and icon views (AT-SPI list item, page tab, table cell, table row, tree
 * item, icon). A real click on one selects it; their toolkits' own "activate" (GTK's row activation, an icon view's
 * item activation) is what a double click does, so it cannot stand in for a click: a background click on a file's
 * icon in PCManFM (GTK's icon view, whose items offer only "activate") opened the file in AbiWord. An icon counts
 * only where it is one (selectable, in a container with Selection), not a toolbar's picture.
 */
const itemRoles = new Set([ATSPI_ROLE.LIST_ITEM, ATSPI_ROLE.PAGE_TAB, ATSPI_ROLE.TABLE_CELL, ATSPI_ROLE.TABLE_ROW, ATSPI_ROLE.TREE_ITEM, ATSPI_ROLE.ICON]);

/**
 * An object of another role that says SELECTABLE, in a container with Selection, and offers no action of its own: a
 * click can only select it, as a person's does. LibreOffice Impress's slide sorter shows its slides as panels of a
 * document with Selection: the reading offered them as selectable, and a background click on "Slide 1" was refused as
 * having no action, so an agent could not move between slides without real input.
 */
async function selectableWithoutAction(desktop: LinuxDesktop, object: ObjectRef): Promise<boolean> {
  if (!(await liveStates(desktop, object)).has('STATE_SELECTABLE')) return false;
  const client = await desktop.atspi();
  // An object without the Action interface (LibreOffice's panels) has no action, and asking it for names fails.
  if ((await readInterfaces(client, object)).includes('Action') && (await actionNames(client, object)).length > 0) return false;
  const container = await parentOf(client, object);
  return container !== undefined && (await readInterfaces(client, container)).includes('Selection');
}

/** Where a click selects an item: the container that owns the selection, and the item's index in it. */
export interface ItemSelection {
  container: ObjectRef;
  /** The container's interfaces: a table can also select the item's whole row. */
  containerInterfaces: readonly string[];
  index: number;
  /** The item that gets selected: the target, or the item it lies in (a GTK3 tree cell's inner cell). */
  item: ObjectRef;
  /**
   * The item's own action that flips its selection, where its container selects through no Selection interface: Qt 5's
   * item views (tables, trees, lists) have only Table, and a cell's Toggle selects it, or deselects it when selected.
   */
  toggle?: number;
  /**
   * The item's own action that selects it as a click does, where the container's Selection would select it unheard by
   * the page (ToolkitQuirks.selectionUnheardInPages): Gecko's option of a <select multiple> offers "select", which
   * selects it alone and fires the page's input and change, where SelectChild selected it in silence.
   */
  selectAction?: number;
  /**
   * The item is a cell of a tree view whose Selection leaves the view's cursor where it was (selectionLeavesCursor),
   * in the active window: it is selected by focusing it, which moves the cursor too, as a click does. Poedit's editor
   * shows its list's cursor row: a row selected through Selection read selected while the editor showed the first,
   * and a Down key went on from the first. Behind other windows that focus would present the window, and is not used.
   */
  cursor?: true;
  /** The item is a node of a tree whose nodes take their renderer's role (Java's JTree): where it lies in that tree. */
  treeNode?: TreeNodePlace;
}

async function selectableIn(desktop: LinuxDesktop, item: ObjectRef, role: number, windowActive: boolean): Promise<ItemSelection | undefined> {
  const client = await desktop.atspi();
  // Java's tree nodes say LABEL and never SELECTABLE, and their parent node's Selection selects them.
  const treeNode = role === ATSPI_ROLE.LABEL ? await treeNodePlace(client, item, role) : undefined;
  if (!itemRoles.has(role) && !treeNode && !(await selectableWithoutAction(desktop, item))) return undefined;
  // A tab is chosen by selecting it in its tab list whether it says SELECTABLE or not: GTK 2's GAIL marks no page tab
  // selectable (nor the current one selected), and the tab list's Selection switches its pages all the same.
  const marked = role === ATSPI_ROLE.PAGE_TAB || treeNode !== undefined || (await liveStates(desktop, item)).has('STATE_SELECTABLE');
  if (!marked && !quirksFor(await client.toolkitOf(item.bus).catch(() => undefined)).selectableUnmarked) return undefined;
  const container = await parentOf(client, item);
  if (!container) return undefined;
  const containerInterfaces = await readInterfaces(client, container);
  const toggle = containerInterfaces.includes('Selection') ? undefined : await selectionToggle(desktop, item, containerInterfaces);
  if (!containerInterfaces.includes('Selection') && toggle === undefined) return undefined;
  const index = await indexInParent(client, item);
  const selectAction = toggle === undefined ? await pageSelectAction(client, item) : undefined;
  const cursor = windowActive && role === ATSPI_ROLE.TABLE_CELL && containerInterfaces.includes('Table') && (await client.quirksOf(item.bus)).selectionLeavesCursor;
  return index !== undefined ? { container, containerInterfaces, index, item, ...(toggle !== undefined ? { toggle } : {}), ...(selectAction !== undefined ? { selectAction } : {}), ...(cursor ? { cursor } : {}), ...(treeNode ? { treeNode } : {}) } : undefined;
}

/**
 * The index of a table item's "toggle" action when that action flips the item's selection: the item of a table without
 * Selection (Qt 5's views), not a check box cell, whose toggle flips its check. A background click performed that
 * toggle as a click: a click on the selected cell deselected it, confirmed as `-sel`, and a click on another added it
 * to the selection, where a person's click selects the item alone.
 */
async function selectionToggle(desktop: LinuxDesktop, item: ObjectRef, containerInterfaces: readonly string[]): Promise<number | undefined> {
  if (!containerInterfaces.includes('Table') || (await liveStates(desktop, item)).has('STATE_CHECKABLE')) return undefined;
  const index = (await actionNames(await desktop.atspi(), item)).findIndex((name) => name.trim().toLowerCase() === 'toggle');
  return index >= 0 ? index : undefined;
}

/** The index of the item's "select" action where its toolkit's Selection leaves a page unaware (see ItemSelection.selectAction). */
async function pageSelectAction(client: AtspiClient, item: ObjectRef): Promise<number | undefined> {
  if (!(await client.quirksOf(item.bus)).selectionUnheardInPages) return undefined;
  const index = (await actionNames(client, item).catch(() => [])).findIndex((name) => name.trim().toLowerCase() === 'select');
  return index >= 0 ? index : undefined;
}

/**
 * How a click on this object selects it through accessibility, when it is a selectable item of a
 * container with the Selection interface (or lies directly inside such an item); otherwise undefined.
 * `windowActive`: its window is the active one (see ItemSelection.cursor).
 */
export async function itemSelectionFor(desktop: LinuxDesktop, object: ObjectRef, role: number, windowActive: boolean): Promise<ItemSelection | undefined> {
  try {
    const own = await selectableIn(desktop, object, role, windowActive);
    if (own || !itemRoles.has(role)) return own;
    const client = await desktop.atspi();
    const parent = await parentOf(client, object);
    return parent ? await selectableIn(desktop, parent, await readRole(client, parent), windowActive) : undefined;
  } catch {
    // The item or its container went away, or lacks what it advertised: no selection path.
    return undefined;
  }
}

/**
 * Selects the item alone, as a person's plain click does, and says whether it is selected: unless it already is the
 * one selected item (GTK refuses to select a selected row again). A GTK3 tree view with more than one column refuses
 * SelectChild; its Table interface selects the cell's row instead. A container that lets several items be selected
 * adds the item to its selection (GTK's icon view, which does not even say it is multi-selectable): PCManFM then
 * held two files selected, and a double click on a folder opened the other file too. The others are then deselected
 * one by one, after the item is selected, so the selection never passes through none (PCManFM disables its Cut for
 * a moment when it does).
 */
export async function selectItem(desktop: LinuxDesktop, selection: ItemSelection): Promise<boolean> {
  const client = await desktop.atspi();
  const states = await liveStates(desktop, selection.item);
  // Focused, the cell is the cursor's and selected with the others deselected (GTK's set_cursor), as by a click.
  if (selection.cursor && !states.has('STATE_FOCUSED') && (await grabFocus(client, selection.item).catch(() => false))) {
    await untilSelected(desktop, selection);
  } else if (selection.selectAction !== undefined) {
    // Performed even on a selected item: a click selects it alone, and the page hears the others leave.
    if (!(await doAction(client, selection.item, selection.selectAction))) return false;
    await untilSelected(desktop, selection);
  } else if (!(await itemSelected(desktop, selection, states))) {
    const selected =
      selection.toggle !== undefined
        ? await doAction(client, selection.item, selection.toggle)
        : (await selectChild(client, selection.container, selection.index)) ||
          (selection.containerInterfaces.includes('Table') && (await selectTableRow(client, selection.container, selection.index)));
    if (!selected) return false;
    if (!(await untilSelected(desktop, selection)) && selection.toggle === undefined) await selectAfterClearing(desktop, selection);
  }
  if (selection.treeNode) {
    await deselectOtherNodes(desktop, selection.treeNode, (await client.quirksOf(selection.container.bus)).deselectsByChildIndex);
    return true;
  }
  if (selection.containerInterfaces.includes('Table') && (await deselectOtherRows(client, selection))) return true;
  if (selection.toggle !== undefined) {
    await toggleOthersOff(desktop, selection);
    return true;
  }
  const count = await selectedCount(client, selection.container).catch(() => 0);
  const byChildIndex = (await client.quirksOf(selection.container.bus)).deselectsByChildIndex;
  // From the last, so the places of those still to look at stay put. Every selected child but the item is
  // deselected, even when the count is one: a count read before the app shows the item selected holds the others only.
  for (let nth = Math.min(count, maxDeselected) - 1; nth >= 0; nth--) {
    const child = await selectedChild(client, selection.container, nth).catch(() => undefined);
    if (!child || child.path === selection.item.path) continue;
    const index = byChildIndex ? await indexInParent(client, child).catch(() => undefined) : nth;
    if (index !== undefined) await deselectSelectedChild(client, selection.container, index).catch(() => false);
  }
  return true;
}

/**
 * Selects the item again once the container holds nothing selected: a list that takes one selected item may leave its
 * selection as it was when asked to add another (Gecko's XUL richlistbox: Firefox's settings categories kept "General"
 * for SelectChild of "Privacy & Security", which answered true), and the others deselected after it then left none
 * selected and the page unswitched, the click confirmed by "General: -sel". Only a container that names other items
 * selected is cleared, and only when the item did not take.
 */
async function selectAfterClearing(desktop: LinuxDesktop, selection: ItemSelection): Promise<void> {
  const client = await desktop.atspi();
  if ((await selectedCount(client, selection.container).catch(() => 0)) === 0) return;
  if (!(await clearSelection(client, selection.container).catch(() => false))) return;
  if (await selectChild(client, selection.container, selection.index).catch(() => false)) await untilSelected(desktop, selection);
}

/**
 * Deselects the table's selected rows other than the item's, and says whether the item's row is then the only one
 * selected. GTK3's tree view (a file manager's detailed list) refuses DeselectSelectedChild, its Selection having no
 * way to remove one, and takes its Table's RemoveRowSelection: a click on a file in Thunar's list added it to the
 * folder Thunar had selected, and F2 then renamed both. A table that selects cells, not whole rows, names no row
 * selected, and its Selection deselects the other cells.
 */
async function deselectOtherRows(client: AtspiClient, selection: ItemSelection): Promise<boolean> {
  const { container } = selection;
  const row = await tableRowOf(client, container, selection.index).catch(() => undefined);
  const rows = row === undefined ? [] : await selectedTableRows(client, container).catch(() => []);
  if (!rows.includes(row!)) return false;
  for (const other of rows.slice(0, maxDeselected)) if (other !== row) await deselectTableRow(client, container, other).catch(() => false);
  const left = await selectedTableRows(client, container).catch(() => []);
  return left.length === 1 && left[0] === row;
}

/**
 * Deselects the selected items of a table that selects through its items' toggles (see ItemSelection.toggle) other
 * than the clicked one, each by its own toggle: such a table names only whole rows selected, and a view that selects
 * single cells names none. Its children are looked at only up to maxScanned (a huge table's other cells stay as they are).
 */
async function toggleOthersOff(desktop: LinuxDesktop, selection: ItemSelection): Promise<void> {
  const client = await desktop.atspi();
  if ((await childCount(client, selection.container).catch(() => Infinity)) > maxScanned) return;
  const items = await children(client, selection.container).catch(() => []);
  const others = items.filter((item) => item.path !== selection.item.path);
  const selected = await Promise.all(others.map(async (item) => ((await liveStates(desktop, item).catch(() => undefined))?.has('STATE_SELECTED') ? item : undefined)));
  for (const item of selected) {
    if (!item) continue;
    const toggle = (await actionNames(client, item).catch(() => [])).findIndex((name) => name.trim().toLowerCase() === 'toggle');
    if (toggle >= 0) await doAction(client, item, toggle).catch(() => false);
  }
}

/** At most this many children of a table are looked at for other selected items to deselect. */
const maxScanned = 1000;

/**
 * Waits (bounded) until the app shows the item selected. Blink answers SelectChild before its tree has the change
 * (the page's process makes it): the selection read right after still held only the options selected before, so a
 * background click on an option of a <select multiple> added it to them where a plain click selects it alone.
 * Whether it took: shown selected, or gone (a page's list that closes on its choice destroys its options).
 */
async function untilSelected(desktop: LinuxDesktop, selection: ItemSelection): Promise<boolean> {
  for (const deadline = Date.now() + selectionShownMs; Date.now() < deadline; await sleep(10)) {
    const states = await liveStates(desktop, selection.item).catch(() => undefined);
    if (!states || (await itemSelected(desktop, selection, states))) return true;
  }
  return false;
}

/**
 * Whether the item is selected: it says SELECTED, or, an item that says nothing of being selectable, its container's
 * Selection names it. GTK 2's GAIL marks no page tab SELECTABLE, nor the current one SELECTED (the tree reads the
 * current tab from the tab list's Selection as well): judged by the tab's own states, a click on HexChat's shown tab
 * selected it again and read "no effect seen" with advice to retry in the foreground, and every click on one of its
 * tabs waited out selectionShownMs for a state that never comes. `states`: the item's, read already.
 */
export async function itemSelected(desktop: LinuxDesktop, selection: ItemSelection, states?: ReadonlySet<string>): Promise<boolean> {
  const own = states ?? (await liveStates(desktop, selection.item));
  if (own.has('STATE_SELECTED')) return true;
  if (own.has('STATE_SELECTABLE') || !selection.containerInterfaces.includes('Selection')) return false;
  return isChildSelected(await desktop.atspi(), selection.container, selection.index).catch(() => false);
}

/** How long an app is given to show an item it was asked to select as selected. */
const selectionShownMs = 500;

/** At most this many selected items are looked at: past them (a select-all of a huge list) the rest stay selected. */
const maxDeselected = 200;
