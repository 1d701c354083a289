// Table cells edited in an entry their table opens over them. GTK3's tree view cell says "edit" and has neither Value
// nor EditableText; its edit action opens nothing, and text typed at the view starts the view's search, not an edit:
// set_value's refusal advised type_text on the cell, and type_text's advised a foreground retry, which searched.
import type { LinuxDesktop } from '../linux-desktop.js';
import { findNamedAction, type Actionable } from './accessible-actions.js';

/** How such a cell takes a value, when `target` is one (a cell that offers an edit action); else undefined. */
export async function cellEditorAdvice(desktop: LinuxDesktop, target: Actionable): Promise<string | undefined> {
  if (target.role !== 'cell' || !(await findNamedAction(desktop, target, ['edit']).catch(() => undefined))) return undefined;
  return 'its table edits it in an entry it opens over the cell: click the cell with delivery_mode "foreground", ' +
    'press_key "return" with delivery_mode "foreground" to open the entry (GTK\'s edit action opens nothing, and keys typed at the ' +
    'table start its search), then set_value (or type_text) on the focused textbox that appears and press_key "return" on it';
}
