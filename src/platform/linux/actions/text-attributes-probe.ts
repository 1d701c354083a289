import { formattingChange, formattingOf } from '../../../cup/text-attributes.js';
import { quote } from '../../../cup/text-change.js';
import type { SnapshotRef } from '../../targets.js';
import { atspiElement } from '../element-handle.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { textAttributesAt } from '../atspi/operations.js';
import { selectionPlace, type SelectionPlace } from '../atspi/selection-place.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { selectedTextRead, type Probe } from './verification.js';

/**
 * The formatting of the text selected in an object, read at the selection's start: ctrl+b, ctrl+i or a Bold button
 * changes no text, name or state there, only its attributes (a ctrl+i in Blink's rich-text box read only its child
 * objects replaced, and a bold tag applied in GtkTextView nothing at all). None without a selection. The readings are
 * compared only at one place: a key that moves the selection (ctrl+a, shift+Home) reads other characters after, whose
 * formatting was never changed, and the selection's own line tells that move.
 */
export function textAttributesProbe(desktop: LinuxDesktop, ref: ObjectRef, label: string): Probe {
  // The first reading, before the action: what the later ones are compared with; none when nothing was selected then.
  let first: { place: SelectionPlace; formatting: string } | undefined;
  let last: SelectionPlace | undefined;
  let readBefore = false;
  return {
    label: `formatting of the text selected in ${label}`,
    read: async () => {
      if (readBefore && !first) return undefined;
      const before = !readBefore;
      readBefore = true;
      const client = await desktop.atspi();
      const place = await selectionPlace(client, ref, selectedTextRead);
      if (!place) return first?.formatting;
      if (first && !(first.place.ref.path === place.ref.path && first.place.start === place.start)) return first.formatting;
      const formatting = formattingOf(await textAttributesAt(client, place.ref, place.start));
      if (before) first = { place, formatting };
      last = place;
      return formatting;
    },
    describe: (before, after) => {
      const place = last ?? first?.place;
      const at = place && !place.embedded ? ` at ${place.start}..${place.end}` : '';
      return `${label} text${at} (${quote(place?.text)}): ${formattingChange(before, after)}`;
    },
  };
}

/**
 * The probe for the text that had the keyboard focus when the window was last read, when it is editable: a click on a
 * toolbar's Bold button formats the text selected there (the page's button takes no focus from it), which is where
 * the effect shows. None when no such text was focused.
 */
export function focusedTextAttributesProbes(desktop: LinuxDesktop, snapshot: SnapshotRef | undefined, except?: ObjectRef): Probe[] {
  for (const element of snapshot?.elements.values() ?? []) {
    const states = element.states ?? [];
    if (!states.includes('focused') || !states.includes('editable')) continue;
    const ref = atspiElement(element.handle);
    return except?.path === ref.path ? [] : [textAttributesProbe(desktop, ref, `[e${element.index}]`)];
  }
  return [];
}
