// Setting a page's date or time field: Blink and Gecko show one as parts (month, day, year; hours, minutes) that
// accessibility cannot set as a whole, and the parts themselves ignore a Value set on them. The value goes in
// through the browser's debugging connection, as the field's own picker sets it (input and change events); the
// accessibility tree reads it back in the parts.
import { actionOutcome, type ActionOutcome } from '../../action-outcome.js';
import { ATSPI_ROLE } from '../../../cup/atspi/constants.js';
import { outsideOwnRange } from '../../../cup/atspi/convert.js';
import { ToolError } from '../../../errors.js';
import type { AtspiClient } from '../atspi/client.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { childCount, children, extents, readAttributes, readInterfaces, readName, readRole, readText, readValue } from '../atspi/operations.js';
import { findDebuggingEndpoint } from '../browser/endpoint.js';
import { relaunchCall } from '../browser/page-connections.js';
import { DATE_TIME_INPUT_TYPES } from '../browser/page-scripts.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import type { LiveElementTarget } from './live-target.js';
import { observe, type Probe } from './verification.js';

/** The kinds of a page's <input> that show their value as parts (Blink and Gecko say which in "text-input-type"). */
const dateTimeTypes = new Set(DATE_TIME_INPUT_TYPES);

/**
 * Whether the element is a web page's date or time field shown as parts. One the browser shows as a plain text field
 * holding no parts (Firefox's month and week fields, for which it has no picker) takes its value as any text field
 * does: set_value of "2026-07" on Firefox's Month field was refused as a date field and the agent told to relaunch.
 */
export async function isPageDateField(desktop: LinuxDesktop, target: LiveElementTarget): Promise<boolean> {
  const client = await desktop.atspi();
  if (!(await client.quirksOf(target.ref.bus)).webEngine) return false;
  const attributes = await readAttributes(client, target.ref).catch(() => ({}) as Record<string, string>);
  if (attributes.tag !== 'input' || !dateTimeTypes.has(attributes['text-input-type'] ?? '')) return false;
  return (await childCount(client, target.ref).catch(() => 1)) > 0;
}

/**
 * What to do instead, when the object is a web page's <input> shown as a button, which neither typing nor a value
 * reaches: Blink and Gecko show a file input (named by its label and the file chosen), a colour input and the
 * button kinds as push buttons with the tag "input". Undefined for anything else.
 */
export async function pageInputButtonAdvice(desktop: LinuxDesktop, ref: ObjectRef): Promise<string | undefined> {
  const client = await desktop.atspi();
  if (!(await client.quirksOf(ref.bus)).webEngine || (await readRole(client, ref).catch(() => undefined)) !== ATSPI_ROLE.PUSH_BUTTON) return undefined;
  const attributes = await readAttributes(client, ref).catch(() => ({}) as Record<string, string>);
  if (attributes.tag !== 'input') return undefined;
  return 'it is a page\'s <input> shown as a button: a file input takes files through page upload_files {selector, files} (a click opens the ' +
    'browser\'s file dialog), a colour input its value through page execute_javascript (setting value, then dispatching input and change), ' +
    'a submit or plain button a click; the page tool needs the browser\'s debugging port (launch_app with electron_debugging_port)';
}

/**
 * How a page's date or time field takes typed digits: on its first part, by real keys (the parts take no text through
 * accessibility), each part handing the focus on as it fills. Keys sent to the field itself reach no part: Gecko gives
 * the field's focus to its calendar button, and "03152027" typed there read "no effect seen" in the background and
 * "does not show what was asked" in the foreground, the field still empty.
 */
export function datePartsTyping(index: number): string {
  return `type_text its digits on its first part (selector "id=e${index} >> role=spinbutton [index=0]") with delivery_mode "foreground", in the order its parts show them (each part hands the focus on as it fills)`;
}

/**
 * Typing at a page's date or time field as a whole is refused (datePartsTyping says why), before any key is sent; not
 * where the browser has a debugging endpoint, through which typing reaches the page's own field.
 */
export async function refuseTypingIntoDateField(desktop: LinuxDesktop, target: LiveElementTarget): Promise<void> {
  if (!(await isPageDateField(desktop, target)) || findDebuggingEndpoint(target.window.pid)) return;
  throw new ToolError(`[e${target.element.index}] is a page's date or time field, whose parts take its digits, not the field; nothing was typed: ${datePartsTyping(target.element.index)}`, 'not_settable');
}

