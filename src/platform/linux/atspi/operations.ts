import { DBusError, DBusTimeoutError, Variant } from '../dbus/index.js';
import { OBJECT_REPLACEMENT } from '../../../cup/embedded-objects.js';
import { ATSPI_ROLE } from '../../../cup/atspi/constants.js';
import { codePointLength } from '../../../cup/text.js';
import { withoutAstralPadding } from '../../../cup/atspi/astral-padding.js';
import { passwordText } from '../../../cup/atspi/password-text.js';
import { givenBounds, type ValueRange } from '../../../cup/atspi/value-range.js';
import type { AtspiClient } from './client.js';
import { resolveEmbeddedText, type AskObject } from './embedded-text.js';
import { atspiInterface, NULL_PATH, objectRefs, ROOT_PATH, shortInterfaceName, type ObjectRef } from './object-ref.js';
import { withAnnouncedChecked } from './announced-states.js';

/**
 * Single calls on one accessible object, routed like the tree walk (the app's private socket when it
 * has one). Each is bounded by the client's per-call timeout.
 */
export function callObject(client: AtspiClient, ref: ObjectRef, iface: string, member: string, signature?: string, body?: unknown[]): Promise<unknown[]> {
  return client.callObject(ref, { interface: iface.includes('.') ? iface : atspiInterface(iface), member, signature, body });
}

/**
 * A call that changes the application (an action, a selection, text or a value) and so runs the app's own
 * handlers, which may open a modal dialog before answering: over a connection of its own, and a timeout
 * means sent and unanswered (see callObjectAlone and UnansweredActionError), never a failure.
 */
function changeObject(client: AtspiClient, ref: ObjectRef, iface: string, member: string, signature: string, body: unknown[]): Promise<unknown[]> {
  return client.callObjectAlone(ref, { interface: iface.includes('.') ? iface : atspiInterface(iface), member, signature, body });
}

async function getProperty(client: AtspiClient, ref: ObjectRef, iface: string, name: string): Promise<unknown> {
  const [variant] = await callObject(client, ref, 'org.freedesktop.DBus.Properties', 'Get', 'ss', [atspiInterface(iface), name]);
  return (variant as Variant).value;
}

/** The facts an action needs to know it is acting on the object the agent saw, and what it can do. */
export interface ObjectFactsNow {
  role: number;
  name: string;
  states: number[];
  interfaces: string[];
}

/** Reads an object's current role, name, states and interfaces; a vanished object rejects with a DBusError. */
export async function readObject(client: AtspiClient, ref: ObjectRef): Promise<ObjectFactsNow> {
  const [role, name, states, interfaces] = await Promise.all([readRole(client, ref), readName(client, ref), readStates(client, ref), readInterfaces(client, ref)]);
  return { role, name, states, interfaces };
}

/** The AtspiRole number. */
export async function readRole(client: AtspiClient, ref: ObjectRef): Promise<number> {
  return Number((await callObject(client, ref, 'Accessible', 'GetRole'))[0]);
}

/** The object's attributes (Accessible.GetAttributes): a web page's "tag", "text-input-type", "xml-roles"... */
export async function readAttributes(client: AtspiClient, ref: ObjectRef): Promise<Record<string, string>> {
  const [attributes] = await callObject(client, ref, 'Accessible', 'GetAttributes');
  return attributes instanceof Map ? Object.fromEntries(attributes as Map<string, string>) : {};
}

/** Interface names in their short form ("Text", "Value"). */
export async function readInterfaces(client: AtspiClient, ref: ObjectRef): Promise<string[]> {
  return ((await callObject(client, ref, 'Accessible', 'GetInterfaces'))[0] as string[]).map(shortInterfaceName);
}

/** The object's state set, with what it announced and leaves out of it (announced-states.ts). */
export async function readStates(client: AtspiClient, ref: ObjectRef): Promise<number[]> {
  return withAnnouncedChecked(client, ref, (await callObject(client, ref, 'Accessible', 'GetState'))[0] as number[]);
}

