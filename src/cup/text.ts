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

/**
 * Characters that draw no word: the Unicode private use areas (the BMP's U+E000-U+F8FF, planes 15 and 16), where icon
 * fonts put their pictures (Font Awesome's floppy disk is U+F0C7, Material Design Icons' start at U+F0001), and the
 * zero-width space and word joiner. A web engine names a page's icon by the character its stylesheet draws it with
 * (`::before { content: "\f0c7" }`), and a code editor (CodeMirror) fills an empty line with a zero-width space, which
 * named its line `rgn "\u200b"`: no reader reads either as a word. The joiners that shape a script or an emoji
 * (U+200C, U+200D) are left.
 */
const wordlessCharacters = /[\uE000-\uF8FF\u{F0000}-\u{FFFFD}\u{100000}-\u{10FFFD}\u200B\u2060]/gu;

/** The text without the characters that draw no word (wordlessCharacters): an icon font's pictures, zero-width spaces. */
export function withoutWordlessCharacters(text: string): string {
  return text.replace(wordlessCharacters, '');
}

/** Whether the text holds nothing but wordless characters (an icon font's pictures) and whitespace, and at least one of them. */
export function isWordlessOnly(text: string): boolean {
  return text.trim() !== '' && withoutWordlessCharacters(text).trim() === '';
}

/** Whitespace runs become one space and the ends are trimmed, as names are read. */
export function normaliseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

// Characters a keyboard does not type, for the ones an agent types in their place: the dashes and minus (U+2010-2015,
// U+2212), the curly and low quotes and primes, the fixed-width and non-breaking spaces, the ellipsis, the ratio sign
// (U+2236) as a colon; and the invisible marks that set the direction of text (LRM, RLM, the embeddings, overrides
// and isolates), as nothing: GTK's file chooser shows a time as "\u200e07\u223602", which name="07:02" did not match.
const typedForms: ReadonlyArray<readonly [RegExp, string]> = [
  [/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, ''],
  [/\u2236/g, ':'],
  [/[\u2010-\u2015\u2212]/g, '-'],
  [/[\u2018\u2019\u201a\u201b\u2032]/g, "'"],
  [/[\u201c-\u201f\u2033]/g, '"'],
  [/[\u00a0\u2007\u2009\u202f]/g, ' '],
  [/\u2026/g, '...'],
];

/**
 * A name as an agent would type it, for comparing what an agent wrote with what an app shows: composed (NFC: an
 * accented letter written decomposed, O + U+0308, is the Ö a keyboard types), and typographic punctuation as its
 * keyboard spelling. LibreOffice offers "Word 2007–365 (.docx)" (an en dash) and "Don’t split table over pages": a
 * selector or an option written with "-" or "'" matched nothing, and the error offered the same-looking name back.
 */
export function typedSpelling(text: string): string {
  let typed = text.normalize('NFC');
  for (const [form, typedForm] of typedForms) typed = typed.replace(form, typedForm);
  return typed;
}
