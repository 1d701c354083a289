/** Edits (insert, delete, replace one character) that turn one word into the other. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/**
 * The known name a mistyped one most likely meant (at most two edits away, ignoring case, and fewer edits than the
 * name has letters), if any. Two edits turn any one-letter name into any two-letter one: scroll's "x" and "y" were
 * both answered "did you mean "by", "by"?", and zoom's "w" and "h" "x1", names that share nothing with them.
 */
export function closestName(wanted: string, known: readonly string[]): string | undefined {
  const lower = wanted.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(lower, name.toLowerCase());
    if (distance <= 2 && distance < lower.length && (!best || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}