export async function readName(client: AtspiClient, ref: ObjectRef): Promise<string> {
  return String((await getProperty(client, ref, 'Accessible', 'Name')) ?? '');
}

export async function readDescription(client: AtspiClient, ref: ObjectRef): Promise<string> {
  return String((await getProperty(client, ref, 'Accessible', 'Description')) ?? '');
}

/**
 * Action names as the toolkit reports them (GetName is the non-localised name), in index order. Only names within the
 * count are asked for: an app may take an index past it for a bug of the caller's and abort (Caja's icons assert
 * it, and a click on a file killed Caja when the first three names were asked for along with the count).
 */
export async function actionNames(client: AtspiClient, ref: ObjectRef): Promise<string[]> {
  const total = Number((await getProperty(client, ref, 'Action', 'NActions')) ?? 0);
  return Promise.all(
    Array.from({ length: total }, (_, index) =>
      callObject(client, ref, 'Action', 'GetName', 'i', [index]).then(
        (body) => String(body[0] ?? ''),
        () => '',
      ),
    ),
  );
}

/** Performs an action; over a connection of its own, as the action may run a modal dialog (see changeObject). */
export async function doAction(client: AtspiClient, ref: ObjectRef, index: number): Promise<boolean> {
  return Boolean((await changeObject(client, ref, 'Action', 'DoAction', 'i', [index]))[0]);
}

export async function grabFocus(client: AtspiClient, ref: ObjectRef): Promise<boolean> {
  return Boolean((await callObject(client, ref, 'Component', 'GrabFocus'))[0]);
}

export async function extents(client: AtspiClient, ref: ObjectRef, coordType: 0 | 1 = 0): Promise<{ x: number; y: number; w: number; h: number }> {
  const [box] = (await callObject(client, ref, 'Component', 'GetExtents', 'u', [coordType])) as [number[]];
  return { x: box[0]!, y: box[1]!, w: box[2]!, h: box[3]! };
}

/** The text's first maxLength characters, each embedded object's U+FFFC replaced by what that object shows. */
export async function readText(client: AtspiClient, ref: ObjectRef, maxLength = 100_000): Promise<string> {
  return readTextFrom(client, ref, 0, await characterCount(client, ref).catch(() => Number.NaN), maxLength);
}

/**
 * The text where its caret is, for a text longer than maxLength: its maxLength characters around the caret (at
 * most half of them before it), else its last ones; a shorter text whole. Typing and keys change the text at the
 * caret, which a read of the first characters does not reach (a 150,000-character log typed into at its end).
 */
export async function readTextAtCaret(client: AtspiClient, ref: ObjectRef, maxLength = 100_000): Promise<string> {
  const count = await characterCount(client, ref).catch(() => Number.NaN);
  if (!(count > maxLength)) return readTextFrom(client, ref, 0, count, maxLength);
  const caret = await caretOffset(client, ref).catch(() => -1);
  const at = caret >= 0 && caret <= count ? caret : count;
  return readTextFrom(client, ref, Math.max(0, Math.min(at - Math.floor(maxLength / 2), count - maxLength)), count, maxLength);
}

async function readTextFrom(client: AtspiClient, ref: ObjectRef, start: number, characterCount: number, maxLength: number): Promise<string> {
  const end = start + textEnd(Number.isInteger(characterCount) ? characterCount - start : Number.NaN, maxLength);
  if (end === start) return '';
  const text = String((await callObject(client, ref, 'Text', 'GetText', 'ii', [start, end]))[0] ?? '');
  // Characters counted and none given: a Qt password field, read as its masks (see passwordText).
  if (text === '') return passwordText(await readRole(client, ref).catch(() => Number.NaN), text, end - start);
  // Embedded objects are found by their offsets in the whole text; a part further in keeps its U+FFFC.
  if (!text.includes(OBJECT_REPLACEMENT) || start > 0) return withoutAstralPadding(text);
  return withoutAstralPadding(await resolveEmbeddedText(askOf(client), ref, text, await readInterfaces(client, ref)));
}

