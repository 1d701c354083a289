import type { CupNode, CupRole } from '../types.js';

/**
 * The fields a column header names when a cell holds one alone: a form laid out as a table (a web admin's inline
 * rows, "Author | Stars | Delete?", or its list of objects edited in place, "Price | In stock") puts its labels in the
 * header row and gives each row's inputs none. Screen readers say the column's header on entering such a cell.
 */
const columnLabelledRoles: ReadonlySet<CupRole> = new Set(['textbox', 'searchbox', 'spinbutton', 'combobox', 'slider', 'checkbox', 'switch']);
/** What may stand between a table and its rows (a page's row groups, as an engine may list them). */
const rowHolderRoles: ReadonlySet<CupRole> = new Set(['generic', 'group']);
/** Unnamed wrappers a cell may put around its one field (a page's <div> or <p> in the <td>). */
const wrapperRoles: ReadonlySet<CupRole> = new Set(['generic', 'group', 'region', 'none', 'text']);

function rowsOf(holder: CupNode, depth = 0): CupNode[] {
  return (holder.children ?? []).flatMap((child) => (child.role === 'row' ? [child] : depth < 2 && rowHolderRoles.has(child.role) ? rowsOf(child, depth + 1) : []));
}

function shown(node: CupNode): boolean {
  return !node.states?.includes('hidden');
}

/** The one field a cell holds and nothing else beside it (through unnamed wrappers), if it holds one so. */
function loneField(cell: CupNode): CupNode | undefined {
  const held = (cell.children ?? []).filter(shown);
  if (held.length !== 1) return undefined;
  const [only] = held as [CupNode];
  if (columnLabelledRoles.has(only.role)) return only;
  return wrapperRoles.has(only.role) && only.name === '' ? loneField(only) : undefined;
}

/** The header of the cell's column: the one at its column index, else the one over its middle. */
function headerOf(cell: CupNode, headers: readonly CupNode[]): CupNode | undefined {
  const column = cell.attributes?.colIndex;
  if (column !== undefined) return headers.find((header) => header.attributes?.colIndex === column);
  const box = cell.bounds;
  if (!box || box.w <= 0) return undefined;
  const middle = box.x + box.w / 2;
  return headers.find((header) => header.bounds !== undefined && header.bounds.x <= middle && middle < header.bounds.x + header.bounds.w);
}

/**
 * Names each unnamed field a table's cell holds alone by the header of its column, where that header has words:
 * Django's inline rows read `tbx` and `spn` under "AUTHOR" and "STARS", and a row's "In stock" check box and its
 * selection check box were two unnamed check boxes no selector told apart. Returns the fields named.
 */
export function nameFieldsByColumn(table: CupNode): CupNode[] {
  const rows = rowsOf(table);
  const headers = rows.flatMap((row) => (row.children ?? []).filter((cell) => cell.role === 'columnheader' && cell.name.trim() !== '' && shown(cell)));
  if (headers.length === 0) return [];
  const named: CupNode[] = [];
  for (const row of rows) {
    for (const cell of row.children ?? []) {
      if (cell.role !== 'cell') continue;
      const field = loneField(cell);
      if (!field || field.name !== '') continue;
      const header = headerOf(cell, headers);
      if (!header) continue;
      field.name = header.name.trim();
      named.push(field);
    }
  }
  return named;
}
