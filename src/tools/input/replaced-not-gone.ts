// An action's evidence about elements the app replaced with new objects: a probe of the old object finds it "gone",
// while the reading after pairs the new object with it (same role, name and place) and gives it the old index.
import { labelledIndex } from '../../cup/element-label.js';
import { goneLine, goneSubjects } from '../../platform/action-outcome.js';
import type { ActionResult } from './schemas.js';

/**
 * The evidence with each element said gone whose index the reading after gives to the object that replaced it said to
 * be replaced instead: Qt rebuilds a table's header when a click sorts it, and the sort read '[e54] is gone' beside a
 * diff that kept [e54] where it was. `replacedAt` gives the label of the element at an index of the reading after when
 * another object holds it than before (one hidden, the same object, is still said gone).
 */
export function replacedNotGone(result: ActionResult, replacedAt: (index: number) => string | undefined): ActionResult {
  if (!result.evidence) return result;
  let rewritten = false;
  const evidence = result.evidence.flatMap((line) => {
    const subjects = goneSubjects(line);
    const shown = subjects?.flatMap((label) => {
      const index = labelledIndex(label);
      const now = index === undefined ? undefined : replacedAt(index);
      return now ? [{ label, now }] : [];
    });
    if (!subjects || !shown?.length) return [line];
    rewritten = true;
    const rest = subjects.filter((label) => !shown.some((each) => each.label === label));
    return [
      ...(rest.length > 0 ? [goneLine(rest.join(', '))] : []),
      ...shown.map(({ now }) => `${now} was replaced by the app with a new object of the same role and name, which keeps its index`),
    ];
  });
  return rewritten ? { ...result, evidence } : result;
}
