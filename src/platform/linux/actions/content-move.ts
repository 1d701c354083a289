// The evidence line of a scrolled region read back by where its content lies (contentProbe in scroll.ts): the boxes
// of what the region holds, before and after. The raw boxes read "the position of the region's content:
// "[{"x":0,"y":96,…}]" → …": said instead as how far the content moved and which way the region scrolled.

/** A box of the region's content, with the object it is of (its path), so the two reads pair the same objects. */
export type ContentBox = { id: string; x: number; y: number; w: number; h: number } | null;

function boxes(read: string): ContentBox[] {
  try {
    const parsed: unknown = JSON.parse(read);
    return Array.isArray(parsed) ? (parsed as ContentBox[]) : [];
  } catch {
    return [];
  }
}

/** Where a move of `by` pixels along an axis went, said of the content and of the region ("300 px up (scrolled down)"). */
function along(by: number, vertical: boolean): string {
  const [back, forth] = vertical ? ['up', 'down'] : ['left', 'right'];
  // Content moving up is the region scrolling down.
  return by < 0 ? `${-by} px ${back} (scrolled ${forth})` : `${by} px ${forth} (scrolled ${back})`;
}

const lineStart = "the region's content ";

/** Whether an evidence line is one contentMoveLine made: a clearer line of where the region scrolled may say it already. */
export function isContentMoveLine(line: string): boolean {
  return line.startsWith(lineStart);
}

/**
 * How far the region's content moved between two of contentProbe's reads: the first object read both times whose
 * box moved says it (a row below it may have been relaid); undefined when none moved. Objects pair by identity, not
 * by their place among the region's children: a chat that puts older messages before the first as it is scrolled
 * up read its new first message's box against the old first one's, "moved 106 px up (scrolled down)".
 */
export function contentShift(before: string, after: string): { dx: number; dy: number } | undefined {
  const now = new Map(boxes(after).flatMap((box) => (box ? [[box.id, box] as const] : [])));
  for (const a of boxes(before)) {
    const b = a && now.get(a.id);
    if (a && b && (a.x !== b.x || a.y !== b.y)) return { dx: b.x - a.x, dy: b.y - a.y };
  }
  return undefined;
}

/** The line of a region whose content's boxes went from `before` to `after` (contentProbe's reads). */
export function contentMoveLine(before: string, after: string): string {
  const shift = contentShift(before, after);
  if (!shift) return `${lineStart}changed (its boxes were relaid, none moved)`;
  const moves = [...(shift.dy !== 0 ? [along(shift.dy, true)] : []), ...(shift.dx !== 0 ? [along(shift.dx, false)] : [])];
  return `${lineStart}moved ${moves.join(' and ')}`;
}
