import { ATSPI_ROLE, ATSPI_STATE } from './constants.js';
import { hasState } from './states.js';

/** What deciding editable content needs of an object: its state words and interfaces. */
interface StatesAndInterfaces {
  states: readonly number[];
  interfaces: readonly string[];
}

/** What it needs of the parent: its states, and its role and interfaces where known. */
interface Parent {
  states: readonly number[];
  role?: number;
  interfaces?: readonly string[];
}

// Editable documents whose paragraphs are each what an agent types into (an office document's, an editable page's):
// each paragraph is content of its own, where in a field the field is.
const documentRoles: ReadonlySet<number> = new Set([ATSPI_ROLE.DOCUMENT_TEXT, ATSPI_ROLE.DOCUMENT_FRAME, ATSPI_ROLE.DOCUMENT_WEB, ATSPI_ROLE.DOCUMENT_SPREADSHEET, ATSPI_ROLE.DOCUMENT_PRESENTATION, ATSPI_ROLE.DOCUMENT_EMAIL, ATSPI_ROLE.TABLE_CELL]);

/**
 * A parent that is itself editable text, not a document: a rich-text field (Gecko's contenteditable, role=textbox
 * or not), which holds its paragraphs as blocks with EditableText of their own. Its text is the field's value.
 */
function inEditableField(parent: Parent): boolean {
  return hasState(parent.states, ATSPI_STATE.EDITABLE) === true && (parent.interfaces?.includes('EditableText') ?? false) && parent.role !== undefined && !documentRoles.has(parent.role);
}

/**
 * Editable text in a role that is not an entry, whose text is its value: an office paragraph or a contenteditable
 * block with EditableText (Gecko), or an editing host, the editable object in a parent that is not (a labelled
 * contenteditable, which Blink gives no EditableText: it read as a region of static texts, no text box at all).
 * What lies inside an editing host is editable in an editable parent, and only EditableText makes it content of its
 * own: Blink's static texts in a rich-text box are no text boxes, nor are Gecko's paragraphs in a rich-text field.
 */
export function isEditableContent(node: StatesAndInterfaces, parent: Parent | undefined): boolean {
  if (hasState(node.states, ATSPI_STATE.EDITABLE) !== true) return false;
  // A paragraph of a rich-text field is part of the field: Firefox read the paragraph of a contenteditable textbox
  // as a second textbox inside it (`tbx "Hello world"` in the editor's `tbx`).
  if (node.interfaces.includes('EditableText')) return !(parent && inEditableField(parent));
  return node.interfaces.includes('Text') && parent !== undefined && hasState(parent.states, ATSPI_STATE.EDITABLE) !== true;
}
