// An action's evidence about elements its read-back found gone that the reading after still shows under their index,
// with the role and name they had: the app made their object anew (Qt rebuilds a table's header as a click sorts it),
// or the object read back stopped answering for a moment (Gecko's row whose roving tabindex moved away).
import { labelledIndex } from '../../cup/element-label.js';
import { goneLine, goneSubjects } from '../../platform/action-outcome.js';
import type { ActionResult } from './schemas.js';

/** An element the reading after still shows: its label there, and whether another object holds its index than before. */
export interface KeptElement {
  label: string;
  anew: boolean;
}

/**
 * The evidence with each element said gone that the reading after still shows said to be there: the sort of a Qt table
 * read '[e54] is gone' beside a diff that kept [e54] where it was, and Down in a page's tree grid '[e80] is gone' beside
 * a diff keeping [e80] row "Inbox 12". One hidden since, or renamed, is still said gone.
 */
export function keptNotGone(result: ActionResult, keptAt: (index: number) => KeptElement | undefined): ActionResult {
  if (!result.evidence) return result;
  let rewritten = false;
  const evidence = result.evidence.flatMap((line) => {
    const subjects = goneSubjects(line);
    const kept = subjects?.flatMap((label) => {
      const index = labelledIndex(label);
      const now = index === undefined ? undefined : keptAt(index);
      return now ? [{ label, now }] : [];
    });
    if (!subjects || !kept?.length) return [line];
    rewritten = true;
    const rest = subjects.filter((label) => !kept.some((each) => each.label === label));
    return [
      ...(rest.length > 0 ? [goneLine(rest.join(', '))] : []),
      ...kept.map(({ now }) =>
        now.anew
          ? `${now.label} is still there: the app made its object anew, which keeps its index`
          : `${now.label} is still there: the object stopped answering for a moment as it was read back`,
      ),
    ];
  });
  return rewritten ? { ...result, evidence } : result;
}
