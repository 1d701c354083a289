// Typing text: inserted through accessibility, sent as key events, or typed with real keys.
import { setTimeout as sleep } from 'node:timers/promises';
import { cellEditorAdvice } from './cell-editor.js';
import { actionOutcome, notDelivered, type ActionOutcome, type Observation, type SentInput, RETRY_IN_FOREGROUND } from '../../action-outcome.js';
import { decodeStateSet } from '../../../cup/atspi/states.js';
import type { TypeRequest } from '../../desktop.js';
import type { ElementTarget, SnapshotRef } from '../../targets.js';
import type { DesktopWindow } from '../../windows.js';
import { ToolError } from '../../../errors.js';
import type { AccessibilityEvent } from '../atspi/event-monitor.js';
import type { AtspiClient } from '../atspi/client.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { textEndPoint } from '../atspi/embedded-text.js';
import { askOf, caretOffset, characterCount, deleteText, insertText, parentOf, readInterfaces, selectTextRange, setCaretOffset, textSelection } from '../atspi/operations.js';
import { charactersWithoutKey, pressCombination, syntheticCombination, syntheticText, typeText as typeTextReally } from '../input/index.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { NextChange } from '../next-change.js';
import { withCompletionSelected } from './completion-note.js';
import { backgroundFocusMs, focusArrives, focusElement, pageFocusMs, type Actionable } from './accessible-actions.js';
import { editableTextIdle, typeThroughDevTools, type DevToolsTyping } from './devtools-typing.js';
import { focusFactsAhead, type FocusFacts } from './element-point.js';
import { showsNumber } from '../../../cup/shown-number.js';
import { quoteText, typedTextChanges } from '../../../cup/typed-text-changes.js';
import { holdsRewritten } from '../../../cup/rewritten-typing.js';
import { gainedTyped, type TextRange } from '../../../cup/typed-arrival.js';
import { focusedTargetFor } from './focused-element.js';
import { liveStates } from './live-states.js';
import { terminalQuiet } from './terminal-quiet.js';
import { actionable, liveTarget, type LiveElementTarget } from './live-target.js';
import { soleField } from './combo-field.js';
import { otherMenusChecked, refuseKeysToNotification, withForeground } from './real-input.js';
import { observePixels, sentKeysIgnored, syntheticEventsReach } from './synthetic-rung.js';
import { drawnSurfaceFilling, withSurfacePixels } from './drawn-surface-pixels.js';
import { foregroundReturnCall, returnRefusal } from './return-refusal.js';
import { linesOutcome, linesTypedUntil, onlyReturns, returnActed, typedUntil, typeLines, type TypedLines } from './return-press.js';
import { numberShownNow, observe, readAhead, textProbe, type Probe } from './verification.js';
import type { CupRole } from '../../../cup/types.js';
import { backgroundKeys } from './keys.js';
import { pageInputButtonAdvice, refuseTypingIntoDateField } from './page-field-value.js';

const masked = /^[\u2022\u25cf*]+$/u;

/**
 * How long the give-back after real typing into a field that suggests waits for its list of suggestions to map.
 * Chromium showed a <datalist>'s list after the give-back on a machine under load 20 (2 runs in 16), and the list
 * closed; typing into such a field that opens no list costs this much more in the foreground.
 */
const suggestionsGraceMs = 1500;

/** How long keys that replace a field's text wait for the app to say the text is selected (see selectWholeText). */
const selectionTakenMs = 3000;

/**
 * Whether a field's text shows the expected text (as its whole text, or as part of it). A password field
 * shows one mask character per character typed (Blink and Gecko use U+25CF or U+2022), so there only
 * the count can be compared.
 */
export function shows(text: string, expected: string, extent: 'whole' | 'part'): boolean {
  if (expected !== '' && masked.test(text) && !masked.test(expected)) {
    const [have, want] = [[...text].length, [...expected].length];
    return extent === 'whole' ? have === want : have >= want;
  }
  return extent === 'whole' ? text === expected : text.includes(expected);
}

/**
 * Whether a field that held `before` took the typed text (see gainedTyped; `selected`: the range of `before` selected
 * when the keys went). A password field shows its masks only, one more for each character it took (see shows); a field
 * whose text was not read before can only be seen holding it.
 */
function gained(before: string | undefined, after: string, typed: string, selected?: TextRange): boolean {
  if (before === undefined) return shows(after, typed, 'part');
  if (typed !== '' && masked.test(after) && !masked.test(typed)) return [...after].length >= [...before].length + [...typed].length;
  return gainedTyped(before, after, typed, selected);
}

/** Whether a field shows a line typed into it (typeLines' check before each Return). */
const showsLine = (fieldText: string, line: string) => shows(fieldText, line, 'part');

/** How many characters an event reports inserted into the field (0 for any other event). */
function insertedInto(field: ObjectRef, event: AccessibilityEvent): number {
  const insertion = event.kind === 'TextChanged' && event.detail.startsWith('insert') && event.sender === field.bus && event.path === field.path;
  return insertion ? event.detail2 : 0;
}

/**
 * For the read-back of typed keys: picks the event that reports the last of the `expected` characters inserted into
 * the field (counted from the field's insertions), so that it is read at once, not when the app's events pause.
 */
function lastInserted(field: ObjectRef, expected: string): (event: AccessibilityEvent) => boolean {
  const length = [...expected].length;
  let inserted = 0;
  return (event) => {
    const before = inserted;
    inserted += insertedInto(field, event);
    return before < length && inserted >= length;
  };
}

/** Whether an object is a field that takes typed text: editable and not read-only (`states` when already read live). */
async function isEditable(desktop: LinuxDesktop, ref: ObjectRef, states?: readonly number[]): Promise<boolean> {
  const present = states ? decodeStateSet(states) : await liveStates(desktop, ref).catch(() => undefined);
  // Unreadable states leave the field's own text as the judge, as before this check.
  if (!present) return true;
  return present.has('STATE_EDITABLE') && !present.has('STATE_READ_ONLY');
}

/** An observation with lines that say how it was judged, before its evidence (only when it saw something). */
function withNotes(notes: readonly string[], observation: Observation): Observation {
  return observation.changed && notes.length > 0 ? { ...observation, evidence: [...notes, ...observation.evidence] } : observation;
}

/**
 * A read-only field takes no typing from a user, so it takes none from us either. `typing`: the refusal of typed text
 * (type_text), which real keys may still serve: they reach the app's own key handling, which a read-only display acts on
 * (galculator's display takes "17" typed at it), where no text is inserted into a field in the background. Set_value's
 * refusal offers none: keys do not change what a read-only field holds.
 */
