import { ATSPI_STATE } from '../../../cup/atspi/constants.js';
import { hasState } from '../../../cup/atspi/states.js';
import type { AtspiClient } from './client.js';
import type { ObjectRef } from './object-ref.js';

/**
 * An object's state set (GetState's two words) with CHECKED added where the object last announced itself checked
 * and its state set leaves it out. GTK3's model buttons (the check and radio items of a GtkPopoverMenu, and of a
 * popover built from a menu model: gtk3-widget-factory's Dark Theme) announce CHECKED as their check is drawn, and
 * their accessible, a plain button's, never puts it in its state set: a click's evidence said "+chk" while the
 * tree, the diff and every later read showed the item unchecked. A state set that says CHECKED is taken as it is
 * (nothing is removed for an announcement); what was never announced since the driver listened is not known.
 */
export function withAnnouncedChecked(client: AtspiClient, ref: ObjectRef, states: number[]): number[] {
  if (hasState(states, ATSPI_STATE.CHECKED) !== false || client.events.announcedChecked(ref.bus, ref.path) !== true) return states;
  const words = [...states];
  words[0] = ((words[0] ?? 0) | (1 << ATSPI_STATE.CHECKED)) >>> 0;
  return words;
}
