import { OBJECT_REPLACEMENT, objectReplacementOffsets, spliceEmbeddedText, withoutObjectReplacements } from '../../../cup/embedded-objects.js';
import { atspiInterface, NULL_PATH, objectRefs, shortInterfaceName, type ObjectRef } from './object-ref.js';
import { textEnd } from './operations.js';
import { withoutAstralPadding } from '../../../cup/atspi/astral-padding.js';
import { ATSPI_ROLE } from '../../../cup/atspi/constants.js';

/**
 * One bounded call on an accessible object (the interface in its full D-Bus name); undefined when the
 * object lacks what was asked or went away. The tree walk and single operations each bring their own.
 */
export type AskObject = (ref: ObjectRef, iface: string, member: string, signature?: string, body?: unknown[]) => Promise<unknown[] | undefined>;

/** Objects looked up per text: a value is a field's or combo box's text, not a whole document. */
const maxEmbedded = 64;
/** How deep embedded objects inside embedded objects are followed (a combo box's popup's chosen item is two). */
const maxDepth = 2;
const maxTextLength = 4096;

/** Roles drawn as blocks, each starting its own line in the text around it (spliceEmbeddedText). */
const blockRoles: ReadonlySet<number> = new Set([
  ATSPI_ROLE.PARAGRAPH, ATSPI_ROLE.HEADING, ATSPI_ROLE.SECTION, ATSPI_ROLE.LIST, ATSPI_ROLE.LIST_ITEM, ATSPI_ROLE.BLOCK_QUOTE,
  ATSPI_ROLE.TABLE, ATSPI_ROLE.TABLE_ROW, ATSPI_ROLE.ARTICLE, ATSPI_ROLE.FORM, ATSPI_ROLE.DESCRIPTION_LIST, ATSPI_ROLE.DESCRIPTION_TERM, ATSPI_ROLE.DESCRIPTION_VALUE,
  ATSPI_ROLE.HEADER, ATSPI_ROLE.FOOTER, ATSPI_ROLE.LANDMARK,
]);

const Hypertext = atspiInterface('Hypertext');
const Hyperlink = atspiInterface('Hyperlink');

function refOf(value: unknown): ObjectRef | undefined {
  const pair = value as [string, string] | undefined;
  return pair && pair[1] && pair[1] !== NULL_PATH ? { bus: pair[0], path: pair[1] } : undefined;
}

async function nameOf(ask: AskObject, ref: ObjectRef): Promise<string> {
  const body = await ask(ref, 'org.freedesktop.DBus.Properties', 'Get', 'ss', [atspiInterface('Accessible'), 'Name']);
  return withoutObjectReplacements(String((body?.[0] as { value: unknown } | undefined)?.value ?? ''));
}

/**
 * Which object each U+FFFC stands for. The Hypertext interface says it exactly (the link at that offset
 * and the object behind the link); without it, the children stand for the characters in order, but only
 * when there is exactly one child per character, as anything else would pair text with the wrong object.
 */
async function embeddedObjects(ask: AskObject, ref: ObjectRef, offsets: readonly number[], interfaces: readonly string[], base: number): Promise<Map<number, ObjectRef>> {
  const found = new Map<number, ObjectRef>();
  if (interfaces.includes('Hypertext')) {
    await Promise.all(
      offsets.slice(0, maxEmbedded).map(async (offset) => {
        const index = Number((await ask(ref, Hypertext, 'GetLinkIndex', 'i', [base + offset]))?.[0] ?? -1);
        if (!Number.isInteger(index) || index < 0) return;
        const link = refOf((await ask(ref, Hypertext, 'GetLink', 'i', [index]))?.[0]);
        const object = link && refOf((await ask(link, Hyperlink, 'GetObject', 'i', [0]))?.[0]);
        if (object) found.set(offset, object);
      }),
    );
    return found;
  }
  // A part of the text cannot be paired with the children in order.
  if (base > 0) return found;
  const children = objectRefs(((await ask(ref, atspiInterface('Accessible'), 'GetChildren'))?.[0] as [string, string][] | undefined) ?? []);
  if (children.length === offsets.length) offsets.forEach((offset, i) => found.set(offset, children[i]!));
  return found;
}

/**
 * What an embedded object shows in its parent's text: a popup or list of choices (Selection) shows its
 * chosen item, as a drop-down shows its selected option; an object with text shows that text (its own
 * embedded objects resolved in turn); anything else, or an object whose text is empty (an image), its name.
 */
