// A choice made in a popup closes it, and a toolkit may close it later than it reports the choice: GTK3 fades a
// popover out and says it hidden only at the fade's end, some 170 ms after the button's own events. A click on a
// popover's "Zoom out" was read back at once: the diff still showed the popover and both its buttons, which a read
// a moment later no longer held, and an agent read the popover as still open.
import { ATSPI_STATE } from '../../../cup/atspi/constants.js';
import { hasState } from '../../../cup/atspi/states.js';
import type { AtspiClient } from '../atspi/client.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { ancestry, callObject, readStates } from '../atspi/operations.js';

/** ATSPI_RELATION_POPUP_FOR: the object is a popup shown for another (GTK's popovers name their menu button). */
const RELATION_POPUP_FOR = 15;

/** How far up a popup is looked for: a popover's button lies a box or two inside it, and a page's link far deeper in nothing of the kind. */
const popupDepth = 6;

/** How long a popup holding the acted-on object is given to finish closing: GTK3's popover fade, with room to spare. */
export const popupCloseMs = 400;

/** Whether the object says it pops up for another one (AT-SPI's popup-for relation). */
async function popsUpFor(client: AtspiClient, ref: ObjectRef): Promise<boolean> {
  const [relations] = (await callObject(client, ref, 'Accessible', 'GetRelationSet')) as [[number, unknown[]][] | undefined];
  return (relations ?? []).some(([type, targets]) => type === RELATION_POPUP_FOR && targets.length > 0);
}

/**
 * The showing popup that holds `ref` (itself included): the nearest ancestor, a few levels up at most, related as popup for another
 * object. Undefined when none does or it cannot be told (a call failed): nothing is then waited for. The ancestors are
 * found first and asked together: asked level by level, the walk cost two round trips a level before every click.
 */
export async function popupHolding(client: AtspiClient, ref: ObjectRef): Promise<ObjectRef | undefined> {
  try {
    const { paths } = await ancestry(client, ref, popupDepth);
    const held = [ref, ...paths.map((path) => ({ bus: ref.bus, path }))];
    const popups = await Promise.allSettled(held.map((at) => popsUpFor(client, at)));
    // The nearest that tells: one that could not be asked, before any popup, leaves it untold.
    const nearest = popups.findIndex((popup) => popup.status === 'rejected' || popup.value);
    if (nearest < 0 || popups[nearest]!.status === 'rejected') return undefined;
    const popup = held[nearest]!;
    return hasState(await readStates(client, popup), ATSPI_STATE.SHOWING) === true ? popup : undefined;
  } catch {
    // An object gone or an app not answering holds no popup to wait for.
  }
  return undefined;
}

/** Whether the popup still shows (an object gone shows nothing). */
export async function stillShowing(client: AtspiClient, popup: ObjectRef): Promise<boolean> {
  return readStates(client, popup).then(
    (states) => hasState(states, ATSPI_STATE.SHOWING) === true,
    () => false,
  );
}
