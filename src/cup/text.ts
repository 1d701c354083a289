// String helpers for the text renderings. Every length here counts Unicode code points, never
// UTF-16 units, so an emoji is one character and is never split in half.

/** UTF-16 index just past the first `count` code points of `text` (or `text.length` if shorter). */
function codePointOffset(text: string, count: number): number {
  let index = 0;
  for (let seen = 0; seen < count && index < text.length; seen++) {
    index += (text.codePointAt(index) ?? 0) > 0xffff ? 2 : 1;
  }
  return index;
}

export function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length++;
  return length;
}

/** The first `count` code points, without any marker. */
export function firstCodePoints(text: string, count: number): string {
  return text.slice(0, codePointOffset(text, count));
}

/** The first `count` code points plus `...` when the text was longer. */
export function truncate(text: string, count: number): string {
  const end = codePointOffset(text, count);
  return end < text.length ? `${text.slice(0, end)}...` : text;
}

// Control characters other than the tab and the line breaks, and the Unicode line and paragraph separators.
const controls = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * The formats are line based: a line break ("\n", "\r\n" or a lone "\r", COMPACT.md's newlines) becomes a space, and
 * any other control character is shown as an escape (`\x1b`, `\u2028`), tabs kept. Passed through raw, an app's
 * title or name drove the terminal that printed it: "A\rB\x1b[31mC" drew "B" over "A" and the rest in red, and an
 * agent reading it saw neither.
 */
export function oneLine(text: string): string {
  return text.replace(/\r\n?|\n/g, ' ').replace(controls, (character) => {
    const code = character.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

/** Whitespace runs become one space and the ends are trimmed, as names are read. */
export function normaliseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