/** How the page writes each kind of date and time field's value, for a value it did not take. */
const formats = 'a date YYYY-MM-DD, a time HH:MM (24-hour), a date and time YYYY-MM-DDTHH:MM, a month YYYY-MM, a week YYYY-Www';

/** The forms of `formats`, each with the kind of value it writes. */
const pageForms: readonly [RegExp, string][] = [
  [/^\d{4,}-\d{2}-\d{2}$/, 'date'],
  [/^\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/, 'time'],
  [/^\d{4,}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?$/, 'date and time'],
  [/^\d{4,}-\d{2}$/, 'month'],
  [/^\d{4,}-W\d{2}$/, 'week'],
];

/**
 * Why the field did not take the value: written otherwise than the page writes it, or written so and still not taken
 * (no such day, outside the field's min and max, or a kind the field does not hold). "2024-02-30" had been told to
 * be given "as the page writes it", which it was.
 */
export function untakenValueAdvice(value: string, fieldType: string | undefined): string {
  const kind = pageForms.find(([form]) => form.test(value))?.[1];
  if (!kind) return `give the value as the page writes it, ${formats}`;
  const field = fieldType ? ` (the field is a ${fieldType} field)` : '';
  return `"${value}" is written as the page writes a ${kind}, so it names no real ${kind} (a 30 February, a 25th hour), lies outside the field's min and max, or is not the kind of value the field holds${field}`;
}

/** How deep the parts of a field lie under it (Blink: field > section > spin buttons). */
const partsDepth = 3;

/**
 * What the field's parts show, in order: a part's text (Gecko's "mm" for an empty month), else its number ("-" for
 * an empty one, which Blink reports as a number outside the part's range).
 */
async function partValues(client: AtspiClient, ref: ObjectRef, depth = partsDepth): Promise<string[]> {
  const values: string[] = [];
  for (const child of await children(client, ref)) {
    const interfaces = await readInterfaces(client, child);
    if (interfaces.includes('Value')) {
      const text = interfaces.includes('Text') ? (await readText(client, child)).trim() : '';
      if (text) values.push(text);
      else {
        const value = await readValue(client, child);
        values.push(outsideOwnRange(value) ? '-' : String(value.current));
      }
    } else if (depth > 1) values.push(...(await partValues(client, child, depth - 1)));
  }
  return values;
}

function partsProbe(client: AtspiClient, ref: ObjectRef, label: string): Probe {
  return {
    label: `parts of ${label}`,
    read: async () => (await partValues(client, ref)).join(' '),
    describe: (before, after) => `${label}'s parts went from ${before || '(none)'} to ${after || '(none)'}`,
  };
}

export async function setFieldThroughPage(desktop: LinuxDesktop, target: LiveElementTarget, value: string): Promise<ActionOutcome> {
  const label = `[e${target.element.index}]`;
  const window = target.window;
  const endpoint = findDebuggingEndpoint(window.pid);
  if (!endpoint) {
    throw new ToolError(
      `${label} is a page's date or time field, which accessibility cannot set as a whole; nothing was changed. Relaunch the browser with a debugging endpoint for set_value to reach the page (${relaunchCall(window)}), or ${datePartsTyping(target.element.index)}`,
      'not_settable',
    );
  }
  const client = await desktop.atspi();
  const [bounds, name] = await Promise.all([extents(client, target.ref), readName(client, target.ref)]);
  const page = await desktop.pages.page(window);
  let taken: string | undefined;
  const observation = await observe(desktop, target.ref.bus, [partsProbe(client, target.ref, label)], async () => {
    const inserted = await page.insertIntoField({ bounds, name, text: '' }, value, true);
    if (!inserted.inserted) {
      throw new ToolError(`the browser's debugging connection (${endpoint.protocol}) could not find ${label} in the page: ${inserted.reason}; nothing was changed`, 'not_settable');
    }
    taken = inserted.value;
  }, { snapshot: target.snapshot });
  if (taken !== value) {
    const fieldType = (await readAttributes(client, target.ref).catch(() => ({}) as Record<string, string>))['text-input-type'];
    throw new ToolError(`the page's field ${label} did not take "${value}" (it holds "${taken ?? ''}"): ${untakenValueAdvice(value, fieldType)}`, 'invalid_value');
  }
  return actionOutcome({
    path: 'devtools',
    mode: 'background',
    observation: { ...observation, evidence: [`the page's field holds "${taken}"`, ...observation.evidence] },
  });
}