/** One call through the client, undefined when the object lacks what was asked or went away (AskObject). */
export function askOf(client: AtspiClient): AskObject {
  return (object, iface, member, signature, body) =>
    callObject(client, object, iface, member, signature, body).catch((error: unknown) => {
      if (error instanceof DBusError) return undefined;
      throw error;
    });
}

/**
 * Where a read of the first maxLength characters must end. Qt answers an end offset past the text with
 * no text at all, so the end is the real length when the object says it; when it does not, -1 (the
 * protocol's "to the end") would risk a whole document, so the cap is asked for instead.
 */
export function textEnd(characterCount: number, maxLength: number): number {
  return Number.isInteger(characterCount) && characterCount >= 0 ? Math.min(characterCount, maxLength) : maxLength;
}

/**
 * A combo box's Text is stale when its whole text (read to the end) is not as long as its own CharacterCount says:
 * GAIL's (GTK 2) keeps the text of the first choice it showed and reports the length of the current one, so once
 * "IRC" is chosen it reads "Bon" of "Bonjour". Its name, which GTK sets to the active item, is then what it shows.
 */
export function comboTextIsStale(whole: string, characterCount: number): boolean {
  return Number.isInteger(characterCount) && whole !== '' && codePointLength(whole) !== characterCount;
}

/** What a combo box's Text shows, or undefined when that Text is stale (comboTextIsStale). */
export async function comboText(client: AtspiClient, ref: ObjectRef): Promise<string | undefined> {
  const [count, whole] = await Promise.all([characterCount(client, ref).catch(() => Number.NaN), callObject(client, ref, 'Text', 'GetText', 'ii', [0, -1])]);
  const text = String(whole[0] ?? '');
  if (comboTextIsStale(text, count)) return undefined;
  return text.includes(OBJECT_REPLACEMENT) || !Number.isInteger(count) ? readText(client, ref, 4096) : withoutAstralPadding(text);
}

export async function caretOffset(client: AtspiClient, ref: ObjectRef): Promise<number> {
  return Number(await getProperty(client, ref, 'Text', 'CaretOffset'));
}

/** Moves the caret (clearing any selection, as a click between two letters does); false when refused. */
export async function setCaretOffset(client: AtspiClient, ref: ObjectRef, offset: number): Promise<boolean> {
  return Boolean((await callObject(client, ref, 'Text', 'SetCaretOffset', 'i', [offset]))[0]);
}

/** The character offset at a screen point, or -1 where there is none (past the end of the text, as toolkits answer). */
export async function offsetAtPoint(client: AtspiClient, ref: ObjectRef, x: number, y: number): Promise<number> {
  return Number((await callObject(client, ref, 'Text', 'GetOffsetAtPoint', 'iiu', [x, y, 0]))[0]);
}

export async function characterCount(client: AtspiClient, ref: ObjectRef): Promise<number> {
  return Number(await getProperty(client, ref, 'Text', 'CharacterCount'));
}

/**
 * Inserts at a character offset. The length argument is the text's UTF-8 byte count, as ATK reads it (GTK, and every
 * toolkit through at-spi2-atk), or its UTF-16 units where the toolkit counts so (Qt: ToolkitQuirks.insertLengthInUtf16).
 */
export async function insertText(client: AtspiClient, ref: ObjectRef, position: number, text: string): Promise<boolean> {
  const length = (await client.quirksOf(ref.bus)).insertLengthInUtf16 ? text.length : Buffer.byteLength(text, 'utf8');
  return Boolean((await changeObject(client, ref, 'EditableText', 'InsertText', 'isi', [position, text, length]))[0]);
}

export async function setTextContents(client: AtspiClient, ref: ObjectRef, text: string): Promise<boolean> {
  return Boolean((await changeObject(client, ref, 'EditableText', 'SetTextContents', 's', [text]))[0]);
}

/** Deletes the characters from start to end (offsets); false when refused. */
export async function deleteText(client: AtspiClient, ref: ObjectRef, start: number, end: number): Promise<boolean> {
  return Boolean((await changeObject(client, ref, 'EditableText', 'DeleteText', 'ii', [start, end]))[0]);
}

