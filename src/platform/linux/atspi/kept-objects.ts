// Which objects of an earlier reading the app still keeps: the fact that tells a node the app destroyed and made anew
// (a rebuilt row, a spreadsheet's cell made again) from one that only left the reading (another page of a stack or a
// notebook, a closed popup, a row scrolled out), so a window's numbering gives the index of the first to what took
// its place and keeps the second's for its return (cup/numbering.ts).
import { ATSPI_STATE } from '../../../cup/atspi/constants.js';
import { hasState } from '../../../cup/atspi/states.js';
import { DBusError, DBusTimeoutError, peerLeftTheBus } from '../dbus/index.js';
import type { AtspiClient } from './client.js';
import { objectOfIdentity } from '../element-handle.js';
import { readStates } from './operations.js';

/**
 * How long the app is given to answer for all the objects at once. A stack's page holds a hundred or so objects, and
 * a rebuilt list a few hundred, each a short call: a busy app that answers none in time costs a reading this much.
 */
export const KEPT_OBJECTS_BUDGET_MS = 400;

/**
 * Of these object identities, those whose objects are not known to be destroyed: the app answered for them, not
 * defunct (nor a transient copy its toolkit makes on every read), or did not answer within the budget. Only an error reply (the app has no such object) or the defunct
 * state proves one destroyed: an object taken for kept wrongly costs its replacement a new index (an old index then
 * fails as stale_element), one taken for destroyed wrongly gives its index to another object, silently.
 */
export async function keptObjects(client: AtspiClient, identities: readonly string[], budgetMs = KEPT_OBJECTS_BUDGET_MS): Promise<Set<string>> {
  const destroyed = new Set<string>();
  const asked = [...new Set(identities)].map(async (identity) => {
    const ref = objectOfIdentity(identity);
    if (!ref) return;
    try {
      const states = await readStates(client, ref);
      if (hasState(states, ATSPI_STATE.DEFUNCT)) destroyed.add(identity);
      // A throwaway copy of a cell (ToolkitQuirks.remakesTransientObjects) is kept by no one: the cell is read anew.
      else if (hasState(states, ATSPI_STATE.TRANSIENT) && (await client.quirksOf(ref.bus)).remakesTransientObjects) destroyed.add(identity);
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
