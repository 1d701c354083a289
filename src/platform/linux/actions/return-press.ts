// A newline typed into a field is a Return press, and a Return press may act on the text typed before it: how
// the typing rungs judge such typing (key events, and the page's debugging connection in a browser).
import { setTimeout as sleep } from 'node:timers/promises';
import type { Observation, SentInput } from '../../action-outcome.js';
import { gainedTyped } from '../../../cup/typed-arrival.js';
import { goneMark, type Probe } from './verification.js';

/**
 * Text typed as keys presses Return at each newline, and a Return may act on what was typed: a form submits, a
 * search runs, a to-do is added and its field emptied. The field need not keep the text then, so the field's own
 * events during the typing show that the keys reached it, and what the app did is the evidence (other parts of the
 * app changing by themselves, a clock, prove nothing). `kept`: the field shows the typed text after (a search box
 * keeps its query), which the note says rather than that it was emptied. A field whose text (`field`: read before and
 * after) shows the Returns as line breaks did not act on them (see madeLineBreaks): its text is the judge, and this
 * says nothing. Returns the observation with the note, or undefined.
 */
export function returnActed(text: string, label: string, observation: Observation, kept: boolean, field: FieldTexts): Observation | undefined {
  if (!text.includes('\n') || !observation.changed || !observation.targetReported) return undefined;
  if (!onlyReturns(text) && madeLineBreaks(text, field.before, field.after)) return undefined;
  const note = onlyReturns(text)
    ? `${label} took the Return press (what changed is below)`
    : kept
      ? `${label} shows the typed text, and its Return press acted on it (what changed is below)`
      : `${label} does not keep the typed text: its Return press acted on it (what changed is below)`;
  return { ...observation, evidence: [note, ...observation.evidence] };
}

/** A field's text read before the typing and after it (undefined: not read, or unreadable). */
export interface FieldTexts {
  before?: string | undefined;
  after?: string | undefined;
}

/**
 * Whether the Return presses in typed text went into the field as line breaks: the text typed up to its last newline
 * shows in the field more often than before. A rich-text box on a busy page took set_value "Hello\nWorld" at its caret
 * ("First line\nSecond lineHello\nWorld"), and the Return was taken for one that acted on the text: confirmed. A
 * field whose Return acts (a chat box that sends, a to-do field that adds) keeps no line break there.
 */
export function madeLineBreaks(text: string, before: string | undefined, after: string | undefined): boolean {
  const typed = text.replace(/\r\n/g, '\n');
  const lines = typed.slice(0, typed.lastIndexOf('\n') + 1);
  if (after === undefined || lines === '') return false;
  return occurrences(after.replace(/\r\n/g, '\n'), lines) > occurrences((before ?? '').replace(/\r\n/g, '\n'), lines);
}

function occurrences(text: string, part: string): number {
  let count = 0;
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length)) count++;
  return count;
}

/** Only newlines (Return presses): no text to wait for; the field changing (or not, within the wait) tells. */
export function onlyReturns(text: string): boolean {
  return text.includes('\n') && text.replace(/\r?\n/g, '') === '';
}

/** The wait for typed text: its arrival, or for Return presses alone the field's text changing from `before`. */
export function typedUntil(text: string, arrived: (values: readonly (string | undefined)[]) => boolean, before: string | undefined) {
  return onlyReturns(text) ? (values: readonly (string | undefined)[]) => values[0] !== before : arrived;
}

/**
 * The wait for text typed as lines (typeLines, whose result `typed` gives once it is done): its last line showing in
 * the field, or with nothing after the last Return, the field changing from what it held before that Return; at
 * once when a line never showed (nothing more was typed).
 */
export function linesTypedUntil(text: string, typed: () => TypedLines | undefined, shows: (fieldText: string, line: string) => boolean) {
  const lastLine = text.split(/\r?\n/).pop()!;
  return (values: readonly (string | undefined)[]): boolean => {
    const done = typed();
    if (done?.unseen !== undefined) return true;
    return lastLine !== '' ? shows(values[0] ?? '', lastLine) : done !== undefined && values[0] !== done.beforeReturn;
  };
}

/** Key typing as lines with Return presses between them (see typeLines). */
export interface TypedLines {
  /** What was sent, in all. */
  sent: SentInput;
  /** The field's text right before the last Return press (undefined: none was pressed). */
  beforeReturn?: string;
  /** A line that never showed in the field within the wait: its Return was not pressed, nor anything after it. */
  unseen?: string;
}

/** How long a typed line may take to show in its field after its last change, in ms. */
const lineShowsMs = 1500;

