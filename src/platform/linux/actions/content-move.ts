// The evidence line of a scrolled region read back by where its content lies (contentProbe in scroll.ts): the boxes
// of what the region holds, before and after. The raw boxes read "the position of the region's content:
// "[{"x":0,"y":96,…}]" → …": said instead as how far the content moved and which way the region scrolled.

type Box = { x: number; y: number; w: number; h: number } | null;

function boxes(read: string): Box[] {
  try {
    const parsed: unknown = JSON.parse(read);
    return Array.isArray(parsed) ? (parsed as Box[]) : [];
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
 * How far the region's content moved between two of contentProbe's reads: the first box read both times that moved
 * says it (a row below it may have been relaid); undefined when none moved.
 */
export function contentShift(before: string, after: string): { dx: number; dy: number } | undefined {
  const [was, now] = [boxes(before), boxes(after)];
  for (let i = 0; i < Math.min(was.length, now.length); i++) {
    const [a, b] = [was[i], now[i]];
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
