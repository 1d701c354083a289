// How evidence quotes a text, and a change of one: on one line, cut where it is long, from a little before where the
// two sides part.

/**
 * A text on one line: a line break is written \n and a tab \t, as typed into a field they are part of the text; runs
 * of spaces are kept (an editor's indentation is what the agent checks).
 */
export function oneLine(value: string): string {
  return value.replace(/\r?\n/g, '\\n').replace(/\t/g, '\\t').replace(/[^\S ]/g, ' ');
}

/**
 * A text quoted on one line, cut to 80 characters; `from`: where in the one-line text to begin (with "..." before).
 * Quotes inside are escaped, as the tree's lines escape them (quoteValue): a page's button renamed to `Say "hi"` read
 * `name: "Say "hi""` in Firefox's diff, where the quotes no longer said where the name ends.
 */
export function quote(value: string | undefined, from = 0): string {
  if (value === undefined) return '(unreadable)';
  const line = oneLine(value);
  // Not between the two characters of a written \n or \t.
  const start = from > 0 && line[from - 1] === '\\' ? from - 1 : from;
  const shown = start > 0 ? `...${line.slice(start)}` : line;
  return `"${(shown.length > 80 ? `${shown.slice(0, 77)}...` : shown).replaceAll('"', '\\"')}"`;
}

/** How many characters two texts begin with alike. */
function commonStart(a: string, b: string): number {
  let same = 0;
  while (same < a.length && same < b.length && a[same] === b[same]) same++;
  return same;
}

/**
 * Where a quote of `now` begins so that it shows how it differs from `was` (see quote's `from`): a little before
 * where the two part, when that is past the first 60 characters, else at the start.
 */
export function partingQuoteStart(was: string, now: string): number {
  const same = commonStart(oneLine(was), oneLine(now));
  return same > 60 ? same - 20 : 0;
}

/**
 * The lines a text scrolled up by, when the new text begins with the old one's later lines (a terminal's screen,
 * a log): the smallest shift after which at least two lines, or all that are left, are the same, one of them holding
 * more than blanks. Blank lines alone are no sign: a document emptied (gedit's, by set_value "" or an undo) read as
 * 'scrolled up 2 lines', as its text's last line, after its last newline, is as empty as the new text.
 */
function scrolledBy(was: readonly string[], now: readonly string[]): number | undefined {
  for (let shift = 1; shift < was.length; shift++) {
    const overlap = was.slice(shift, shift + Math.min(2, was.length - shift));
    if (overlap.every((line, i) => line === now[i]) && overlap.some((line) => line.trim() !== '')) return shift;
  }
  return undefined;
}

/**
 * A change of a long text, both sides quoted from a little before where they first differ: both begin alike
 * (a document), or the new one with the old one's later lines (a terminal's screen after output scrolled it), and
 * quoted from their start they read the same up to the cut.
 */
export function textChange(was: string | undefined, now: string | undefined): string {
  if (was === undefined || now === undefined) return `${quote(was)} → ${quote(now)}`;
  const parted = partingQuoteStart(was, now);
  if (parted > 0) return `${quote(was, parted)} → ${quote(now, parted)}`;
  const [wasLines, nowLines] = [was.split('\n'), now.split('\n')];
  const shift = oneLine(was).length > 80 ? scrolledBy(wasLines, nowLines) : undefined;
  if (shift === undefined) return `${quote(was)} → ${quote(now)}`;
  // Where the old text, moved up by the shift, and the new one part: each is quoted from a little before it.
  const [a, b] = [oneLine(wasLines.slice(shift).join('\n')), oneLine(now)];
  const from = Math.max(0, commonStart(a, b) - 20);
  const before = oneLine(wasLines.slice(0, shift).join('\n')).length + 2;
  return `${quote(was, before + from)} → ${quote(now, from)} (scrolled up ${shift} line${shift === 1 ? '' : 's'})`;
}