export async function copyText(client: AtspiClient, ref: ObjectRef, start: number, end: number): Promise<void> {
  await callObject(client, ref, 'EditableText', 'CopyText', 'ii', [start, end]);
}

export async function cutText(client: AtspiClient, ref: ObjectRef, start: number, end: number): Promise<boolean> {
  return Boolean((await changeObject(client, ref, 'EditableText', 'CutText', 'ii', [start, end]))[0]);
}

export async function pasteText(client: AtspiClient, ref: ObjectRef, position: number): Promise<boolean> {
  return Boolean((await changeObject(client, ref, 'EditableText', 'PasteText', 'i', [position]))[0]);
}

/** The first selected range of a text object, or undefined when nothing is selected. */
export async function textSelection(client: AtspiClient, ref: ObjectRef): Promise<{ start: number; end: number } | undefined> {
  const count = Number((await callObject(client, ref, 'Text', 'GetNSelections'))[0] ?? 0);
  if (count < 1) return undefined;
  const [start, end] = (await callObject(client, ref, 'Text', 'GetSelection', 'i', [0])) as [number, number];
  return start === end ? undefined : { start, end };
}

/**
 * The attributes of the run a character lies in (Text.GetAttributeRun), by name, the text's defaults included: Gecko
 * names a run's own attributes without them in CSS's words ("font-style: italic"), and in ATK's with them ("style").
 */
export async function textAttributesAt(client: AtspiClient, ref: ObjectRef, offset: number): Promise<Record<string, string>> {
  const [attributes] = await callObject(client, ref, 'Text', 'GetAttributeRun', 'ib', [offset, true]);
  return attributes instanceof Map ? Object.fromEntries(attributes as Map<string, string>) : {};
}

/** The object a U+FFFC of a text stands for (Hypertext: the link at that offset, and the object behind it); none where none is. */
export async function embeddedObjectAt(client: AtspiClient, ref: ObjectRef, offset: number): Promise<ObjectRef | undefined> {
  const index = Number((await callObject(client, ref, 'Hypertext', 'GetLinkIndex', 'i', [offset]))[0] ?? -1);
  if (!Number.isInteger(index) || index < 0) return undefined;
  const [link] = objectRefs([(await callObject(client, ref, 'Hypertext', 'GetLink', 'i', [index]))[0] as [string, string]]);
  return link && objectRefs([(await callObject(client, link, 'Hyperlink', 'GetObject', 'i', [0]))[0] as [string, string]])[0];
}

/** The text between two offsets, at most maxLength characters of it from start (embedded objects left as U+FFFC). */
export async function textBetween(client: AtspiClient, ref: ObjectRef, start: number, end: number, maxLength: number): Promise<string> {
  return withoutAstralPadding(String((await callObject(client, ref, 'Text', 'GetText', 'ii', [start, Math.min(end, start + maxLength)]))[0] ?? ''));
}

/**
 * The text between two offsets as it reads on screen: each object it embeds (a rich-text box's paragraph, U+FFFC in
 * the box's own text) by that object's text. A select-all in a box of paragraphs selects "0..1" of its text, which
 * the evidence quoted as a bare U+FFFC.
 */
export async function shownTextBetween(client: AtspiClient, ref: ObjectRef, start: number, end: number, maxLength: number): Promise<string> {
  const text = String((await callObject(client, ref, 'Text', 'GetText', 'ii', [start, Math.min(end, start + maxLength)]))[0] ?? '');
  if (!text.includes(OBJECT_REPLACEMENT)) return withoutAstralPadding(text);
  return withoutAstralPadding(await resolveEmbeddedText(askOf(client), ref, text, await readInterfaces(client, ref), 0, start));
}

export async function selectTextRange(client: AtspiClient, ref: ObjectRef, start: number, end: number): Promise<boolean> {
  const count = Number((await callObject(client, ref, 'Text', 'GetNSelections'))[0] ?? 0);
  const body = count > 0 ? await callObject(client, ref, 'Text', 'SetSelection', 'iii', [0, start, end]) : await callObject(client, ref, 'Text', 'AddSelection', 'ii', [start, end]);
  return Boolean(body[0]);
}

