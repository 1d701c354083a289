// Ctrl+A on a table whose Selection refuses SelectAll: every row added through its Table, as a person's Ctrl+A selects them.
import type { AtspiClient } from '../atspi/client.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { addTableRow, deselectTableRow, selectedTableRows, tableRowCount } from '../atspi/operations.js';

/** At most this many rows are added one by one: past them a select-all is left to real keys. */
const maxRows = 1000;

/**
 * Selects every row of a table through its Table interface, and says whether it did. GTK3's tree view refuses its
 * Selection's SelectAll and says no MULTISELECTABLE, while the view takes several rows and AddRowSelection adds one
 * (Thunar's detailed list): a background Ctrl+A there was "delivered, no effect seen". A view that takes one row only
 * moves its selection to the row added instead: the first additions tell, and are undone, leaving it as it was.
 */
export async function selectEveryRow(client: AtspiClient, table: ObjectRef): Promise<boolean> {
  const count = await tableRowCount(client, table);
  if (!Number.isInteger(count) || count <= 0 || count > maxRows) return false;
  const before = await selectedTableRows(client, table);
  const missing = Array.from({ length: count }, (_, row) => row).filter((row) => !before.includes(row));
  if (missing.length === 0) return true;
  // A row selected that must stay so: one selected already, else the first row added (when a second one is to come).
  const kept = before[0] ?? (missing.length > 1 ? missing[0] : undefined);
  const first = before.length > 0 ? 0 : 1;
  for (const [nth, row] of missing.entries()) {
    if (!(await addTableRow(client, table, row))) return false;
    if (nth !== first || kept === undefined) continue;
    if ((await selectedTableRows(client, table)).includes(kept)) continue;
    // One row at a time: put back what was selected (the row kept alone), or nothing when nothing was.
    if (before.length > 0) await addTableRow(client, table, kept);
    else await deselectTableRow(client, table, row);
    return false;
  }
  return true;
}
