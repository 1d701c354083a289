import { ATSPI_ROLE } from '../../../cup/atspi/constants.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { callObject, parentOf, readInterfaces, readRole, selectChild, selectTableRow } from '../atspi/operations.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { liveStates } from './live-states.js';
import { quirksFor } from '../atspi/toolkit.js';

/**
 * Items of lists, trees, tables and tab strips (AT-SPI list item, page tab, table cell, table row, tree
 * item). A real click on one selects it; their toolkits' own "activate" (GTK's row activation) is what a
 * double click does, so it cannot stand in for a click.
 */
const itemRoles = new Set([ATSPI_ROLE.LIST_ITEM, ATSPI_ROLE.PAGE_TAB, ATSPI_ROLE.TABLE_CELL, ATSPI_ROLE.TABLE_ROW, ATSPI_ROLE.TREE_ITEM]);

/** Where a click selects an item: the container that owns the selection, and the item's index in it. */
export interface ItemSelection {
  container: ObjectRef;
  /** The container's interfaces: a table can also select the item's whole row. */
  containerInterfaces: readonly string[];
  index: number;
  /** The item that gets selected: the target, or the item it lies in (a GTK3 tree cell's inner cell). */
  item: ObjectRef;
}

async function selectableIn(desktop: LinuxDesktop, item: ObjectRef, role: number): Promise<ItemSelection | undefined> {
  const client = await desktop.atspi();
  if (!itemRoles.has(role)) return undefined;
  if (!(await liveStates(desktop, item)).has('STATE_SELECTABLE') && !quirksFor(await client.toolkitOf(item.bus).catch(() => undefined)).selectableUnmarked) return undefined;
  const container = await parentOf(client, item);
  if (!container) return undefined;
  const containerInterfaces = await readInterfaces(client, container);
  if (!containerInterfaces.includes('Selection')) return undefined;
  const index = Number((await callObject(client, item, 'Accessible', 'GetIndexInParent'))[0]);
  return Number.isInteger(index) && index >= 0 ? { container, containerInterfaces, index, item } : undefined;
}

/**
 * How a click on this object selects it through accessibility, when it is a selectable item of a
 * container with the Selection interface (or lies directly inside such an item); otherwise undefined.
 */
export async function itemSelectionFor(desktop: LinuxDesktop, object: ObjectRef, role: number): Promise<ItemSelection | undefined> {
  if (!itemRoles.has(role)) return undefined;
  try {
    const own = await selectableIn(desktop, object, role);
    if (own) return own;
    const client = await desktop.atspi();
    const parent = await parentOf(client, object);
    return parent ? await selectableIn(desktop, parent, await readRole(client, parent)) : undefined;
  } catch {
    // The item or its container went away, or lacks what it advertised: no selection path.
    return undefined;
  }
}

/**
 * Selects the item, unless it already is (GTK refuses to select a selected row again), and says whether it is
 * selected. A GTK3 tree view with more than one column refuses SelectChild; its Table interface selects the
 * cell's row instead.
 */
export async function selectItem(desktop: LinuxDesktop, selection: ItemSelection): Promise<boolean> {
  const client = await desktop.atspi();
  if ((await liveStates(desktop, selection.item)).has('STATE_SELECTED')) return true;
  if (await selectChild(client, selection.container, selection.index)) return true;
  return selection.containerInterfaces.includes('Table') && (await selectTableRow(client, selection.container, selection.index));
}
