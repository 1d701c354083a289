// Whether a field's text changed by typed text: the text it held with the typed text put in at one place (its caret),
// or holding the typed text more often than before (typed over a selection; an app that completes what is typed adds
// text after it). Holding the typed text is not enough: typing "abc" into a field that held "abc" read as done once it
// showed "abca", before the last keys arrived, and so did a field that takes four characters and kept "abca". Typed
// over a selection that held part of an earlier occurrence ("c" of "abc" selected, "abc" typed: "ababc") is not told
// from a field that kept only part of the keys, and is not taken as arrived.

/**
 * How many times `typed` occurs in `text`, each occurrence after the last one's end: counted overlapping, "99" typed
 * into a field holding "99" had arrived at its first key ("999" holds "99" twice so), and a Return typed after it
 * was said to have changed the field's text from "99" to "999".
 */
function occurrences(text: string, typed: string): number {
  let count = 0;
  for (let at = text.indexOf(typed); at >= 0; at = text.indexOf(typed, at + typed.length)) count++;
  return count;
}

/** How many characters (UTF-16 units) two texts share from their start, and from their end. */
function commonEnds(a: string, b: string): { start: number; end: number } {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length && end < b.length && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  return { start, end };
}

/** Whether `after` is `before` with `typed` put in at one place. */
function insertedInto(before: string, after: string, typed: string): boolean {
  if (after.length !== before.length + typed.length) return false;
  const common = commonEnds(before, after);
  // The text before the insertion is a start both share, the rest an end both share.
  for (let at = Math.max(0, before.length - common.end); at <= Math.min(before.length, common.start); at++) {
    if (after.startsWith(typed, at)) return true;
  }
  return false;
}

/**
 * Whether `after` is `before` with the start of `typed` put in at one place, the rest not (yet): real keys still on
 * their way, or a field that took the first keys alone.
 */
export function typedInPart(before: string, after: string, typed: string): boolean {
  const length = after.length - before.length;
  return length > 0 && length < typed.length && insertedInto(before, after, typed.slice(0, length));
}

/** A selection of a field's text, in characters (code points), as accessibility gives its offsets. */
export interface TextRange {
  start: number;
  end: number;
}

/** `before` with the range replaced by `typed`, as keys typed over a selection leave it. */
function replacedBy(before: string, range: TextRange, typed: string): string {
  const characters = [...before];
  const [from, to] = [Math.min(range.start, range.end), Math.max(range.start, range.end)];
  return characters.slice(0, from).join('') + typed + characters.slice(to).join('');
}

/**
 * Whether a field that held `before` and holds `after` took `typed` (empty text takes nothing to show). With the
 * range of `before` that was selected when the keys went, the field holding it replaced by `typed` took it too: "York"
 * typed over the whole "New York" selected left "York", which holds "York" no more often than before.
 */
export function gainedTyped(before: string, after: string, typed: string, selected?: TextRange): boolean {
  if (typed === '') return true;
  if (selected && after === replacedBy(before, selected, typed)) return true;
  return insertedInto(before, after, typed) || occurrences(after, typed) > occurrences(before, typed);
}
