// Which containers hide what they hold, from AT-SPI facts alone. One rule serves the reader (a read of what is shown
// leaves such a container's children unread, counted on it) and the element numbering (a whole read numbers them after
// everything else), so both readings give every shown element the same number, as closed-menus.ts does for menus.
import { ATSPI_ROLE, ATSPI_STATE } from './constants.js';
import { holdsMenuItems } from './closed-menus.js';
import { hasState } from './states.js';

interface Facts {
  role: number;
  states: readonly number[];
  bus: string;
}

/**
 * Whether a container hides its content: neither VISIBLE nor SHOWING, inside a parent of its own process that is
 * VISIBLE, so the toolkit sets these states there (a stacked widget's pages behind the current one: Qt's and Java's
 * tab pages, Freeplane's closed properties panel of 800 objects). Not an object that says nothing of itself (an
 * empty state set: WebKitGTK's socket, whose page shows), nor a menu or what a menu holds (closed-menus.ts decides
 * those: Gecko's <select> keeps its <optgroup>s hidden in a visible menu, and its closed list counts their options),
 * nor a combo box's list, whose choices are counted as a closed menu's items.
 */
export function hidesItsContent(node: Facts, parent: Facts | undefined): boolean {
  if (!parent || parent.bus !== node.bus || parent.role === ATSPI_ROLE.COMBO_BOX || holdsMenuItems(node.role) || holdsMenuItems(parent.role)) return false;
  if (node.states.every((word) => word === 0)) return false;
  if (hasState(node.states, ATSPI_STATE.VISIBLE) || hasState(node.states, ATSPI_STATE.SHOWING)) return false;
  return hasState(parent.states, ATSPI_STATE.VISIBLE) === true;
}
