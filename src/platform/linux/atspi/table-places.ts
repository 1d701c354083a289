// Where a cell lies in its table, and how big a table is, as AT-SPI's Table and TableCell say (CUP's rowIndex,
// colIndex, rowCount, colCount): an agent reading a file list or a spreadsheet could not tell a cell's row or column.
import { ATSPI_ROLE } from '../../../cup/atspi/constants.js';
import type { CellPosition, TableSize } from '../../../cup/atspi/raw-node.js';
import type { AskObject } from './embedded-text.js';
import { atspiInterface, type ObjectRef } from './object-ref.js';

/** Roles of a table's cells, headers included: those that the TableCell interface places (browsers, GTK3). */
const cellRoles: ReadonlySet<number> = new Set([
  ATSPI_ROLE.TABLE_CELL, ATSPI_ROLE.TABLE_COLUMN_HEADER, ATSPI_ROLE.TABLE_ROW_HEADER, ATSPI_ROLE.COLUMN_HEADER, ATSPI_ROLE.ROW_HEADER,
]);
/** Roles of a table or grid whose size is its Table's (a Qt list offers Table too, and is no table to an agent). */
export const tableRoles: ReadonlySet<number> = new Set([ATSPI_ROLE.TABLE, ATSPI_ROLE.TREE_TABLE]);

async function property(ask: AskObject, ref: ObjectRef, iface: string, name: string): Promise<unknown> {
  // One Get per property, never GetAll: ATK's bridge writes GetAll's answer a getter at a time, and GTK3's TableCell
  // fails its Position getter on some cells (the first cell of a tree view), which GetAll would turn into a broken answer.
  const body = await ask(ref, 'org.freedesktop.DBus.Properties', 'Get', 'ss', [atspiInterface(iface), name]);
  return (body?.[0] as { value: unknown } | undefined)?.value;
}

const index = (value: unknown): number | undefined => (Number.isInteger(value) && (value as number) >= 0 ? (value as number) : undefined);

/** Whether the walk asks this object where it lies in its table: a cell, placed by TableCell or by its table parent. */
export function asksCellPosition(role: number, interfaces: readonly string[], parentInterfaces: readonly string[] | undefined): boolean {
  if (interfaces.includes('TableCell')) return cellRoles.has(role);
  return role === ATSPI_ROLE.TABLE_CELL && (parentInterfaces?.includes('Table') ?? false);
}

/**
 * A cell's zero-based row and column: its TableCell's Position where it has one and it answers (browsers, GTK3), else
 * its parent table's answer for its index there (Qt 5, whose cells have no TableCell; GTK3's first cell, whose Position
 * fails). Only a plain cell is placed by its table: Qt answers wrongly for its headers (the row header "2" in row 0).
 */
export async function cellPosition(ask: AskObject, cell: ObjectRef & { role: number; interfaces: readonly string[] }, parent: (ObjectRef & { interfaces: readonly string[] }) | undefined): Promise<CellPosition | undefined> {
  if (cell.interfaces.includes('TableCell')) {
    const [row, column] = ((await property(ask, cell, 'TableCell', 'Position')) as unknown[] | undefined) ?? [];
    if (index(row) !== undefined && index(column) !== undefined) return { row: row as number, column: column as number };
  }
  if (cell.role !== ATSPI_ROLE.TABLE_CELL || !parent?.interfaces.includes('Table')) return undefined;
  const at = index((await ask(cell, atspiInterface('Accessible'), 'GetIndexInParent'))?.[0]);
  if (at === undefined) return undefined;
  const table = { bus: parent.bus, path: parent.path };
  const [row, column] = await Promise.all(['GetRowAtIndex', 'GetColumnAtIndex'].map(async (member) => index((await ask(table, atspiInterface('Table'), member, 'i', [at]))?.[0])));
  return row !== undefined && column !== undefined ? { row, column } : undefined;
}

/** A table's rows and columns, as its Table counts them. */
export async function tableSize(ask: AskObject, table: ObjectRef): Promise<TableSize | undefined> {
  const [rows, columns] = await Promise.all(['NRows', 'NColumns'].map(async (name) => index(await property(ask, table, 'Table', name))));
  return rows !== undefined && columns !== undefined ? { rows, columns } : undefined;
}