export async function requireEditable(desktop: LinuxDesktop, ref: ObjectRef, label: string, typing = false): Promise<void> {
  const states = await liveStates(desktop, ref);
  if (!states.has('STATE_EDITABLE') || states.has('STATE_READ_ONLY')) {
    const instead = await pageInputButtonAdvice(desktop, ref);
    const keys = typing ? `; if the app acts on keys typed there (a calculator's display takes digits), ${RETRY_IN_FOREGROUND}: its real keys reach the app's key handling, and the result judges them by what the app changes` : '';
    throw new ToolError(`${label} is read-only; nothing was typed. ${instead ? `${instead[0]!.toUpperCase()}${instead.slice(1)}` : 'Pick an editable field (its states include editable)'}${keys}`, 'read_only');
  }
}

/**
 * Inserts where a person's typing would go: at the caret of a field that has the focus (where a click or keys put
 * it) or of a document's text (whose caret an agent moves with keys), and at the end of a one-line field that has
 * not, as the key-events rung appends: its caret is where the app last put it, the start of a text it set itself
 * (Gnumeric's name box "A6" took "B5" as "B5A6"). Keys typed into a field replace the text selected in it, and so
 * does this wherever the caret is taken: Thunar's Rename dialog selects the name before the extension, and "three" typed there
 * made "two.txt" "twothree.txt", where a person's typing makes "three.txt".
 */
/** A one-line field without the focus, where typed text goes at the end (a person's click past its text puts it there). */
function oneLineUnfocused(states: ReadonlySet<string> | undefined): boolean {
  return states !== undefined && !states.has('STATE_FOCUSED') && states.has('STATE_SINGLE_LINE');
}

async function insertAtCaret(desktop: LinuxDesktop, target: Actionable, text: string): Promise<void> {
  const client = await desktop.atspi();
  const states = await liveStates(desktop, target.ref).catch(() => undefined);
  const atEnd = oneLineUnfocused(states);
  // Where the caret is taken, so is the text selected, whose end it is: real keys, which focus the field first and put
  // its selection back, replace it. A text edit of an inactive Qt window says no focus, and "ZZ" typed over a word a
  // double click had selected went in after the word.
  const selected = atEnd ? undefined : await textSelection(client, target.ref).catch(() => undefined);
  if (selected && !(await deleteText(client, target.ref, Math.min(selected.start, selected.end), Math.max(selected.start, selected.end)))) throw new ToolError('the application refused to replace the selected text', 'insert_refused');
  const caret = selected ? Math.min(selected.start, selected.end) : atEnd ? -1 : await caretOffset(client, target.ref).catch(() => -1);
  const position = caret >= 0 ? caret : await characterCount(client, target.ref);
  if (!(await insertText(client, target.ref, position, text))) throw new ToolError('the application refused the text insertion', 'insert_refused');
  if (caret >= 0) await caretPastInserted(client, target.ref, position, text);
}

/**
 * The caret after text inserted where it stood, as typing leaves it: GTK moves it past the text, Scintilla (Geany's
 * editor) leaves it where the text began, and Geany took a second type_text's "ABC" ahead of the first's line
 * ("ABC// added line"). Moved only while it is still where the text went in: an app that placed it is left alone.
 */
async function caretPastInserted(client: AtspiClient, ref: ObjectRef, position: number, text: string): Promise<void> {
  const length = [...text].length;
  if (length === 0 || (await caretOffset(client, ref).catch(() => -1)) !== position) return;
  await setCaretOffset(client, ref, position + length).catch(() => false);
}

/** How many ancestors are looked through for the editing host of an editable block that takes no focus. */
const maxHostDepth = 8;

/**
 * The object that takes the focus for an editable block that does not take it itself: a paragraph of a web page's
 * contenteditable (Gecko shows it as an editable paragraph) is edited through its editing host, the nearest
 * focusable ancestor, which must be editable. Undefined when the block takes the focus itself, or no such host holds it.
 * Containers between that take no focus are passed whether they say EDITABLE or not: Gecko marks a contenteditable's
 * list items editable and not the <ul> holding them, and typing into an item focused the item itself, which moved
 * the page's focus to its document and the keys with it.
 */
async function editingHost(desktop: LinuxDesktop, target: Actionable): Promise<Actionable | undefined> {
  const client = await desktop.atspi();
  const own = await liveStates(desktop, target.ref);
  if (own.has('STATE_FOCUSABLE') || !own.has('STATE_EDITABLE')) return undefined;
  for (let at: ObjectRef = target.ref, depth = 0; depth < maxHostDepth; depth++) {
    const parent = await parentOf(client, at).catch(() => undefined);
    if (!parent || parent.bus !== at.bus) return undefined;
    const states = await liveStates(desktop, parent);
    if (states.has('STATE_FOCUSABLE')) return states.has('STATE_EDITABLE') ? { ref: parent, interfaces: await readInterfaces(client, parent) } : undefined;
    at = parent;
  }
  return undefined;
}

/**
 * Focus for typing: GrabFocus on the field (or on its editing host, see editingHost), then the caret put at the end
 * of the field's text (inside its last paragraph, see textEndPoint), which focuses it too. GrabFocus's answer is not enough: Gecko's answers true for a
 * contenteditable in a cross-origin frame behind other windows and moves nothing (the keys were lost), and where it
 * does not take at all (Gecko's contenteditable blocks behind others) the caret still does; a paragraph of a
 * contenteditable takes the keys only once its host has the focus and the caret is in it. True when either took.
 * With `selected` (text selected in the field) the selection is put back instead of the caret, for the keys to
 * replace it, as a person's typing does once the field has the focus, and waited for (see selectionTaken).
 */
async function focusInto(desktop: LinuxDesktop, target: Actionable, selected?: TextRange): Promise<boolean> {
  const grabbed = await focusElement(desktop, (await editingHost(desktop, target).catch(() => undefined)) ?? target);
  if (!target.interfaces.includes('Text')) return grabbed;
  const client = await desktop.atspi();
  if (selected) return (await selectionTaken(client, target.ref, selected.start, selected.end)) || grabbed;
  const caret = await textEndPoint(askOf(client), target.ref)
    .then((end) => setCaretOffset(client, end.ref, end.offset))
    .catch(() => false);
  return grabbed || caret;
}

/**
 * The caret to the end of a focused field, as a key in the same stream as the text: a browser's page applies a
 * caret set through accessibility a moment later, and keys sent before that went in ahead of a caret then put
 * back ("Buy milk" came out "uy milkB"); keys are taken in order. `multiLine`: the field says MULTI_LINE.
 */
async function caretToEnd(desktop: LinuxDesktop, window: DesktopWindow, multiLine: boolean): Promise<void> {
  await syntheticCombination(await desktop.x11(), window.id, multiLine ? 'ctrl+End' : 'End');
}

