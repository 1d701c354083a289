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
 * a U+FFFC with nothing known behind it is dropped. An object at an offset in `blocks` (a paragraph, a list item, a
 * heading) is a line of its own, as it is drawn: a line break separates it from what comes before and after it,
 * unless the text has one there already. A rich-text box's paragraphs are embedded objects with no line break
 * between them in Blink's and Gecko's text, and its value read "First paragraph.Second paragraph." for two lines.
 * A block's own last line break (a `<br>` ending a paragraph, or an empty paragraph's) draws no line of its own.
 */
export function spliceEmbeddedText(text: string, embedded: ReadonlyMap<number, string>, blocks: ReadonlySet<number> = new Set()): string {
  if (!text.includes(OBJECT_REPLACEMENT)) return text;
  const characters = [...text];
  let result = '';
  characters.forEach((character, offset) => {
    if (character !== OBJECT_REPLACEMENT) {
      result += character;
      return;
    }
    const shown = embedded.get(offset);
    if (shown === undefined) return;
    if (!blocks.has(offset)) {
      result += shown;
      return;
    }
    if (offset > 0 && characters[offset - 1] !== '\n') result += '\n';
    result += shown.endsWith('\n') ? shown.slice(0, -1) : shown;
    const next = characters[offset + 1];
    // A block after this one starts its own line.
    if (next !== undefined && next !== '\n' && !(next === OBJECT_REPLACEMENT && blocks.has(offset + 1))) result += '\n';
  });
  return result;
}

/** The text without any U+FFFC, for strings whose embedded objects cannot be known (names). */
export function withoutObjectReplacements(text: string): string {
  return text.includes(OBJECT_REPLACEMENT) ? text.replaceAll(OBJECT_REPLACEMENT, '') : text;
}
