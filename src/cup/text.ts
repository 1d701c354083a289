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

// The formats are line based; only `\n` is folded (COMPACT.md), so `\r` and tabs pass through.
export function oneLine(text: string): string {
  return text.replaceAll('\n', ' ');
}

/** Whitespace runs become one space and the ends are trimmed, as names are read. */
export function normaliseWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
