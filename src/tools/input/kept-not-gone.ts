// An action's evidence about elements its read-back found gone (or whose object it heard destroyed) that the reading
// after still shows under their index, with the role and name they had: the app made their object anew (Qt rebuilds a
// table's header as a click sorts it), or the object read back stopped answering for a moment (Gecko's row whose roving
// tabindex moved away).
import { labelledIndex } from '../../cup/element-label.js';
import { goneLineRetold } from '../../platform/action-outcome.js';
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
  const stillThere = (label: string) => {
    const index = labelledIndex(label);
    const now = index === undefined ? undefined : keptAt(index);
    if (!now) return undefined;
    return now.anew
      ? `${now.label} is still there: the app made its object anew, which keeps its index`
      : `${now.label} is still there: the object stopped answering for a moment as it was read back`;
  };
  let retold = false;
  const evidence = result.evidence.flatMap((line) => {
    const lines = goneLineRetold(line, stillThere) ?? destroyedLineRetold(line, stillThere);
    retold ||= lines !== undefined;
    return lines ?? [line];
  });
  return retold ? { ...result, evidence } : result;
}

const destroyedEnd = ': destroyed';

/**
 * An event line saying an element's object was destroyed (`[e40] cell "Start Here": destroyed`), told again where the
 * reading after still shows the element: GTK3 makes a tree view's cells anew as a row is added above them, and Gnote's
 * new note read four lines of its notes' cells destroyed ("Start Here", "Using Links in Gnote"), the diff keeping them.
 */
function destroyedLineRetold(line: string, stillThere: (label: string) => string | undefined): string[] | undefined {
  if (!line.endsWith(destroyedEnd)) return undefined;
  const told = stillThere(line.slice(0, -destroyedEnd.length));
  return told === undefined ? undefined : [told];
}
