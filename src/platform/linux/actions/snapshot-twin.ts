// An object the toolkit made anew for an element the snapshot already holds, told as that element.
import { indexInParent, parentOf, readName, readRole } from '../atspi/operations.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import type { SnapshotElement, SnapshotRef } from '../../targets.js';
import { atspiElement } from '../element-handle.js';

/**
 * The snapshot's element that an object not in it stands for: one of the same role and name, under the same parent, at
 * the same place among its children. Qt 5 makes a new object for a tree view's cell each time it announces it: a click
 * that selected "music" in a QTreeWidget (qpdfview's outline) read `states of [e68]: +sel` and `(not in the snapshot)
 * table cell "music": +sel` for the one cell. Undefined when there is no such element, or it cannot be read.
 */
export async function snapshotTwin(desktop: LinuxDesktop, snapshot: SnapshotRef, ref: ObjectRef): Promise<SnapshotElement | undefined> {
  const client = await desktop.atspi();
  try {
    const [role, name, parent, index] = await Promise.all([readRole(client, ref), readName(client, ref), parentOf(client, ref), indexInParent(client, ref)]);
    if (!parent || index === undefined) return undefined;
    const candidates = [...snapshot.elements.values()].filter((element) => {
      const handle = atspiElement(element.handle);
      return handle.bus === ref.bus && handle.path !== ref.path && handle.atspiRole === role && element.name === name && element.parent !== undefined;
    });
    for (const element of candidates) {
      const parentElement = snapshot.elements.get(element.parent!);
      if (!parentElement || atspiElement(parentElement.handle).path !== parent.path) continue;
      if ((await indexInParent(client, atspiElement(element.handle)).catch(() => undefined)) === index) return element;
    }
  } catch {
    // Unreadable (gone already): nothing to pair it with.
  }
  return undefined;
}