export interface RangeValue extends ValueRange {
  step: number;
}

/** A Value's number, step and the bounds it gives: a bound whose read fails (a page's number field without min) is none. */
export async function readValue(client: AtspiClient, ref: ObjectRef): Promise<RangeValue> {
  const [current, step] = await Promise.all(['CurrentValue', 'MinimumIncrement'].map((name) => getProperty(client, ref, 'Value', name)));
  const [min, max] = await Promise.all(['MinimumValue', 'MaximumValue'].map((name) => getProperty(client, ref, 'Value', name).catch((error: unknown) => {
    if (error instanceof DBusError) return undefined;
    throw error;
  })));
  return { current: Number(current), step: Number(step), ...givenBounds(min, max) };
}

export async function setValue(client: AtspiClient, ref: ObjectRef, value: number): Promise<void> {
  await changeObject(client, ref, 'org.freedesktop.DBus.Properties', 'Set', 'ssv', [atspiInterface('Value'), 'CurrentValue', new Variant('d', value)]);
}

/** Selects a child; over a connection of its own, as an app may open a dialog when its selection changes. */
export async function selectChild(client: AtspiClient, ref: ObjectRef, index: number): Promise<boolean> {
  return Boolean((await changeObject(client, ref, 'Selection', 'SelectChild', 'i', [index]))[0]);
}

/** Selects every child (of an object that takes several selected); false when refused. */
export async function selectAll(client: AtspiClient, ref: ObjectRef): Promise<boolean> {
  return Boolean((await changeObject(client, ref, 'Selection', 'SelectAll', '', []))[0]);
}

/** Deselects every selected child; false when refused. */
export async function clearSelection(client: AtspiClient, ref: ObjectRef): Promise<boolean> {
  return Boolean((await changeObject(client, ref, 'Selection', 'ClearSelection', '', []))[0]);
}

/** How many children of an object with the Selection interface are selected. */
export async function selectedCount(client: AtspiClient, ref: ObjectRef): Promise<number> {
  return Number(await getProperty(client, ref, 'Selection', 'NSelectedChildren'));
}

/** Whether an object with the Selection interface names its child at `index` selected. */
export async function isChildSelected(client: AtspiClient, ref: ObjectRef, index: number): Promise<boolean> {
  return Boolean((await callObject(client, ref, 'Selection', 'IsChildSelected', 'i', [index]))[0]);
}

/** A selected child of an object with the Selection interface (the first, else the `nth` of them), if any. */
export async function selectedChild(client: AtspiClient, ref: ObjectRef, nth = 0): Promise<ObjectRef | undefined> {
  const [child] = (await callObject(client, ref, 'Selection', 'GetSelectedChild', 'i', [nth])) as [[string, string] | undefined];
  return child && child[1] !== NULL_PATH ? { bus: child[0], path: child[1] } : undefined;
}

/**
 * The name of the option a combo box's Selection names: what it shows. None when it names nothing, or a submenu (in a
 * combo box whose choices are grouped in submenus GTK3 selects the submenu, "A - B", not the choice).
 */
export async function selectedChoiceName(client: AtspiClient, combo: ObjectRef): Promise<string | undefined> {
  const selected = await selectedChild(client, combo);
  if (!selected || (await readRole(client, selected)) === ATSPI_ROLE.MENU) return undefined;
  return readName(client, selected);
}

/** Deselects the `nth` of the selected children; false when refused. */
export async function deselectSelectedChild(client: AtspiClient, ref: ObjectRef, nth: number): Promise<boolean> {
  return Boolean((await changeObject(client, ref, 'Selection', 'DeselectSelectedChild', 'i', [nth]))[0]);
}

/** The row of a table's child (by its index among the table's children), or undefined when the table places it in none. */
export async function tableRowOf(client: AtspiClient, table: ObjectRef, childIndex: number): Promise<number | undefined> {
  const row = Number((await callObject(client, table, 'Table', 'GetRowAtIndex', 'i', [childIndex]))[0]);
  return Number.isInteger(row) && row >= 0 ? row : undefined;
}