/** Key events sent to a window as X events (SendEvent), for apps that read them (Blink, Gecko). */
function syntheticKeys(desktop: LinuxDesktop, window: DesktopWindow, signal: AbortSignal | undefined): (text: string) => Promise<SentInput> {
  return async (text) => {
    try {
      return await syntheticText(await desktop.x11(), window.id, text, signal);
    } catch (error) {
      throw new ToolError((error as Error).message, 'unsupported_character');
    }
  };
}

/**
 * Why text is not sent as key events, when some of its characters have no key on the layout (`why` says what left
 * only key events), else undefined. Checked before anything is sent: such a character found half-way had the text
 * before it typed and then an `unsupported_character` error that said nothing of the foreground, whose real keys type it.
 */
async function keylessRefusal(desktop: LinuxDesktop, text: string, why: string): Promise<string | undefined> {
  const keyless = await charactersWithoutKey(await desktop.x11(), text);
  if (keyless.length === 0) return undefined;
  const named = `${keyless.slice(0, 5).map((character) => JSON.stringify(character)).join(', ')}${keyless.length > 5 ? ` and ${keyless.length - 5} more` : ''}`;
  return `no key of the keyboard layout types ${named}, and key events sent in the background can only send what the layout has${why}; nothing was typed: ${RETRY_IN_FOREGROUND}, whose real keys type any character`;
}

/** A refusal's last words: the rung's own advice, then what the DevTools rung said of itself, if anything. */
function withNote(reason: string, page: DevToolsTyping): string {
  return 'skipped' in page && page.skipped ? `${reason}. ${page.skipped}` : reason;
}

/**
 * Key events typed into an accessible field of an app that takes them (Blink has no EditableText, Gecko's
 * answers and changes nothing in a web page): keys go where the app's focus is, so the field is focused
 * first through accessibility, and the field's own text is the evidence (a single-line field takes the text line
 * by line, each seen there before its Return press: see typeLines). Another control reacting to the keys (a
 * list's type-ahead) or the window's pixels changing is not the text arriving. With `append` (type_text) the
 * caret goes to the field's end first; without it (set_value) sendKeys makes its own selection. An app whose
 * GrabFocus activates its window (Blink) is typed into only while the window is the active one, so a
 * covered window is never raised; Gecko's moves the page's focus only, and takes the keys behind others.
 * A browser's DevTools connection, where there is one, is the rung tried before this one (page: what it said).
 */
async function keysIntoField(
  desktop: LinuxDesktop,
  window: DesktopWindow,
  element: LiveElementTarget | undefined,
  snapshot: SnapshotRef | undefined,
  target: Actionable,
  label: string,
  probe: Probe,
  text: string,
  sendKeys: (keys: string) => Promise<SentInput>,
  arrived: (values: readonly (string | undefined)[]) => boolean,
  page: DevToolsTyping,
  signal: AbortSignal | undefined,
  append: boolean,
): Promise<ActionOutcome> {
  // Checked before the field is focused or a line typed: a character without a key found half-way stopped the typing
  // with an error after the lines before it (and their Return presses) had gone.
  const keyless = await keylessRefusal(desktop, text, ` (${label} takes no text through accessibility)`);
  if (keyless) return notDelivered('background', withNote(keyless, page));
  const quirks = await (await desktop.atspi()).quirksOf(target.ref.bus);
  if (!window.active && quirks.focusActivatesWindow) {
    return notDelivered(
      'background',
      withNote(
        `window ${window.id} is not the active window: its app reads key events only there, and focusing ${label} through accessibility would raise it; nothing was typed: ${RETRY_IN_FOREGROUND}`,
        page,
      ),
    );
  }
  // Text selected in a one-line field (a ctrl+a before the typing) is what typed keys replace, as in the foreground: the
  // caret is not put at the end for them ("York" typed over the whole "New York" selected made "New YorkYork"). A
  // rich-text box takes the text at its end whatever a toolbar's formatting left selected in it.
  const multiLine = append && (await liveStates(desktop, target.ref)).has('STATE_MULTI_LINE');
  const selected = append && element && !multiLine ? await textSelection(await desktop.atspi(), target.ref).catch(() => undefined) : undefined;
  if (element) {
    await requireEditable(desktop, target.ref, label, append);
    // Gecko leaves focus states as they were when its window was last active: behind another window, its
    // GrabFocus answer is all there is to go on, and the field's own text judges where the keys went. Its page
    // takes the focus a moment later (50-80 ms), and keys sent before that go elsewhere: it is waited for a while.
    const grabbed = await focusInto(desktop, target, selected);
    const activeWait = quirks.webEngine ? pageFocusMs : 1000;
    const arrives = grabbed && (await focusArrives(desktop, target, window.active ? activeWait : backgroundFocusMs));
    const focused = grabbed && (!window.active || arrives);
    if (!focused) return notDelivered('background', `${label} could not be focused through accessibility, and key events go to the focused control; nothing was typed: ${RETRY_IN_FOREGROUND}`);
  }
  // Appended to a single-line field, a newline is a Return press that may act on the line before it: lines are typed one by one.
  const lines = append && text.includes('\n') && !multiLine;
  let sent: SentInput | undefined;
  let typed: TypedLines | undefined;
  const send = async () => {
    if (append && element && !selected) await caretToEnd(desktop, window, multiLine);
    if (!lines) sent = await sendKeys(text);
    else sent = (typed = await typeLines(text, probe, sendKeys, showsLine, signal)).sent;
  };
  const lastLine = text.split(/\r?\n/).pop()!;
  const returns = onlyReturns(text);
  // What the field held before the keys: Returns that show as line breaks after it acted on nothing (returnActed), and
  // the typed text shown counts once the keys were seen changing the field, in its text read back or its own text
  // events. set_value of the text a busy page's box held already read done before its first key was handled (the wait
  // met at once), and then "no effect seen" with a retry advised, the keys replacing the text a moment later.
  const before = lines ? undefined : await probe.read().catch(() => undefined);
  let moved = false;
  const movedBy = (value: string | undefined) => (moved ||= value !== undefined && value !== before);
  const ownText = (event: AccessibilityEvent) => event.kind === 'TextChanged' && event.sender === target.ref.bus && event.path === target.ref.path;
  const stopListening = lines ? undefined : await (await desktop.atspi()).events.listen((event) => void (moved ||= ownText(event))).catch(() => undefined);
  const typedOrReturned = typedUntil(text, arrived, before);
  const until = lines ? linesTypedUntil(text, () => typed, showsLine) : (values: readonly (string | undefined)[]) => movedBy(values[0]) && typedOrReturned(values);
  const observation = await observe(desktop, target.ref.bus, [probe], send, { snapshot, until, target: target.ref, signal }).finally(() => stopListening?.());
  const after = await probe.read().catch(() => undefined);
  // Cut short by a cancel, the text is not all there, and the outcome says how much was sent.
  if (observation.cancelled || sent?.cancelled) return actionOutcome({ path: 'key_events', mode: 'background', observation, sent });
  const shown = arrived([after]);
  const unmoved = !lines && shown && !movedBy(after);
  const judged = lines
    ? linesOutcome(label, text, typed!, after, observation, showsLine)
    : unmoved
      ? undefined
      : !returns && shown
        ? observation
        : returnActed(text, label, observation, shown, { before, after });
  if (judged) return actionOutcome({ path: 'key_events', mode: 'background', observation: judged, sent });
  return actionOutcome({
    path: 'key_events',
    mode: 'background',
    observation: { ...observation, changed: false, listening: true },
    escalation: {
      recommended: 'foreground',
      reason: unmoved
        ? `the key events were sent and ${label} shows the text, as it did before them: no change from them was seen, so they may not be handled yet; read it with get_window_state before typing again`
        : typed?.unseen !== undefined
        ? `the line ${JSON.stringify(typed.unseen)} was typed but never showed in ${label}, so its Return was not pressed and nothing after it was typed; read the field with get_window_state before typing again`
        : returns || (lines && lastLine === '')
          ? `the Return press was sent and ${label} reported no change (what else the app changes meanwhile is not counted); read the window with get_window_state before pressing it again`
          : append || after === undefined
            ? `the key events were sent but the text of ${label} does not show the typed text added; ${RETRY_IN_FOREGROUND}`
            // Keys that replace a field's text and left other text there: sending them again in the foreground would too.
            : `the key events were sent but ${label} holds ${JSON.stringify(after)}, not the value; read it with get_window_state before setting it again`,
    },
  });
}

