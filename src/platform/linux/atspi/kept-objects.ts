// Which objects of an earlier reading the app still keeps: the fact that tells a node the app destroyed and made anew
// (a rebuilt row, a spreadsheet's cell made again) from one that only left the reading (another page of a stack or a
// notebook, a closed popup, a row scrolled out), so a window's numbering gives the index of the first to what took
// its place and keeps the second's for its return (cup/numbering.ts).
import { ATSPI_STATE } from '../../../cup/atspi/constants.js';
import { hasState } from '../../../cup/atspi/states.js';
import { DBusError, DBusTimeoutError, peerLeftTheBus } from '../dbus/index.js';
import type { AtspiClient } from './client.js';
import { objectOfIdentity } from '../element-handle.js';
import { childAt, indexInParent, parentOf, readName, readRole, readStates } from './operations.js';
import type { ObjectRef } from './object-ref.js';

/**
 * How long the app is given to answer for all the objects at once. A stack's page holds a hundred or so objects, and
 * a rebuilt list a few hundred, each a short call: a busy app that answers none in time costs a reading this much.
 */
export const KEPT_OBJECTS_BUDGET_MS = 400;

/**
 * Of these object identities, those whose objects are not known to be destroyed: the app answered for them, not
 * defunct, or did not answer within the budget. Only an error reply (the app has no such object), the defunct
 * state, or its toolkit's word that the object is a throwaway copy (a transient cell of Java's, a look-alike in its
 * place of Qt's: see replacedInPlace) proves one destroyed: an object taken for kept wrongly costs its replacement a
 * new index (an old index then fails as stale_element), one taken for destroyed wrongly gives its index to another
 * object, silently.
 */
export async function keptObjects(client: AtspiClient, identities: readonly string[], budgetMs = KEPT_OBJECTS_BUDGET_MS): Promise<Set<string>> {
  const destroyed = new Set<string>();
  const asked = [...new Set(identities)].map(async (identity) => {
    const ref = objectOfIdentity(identity);
    if (!ref) return;
    try {
      const states = await readStates(client, ref);
      if (hasState(states, ATSPI_STATE.DEFUNCT)) destroyed.add(identity);
      else {
        const quirks = await client.quirksOf(ref.bus);
        // A throwaway copy of a cell (ToolkitQuirks.remakesTransientObjects) is kept by no one: the cell is read anew.
        if (quirks.remakesTransientObjects && hasState(states, ATSPI_STATE.TRANSIENT)) destroyed.add(identity);
        // Java's tree nodes, not TRANSIENT, are remade too (Swing's AccessibleJTree makes a new AccessibleJTreeNode
        // whenever one is asked for): after a click on a node, every node of SwingForms's tree read under a new index.
        else if ((quirks.leavesReplacedObjects || quirks.remakesTransientObjects) && (await replacedInPlace(client, ref))) destroyed.add(identity);
      }
    } catch (error) {
      // An error reply is the app's word that it has no such object; its process gone takes every object along.
      if ((error instanceof DBusError && !(error instanceof DBusTimeoutError)) || peerLeftTheBus(error)) destroyed.add(identity);
    }
  });
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(asked), new Promise<void>((resolve) => (timer = setTimeout(resolve, budgetMs)))]);
  clearTimeout(timer);
  return new Set(identities.filter((identity) => !destroyed.has(identity)));
}

/**
 * Whether the object's parent now holds, at the object's own index, another object of the same role and name: the
 * object still answers but is no child of anything any more, its place taken by its replacement. Qt 5 makes a
 * QTreeView's header and cells anew each time they are asked for and never destroys the old ones, so every reading
 * of a tree view (KeePassXC's entries, DB Browser's schema) gave its rows new indices and every action's diff
 * listed them removed and added. An object only hidden (a stack's other page), scrolled out or in a closed popup is
 * still its parent's child at its index. Any call that fails or any doubt leaves it kept.
 */
async function replacedInPlace(client: AtspiClient, ref: ObjectRef): Promise<boolean> {
  try {
    return await sameLookInPlace(client, ref);
  } catch {
    // Not the object's own answer that it is gone (its states were read): its parent's or a look-alike's failing.
    return false;
  }
}

async function sameLookInPlace(client: AtspiClient, ref: ObjectRef): Promise<boolean> {
  const [index, parent] = await Promise.all([indexInParent(client, ref), parentOf(client, ref)]);
  if (index === undefined || !parent) return false;
  const there = await childAt(client, parent, index);
  if (!there || (there.bus === ref.bus && there.path === ref.path)) return false;
  const [role, name, otherRole, otherName] = await Promise.all([readRole(client, ref), readName(client, ref), readRole(client, there), readName(client, there)]);
  return role === otherRole && name === otherName;
}
