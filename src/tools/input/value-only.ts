// A number set_value put in a spin button that takes typing, and nothing else in the window changed: an app may act on
// the number only once it is typed and Return is pressed there.
import { flattenNodes } from '../../tui/ui-node.js';
import type { CupNode } from '../../cup/types.js';
import type { ActionResult } from './schemas.js';

/**
 * The result of set_value on a spin button that takes typing, with a note when the action changed nothing but that
 * control: its number is set through accessibility as the app's own code sets one, which tells it nothing of Return.
 * qpdfview's page box took 3 ("3 / 3"), the result said confirmed, and the document stayed on page 1 until a real Return.
 * A settings dialog's spin button changes nothing else either: the note says what to do if the window should have.
 */
export function withValueOnlyNote(tool: string, result: ActionResult, after: CupNode | undefined): ActionResult {
  const index = result.target?.element_index;
  const diff = result.diff;
  if (tool !== 'set_value' || result.effect !== 'confirmed' || result.path === 'none' || result.target?.role !== 'spinbutton' || index === undefined || !after || !diff) return result;
  if (result.new_windows?.length || result.other_windows_changed?.length || diff.truncated || diff.counts.added + diff.counts.removed + diff.moved.count > 0) return result;
  const control = flattenNodes([after]).find((node) => node.id === `e${index}`);
  if (!control) return result;
  const own = flattenNodes([control]);
  const ownIds = new Set(own.map((node) => node.id));
  if (!own.some((node) => node.states?.includes('editable')) || !diff.changed.every((entry) => ownIds.has(`e${entry.index}`))) return result;
  const note =
    `nothing but [e${index}] changed: its number was set through accessibility, as the app's own code sets one, and an app that acts on a number ` +
    `only once it is typed and Return is pressed there (a viewer's page box) has not been told: if the window should have changed, press_key "return" ` +
    `on it (with delivery_mode "foreground" where the background refuses)`;
  return { ...result, evidence: [...(result.evidence ?? []), note] };
}