/**
 * Lines typed into a single-line field of an app that reads no key events sent in the background: each line is
 * inserted through EditableText and each newline is the Return press the field takes through accessibility (its
 * activate action), as press_key Return is there; each line shows in the field before its Return (see typeLines).
 * Catfish's search field refused "three\n" while "three" and then press_key Return searched.
 */
async function linesThroughAccessibility(
  desktop: LinuxDesktop,
  target: Actionable,
  label: string,
  probe: Probe,
  text: string,
  pressReturn: () => Promise<void>,
  snapshot: SnapshotRef | undefined,
  signal: AbortSignal | undefined,
): Promise<ActionOutcome> {
  const sendKeys = async (keys: string): Promise<SentInput> => {
    if (keys === '\n') await pressReturn();
    else await insertAtCaret(desktop, target, keys);
    return { characters: [...keys].length };
  };
  let typed: TypedLines | undefined;
  const until = linesTypedUntil(text, () => typed, showsLine);
  const type = async () => void (typed = await typeLines(text, probe, sendKeys, showsLine, signal));
  const observation = await observe(desktop, target.ref.bus, [probe], type, { snapshot, until, target: target.ref, signal });
  const after = await probe.read().catch(() => undefined);
  const judged = typed && linesOutcome(label, text, typed, after, observation, showsLine);
  if (judged || observation.cancelled) return actionOutcome({ path: 'x11_atspi', mode: 'background', observation: judged ?? observation, sent: typed?.sent });
  return actionOutcome({
    path: 'x11_atspi',
    mode: 'background',
    observation: { ...observation, changed: false, listening: true },
    sent: typed?.sent,
    escalation: {
      recommended: 'foreground',
      reason: typed?.unseen !== undefined
        ? `the line ${JSON.stringify(typed.unseen)} was inserted but never showed in ${label}, so its Return was not pressed and nothing after it was typed; read the field with get_window_state before typing again`
        : `the Return press was made through ${label}'s activate action and nothing showed it took; read the window with get_window_state before pressing it again`,
    },
  });
}

/**
 * Replaces a field's whole text where EditableText is missing (Blink) or takes nothing (Gecko's web fields):
 * through the browser's debugging connection where it has one, else by key events: the field is focused, its
 * text selected through accessibility, and the new text typed over the selection (Delete when it is empty).
 * The field's text equal to the value is the proof.
 */
export async function replaceFieldText(desktop: LinuxDesktop, target: LiveElementTarget, value: string): Promise<ActionOutcome> {
  const label = `[e${target.element.index}]`;
  const window = target.window;
  const client = await desktop.atspi();
  const probe = textProbe(desktop, target.ref, label);
  const single = value.replace(/\r?\n/g, '\n');
  // Read first, also so that the probe knows the field before the app may replace it (see replaced-field.ts).
  const before = await probe.read().catch(() => undefined);
  const arrived = (values: readonly (string | undefined)[]) => shows(values[0] ?? '', single, 'whole') || holdsRewritten(single, before, values[0] ?? '', 'whole');
  const hasText = target.live.interfaces.includes('Text');
  const page: DevToolsTyping = hasText
    ? await typeThroughDevTools(desktop, { window, target: actionable(target), label, probe, text: single, replace: true, arrived, snapshot: target.snapshot })
    : { skipped: undefined };
  if ('outcome' in page) return page.outcome;
  if (!hasText || !(await syntheticEventsReach(desktop, window, 'keys')).accepted) {
    return notDelivered(
      'background',
      withNote(`${label} takes no text through accessibility and its app reads no key events sent in the background; nothing was changed: click it and type_text with delivery_mode "foreground"`, page),
    );
  }
  const sendKeys = async (): Promise<SentInput> => {
    const length = await characterCount(client, target.ref);
    if (length > 0) await selectWholeText(client, target.ref, length, label);
    // The selection is deleted by a key of its own before the text is typed: Gecko's rich-text box, its paragraphs
    // selected whole, lost the first key that replaced them (set_value "Hello" left "ello").
    if (length > 0) await syntheticCombination(await desktop.x11(), window.id, 'Delete');
    return single !== '' ? syntheticKeys(desktop, window, undefined)(single) : {};
  };
  return keysIntoField(desktop, window, target, target.snapshot, actionable(target), label, probe, single, sendKeys, arrived, page, undefined, false);
}

/**
 * Selects the whole text of a field and waits until the app says it is selected, for keys that replace it. A browser
 * takes a selection set through accessibility in its page's process, where the key events sent next may run first
 * (input goes ahead of other work there): on a busy page the Delete and the text went in at the caret and the
 * selection came after, and set_value "Hello\nWorld" on a rich-text box left "<p>WorldHello</p><p><br></p>". Bounded:
 * an app that never says so gets the keys after selectionTakenMs, and the read-back judges them.
 */
