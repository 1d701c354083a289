// How results name an element of a snapshot: its index, role and (quoted) name, as the compact tree shows them.

/** `[e12] button "Save"`; an unnamed element is its index and role alone. */
export function indexedLabel(element: { index: number; role: string; name?: string }): string {
  return `[e${element.index}] ${element.role}${element.name ? ` ${JSON.stringify(element.name)}` : ''}`;
}

/** The index a label (indexedLabel's, or a bare "[e12]") begins with; undefined when it begins with none. */
export function labelledIndex(label: string): number | undefined {
  const found = /^\[e(\d+)\]/.exec(label);
  return found ? Number(found[1]) : undefined;
}
