import { ATSPI_STATE } from './constants.js';
import { hasState } from './states.js';

/** What deciding editable content needs of an object: its state words and interfaces. */
interface StatesAndInterfaces {
  states: readonly number[];
  interfaces: readonly string[];
}

/**
 * Editable text in a role that is not an entry, whose text is its value: an office paragraph or a contenteditable
 * block with EditableText (Gecko), or an editing host, the editable object in a parent that is not (a labelled
 * contenteditable, which Blink gives no EditableText: it read as a region of static texts, no text box at all).
 * What lies inside an editing host is editable in an editable parent, and only EditableText makes it content of its
 * own: Blink's static texts in a rich-text box are no text boxes.
 */
export function isEditableContent(node: StatesAndInterfaces, parent: Pick<StatesAndInterfaces, 'states'> | undefined): boolean {
  if (hasState(node.states, ATSPI_STATE.EDITABLE) !== true) return false;
  if (node.interfaces.includes('EditableText')) return true;
  return node.interfaces.includes('Text') && parent !== undefined && hasState(parent.states, ATSPI_STATE.EDITABLE) !== true;
}