/** The header of the column a table's child lies in (by its index among the table's children), where the table names one. */
export async function columnHeaderOf(client: AtspiClient, table: ObjectRef, childIndex: number): Promise<ObjectRef | undefined> {
  const column = Number((await callObject(client, table, 'Table', 'GetColumnAtIndex', 'i', [childIndex]))[0]);
  if (!Number.isInteger(column) || column < 0) return undefined;
  const [value] = (await callObject(client, table, 'Table', 'GetColumnHeader', 'i', [column])) as [[string, string] | undefined];
  return value && value[1] !== NULL_PATH ? { bus: value[0], path: value[1] } : undefined;
}

/** Selects the row of a table's child (by its index among the table's children); false when refused. */
export async function selectTableRow(client: AtspiClient, table: ObjectRef, childIndex: number): Promise<boolean> {
  const row = await tableRowOf(client, table, childIndex);
  if (row === undefined) return false;
  return addTableRow(client, table, row);
}

/** Adds a table's row (by its number) to its selection; false when refused. */
export async function addTableRow(client: AtspiClient, table: ObjectRef, row: number): Promise<boolean> {
  return Boolean((await changeObject(client, table, 'Table', 'AddRowSelection', 'i', [row]))[0]);
}

/** How many rows a table has. */
export async function tableRowCount(client: AtspiClient, table: ObjectRef): Promise<number> {
  return Number(await getProperty(client, table, 'Table', 'NRows'));
}

/** The rows a table says are selected (whole rows: a table that selects cells may name none). */
export async function selectedTableRows(client: AtspiClient, table: ObjectRef): Promise<number[]> {
  const [rows] = (await callObject(client, table, 'Table', 'GetSelectedRows')) as [number[] | undefined];
  return (rows ?? []).map(Number);
}

/** Deselects a table's row; false when refused. */
export async function deselectTableRow(client: AtspiClient, table: ObjectRef, row: number): Promise<boolean> {
  return Boolean((await changeObject(client, table, 'Table', 'RemoveRowSelection', 'i', [row]))[0]);
}

/** The object's place among its parent's children (Accessible.GetIndexInParent); undefined when it has none (-1). */
export async function indexInParent(client: AtspiClient, ref: ObjectRef): Promise<number | undefined> {
  const index = Number((await callObject(client, ref, 'Accessible', 'GetIndexInParent'))[0]);
  return Number.isInteger(index) && index >= 0 ? index : undefined;
}

/** The object's place among its parent's children (-1 when it has none), and how many children the parent has. */
export async function placeInParent(client: AtspiClient, ref: ObjectRef, parent: ObjectRef): Promise<{ index: number; count: number }> {
  const [index, count] = await Promise.all([indexInParent(client, ref), getProperty(client, parent, 'Accessible', 'ChildCount')]);
  return { index: index ?? -1, count: Number(count) };
}

/** How many children the object has (Accessible.ChildCount), without listing them. */
export async function childCount(client: AtspiClient, ref: ObjectRef): Promise<number> {
  return Number(await getProperty(client, ref, 'Accessible', 'ChildCount'));
}

export async function children(client: AtspiClient, ref: ObjectRef): Promise<ObjectRef[]> {
  const [list] = (await callObject(client, ref, 'Accessible', 'GetChildren')) as [[string, string][]];
  return objectRefs(list);
}

/** One child by its index (Accessible.GetChildAtIndex): a container of thousands is not listed whole for a few of them. */
export async function childAt(client: AtspiClient, ref: ObjectRef, index: number): Promise<ObjectRef | undefined> {
  const [value] = (await callObject(client, ref, 'Accessible', 'GetChildAtIndex', 'i', [index])) as [[string, string] | undefined];
  return value && value[1] !== NULL_PATH ? { bus: value[0], path: value[1] } : undefined;
}

