// An action's evidence tells an element's state changes from the app's events; the diff beside it tells them from the
// readings before and after. Where both speak of the same element's states, the diff's word stands: its readings are
// what the tree shows now, where the events miss what the app never announces and name in AT-SPI's terms what the
// reading judges further (a closed popover's items are hidden, not scrolled away).
import { stateChangesText } from '../../cup/diff-text.js';
import type { ChangedNode } from '../../cup/diff.js';
import type { ActionResult } from './schemas.js';

/** One state change as the evidence and the diff spell it: "+hid", "-foc" (not "+hid and back", nor "armed on"). */
const stateChange = /^[+-][a-z]+$/;

/**
 * The evidence with each element line's state changes told as the diff tells that element's: File Roller's "New
 * Archive…", clicked in its menu's popover, read '[e59] button "New Archive…": +off' beside a diff saying "+hid -foc"
 * (pyatspi: VISIBLE, not SHOWING, not FOCUSED, no place; the popover closed and GTK announced no focus leaving).
 * `labelAt` is the element's label in the snapshot the reading after made; a line naming it otherwise (renamed since)
 * is left as it is, as is one whose element the diff tells no state change of.
 */
export function statesAsInDiff(result: ActionResult, changed: readonly ChangedNode[], labelAt: (index: number) => string | undefined): ActionResult {
  if (!result.evidence) return result;
  let retold = false;
  const evidence = result.evidence.map((given) => {
    const states = changed.find((entry) => given.startsWith(`[e${entry.index}] `) && entry.changes.states)?.changes.states;
    const label = states && labelAt(Number(/^\[e(\d+)\]/.exec(given)![1]));
    if (!states || !label) return given;
    // The "(hidden)" the events left (the snapshot read the element hidden, and no event said it turned shown) goes
    // where the diff says it did: GNOME Calendar's Starts row, clicked, unfolded its time fields and GTK 4.8 announced
    // only their text, which read '[e58] spinbutton (hidden): text is now "00"' beside a diff saying -hid.
    const shownSince = states.removed.includes('hidden') && given.startsWith(`${label} (hidden): `);
    const line = shownSince ? `${label}: ${given.slice(label.length + ' (hidden): '.length)}` : given;
    if (!line.startsWith(`${label}: `)) return given;
    if (shownSince) retold = true;
    const parts = line.slice(label.length + 2).split(', ');
    const at = parts.findIndex((part) => stateChange.test(part));
    if (at < 0) return line;
    const diffSays = stateChangesText(states.added, states.removed).split(' ');
    const told = [...parts.slice(0, at), ...diffSays, ...parts.slice(at + 1).filter((part) => !stateChange.test(part))];
    if (told.join(', ') === parts.join(', ')) return line;
    retold = true;
    return `${label}: ${told.join(', ')}`;
  });
  return retold ? { ...result, evidence } : result;
}
