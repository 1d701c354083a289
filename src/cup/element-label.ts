// How results name an element of a snapshot: its index, role and (quoted) name, as the compact tree shows them.

/** `[e12] button "Save"`; an unnamed element is its index and role alone. */
export function indexedLabel(element: { index: number; role: string; name?: string }): string {
  return `[e${element.index}] ${element.role}${element.name ? ` ${JSON.stringify(element.name)}` : ''}`;
}
