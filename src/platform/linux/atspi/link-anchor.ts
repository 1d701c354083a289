// A link drawn in a label's text: GTK3's markup links (every About dialog's Website and License) are objects of role
// link with no name, no text and no place of their own; what they show and where is a stretch of their label's text.
import { ATSPI_ROLE } from '../../../cup/atspi/constants.js';
import type { AtspiClient } from './client.js';
import type { AskObject } from './embedded-text.js';
import { atspiInterface, type ObjectRef } from './object-ref.js';
import { askOf, parentOf, readInterfaces, readRole } from './operations.js';

const Hyperlink = atspiInterface('Hyperlink');
const Text = atspiInterface('Text');
/** Longer than any link's words: a wrong offset pair must not pull a document through. */
const maxAnchorLength = 400;
/** ATSPI_COORD_TYPE_SCREEN: the boxes the walk reads are the screen's. */
const screenCoordinates = 0;

export interface LinkAnchor {
  text: string;
  /** Its words' box in the label, when the link has no Component of its own to say it. */
  box?: { x: number; y: number; w: number; h: number };
}

/** The words of `owner`'s text the link spans (its Hyperlink's StartIndex..EndIndex), and their box when asked. */
export async function linkAnchor(ask: AskObject, link: ObjectRef, owner: ObjectRef, withBox: boolean): Promise<LinkAnchor | undefined> {
  const [start, end] = await Promise.all(
    ['StartIndex', 'EndIndex'].map(async (name) => Number(((await ask(link, 'org.freedesktop.DBus.Properties', 'Get', 'ss', [Hyperlink, name]))?.[0] as { value: unknown } | undefined)?.value)),
  );
  if (!Number.isInteger(start) || !Number.isInteger(end) || start! < 0 || end! <= start! || end! - start! > maxAnchorLength) return undefined;
  const [body, extents] = await Promise.all([
    ask(owner, Text, 'GetText', 'ii', [start, end]),
    withBox ? ask(owner, Text, 'GetRangeExtents', 'iiu', [start, end, screenCoordinates]) : Promise.resolve(undefined),
  ]);
  const text = String(body?.[0] ?? '').trim();
  if (!text) return undefined;
  const [x, y, w, h] = (extents ?? []).map(Number);
  const box = x !== undefined && y !== undefined && w! > 0 && h! > 0 ? { x, y, w: w!, h: h! } : undefined;
  return { text, ...(box ? { box } : {}) };
}

/** The box of a link that has no Component, on its label's words: where a real click on it lands. */
export async function anchorBox(client: AtspiClient, link: ObjectRef): Promise<LinkAnchor['box']> {
  const [role, interfaces] = await Promise.all([readRole(client, link), readInterfaces(client, link)]);
  if (role !== ATSPI_ROLE.LINK || !interfaces.includes('Hyperlink') || interfaces.includes('Component')) return undefined;
  const owner = await parentOf(client, link);
  return owner ? (await linkAnchor(askOf(client), link, owner, true))?.box : undefined;
}
