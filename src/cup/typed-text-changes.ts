// What an editor made of text typed into it as keys. Code editors change what is typed: they indent a new line after
// a Return (Geany, GtkSourceView's auto-indent), close brackets and quotes, and a completion list that a typed word
// opened takes the next Return to insert its choice instead of a line break. The typing then reached the field, but the
// field does not hold what was typed, and the result must say how it differs rather than call it a Return that "acted
// on" the text, or a failure.

/** Above this many character pairs (typed × gained) the alignment is not computed, and the change is told whole. */
const maxAlignedPairs = 4_000_000;
/** How many changes are told one by one. */
const maxToldChanges = 5;
/** How much of a text an evidence line quotes. */
const maxQuoted = 160;

/** Closing brackets and quotes, which editors add after an opening one. */
const closers = /^[)\]}>"'`]+$/u;

/** One place where what the field gained differs from what was typed. */
interface Change {
  /** The typed characters that are not there. */
  typed: string;
  /** The characters there that were not typed. */
  shown: string;
  /** Where the change is in the field's text (its index in the code points of `after`). */
  at: number;
}

/** The field's change, and how what it gained differs from the typed text. */
export interface TypedTextChanges {
  /** What the field gained where the keys went (its text after, less what it held before on either side). */
  gained: string;
  /** Lines telling how the gained text differs from the typed text, one per kind of change. */
  notes: string[];
}

/** A text quoted for an evidence line, shortened in its middle. */
export function quoteText(text: string): string {
  const points = [...text];
  if (points.length <= maxQuoted) return JSON.stringify(text);
  const half = Math.floor(maxQuoted / 2);
  return `${JSON.stringify(points.slice(0, half).join(''))}…${JSON.stringify(points.slice(-half).join(''))}`;
}

/**
 * The changes that turn `typed` into `gained`: a longest common subsequence, walked into runs of characters dropped
 * and added (each run one change). `offset` is where `gained` begins in the field's text.
 */
function align(typed: readonly string[], gained: readonly string[], offset: number): Change[] {
  const [n, m] = [typed.length, gained.length];
  // lengths[i][j]: the longest common subsequence of typed[i..] and gained[j..].
  const lengths = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lengths[i]![j] = typed[i] === gained[j] ? lengths[i + 1]![j + 1]! + 1 : Math.max(lengths[i + 1]![j]!, lengths[i]![j + 1]!);
    }
  }
  const changes: Change[] = [];
  let open: Change | undefined;
  const close = () => {
    if (open) changes.push(open);
    open = undefined;
  };
  let [i, j] = [0, 0];
  while (i < n || j < m) {
    if (i < n && j < m && typed[i] === gained[j]) {
      close();
      i++;
      j++;
      continue;
    }
    open ??= { typed: '', shown: '', at: offset + j };
    // Characters added go before characters dropped at the same place, so a run reads as one replacement.
    if (j < m && (i >= n || lengths[i]![j + 1]! >= lengths[i + 1]![j]!)) open.shown += gained[j++];
    else open.typed += typed[i++];
  }
  close();
  return changes;
}

/** The 1-based line of the field's text at a code-point index. */
function lineAt(after: readonly string[], at: number): number {
  let line = 1;
  for (let k = 0; k < at && k < after.length; k++) if (after[k] === '\n') line++;
  return line;
}

/** Whether only spaces and tabs lie between the line's start and `at`: a change there is in the line's indentation. */
function inIndentation(after: readonly string[], at: number): boolean {
  for (let k = at - 1; k >= 0; k--) {
    if (after[k] === '\n') return true;
    if (after[k] !== ' ' && after[k] !== '\t') return false;
  }
  return true;
}

const blank = (text: string) => /^[ \t]*$/.test(text);

/** The lines as a list: "line 3", "lines 2, 3 and 5". */
function linesList(lines: readonly number[]): string {
  const unique = [...new Set(lines)];
  if (unique.length === 1) return `line ${unique[0]}`;
  return `lines ${unique.slice(0, -1).join(', ')} and ${unique[unique.length - 1]}`;
}

/**
 * How the text a field gained while `typed` was typed into it as keys differs from `typed`, or undefined when it is
 * the typed text (a Return typed as "\r\n" or "\n" is one line break). `before` and `after` are the field's whole
 * text; what it gained is `after` less the text both share at its start and end.
 */
export function typedTextChanges(typed: string, before: string, after: string): TypedTextChanges | undefined {
  const want = [...typed.replace(/\r\n?/g, '\n')];
  const [was, now] = [[...before], [...after]];
  let start = 0;
  while (start < was.length && start < now.length && was[start] === now[start]) start++;
  let end = 0;
  while (end < was.length - start && end < now.length - start && was[was.length - 1 - end] === now[now.length - 1 - end]) end++;
  const gained = now.slice(start, now.length - end);
  if (gained.join('') === want.join('')) return undefined;
  const told = { gained: gained.join(''), notes: [] as string[] };
  if (gained.length === 0) return { ...told, notes: ['its text has nothing more where the keys went'] };
  if (want.length * gained.length > maxAlignedPairs) return { ...told, notes: ['they are too long to tell their differences one by one'] };
  const changes = align(want, gained, start);
  const indented: number[] = [];
  const closed: Change[] = [];
  const breaksTaken: Change[] = [];
  const others: Change[] = [];
  for (const change of changes) {
    if (blank(change.typed) && blank(change.shown) && inIndentation(now, change.at)) indented.push(lineAt(now, change.at));
    else if (change.typed === '' && closers.test(change.shown)) closed.push(change);
    else if (change.typed.includes('\n') && !change.shown.includes('\n')) breaksTaken.push(change);
    else others.push(change);
  }
  if (indented.length > 0) {
    told.notes.push(`the editor indented ${linesList(indented)} otherwise than typed (an editor that indents a new line after each Return adds its indentation to the spaces typed)`);
  }
  for (const change of breaksTaken.slice(0, maxToldChanges)) {
    const inserted = change.shown.trim() !== '' ? `: ${quoteText(change.shown)} came in its place (a completion list open there took the Return and inserted its choice)` : '';
    told.notes.push(`a Return typed on line ${lineAt(now, change.at)} made no line break${inserted}`);
  }
  if (closed.length > 0) {
    told.notes.push(`the editor added ${closed.map((change) => `${quoteText(change.shown)} (line ${lineAt(now, change.at)})`).join(', ')}, not typed (an editor that closes brackets and quotes adds them)`);
  }
  for (const change of others.slice(0, maxToldChanges)) {
    const where = `line ${lineAt(now, change.at)}`;
    told.notes.push(
      change.typed === '' ? `the editor added ${quoteText(change.shown)} on ${where}, not typed` : change.shown === '' ? `${quoteText(change.typed)} typed is not there (${where})` : `${quoteText(change.typed)} typed came out as ${quoteText(change.shown)} (${where})`,
    );
  }
  const untold = Math.max(0, breaksTaken.length - maxToldChanges) + Math.max(0, others.length - maxToldChanges);
  if (untold > 0) told.notes.push(`and ${untold} more changes`);
  return told;
}
