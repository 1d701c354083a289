// A field that completes what is typed into it (a file chooser's location field, a URL bar, a combo box's entry)
// inserts the rest after the typed text and selects it: the next keys typed replace it.
import type { ActionOutcome } from '../../action-outcome.js';
import { callObject, textSelection } from '../atspi/operations.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import type { Actionable } from './accessible-actions.js';

/**
 * The outcome of typing `text` into a field, with a note when the app completed it: the text just before the
 * field's selection is the end of what was typed, and the selection is what the app added. GTK3's file chooser
 * took "/tmp/work/rep" as "/tmp/work/reports/" with "orts/" selected, and "summary.txt" typed next made
 * "/tmp/work/repsummary.txt": the result showed the completed text and nothing said the next keys would replace it.
 */
export async function withCompletionSelected(desktop: LinuxDesktop, target: Actionable, label: string, text: string, outcome: ActionOutcome): Promise<ActionOutcome> {
  const typedEnd = [...(text.split(/\r?\n/).pop() ?? '')];
  if (typedEnd.length === 0 || !target.interfaces.includes('Text')) return outcome;
  const client = await desktop.atspi();
  const selected = await textSelection(client, target.ref).catch(() => undefined);
  if (!selected) return outcome;
  const [start, end] = [Math.min(selected.start, selected.end), Math.max(selected.start, selected.end)];
  const read = (from: number, to: number) =>
    callObject(client, target.ref, 'Text', 'GetText', 'ii', [from, to]).then((body) => String(body[0] ?? ''), () => undefined);
  const [before, added] = await Promise.all([read(Math.max(0, start - typedEnd.length), start), read(start, end)]);
  if (before === undefined || !added || !before.endsWith(typedEnd.join(''))) return outcome;
  const note =
    `the app completed the text typed into ${label}: it added ${JSON.stringify(added)} and selected it, and keys typed into a focused field replace a selection; ` +
    `to type after it, press_key "End" first (or "Delete" to drop it), or give the field its whole text with set_value`;
  return { ...outcome, evidence: [...(outcome.evidence ?? []), note] };
}