async function selectWholeText(client: AtspiClient, ref: ObjectRef, length: number, label: string): Promise<void> {
  if (!(await selectionTaken(client, ref, 0, length))) throw new ToolError(`the application refused to select the text of ${label}`, 'set_text_refused');
}

/**
 * Selects a range of a field's text and waits (up to selectionTakenMs) until the app says it is selected (see
 * selectWholeText for why). False when the app refused the selection; an app that never says so gets the keys
 * after the wait, and the read-back judges them.
 */
async function selectionTaken(client: AtspiClient, ref: ObjectRef, start: number, end: number): Promise<boolean> {
  if (!(await selectTextRange(client, ref, start, end).catch(() => false))) return false;
  for (const deadline = Date.now() + selectionTakenMs; Date.now() < deadline; await sleep(20)) {
    const selected = await textSelection(client, ref).catch(() => undefined);
    if (selected?.start === start && selected.end === end) return true;
  }
  return true;
}

/**
 * The element typing goes to: the one named, or the text field a combo box holds where the combo box takes no text
 * itself (Qt's and GTK3's combo boxes with an entry, whose field is their child), as set_value does: KeePassXC's
 * "Username:" was refused in the background as taking no text (no EditableText), its field taking set_value.
 */
async function typedElement(desktop: LinuxDesktop, named: ElementTarget): Promise<LiveElementTarget> {
  const live = await liveTarget(desktop, named);
  if (live.element.role !== 'combobox' || live.live.interfaces.includes('EditableText')) return live;
  const field = soleField(named);
  return field ? liveTarget(desktop, { ...named, element: field }) : live;
}

/**
 * Types the text into the element, or into the focused element of the window: in the background through
 * EditableText, through a browser's debugging connection into a page's field, or as key events where the
 * app takes them; in the foreground with real keys.
 */
export async function typeTextAction(desktop: LinuxDesktop, request: TypeRequest): Promise<ActionOutcome> {
  // Real keys only read until the window's activation, which awaits the caller's readiness (see withForeground); the
  // background's rungs send as they go.
  if (request.mode !== 'foreground') await request.ready;
  const menusChecked = request.mode === 'foreground' ? otherMenusChecked(desktop, request.window) : undefined;
  const element = request.element && (await typedElement(desktop, request.element));
  if (element) await refuseTypingIntoDateField(desktop, element);
  const target: Actionable | undefined = element ? actionable(element) : await focusedTargetFor(desktop, request.window, request.mode);
  const label = element ? `[e${element.element.index}]` : 'the focused element';
  // The field's text, read before and after; the probe follows a field the app replaces (see replaced-field.ts). Lines
  // typed into a block of a contenteditable (a list's item, a paragraph) split it, and the text after a Return goes into
  // a new block beside it: its editing host's text shows them all. "\nBread" typed into Gecko's item "Eggs" read "no
  // effect seen" and advised typing it again in the foreground, with "Bread" in a new item the page had listed.
  const host = element && target && /\r?\n/.test(request.text) ? await editingHost(desktop, target).catch(() => undefined) : undefined;
  const read = host?.interfaces.includes('Text') ? { ref: host.ref, label: `the field holding ${label}` } : target && { ref: target.ref, label };
  const probes = read && target?.interfaces.includes('Text') ? [textProbe(desktop, read.ref, read.label)] : [];
  // Only an editable field is expected to hold the typed text; keys typed at anything else (a calculator's read-only
  // display, a list's type-ahead) are judged by what the app changed: its events and the target's own text.
  const holdsText = target !== undefined && probes.length > 0 && (await isEditable(desktop, target.ref, element?.live.states));
  const outcome = await typeInto(desktop, request, element, target, probes, label, holdsText, menusChecked);
  if (!target || outcome.effect !== 'confirmed') return outcome;
  // What a display that is no field shows after the keys (galculator's "42" after "12+30=") is the app's answer to them,
  // not the typed text rewritten: the result said both that it was not looked for there and that the app rewrote it.
  const told = holdsText ? await withRewrittenText(probes[0], request.text, label, outcome) : outcome;
  return withCompletionSelected(desktop, target, label, request.text, await withNumberNotTaken(desktop, target, label, told));
}

/** A confirmed typing whose text the app rewrote as it took it (see rewritten-typing.ts) says what the field holds. */
async function withRewrittenText(probe: ReturnType<typeof textProbe> | undefined, text: string, label: string, outcome: ActionOutcome): Promise<ActionOutcome> {
  // Lines typed into an editor that reshaped them are told otherwise (see reshapedTyping).
  if (/\n/.test(text)) return outcome;
  const expected = text;
  // The read-back that confirmed the typing says it: asked again only when it read nothing (a round trip after every
  // typing otherwise).
  const after = probe && (probe.latest() ?? (await probe.read().catch(() => undefined)));
  if (after === undefined || shows(after, expected, 'part')) return outcome;
  const note = `${label} holds ${quoteText(after)} where ${quoteText(expected)} was typed: the app rewrote the text as it took it (its case, spacing or punctuation), so the field holds what the app made of it; do not type it again`;
  return { ...outcome, evidence: [...(outcome.evidence ?? []), note] };
}

/**
 * The evidence lines for typing that an editor changed as it took the keys (see typedTextChanges), or undefined when
 * the field gained the text as typed or is unreadable. `verbatim`: the field takes text through EditableText, which
 * inserts it as given (no editor indents or completes text inserted that way).
 */
async function reshapedTyping(probe: Probe, text: string, before: string | undefined, label: string, verbatim: boolean): Promise<string[] | undefined> {
  const after = await probe.read().catch(() => undefined);
  if (before === undefined || after === undefined || after === before) return undefined;
  const changes = typedTextChanges(text, before, after);
  if (!changes) return undefined;
  const instead = verbatim
    ? 'type_text in the background inserts text as given (through accessibility, where no editor indents, closes or completes it), and set_value replaces the whole text'
    : 'type the lines without their own indentation, or fix the text with further keys';
  return [`${label} took the keys and changed what they typed: ${changes.notes.join('; ')}`, `${label} gained ${quoteText(changes.gained)} where ${quoteText(text)} was typed; ${instead}`];
}

/**
 * A field that shows a number it holds apart from its text (a spin button: Text and Value) takes typed digits only
 * when they are committed, by Return or the focus leaving it. Typing into Transmission's speed limit read 'text of
 * [e26]: "100" → "100250"' while its value stayed 100, and the diff, which shows the value, said no change: the
 * result now says the number is not taken yet, and how to commit it.
 */
