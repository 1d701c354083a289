// Names laid out in columns on the open screen, with no colour or frame (bash's completion listing after
// Tab Tab, `ls` printing several names to a row): a column as wide as its longest name plus one or two
// blanks leaves a single blank after a name one shorter, so text runs (split at three blanks) read
// "libexec/ sbin/" as one item. The rows show the columns: where one row parts two names by two blanks
// or more, every row of the listing starts its names on those columns.
import type { ScreenScan } from './scan.js';

interface Word {
  x: number;
  /** The column after its last character. */
  end: number;
  /** Two blanks or more before it (or it opens the row): it starts a column wherever it stands. */
  spaced: boolean;
}

interface Row {
  y: number;
  words: Word[];
}

/** Fewer rows, or fewer names on each of two rows, and an alignment is more likely a coincidence of text. */
const MIN_ROWS = 2;
const MIN_NAMES = 2;

function wordsOf(scan: ScreenScan, regionIndex: number, y: number): Word[] {
  const { text, columnAt } = scan.regionRow(regionIndex, y);
  return [...text.matchAll(/\S+/g)].map((match, index) => ({
    x: columnAt[match.index]!,
    end: scan.columnEnd(y, columnAt, match.index + match[0].length),
    spaced: index === 0 || (text[match.index - 1] === ' ' && text[match.index - 2] === ' '),
  }));
}

/** Whether a name of one row runs across a column the other row shows apart: the two rows are no listing. */
function crosses(row: Row, other: Row): boolean {
  return other.words.some((column) => column.spaced && row.words.some((word) => word.x < column.x && column.x < word.end));
}

/**
 * The rows of a block whose every name starts on a column some row shows apart by a wide gap, and no name
 * runs across such a column. Rows that break this (a prompt above the listing) are left out and the rest
 * looked at again, as the columns they showed are no longer shown.
 */
function listings(rows: readonly Row[]): { rows: Row[]; columns: Set<number> }[] {
  if (rows.length < MIN_ROWS) return [];
  const columns = new Set(rows.flatMap((row) => row.words.filter((word) => word.spaced).map((word) => word.x)));
  const fits = (row: Row) =>
    row.words.every((word) => columns.has(word.x) && ![...columns].some((column) => word.x < column && column < word.end));
  if (rows.every(fits)) {
    const wide = rows.filter((row) => row.words.length >= MIN_NAMES).length;
    return wide >= MIN_ROWS ? [{ rows: [...rows], columns }] : [];
  }
  const found: { rows: Row[]; columns: Set<number> }[] = [];
  let run: Row[] = [];
  for (const row of [...rows, undefined]) {
    if (row && fits(row)) run.push(row);
    else {
      found.push(...listings(run));
      run = [];
    }
  }
  return found;
}

/** Fewer names on a row alone, and an even spacing is more likely a coincidence. */
const MIN_EVEN_NAMES = 4;

/**
 * The columns of a row alone that lays its names out at one pitch, one name to a column and no column skipped
 * (readline's listing when all its names fit on one row: "include/ lib/" one blank apart, nine columns from
 * "bin/     "): the pitch is the narrowest gap between names a wide gap shows apart.
 */
function evenColumns(row: Row): Set<number> | undefined {
  const { words } = row;
  if (words.length < MIN_EVEN_NAMES) return undefined;
  const spaced = words.filter((word) => word.spaced).map((word) => word.x);
  const pitch = Math.min(...spaced.slice(1).map((x, index) => x - spaced[index]!));
  if (!Number.isFinite(pitch) || pitch < 3) return undefined;
  const left = words[0]!.x;
  const even = words.every((word, index) => word.x === left + index * pitch && word.end < left + (index + 1) * pitch);
  return even ? new Set(words.map((word) => word.x)) : undefined;
}

/**
 * For each row of a listing in the region, the columns its names start on past the first: a text run is
 * cut there even where only one blank parts two names.
 */
export function listingCuts(scan: ScreenScan, regionIndex: number): Map<number, Set<number>> {
  const region = scan.regions[regionIndex]!;
  const cuts = new Map<number, Set<number>>();
  let block: Row[] = [];
  const flush = () => {
    for (const listing of listings(block)) for (const row of listing.rows) cuts.set(row.y, listing.columns);
    block = [];
  };
  const rows: Row[] = [];
  for (let y = region.rect.y; y < region.rect.y + region.rect.h; y++) {
    const words = wordsOf(scan, regionIndex, y);
    const row = { y, words };
    rows.push(row);
    const above = block[block.length - 1];
    // A listing's rows all start at its first column, and none runs across a column its neighbour shows.
    if (words.length === 0 || (above && (words[0]!.x !== above.words[0]!.x || crosses(row, above) || crosses(above, row)))) flush();
    if (words.length > 0) block.push(row);
  }
  flush();
  for (const row of rows) {
    const columns = cuts.has(row.y) ? undefined : evenColumns(row);
    if (columns) cuts.set(row.y, columns);
  }
  return cuts;
}