/**
 * Types text into a single-line field as lines with a Return press after each but the last, each line seen in
 * the field before its Return is pressed. A Return acts on what the field holds (submits it, adds it to a list and
 * empties the field): garbled or missing text is never submitted, and the field changing from the line is the
 * Return's own evidence (a browser may fold the typing and the Return into one update of its accessibility tree,
 * in which the field reports nothing). Stops early on a cancel.
 */
export async function typeLines(
  text: string,
  probe: Probe,
  sendKeys: (keys: string) => Promise<SentInput>,
  shows: (fieldText: string, line: string) => boolean,
  signal: AbortSignal | undefined,
): Promise<TypedLines> {
  const typed: TypedLines = { sent: {} };
  const add = (more: SentInput) => {
    typed.sent = { characters: (typed.sent.characters ?? 0) + (more.characters ?? 0), ...(typed.sent.cancelled || more.cancelled ? { cancelled: true as const } : {}) };
  };
  const lines = text.split(/\r?\n/);
  for (const [i, line] of lines.entries()) {
    const last = i === lines.length - 1;
    // A field that showed the line already (its digits typed after the same digits) shows it once it gained it: "99"
    // typed into "99" had its Return pressed at once, and the Return was said to have changed the field from "99".
    const held = line !== '' && !last ? await probe.read().catch(() => undefined) : undefined;
    const gained = held !== undefined && shows(held, line) ? (fieldText: string) => gainedTyped(held, fieldText, line) : shows;
    if (line !== '') add(await sendKeys(line));
    if (last || typed.sent.cancelled || signal?.aborted) break;
    const seen = await lineShows(probe, line, gained, signal);
    if (seen === undefined) {
      typed.unseen = line;
      break;
    }
    typed.beforeReturn = seen;
    add(await sendKeys('\n'));
  }
  return typed;
}

/** The field's text once it shows the line (at once for an empty line); undefined when it did not in time. */
async function lineShows(probe: Probe, line: string, shows: (fieldText: string, line: string) => boolean, signal: AbortSignal | undefined): Promise<string | undefined> {
  let last = await probe.read().catch(() => undefined);
  for (let deadline = Date.now() + lineShowsMs; ; ) {
    if (last !== undefined && (line === '' || shows(last, line))) return last;
    if (Date.now() > deadline || signal?.aborted) return undefined;
    await sleep(15);
    const now = await probe.read().catch(() => undefined);
    // Text still coming in is the app working through the keys on a busy machine.
    if (now !== last) deadline = Date.now() + lineShowsMs;
    last = now;
  }
}

/**
 * The verdict on lines typed by typeLines, given the field's text after: the observation with the note that
 * confirms it, or undefined when nothing does. The last line showing is its arrival (the lines before it were
 * seen before their Returns); after a last Return, the field's text changing is the Return's effect, and a field
 * that kept the line typed before it is the text arrived (what the Return did then is not judged).
 */
export function linesOutcome(
  label: string,
  text: string,
  typed: TypedLines,
  after: string | undefined,
  observation: Observation,
  shows: (fieldText: string, line: string) => boolean,
): Observation | undefined {
  if (typed.unseen !== undefined || after === undefined) return undefined;
  const lines = text.split(/\r?\n/);
  const [last, beforeLast] = [lines[lines.length - 1]!, lines[lines.length - 2] ?? ''];
  const noted = (note: string) => ({ ...observation, changed: true, evidence: [note, ...observation.evidence] });
  if (last !== '') return shows(after, last) ? noted(`${label} shows the last line typed, and each line before it showed before its Return press`) : undefined;
  const changed = returnChanged(label, typed.beforeReturn, after, observation);
  if (changed) return changed;
  if (beforeLast !== '' && shows(after, beforeLast)) return noted(`${label} shows the typed text; it kept it after the Return press, whose effect is not judged`);
  return undefined;
}

/**
 * The field's text changing across the last Return press (read just before and after it, in the field or in the
 * page) is the Return's effect: the observation with that note, or undefined when the text stayed or is unknown.
 */
export function returnChanged(label: string, before: string | undefined, after: string | undefined, observation: Observation): Observation | undefined {
  if (before === undefined || after === undefined || after === before) return undefined;
  // A field the Return took away (a table cell's editor that commits and goes) has no text after: its reading is the
  // probe's mark of a gone object, which the note had quoted ('went from "9" to "\u0000gone"').
  const note =
    after === goneMark
      ? `${label} took the Return press: it held ${JSON.stringify(before)} and is gone with it (what else changed is below)`
      : `${label} took the Return press: its text went from ${JSON.stringify(before)} to ${JSON.stringify(after)} (what else changed is below)`;
  return { ...observation, changed: true, evidence: [note, ...observation.evidence] };
}
