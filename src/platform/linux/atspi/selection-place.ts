import { OBJECT_REPLACEMENT } from '../../../cup/embedded-objects.js';
import type { AtspiClient } from './client.js';
import type { ObjectRef } from './object-ref.js';
import { embeddedObjectAt, textBetween, textSelection } from './operations.js';

/** How deep a selection is followed into the objects a text embeds (a rich-text box's paragraph, a link in it). */
const maxDepth = 3;

/** Where a text's selection lies, in the object that holds its characters. */
export interface SelectionPlace {
  ref: ObjectRef;
  start: number;
  end: number;
  /** The selected text from its start, as much as was asked for. */
  text: string;
  /** It was found in an object the text embeds, whose offsets are not the text's own. */
  embedded: boolean;
  /** The whole selection lies in `ref`: no level above covers more than the one object it was followed into. */
  whole: boolean;
}

/**
 * Where a text's selection begins, in the object that holds its characters: a rich-text box of Blink or Gecko holds its
 * paragraphs as embedded objects (U+FFFC), and its selection "0..1" stands for the first paragraph, whose own selection
 * says which of its characters are selected ("16..20"). None without a selection. `textRead`: how much of the selected
 * text is read (at least its first character, which says whether it is an embedded object).
 */
export async function selectionPlace(client: AtspiClient, ref: ObjectRef, textRead = 1): Promise<SelectionPlace | undefined> {
  let object = ref;
  let whole = true;
  for (let depth = 0; depth <= maxDepth; depth++) {
    const range = await textSelection(client, object);
    if (!range) return undefined;
    const text = await textBetween(client, object, range.start, range.end, Math.max(1, textRead));
    const inner = text.startsWith(OBJECT_REPLACEMENT) ? await embeddedObjectAt(client, object, range.start).catch(() => undefined) : undefined;
    if (!inner) return { ref: object, ...range, text: text.slice(0, textRead), embedded: depth > 0, whole };
    whole &&= range.end - range.start === 1;
    object = inner;
  }
  return undefined;
}