async function withNumberNotTaken(desktop: LinuxDesktop, target: Actionable, label: string, outcome: ActionOutcome): Promise<ActionOutcome> {
  if (!target.interfaces.includes('Value') || !target.interfaces.includes('Text')) return outcome;
  const client = await desktop.atspi();
  // The number it holds as the tree reads it (numberShownNow), not its Value's: Gecko's date parts answer 0 whatever
  // they show, and a date typed in whole ("03152027", the page holding 2027-03-15) read "shows "03" but holds 0 ...
  // the app has not taken them yet".
  const role = (target.role ?? 'spinbutton') as CupRole;
  const [shown, held] = await Promise.all([textProbe(desktop, target.ref, label).read().catch(() => undefined), numberShownNow(client, target.ref, role).catch(() => undefined)]);
  const number = held === undefined ? Number.NaN : Number(held);
  if (shown === undefined || !Number.isFinite(number) || showsNumber(shown, number) !== false) return outcome;
  const note =
    `${label} shows ${JSON.stringify(shown)} but holds ${held}: a spin button takes typed digits when they are committed, so the app has not taken them yet; ` +
    `press_key "Return" on it (or move the focus away) to commit them, or set_value to replace its number`;
  return { ...outcome, evidence: [...(outcome.evidence ?? []), note] };
}

/**
 * `holdsText`: the target is an editable field, expected to hold the typed text (see typeTextAction). `menusChecked`:
 * real keys' check for other apps' menus, asked as the typing began (see otherMenusChecked).
 */
