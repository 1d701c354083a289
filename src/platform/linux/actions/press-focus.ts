import { ATSPI_ROLE, ATSPI_STATE } from '../../../cup/atspi/constants.js';
import { hasState } from '../../../cup/atspi/states.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { readObject } from '../atspi/operations.js';
import type { LinuxDesktop } from '../linux-desktop.js';

/** The roles of GTK 2's buttons, whose press takes the focus (GtkButton and its toggle, check and radio kinds). */
const pressFocusedRoles = new Set<number>([ATSPI_ROLE.PUSH_BUTTON, ATSPI_ROLE.TOGGLE_BUTTON, ATSPI_ROLE.CHECK_BOX, ATSPI_ROLE.RADIO_BUTTON]);

/**
 * The evidence line for a background click that moved the focus of a window that is not active: GTK 2's click action
 * (GAIL's) presses the button, and the press takes the keyboard focus (toolkit.ts clickActionTakesFocus). A click on a
 * check box in Pidgin's Add Account dialog, behind another window, toggled it and moved the dialog's focus from its
 * Protocol combo box to the check box, unsaid: GAIL does not say FOCUSED in a window that is not active. Nothing
 * toggles it otherwise in the background (GAIL's press and release actions toggled it and moved the focus alike, and a
 * synthetic X press is a press too), and giving the focus back through accessibility presents the window
 * (focusActivatesWindow), so the result says where the focus went; undefined where it did not move.
 */
export async function focusTakenByClick(
  desktop: LinuxDesktop,
  acted: ObjectRef,
  window: { id: number; active: boolean },
  actionName: string,
  label: string,
): Promise<string | undefined> {
  if (window.active || actionName.toLowerCase() !== 'click') return undefined;
  const client = await desktop.atspi();
  if (!(await client.quirksOf(acted.bus).catch(() => undefined))?.clickActionTakesFocus) return undefined;
  const object = await readObject(client, acted).catch(() => undefined);
  // A button that cannot take the focus (a toolbar's) keeps it where it was.
  if (!object || !pressFocusedRoles.has(object.role) || hasState(object.states, ATSPI_STATE.FOCUSABLE) !== true) return undefined;
  return (
    `focus moved: ${label} took the keyboard focus of window ${window.id}, which stays inactive (GTK 2's click action presses the button, and its ` +
    'buttons take the focus on a press): keys sent to that window without an element now go to it, not to what had the focus'
  );
}