export async function parentOf(client: AtspiClient, ref: ObjectRef): Promise<ObjectRef | undefined> {
  const value = (await getProperty(client, ref, 'Accessible', 'Parent')) as [string, string] | undefined;
  if (!value || value[1] === NULL_PATH) return undefined;
  return { bus: value[0], path: value[1] };
}

/** How far up an object's ancestors are walked (a web page's link sits some 10-20 levels deep). */
const maxAncestors = 64;

/**
 * Ancestors already walked to the application's root, by bus and path: objects of one window share most of theirs, so a
 * walk that reaches one of them stops there. For many walks in a moment (an action's evidence), not kept longer.
 */
export type KnownAncestry = Map<string, readonly string[]>;

/**
 * The paths of the object's ancestors in its application (at most `limit` of them), its parent first, and whether the walk met an object with
 * no parent before the application's root: then no window holds the object (a toolbar an app keeps aside for its
 * full-screen mode), and nothing it does is on screen. A call that fails or a walk cut short tells neither.
 */
export async function ancestry(client: AtspiClient, ref: ObjectRef, limit = maxAncestors, known?: KnownAncestry): Promise<{ paths: string[]; detached: boolean }> {
  const paths: string[] = [];
  for (let at: ObjectRef = ref; paths.length < limit && at.path !== ROOT_PATH; ) {
    const above = known?.get(`${ref.bus}${at.path}`);
    if (above) {
      paths.push(...above.slice(0, limit - paths.length));
      break;
    }
    const parent = await parentOf(client, at).then(
      (found) => found ?? null,
      () => undefined,
    );
    if (parent === undefined || (parent !== null && parent.bus !== ref.bus)) break;
    if (parent === null) return { paths, detached: true };
    paths.push(parent.path);
    at = parent;
  }
  // A walk that reached the root gives each object on its way its own ancestors.
  if (known && paths.at(-1) === ROOT_PATH) [ref.path, ...paths.slice(0, -1)].forEach((path, i) => known.set(`${ref.bus}${path}`, paths.slice(i)));
  return { paths, detached: false };
}

/** ATSPI_SCROLLTYPE_ANYWHERE: the toolkit moves the least it can to bring the object into view. */
const scrollAnywhere = 6;

export async function scrollIntoView(client: AtspiClient, ref: ObjectRef): Promise<boolean> {
  try {
    return Boolean((await callObject(client, ref, 'Component', 'ScrollTo', 'u', [scrollAnywhere]))[0]);
  } catch (error) {
    if (error instanceof DBusError) return false;
    throw error;
  }
}

/**
 * Scrolls whatever contains the object so that its top-left corner moves to the point (screen coordinates):
 * Blink and Gecko scroll by the difference, clamped to what the content allows. False when refused.
 */
export async function scrollToPoint(client: AtspiClient, ref: ObjectRef, x: number, y: number): Promise<boolean> {
  return Boolean((await changeObject(client, ref, 'Component', 'ScrollToPoint', 'uii', [0, x, y]))[0]);
}

/**
 * The deepest object under a point: GetAccessibleAtPoint answers with a direct child only, so it is
 * asked again of each answer until none contains the point. Coordinates are in the given coordinate type.
 */
export async function deepestAtPoint(client: AtspiClient, start: ObjectRef, x: number, y: number, coordType: 0 | 1): Promise<ObjectRef | undefined> {
  let current: ObjectRef | undefined;
  let next: ObjectRef | undefined = start;
  for (let depth = 0; next && depth < 64; depth++) {
    current = next;
    // An object without Component answers nothing here; an app that does not answer at all is not "nothing here".
    const [hit] = (await callObject(client, current, 'Component', 'GetAccessibleAtPoint', 'iiu', [x, y, coordType]).catch((error: unknown) => {
      if (error instanceof DBusTimeoutError) throw error;
      return [undefined];
    })) as [
      [string, string] | undefined,
    ];
    next = hit && hit[1] !== NULL_PATH && hit[1] !== current.path ? { bus: hit[0], path: hit[1] } : undefined;
  }
  return current === start ? undefined : current;
}
