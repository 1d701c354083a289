// Web engines (Blink, Gecko) and other hypertext toolkits put U+FFFC OBJECT REPLACEMENT CHARACTER in an
// object's text wherever a child object is embedded (a link, a field, a popup list). The character means
// "an object is here", never text a user reads, so it is replaced by what that object shows, or dropped.

export const OBJECT_REPLACEMENT = '\uFFFC';

/** Character offsets (Unicode code points, as AT-SPI counts them) of every U+FFFC in the text. */
export function objectReplacementOffsets(text: string): number[] {
  const offsets: number[] = [];
  let offset = 0;
  for (const character of text) {
    if (character === OBJECT_REPLACEMENT) offsets.push(offset);
    offset++;
  }
  return offsets;
}

/**
 * The text with each U+FFFC replaced by the text of the object embedded at that character offset;
 * a U+FFFC with nothing known behind it is dropped.
 */
export function spliceEmbeddedText(text: string, embedded: ReadonlyMap<number, string>): string {
  if (!text.includes(OBJECT_REPLACEMENT)) return text;
  let result = '';
  let offset = 0;
  for (const character of text) {
    result += character === OBJECT_REPLACEMENT ? (embedded.get(offset) ?? '') : character;
    offset++;
  }
  return result;
}

/** The text without any U+FFFC, for strings whose embedded objects cannot be known (names). */
export function withoutObjectReplacements(text: string): string {
  return text.includes(OBJECT_REPLACEMENT) ? text.replaceAll(OBJECT_REPLACEMENT, '') : text;
}
