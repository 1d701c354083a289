// The items a list leaves out of the page, told by its items' place in their set.
import type { AtspiRawNode, UnreadChildren } from './raw-node.js';

/**
 * The items of a list that are in no child of it, before its first and after its last, from its items' place in
 * their set (the posinset and setsize attributes browsers expose from aria-posinset and aria-setsize): a virtualised
 * list keeps only the rows in view in the page, and a list of 1000 contacts read as 9 items and "1 more". Items the
 * read left unread (`read`: a huge or scrolled container's) are children, counted there, not here. None when the
 * items give no such place, or disagree on their set's size.
 */
export function itemsOutsideList(raw: AtspiRawNode, read: UnreadChildren | undefined): UnreadChildren | undefined {
  const places = raw.children.flatMap((child) => {
    const position = Number(child.attributes?.posinset);
    const size = Number(child.attributes?.setsize);
    return Number.isInteger(position) && Number.isInteger(size) && position >= 1 && size >= position ? [{ position, size }] : [];
  });
  if (places.length === 0 || places.some((place) => place.size !== places[0]!.size)) return undefined;
  const positions = places.map((place) => place.position);
  const up = Math.max(0, Math.min(...positions) - 1 - (read?.up ?? 0));
  const down = Math.max(0, places[0]!.size - Math.max(...positions) - (read?.down ?? 0));
  return up + down > 0 ? { up, down, left: 0, right: 0 } : undefined;
}
