// The text field a combo box the user types into holds: what takes its text when the combo box itself takes none.
import type { ElementTarget, SnapshotElement } from '../../targets.js';

/** The one text box a combo box holds, as its child or inside an unnamed box of it, in the snapshot the agent saw. */
export function soleField({ snapshot, element }: ElementTarget): SnapshotElement | undefined {
  const elements = [...snapshot.elements.values()];
  const within = (candidate: SnapshotElement) => {
    const parent = candidate.parent === undefined ? undefined : snapshot.elements.get(candidate.parent);
    return candidate.parent === element.index || (parent?.parent === element.index && parent.role === 'generic' && parent.name === '');
  };
  const fields = elements.filter((candidate) => candidate.role === 'textbox' && within(candidate));
  return fields.length === 1 ? fields[0] : undefined;
}