async function shownText(ask: AskObject, ref: ObjectRef, depth: number): Promise<string> {
  const interfaces = (((await ask(ref, atspiInterface('Accessible'), 'GetInterfaces'))?.[0] as string[] | undefined) ?? []).map(shortInterfaceName);
  if (interfaces.includes('Selection')) {
    const chosen = refOf((await ask(ref, atspiInterface('Selection'), 'GetSelectedChild', 'i', [0]))?.[0]);
    return chosen ? nameOf(ask, chosen) : '';
  }
  if (interfaces.includes('Text')) {
    const count = await ask(ref, 'org.freedesktop.DBus.Properties', 'Get', 'ss', [atspiInterface('Text'), 'CharacterCount']);
    const end = textEnd(Number((count?.[0] as { value: unknown } | undefined)?.value ?? Number.NaN), maxTextLength);
    const body = end > 0 ? await ask(ref, atspiInterface('Text'), 'GetText', 'ii', [0, end]) : undefined;
    const text = withoutAstralPadding(await resolveEmbeddedText(ask, ref, String(body?.[0] ?? ''), interfaces, depth));
    if (text.trim()) return text;
  }
  return nameOf(ask, ref);
}

/**
 * The text with every U+FFFC replaced by the text of the object embedded there, or dropped when no
 * object can be found behind it; an embedded block (a paragraph) on a line of its own. Costs no call when the
 * text has none. `base`: the offset in the object's text where `text` starts, when it is a part of it.
 */
export async function resolveEmbeddedText(ask: AskObject, ref: ObjectRef, text: string, interfaces: readonly string[], depth = 0, base = 0): Promise<string> {
  const offsets = objectReplacementOffsets(text);
  if (offsets.length === 0) return text;
  const objects = depth < maxDepth ? await embeddedObjects(ask, ref, offsets, interfaces, base) : new Map<number, ObjectRef>();
  const blocks = new Set<number>();
  const texts = await Promise.all(
    [...objects].map(async ([offset, object]) => {
      const [shown, role] = await Promise.all([shownText(ask, object, depth + 1), ask(object, atspiInterface('Accessible'), 'GetRole')]);
      if (blockRoles.has(Number(role?.[0]))) blocks.add(offset);
      return [offset, shown] as const;
    }),
  );
  return spliceEmbeddedText(text, new Map(texts), blocks);
}

/** How many blocks inside blocks the end of a text is followed through (a list in a quote in a rich-text box). */
const maxEndDepth = 8;

/**
 * Where the end of an object's text is for a caret: the end of its own text, or, when the text ends with an embedded
 * block (a rich-text box whose last paragraph is an object), the end of that block's text, followed down. Gecko puts
 * a caret set at the end of a box of paragraphs at the start of its last paragraph, so text typed "at the end" went
 * in ahead of that paragraph's words. An inline object at the end (a link) is not entered: text typed there would
 * join the link.
 */
export async function textEndPoint(ask: AskObject, ref: ObjectRef): Promise<{ ref: ObjectRef; offset: number }> {
  let at = ref;
  for (let depth = 0; ; depth++) {
    const counted = await ask(at, 'org.freedesktop.DBus.Properties', 'Get', 'ss', [atspiInterface('Text'), 'CharacterCount']);
    const count = Number((counted?.[0] as { value: unknown } | undefined)?.value ?? Number.NaN);
    if (!(count > 0) || depth >= maxEndDepth) return { ref: at, offset: count > 0 ? count : 0 };
    const last = String((await ask(at, atspiInterface('Text'), 'GetText', 'ii', [count - 1, count]))?.[0] ?? '');
    if (last !== OBJECT_REPLACEMENT) return { ref: at, offset: count };
    const index = Number((await ask(at, Hypertext, 'GetLinkIndex', 'i', [count - 1]))?.[0] ?? -1);
    const link = Number.isInteger(index) && index >= 0 ? refOf((await ask(at, Hypertext, 'GetLink', 'i', [index]))?.[0]) : undefined;
    const object = link && refOf((await ask(link, Hyperlink, 'GetObject', 'i', [0]))?.[0]);
    const role = object && Number((await ask(object, atspiInterface('Accessible'), 'GetRole'))?.[0]);
    if (!object || !blockRoles.has(Number(role))) return { ref: at, offset: count };
    at = object;
  }
}
