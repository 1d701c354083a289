// An action's evidence about elements a modal dialog it opened made inert: the page behind a web <dialog> leaves the
// tree (Blink, Gecko), and a probe of the button that opened it found it "gone" though it still shows behind it.
import { madeInert } from '../../cup/inert-page.js';
import { indexedLabel, labelledIndex } from '../../cup/element-label.js';
import type { CupNode } from '../../cup/types.js';
import { flattenNodes } from '../../tui/ui-node.js';
import { goneLineRetold, goneSubjects } from '../../platform/action-outcome.js';
import type { ActionResult } from './schemas.js';

/** The element id an evidence line's label names by index ("[e182]", "[e182] button "Delete""). */
function labelIndex(label: string): string | undefined {
  const index = labelledIndex(label);
  return index === undefined ? undefined : `e${index}`;
}

/**
 * The evidence with each element a modal dialog made inert said to be behind it, not gone ("[e182] button "Delete
 * account…" is behind the modal dialog [e225] dialog "Delete account?" now (inert)"), and the lines of its children
 * leaving ("[e170] form: child removed") left to the diff's inert line. `before` and `after`: the readings around the action.
 */
export function inertNotGone(result: ActionResult, before: CupNode | undefined, after: CupNode | undefined): ActionResult {
  if (!before || !after || !result.evidence) return result;
  const inert = madeInert(before, after);
  if (inert.size === 0) return result;
  const beforeById = new Map(flattenNodes([before]).map((node) => [node.id, node]));
  const labelOf = (id: string) => {
    const node = beforeById.get(id);
    return node ? indexedLabel({ index: Number(id.slice(1)), role: node.role, name: node.name }) : `[${id}]`;
  };
  const behindDialog = (label: string) => {
    const id = labelIndex(label);
    const dialog = id === undefined ? undefined : inert.get(id);
    return dialog && `${labelOf(id!)} is behind the modal dialog ${indexedLabel({ index: Number(dialog.id.slice(1)), role: dialog.role, name: dialog.name })} now (inert: out of the tree, not gone, until the dialog closes)`;
  };
  const evidence = result.evidence.flatMap((line) => {
    if (!goneSubjects(line)) {
      const id = labelIndex(line);
      return id && inert.has(id) && /: child (added|removed)(, child (added|removed))*$/.test(line) ? [] : [line];
    }
    return goneLineRetold(line, behindDialog) ?? [line];
  });
  return { ...result, evidence };
}
