// An action's evidence about elements its read-back found gone that the reading after still holds, as they were: the
// app made their object anew. Gecko re-creates a page's table row whose tabindex the page changes (a tree grid moving
// its roving tabindex on Down): the keys' evidence said '[e80] is gone' while the diff kept [e80] row "Inbox 12",
// only its focus lost, and pyatspi read the row in its place.
import { indexedLabel } from '../../cup/element-label.js';
import type { CupNode } from '../../cup/types.js';
import { flattenNodes } from '../../tui/ui-node.js';
import { goneLine, goneSubjects } from '../../platform/action-outcome.js';
import { labelIndex } from './behind-dialog.js';
import type { ActionResult } from './schemas.js';

/**
 * The evidence with each element said gone that the reading after holds shown, under its index with the role and name it
 * had before, said to be still there, made anew. `before` and `after`: the readings around the action.
 */
export function keptNotGone(result: ActionResult, before: CupNode | undefined, after: CupNode | undefined): ActionResult {
  if (!before || !after || !result.evidence) return result;
  const was = new Map(flattenNodes([before]).map((node) => [node.id, node]));
  const now = new Map(flattenNodes([after]).filter((node) => !node.states?.includes('hidden')).map((node) => [node.id, node]));
  const kept = (label: string) => {
    const id = labelIndex(label) ?? '';
    const [old, current] = [was.get(id), now.get(id)];
    return old && current && old.role === current.role && old.name === current.name ? current : undefined;
  };
  const evidence = result.evidence.flatMap((line) => {
    const subjects = goneSubjects(line);
    const still = subjects?.filter((label) => kept(label)) ?? [];
    if (!subjects || still.length === 0) return [line];
    const rest = subjects.filter((label) => !still.includes(label));
    return [
      ...(rest.length > 0 ? [goneLine(rest.join(', '))] : []),
      ...still.map((label) => {
        const node = kept(label)!;
        return `${indexedLabel({ index: Number(node.id.slice(1)), role: node.role, name: node.name })} is still there: the app made its object anew (the one read before no longer answers)`;
      }),
    ];
  });
  return { ...result, evidence };
}