async function typeInto(
  desktop: LinuxDesktop,
  request: TypeRequest,
  element: LiveElementTarget | undefined,
  target: Actionable | undefined,
  probes: Probe[],
  label: string,
  holdsText: boolean,
  menusChecked?: Promise<void>,
): Promise<ActionOutcome> {
  const { window, mode, signal } = request;
  const snapshot = element?.snapshot ?? request.snapshot;
  const notAField = target !== undefined && !holdsText ? [`${label} is not an editable field, so the typed text is not looked for in it; the app's changes are the keys' effect`] : [];
  // Real keys arrive one by one; the evidence waits for the whole text (newlines are Return presses, not text). A
  // field that held the text already shows it arrived only once its text changed: Gecko's EditableText answers and
  // changes nothing in a page, and typing "world" after "Hello world" was taken as done, the key events never sent.
  const expected = request.text.replace(/\r?\n/g, '');
  const held = probes.length > 0 && holdsText ? await probes[0]!.read().catch(() => undefined) : undefined;
  // The text arrived once the field changed by it, not once it holds it (see typed-arrival.ts); text the app rewrote as
  // it took it (upper-cased, formatted) arrived too (see rewritten-typing.ts).
  const heldFlat = held?.replace(/\r?\n/g, '');
  // Text selected in the field is what the keys replace (see keysIntoField; real keys do too): "York" typed over the
  // whole "New York" selected left "York", which holds "York" no more often than before, and read "does not show".
  // Its offsets count the line breaks the flat text leaves out, so only a field of one line is judged by it.
  const selected = held !== undefined && !/[\r\n]/.test(held) && target ? await textSelection(await desktop.atspi(), target.ref).catch(() => undefined) : undefined;
  const arrived = (values: readonly (string | undefined)[]) => {
    const shown = (values[0] ?? '').replace(/\r?\n/g, '');
    return values[0] !== held && (gained(heldFlat, shown, expected, selected) || holdsRewritten(expected, heldFlat, shown, 'part'));
  };

  if (mode === 'background') {
    // Between EditableText and key events: the page's own node for the field, through the browser's debugging connection.
    const throughPage = (): Promise<DevToolsTyping> =>
      target && probes.length > 0
        ? typeThroughDevTools(desktop, { window, target, label, probe: probes[0]!, text: request.text, replace: false, arrived, snapshot })
        : Promise.resolve({ skipped: undefined });
    if (!target || !target.interfaces.includes('EditableText')) {
      const page = await throughPage();
      if ('outcome' in page) return page.outcome;
      const synthetic = await syntheticEventsReach(desktop, window, 'keys');
      if (synthetic.accepted) {
        const sendKeys = syntheticKeys(desktop, window, signal);
        // An element is typed into only when it is a field (keysIntoField refuses a read-only one).
        if (target && probes.length > 0 && (holdsText || element)) return keysIntoField(desktop, window, element, snapshot, target, label, probes[0]!, request.text, sendKeys, arrived, page, signal, true);
        const keyless = await keylessRefusal(desktop, request.text, synthetic.accessible ? ` (${target ? label : 'the focus'} takes no text through accessibility)` : ` (window ${window.id} has no accessibility tree)`);
        if (keyless) return notDelivered(mode, withNote(keyless, page));
        let sent: SentInput | undefined;
        const send = async () => void (sent = await sendKeys(request.text));
        const observation = target && probes.length > 0
          ? withNotes(notAField, await observe(desktop, target.ref.bus, probes, send, { snapshot, settleMs: 1000, signal }))
          : await observePixels(desktop, window, send, signal);
        return actionOutcome({ path: 'key_events', mode, observation, sent });
      }
      // A window with no tree has no element to pass: only real keys are left to offer.
      const treeless = !target && !element && !synthetic.accessible;
      const why = synthetic.inactive ? sentKeysIgnored(window, synthetic) : target ? `${label} does not accept text through accessibility (no EditableText)` : treeless ? `window ${window.id} has no accessibility tree, so no element of it takes text` : `window ${window.id} has no focused element`;
      const editedInPlace = target && (await cellEditorAdvice(desktop, target));
      if (editedInPlace) return notDelivered(mode, withNote(`${why}; nothing was typed: ${editedInPlace}`, page));
      return notDelivered(mode, withNote(`${why}; nothing was typed: ${RETRY_IN_FOREGROUND}${element || treeless ? '' : ", or pass the text field's element_index"}`, page));
    }
    await requireEditable(desktop, target.ref, label, true);
    // Where EditableText takes nothing in pages (Gecko), a page's field is not given it: the page's node goes first,
    // then keys (below). Waiting for an insertion that never shows cost the read-back's whole wait (1.7 to 2.5 s a typing).
    const client = await desktop.atspi();
    const idle = await editableTextIdle(client, target.ref);
    const pageFirst = idle ? await throughPage() : undefined;
    if (pageFirst && 'outcome' in pageFirst) return pageFirst.outcome;
    // Key events into the field, where its app reads them: a named element, or the focused field typed into (it has the
    // focus the keys go to). Undefined where they would not reach it.
    const keysInto = async (page: DevToolsTyping): Promise<ActionOutcome | undefined> =>
      (element || holdsText) && probes.length > 0 && (await syntheticEventsReach(desktop, window, 'keys')).accepted
        ? keysIntoField(desktop, window, element, snapshot, target, label, probes[0]!, request.text, syntheticKeys(desktop, window, signal), arrived, page, signal, true)
        : undefined;
    // A newline in a single-line field is a Return press (a form submits, a to-do is added): inserted as text it
    // would press nothing, so only key events can type it.
    if (request.text.includes('\n') && !(await liveStates(desktop, target.ref)).has('STATE_MULTI_LINE')) {
      const page = pageFirst ?? (await throughPage());
      if ('outcome' in page) return page.outcome;
      const keyed = await keysInto(page);
      if (keyed) return keyed;
      const pressReturn = probes.length > 0 ? await backgroundKeys(desktop, target, 'return') : undefined;
      if (pressReturn) return linesThroughAccessibility(desktop, target, label, probes[0]!, request.text, pressReturn, snapshot, signal);
      // A text in which the Return comes last can go in the background up to it: the refusal says so.
      const lines = request.text.split(/\r?\n/);
      const typed = lines.length === 2 && lines[1] === '' && lines[0] !== '' ? lines[0] : undefined;
      const call = foregroundReturnCall(window.id, element?.element.index);
      const alone = typed !== undefined ? `, or type ${JSON.stringify(typed)} here without the newline and then ${call}` : '';
      const subject = `${label} is a single-line field, where a newline is a Return press, which text inserted through accessibility does not make; it`;
      const refusal = await returnRefusal(desktop, target, subject, 'its app reads no key events sent in the background', 'nothing was typed', `${RETRY_IN_FOREGROUND} (real keys type the text and press Return)${alone}`);
      return notDelivered(mode, withNote(refusal, page));
    }
    const keyedFirst = idle && pageFirst ? await keysInto(pageFirst) : undefined;
    if (keyedFirst) return keyedFirst;
    const returns = onlyReturns(request.text);
    const before = returns && probes.length > 0 ? await probes[0]!.read().catch(() => undefined) : undefined;
    const took = typedUntil(request.text, arrived, before);
    // One call inserts the whole text: a cancel can only end the wait for it.
    const observation = await observe(desktop, target.ref.bus, probes, () => insertAtCaret(desktop, target, request.text), { snapshot, until: took, signal });
    // The field's own text says whether the insertion took: other events of the app in the meantime (Firefox
    // renames toolbar buttons and tabs while it starts) are not the typing's effect.
    const now = probes.length > 0 ? await probes[0]!.read().catch(() => undefined) : undefined;
    if (probes.length > 0 && !took([now])) {
      // A field that changed otherwise took part of the text (a field of five characters kept "ababc" of "abc" typed
      // into its "abc"): the text sent again by another rung would add to it, so what it holds is told instead.
      if (held !== undefined && now !== undefined && now !== held) {
        const reason = `${label} holds ${quoteText(now)} where it held ${quoteText(held)}: not the typed text added at one place (the app took part of it, or changed it); read it with get_window_state before typing again`;
        return actionOutcome({ path: 'x11_atspi', mode, observation: { ...observation, changed: false, evidence: [] }, refuted: true, escalation: { recommended: 'px', reason } });
      }
      // Gecko answers EditableText on a web page's fields and changes nothing: the page's node (unless it was just
      // tried), then key events, are the next rungs. Key events go where the app's focus is, so the focused field typed
      // into without an element takes them as one named does (focused first): Firefox's page field, clicked into and
      // typed into with no element, read "no effect seen" while the same call with its element_index typed.
      const page = pageFirst ?? (await throughPage());
      if ('outcome' in page) return page.outcome;
      const keyed = await keysInto(page);
      if (keyed) return keyed;
      return actionOutcome({ path: 'x11_atspi', mode, observation: { ...observation, changed: false, evidence: [] }, refuted: true });
    }
    return actionOutcome({ path: 'x11_atspi', mode, observation });
  }

  const app = target?.ref.bus;
  // The field's own text is the read-back when it has one: then the previous window gets its place back while the
  // read-back waits for the app to work through the keys, which are the X server's by then, handed to the field's
  // window (see inForeground). Other evidence (any event of the app, the window's pixels) would take what the
  // window does on losing the focus for the typing's effect, so there the restore waits for the observation.
  // Keys read back by the field's text need not wait for the window manager to raise the window either: its focus is
  // given directly (see ActivateOptions.focusDirectly). Pixels read back would show the raise.
  const readsText = app !== undefined && holdsText;
  // A field that suggests as it is typed into (a <datalist>'s, an address bar: SUPPORTS_AUTOCOMPLETION) may show its
  // list after its text: the give-back waits for it (see ForegroundOptions.popupGraceMs). Only there: any combo box
  // waited the whole grace for a list that never came (a GTK3 combo box's entry).
  const suggestsAsTyped = readsText && element !== undefined && decodeStateSet(element.live.states).has('STATE_SUPPORTS_AUTOCOMPLETION');
  let typed: SentInput | undefined;
  let missing = false;
  let replaced: string | undefined;
  refuseKeysToNotification(window);
  // The field's focus facts are asked while its window is activated (see readFocusFacts), and so is what the
  // read-back needs from before the keys (see readAhead).
  const facts = element ? focusFactsAhead(desktop, element) : undefined;
  const ahead = readsText ? readAhead(desktop, app, [held]) : undefined;
  // The field's insertions are listened to until the read-back ends (see restoreOnceHandled).
  let stopCounting: (() => void) | undefined;
  const observation = await withForeground(desktop, window, async (x, allSent, factsBefore) => {
    // The field was focused with the activation (see withForeground); its caret is put in place next, outside the
    // observation. A one-line field without the focus takes the text at
    // its end, as in the background (insertAtCaret); a real End key in the same stream as the text puts the caret
    // there, where one set through accessibility reaches a Gecko page after the first keys: typed into a fresh page's
    // "carpe diem", "ok" went in at its start, and so it did in a GTK3 entry whose app had left its caret there. Text
    // selected in it is left for the keys to replace, as a person's typing does (a ctrl+a before the typing).
    // The End key is not held (a key's default 20 ms hold put the first character that much later, as the typing
    // below holds none).
    // A multi-line field takes a Return as a line break, so what it gained can be set beside what was typed. Its states
    // come with the focus facts, asked during the activation; a focused element without them is asked now.
    const states = readsText ? (factsBefore?.states ?? (await liveStates(desktop, target!.ref).catch(() => undefined))) : undefined;
    replaced = replacedSelection(factsBefore, held, label);
    const multiLine = states?.has('STATE_MULTI_LINE') === true;
    // An empty field has no end to go to: the End key's round trips put the first character 2 to 7 ms later.
    if (factsBefore && oneLineUnfocused(factsBefore.states) && !factsBefore.selected && held !== '') await pressCombination(x, 'End', { holdMs: 0 });
    // No hold between a key's press and its release: XTEST delivers both in order either way (as `xdotool type
    // --delay 0` sends them), and a timer per key (a millisecond or more, longer on a busy machine) made 100
    // characters cost over 100 ms.
    // The field's insertions tell the pacing how far the app got (see pacing.ts), and when it has handled every key:
    // only then does the window active before get its place back, so that a popup the last keys opened (an editor's
    // word list) is seen open and keeps this window active (see withForeground). Given back as soon as the keys were
    // sent, Geany's word list closed as its window lost the focus, before the agent could pick from it.
    let handled = 0;
    const reported = new NextChange<true>();
    let keysSent = false;
    const insertions = [...expected].length + (multiLine ? (request.text.match(/\n/g) ?? []).length : 0);
    const restoreOnceHandled = () => {
      if (keysSent && handled >= insertions) allSent();
    };
    const counting = readsText
      ? await (await desktop.atspi()).events
          .listen((event) => {
            const inserted = insertedInto(target!.ref, event);
            if (inserted === 0) return;
            handled += inserted;
            reported.notify(true, true);
            restoreOnceHandled();
          })
          .catch(() => undefined)
      : undefined;
    stopCounting = () => {
      counting?.();
      reported.close();
    };
    const reports = { count: () => handled, next: (timeoutMs: number) => reported.next(timeoutMs) };
    const type = async () => {
      try {
        typed = await typeTextReally(x, request.text, { delayMs: request.delayMs, holdMs: 0, signal, ...(counting ? { handled: reports } : {}) });
      } finally {
        keysSent = true;
      }
      if (readsText) restoreOnceHandled();
    };
    // Without an accessible target the window's pixels are the read-back.
    if (!app) return observePixels(desktop, window, type, signal);
    if (!readsText) {
      const tree = async () => withNotes(notAField, await observe(desktop, app, probes, type, { snapshot, settleMs: 1000, signal, quietMs: terminalQuiet(snapshot, target) }));
      // A surface the app draws itself (a terminal widget that paints its screen: QTerminal) reports nothing of what
      // the keys did there: a command typed into it ran and read "no effect seen". Its pixels are read back too, as
      // a click's on such a surface are.
      const surface = await drawnSurfaceFilling(desktop, window, target!.ref);
      return surface ? withSurfacePixels(desktop, window, surface, tree) : tree();
    }
    // The focus leaving with the window's activation during the read-back is the restore's doing, not the typing's.
    const restoresFocus = (event: AccessibilityEvent) => event.kind === 'StateChanged' && event.detail === 'focused';
    const returns = onlyReturns(request.text);
    const before = returns ? await probes[0]!.read().catch(() => undefined) : undefined;
    const until = typedUntil(request.text, arrived, before);
    const observed = await observe(desktop, app, probes, type, { snapshot, settleMs: 1000, until, ignore: restoresFocus, target: target!.ref, signal, readOn: lastInserted(target!.ref, expected), ...(ahead ? { ahead } : {}) });
    if (observed.cancelled || typed?.cancelled) return observed;
    // An editor takes the keys and changes what they type (indentation after a Return, a closed bracket, a completion
    // list's choice inserted by a Return): said as such, not as a Return that acted on the text, nor as text missing.
    // A Return that moved the keyboard focus to another object (LibreOffice Writer makes each paragraph an object of its
    // own, and the caret goes into the new one) took the rest of the text there: the field holding only the first
    // line is no editor's reshaping. "Quarterly Report\nThe first paragraph" read 'a Return typed on line 1 made no
    // line break' and 'gained "Quarterly Report"', with both paragraphs in the document.
    if (multiLine && !returns) {
      const focusNow = (await desktop.atspi()).events.focusedIn(target!.ref.bus);
      if (focusNow !== undefined && focusNow !== target!.ref.path) {
        const moved = `${label} took the keys up to a Return, which moved the keyboard focus to another object the app made (a new paragraph or row): the rest of the text went there; read the window to see where`;
        return { ...observed, changed: true, evidence: [moved, ...observed.evidence] };
      }
    }
    if (multiLine && !returns) {
      const reshaped = await reshapedTyping(probes[0]!, request.text, held, label, target!.interfaces.includes('EditableText'));
      if (reshaped) return { ...observed, changed: true, evidence: [...reshaped, ...observed.evidence] };
    }
    // Part of the text is not the text: unless a cancel cut it short, the rest must have arrived.
    // The read-back that met the wait needs no second read.
    if (!returns && observed.met) return observed;
    const after = await probes[0]!.read().catch(() => undefined);
    if (!returns && arrived([after])) return observed;
    // The text arriving would have returned above: a field here does not show it.
    const acted = returnActed(request.text, label, observed, false, { before: held, after });
    if (acted) return acted;
    missing = true;
    return { ...observed, changed: false, listening: true };
  }, { popupGraceMs: suggestsAsTyped ? suggestionsGraceMs : 0, focusDirectly: readsText, sentOnceHandled: readsText, ready: request.ready, ...(menusChecked ? { menusChecked } : {}), ...(element ? { focus: { element, facts } } : {}) })
    .then((observed) => (replaced && observed.changed ? { ...observed, evidence: [...observed.evidence, replaced] } : observed))
    .finally(() => stopCounting?.());
  const escalation = missing
    ? {
        recommended: 'px' as const,
        reason: onlyReturns(request.text)
          ? `the Return press was sent and ${label} reported no change (what else the app changes meanwhile is not counted); check the window with get_window_state before pressing it again`
          : `the keys were sent but the text of ${label} does not show all of the typed text added; read the field with get_window_state before typing again`,
      }
    : undefined;
  return actionOutcome({ path: 'key_events_fg', mode, observation, sent: typed, ...(escalation ? { escalation } : {}), ...(missing && !onlyReturns(request.text) ? { refuted: true as const } : {}) });
}

/**
 * The evidence line for text the field had selected when real keys began, which the first key replaced as a person's
 * typing does: zenity opens its entry with its text selected, and " World" typed into "Hello" made " World", where
 * only the before and after said so.
 */
function replacedSelection(facts: FocusFacts | undefined, held: string | undefined, label: string): string | undefined {
  const selected = facts?.selected;
  if (!selected || selected.embedded || selected.end <= selected.start || held === undefined) return undefined;
  const words = [...held].slice(selected.start, selected.end).join('');
  return words ? `the keys replaced the text selected in ${label}, ${quoteText(words)}, as typing over a selection does` : undefined;
}
