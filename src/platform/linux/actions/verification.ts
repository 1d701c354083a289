import { windowName } from '../../windows.js';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { plainText, readableName, repeatedLabel, startsWithDrawnMarker, withoutDisclosureMarker, withoutListMarker } from '../../../cup/atspi/names.js';
import { cupStateOf, decodeStateSet } from '../../../cup/atspi/states.js';
import { stateChangesText } from '../../../cup/diff-text.js';
import { oneLine, partingQuoteStart, quote, textChange } from '../../../cup/text-change.js';
import { treeNumber } from '../../../cup/shown-number.js';
import { isWordlessOnly, normaliseWhitespace } from '../../../cup/text.js';
import { OBJECT_REPLACEMENT } from '../../../cup/embedded-objects.js';
import { atspiRoleName, cupRoleFor } from '../../../cup/atspi/roles.js';
import type { CupRole } from '../../../cup/types.js';
import { shownNumber, showsValueNumber, valueWords } from '../../../cup/atspi/convert.js';
import { ATSPI_ROLE } from '../../../cup/atspi/constants.js';
import { quirksFor } from '../atspi/toolkit.js';
import { childPath, type AccessibilityEvent, type EventRecorder } from '../atspi/event-monitor.js';
import { untilBornDialogFilled } from './born-dialog.js';
import { pageLoadMs, untilPageLoaded } from './page-load.js';
import { ROOT_PATH, type ObjectRef } from '../atspi/object-ref.js';
import type { AtspiClient } from '../atspi/client.js';
import { ancestry, caretOffset, type KnownAncestry, children, indexInParent, parentOf, readAttributes, readDescription, readName, readRole, readStates, readText, readTextAtCaret, readValue, selectedChoiceName, shownTextBetween, textSelection } from '../atspi/operations.js';
import { UnansweredActionError } from '../atspi/unanswered-action.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import type { ClientWindow } from '../windows.js';
import { goneLine, newWindowOf, windowOpenedLine, type NewWindow, type Observation } from '../../action-outcome.js';
import type { SnapshotElement, SnapshotRef } from '../../targets.js';
import { snapshotTwin } from './snapshot-twin.js';
import { atspiElement, objectIdentity } from '../element-handle.js';
import { liveStates } from './live-states.js';
import { fieldIdentity, replacementOf, type FieldIdentity } from './replaced-field.js';
import { processesStartedBy } from '../started-processes.js';
import { isAlive } from '../desktop/processes.js';
import { changeOf, ownChanges } from './own-changes.js';
import { wakeIdleHandlers } from './idle-wake.js';
import { popupCloseMs, popupHolding, stillShowing } from './popup-closing.js';
import { terminalQuiet, terminalQuietLimitMs } from './terminal-quiet.js';
import { DBusError, DBusTimeoutError } from '../dbus/index.js';
import { ToolError } from '../../../errors.js';

/**
 * What a probe reads, from its label: "[e13]" of "text of [e13]", of "text selected in [e13]" and of "formatting of the
 * text selected in [e13]" alike (the words before the object, lower-case, ending in "of" or "in"). Only the first "of"
 * was taken off, and a field's editor closed by a Return read 'the focused element, text selected in the focused
 * element, the text selected in the focused element is gone'.
 */
function probeSubject(label: string): string {
  return label.replace(/^(?:[a-z ]*? (?:of|in) )+/, '');
}

/** One fact read back before and after an action, e.g. "text of [e13]". */
export interface Probe {
  label: string;
  read(): Promise<string | undefined>;
  /** The evidence line when the two reads differ; without it, `<label>: "<before>" → "<after>"`. */
  describe?(before: string, after: string): string;
  /** Whether a value says the object is pressed (CUP's pressed): one the action left pressed is waited on to be released. */
  pressed?(value: string): boolean;
  /**
   * The object read and which of its facts (its text, its value, its states): when the probe's line tells a change, the app's
   * own events about that fact of that object say it again, and are left out.
   */
  reads?: { ref: ObjectRef; fact: 'text' | 'value' | 'states' };
  /** Told only when no other probe's reading changed (the caret moves with any text typed or deleted, which that line tells). */
  secondary?: true;
}

/** An object's AT-SPI role by name, read once when first needed (a toggle button's CHECKED is CUP's pressed). */
function roleOnce(desktop: LinuxDesktop, ref: ObjectRef, role: number | undefined): () => Promise<string> {
  let name: Promise<string> | undefined = role === undefined ? undefined : Promise.resolve(atspiRoleName(role));
  // An unreadable role only loses the toggle button's word: the states are still read.
  return () => (name ??= desktop.atspi().then((client) => readRole(client, ref)).then(atspiRoleName, () => ''));
}

/** The CUP state an AT-SPI state word ("checked") is on an object of that role (and CUP role, where known); the word itself when CUP has none. */
function cupName(state: string, roleName: string, cupRole?: string): string {
  return cupStateOf(`STATE_${state.toUpperCase()}`, roleName, cupRole) ?? state;
}

/**
 * Whether one state of the object is set, said in CUP terms as a diff line says it ("+chk", "-sel"); `cupRole`, the
 * role the tree gave it, where the word depends on it (a switch's CHECKED is checked, a toggle button's pressed).
 */
export function stateProbe(desktop: LinuxDesktop, ref: ObjectRef, label: string, state: string, role?: number, cupRole?: string): Probe {
  const roleName = roleOnce(desktop, ref, role);
  let cup = state;
  return {
    label: `${state} state of ${label}`,
    read: async () => {
      const [present, name] = await Promise.all([liveStates(desktop, ref), roleName()]);
      // A destroyed object holds no state: Gecko's answers DEFUNCT alone, which read as its check taken away (Escape
      // closing a page's menu read 'states of the focused element: -chk' of its checked item, destroyed with the menu).
      if (present.has('STATE_DEFUNCT')) return goneMark;
      cup = cupName(state, name, cupRole);
      return String(present.has(`STATE_${state.toUpperCase()}`));
    },
    describe: (_before, after) => (after === goneMark ? goneLine(label) : `states of ${label}: ${after === 'true' ? stateChangesText([cup], []) : stateChangesText([], [cup])}`),
    reads: { ref, fact: 'states' },
  };
}

/** Several states of one object in one read (one call instead of one per state), as CUP states (`cupRole` as for stateProbe). */
export function statesProbe(desktop: LinuxDesktop, ref: ObjectRef, label: string, states: readonly string[], role?: number, cupRole?: string): Probe {
  const roleName = roleOnce(desktop, ref, role);
  return {
    label: `states of ${label}`,
    read: () =>
      unlessGone(desktop, ref, async () => {
        const [present, name] = await Promise.all([liveStates(desktop, ref), roleName()]);
        return states.filter((state) => present.has(`STATE_${state.toUpperCase()}`)).map((state) => cupName(state, name, cupRole)).join(',');
      }, false),
    pressed: (value) => value.split(',').includes('pressed'),
    describe: (before, after) => {
      if (after === goneMark) return goneLine(label);
      const [was, now] = [new Set(before.split(',').filter(Boolean)), new Set(after.split(',').filter(Boolean))];
      return `states of ${label}: ${stateChangesText([...now].filter((state) => !was.has(state)), [...was].filter((state) => !now.has(state)))}`;
    },
    reads: { ref, fact: 'states' },
  };
}

/**
 * How much of a field's text its probe reads: whole up to this length (a reading of 150,000 characters takes a few
 * milliseconds), so the change shows where it is; beyond, the part around the caret (readTextAtCaret).
 */
const probedTextLength = 1_000_000;

/**
 * A field's text: what typing and keys change, also at the end of a text longer than a tree reading holds. A field
 * the app replaced with a new one that took the focus (see replaced-field.ts) is read in its replacement from then on.
 */
export function textProbe(desktop: LinuxDesktop, ref: ObjectRef, label: string): Probe & { latest(): string | undefined } {
  let field = ref;
  let identity: Promise<FieldIdentity | undefined> | undefined;
  let latest: string | undefined;
  const read = async () => {
    const client = await desktop.atspi();
    // Known before the field may go: a destroyed object has no role or name left to match its replacement by.
    identity ??= fieldIdentity(client, ref).catch(() => undefined);
    // An app that does not answer is not asked again; any other failure may be a field that is gone.
    const [known, text] = await Promise.all([identity, readTextAtCaret(client, field, probedTextLength).catch((error: unknown) => (error instanceof DBusTimeoutError ? Promise.reject(error) : undefined))]);
    if (text) return text;
    const replacement = known && (await replacementOf(desktop, field, known));
    if (replacement) field = replacement;
    if (text !== undefined && !replacement) return (await liveStates(desktop, field).catch(() => undefined))?.has('STATE_DEFUNCT') ? goneMark : text;
    return readTextAtCaret(client, field, probedTextLength);
  };
  return {
    label: `text of ${label}`,
    // Gecko's destroyed object answers "" for its text: gone, not emptied (its menu item's 'text: "Word wrap" → ""').
    describe: (before, after) => (after === goneMark ? goneLine(label) : `text of ${label}: ${textChange(before, after)}`),
    read: () => read().then((text) => (latest = text)),
    /** The text the last read found (the read-back that ended an action's wait), without asking again. */
    latest: () => latest,
    reads: { ref, fact: 'text' },
  };
}

/** Up to this offset the caret is told by line and column (the text before it is read); further in by its offset. */
const caretLinesRead = 200_000;

/**
 * Where the caret is in an object's text, "line 3, column 5" (from 1): what a key that only moves it changes (Home,
 * End, the arrows, an editor's go-to-line), where nothing else may change: End and Home in gedit's document read
 * "no effect seen". Secondary: typing and deleting move it too, and the text's line says what they did.
 */
export function caretProbe(desktop: LinuxDesktop, ref: ObjectRef, label: string): Probe {
  return {
    label: `caret of ${label}`,
    read: async () => {
      const client = await desktop.atspi();
      const at = await caretOffset(client, ref);
      if (!(at >= 0)) return undefined;
      if (at > caretLinesRead) return `offset ${at}`;
      const lines = (await readText(client, ref, at)).split('\n');
      return `line ${lines.length}, column ${[...lines[lines.length - 1]!].length + 1}`;
    },
    describe: (before, after) => `caret of ${label} moved: ${before} → ${after}`,
    reads: { ref, fact: 'text' },
    secondary: true,
  };
}

/**
 * The text selected in an object ("0..11", or "none"): what a select-all changes in a field, which no text, state or
 * focus says (Gecko's page field behind another window: ctrl+a selected all and read as no effect).
 */
export function selectionProbe(desktop: LinuxDesktop, ref: ObjectRef, label: string): Probe {
  // What the last read found selected, told beside its offsets: a double click that selected "gamma" read only "11..16".
  let selected = '';
  return {
    label: `text selected in ${label}`,
    read: async () => {
      const client = await desktop.atspi();
      const range = await textSelection(client, ref);
      selected = range ? await shownTextBetween(client, ref, range.start, range.end, selectedTextRead).catch(() => '') : '';
      return range ? `${range.start}..${range.end}` : 'none';
    },
    describe: (before, after) => `text selected in ${label}: ${quote(before)} → ${quote(after)}${selected ? ` (${quote(selected)})` : ''}`,
  };
}

/** How much of the text selected is read for an evidence line, which quotes up to 80 characters. */
export const selectedTextRead = 81;

export function valueProbe(desktop: LinuxDesktop, ref: ObjectRef, label: string): Probe {
  // Read as the app holds it (what `until` compares with), told as the tree writes it: the diff's '~ [e134] sb value:
  // "0" → "972.6"' was 'value of the scroll position: "0" → "972.5999999999999"' in the evidence above it. A control
  // that writes words for its number (a page's month slider, aria-valuetext "May") is told by them, as the diff is: its
  // evidence read 'value of [e177]: "5" → "9"' above the diff's 'value: "May" → "September"'.
  const words = new Map<string, string>();
  const written = (read: string) => words.get(read) ?? (read !== '' && Number.isFinite(Number(read)) ? treeNumber(Number(read)) : read);
  return {
    label: `value of ${label}`,
    read: async () => {
      const client = await desktop.atspi();
      const [range, attributes] = await Promise.all([readValue(client, ref), readAttributes(client, ref).catch(() => undefined)]);
      const held = String(range.current);
      const shown = valueWords(attributes, range);
      if (shown) words.set(held, shown);
      return held;
    },
    describe: (before, after) => `value of ${label}: ${textChange(written(before), written(after))}`,
    reads: { ref, fact: 'value' },
  };
}

/**
 * The tool tips the events show appearing, each by its text: for a hover they are the effect sought. GTK3 leaves its
 * tool tip window out of the application's children, so the events are where it is found; an object's last
 * showing or visible event says where it ended.
 */
async function toolTipLines(desktop: LinuxDesktop, events: readonly AccessibilityEvent[]): Promise<string[]> {
  const last = new Map<string, AccessibilityEvent>();
  for (const event of events) if (showingChange(event)) last.set(`${event.sender}${event.path}`, event);
  const shown = [...last.values()].filter((event) => event.detail1 !== 0);
  const texts = await Promise.all(shown.map((event) => shownText(desktop, { bus: event.sender, path: event.path })));
  return [...new Set(texts)].map((text) => `tool tip shown: ${quote(text)}`);
}

const showingChange = (event: AccessibilityEvent) => event.kind === 'StateChanged' && (event.detail === 'showing' || event.detail === 'visible');

/** A tool tip's text: its own name, else the first name among the few objects it holds (GTK3's label). */
async function shownText(desktop: LinuxDesktop, ref: ObjectRef, depth = 0): Promise<string> {
  const client = await desktop.atspi();
  const name = await readName(client, ref).catch(() => '');
  if (name || depth >= 3) return name;
  for (const child of (await children(client, ref).catch(() => [])).slice(0, 8)) {
    const text = await shownText(desktop, child, depth + 1);
    if (text) return text;
  }
  return '';
}

/**
 * What a probe reads once its object is destroyed (removed from the page with what held it): Blink answers "" for
 * its name, or nothing at all, which is no rename and no unreadable state.
 */
export const goneMark = '\u0000gone';

/**
 * The probe's reading, or goneMark when the object no longer exists: the application answers that it has no such
 * object (an error reply, not a timeout), or says it is defunct.
 */
async function unlessGone(desktop: LinuxDesktop, ref: ObjectRef, read: () => Promise<string>, emptyMayMeanGone: boolean): Promise<string> {
  let failure: unknown;
  const value = await read().catch((error: unknown) => void (failure = error));
  if (value !== undefined && !(emptyMayMeanGone && value === '')) return value;
  const states = await liveStates(desktop, ref).catch((error: unknown) => {
    if (error instanceof DBusError && !(error instanceof DBusTimeoutError)) return undefined;
    throw error;
  });
  if (!states || states.has('STATE_DEFUNCT')) return goneMark;
  if (value === undefined) throw failure;
  return value;
}

const stoppedAnsweringStart = 'the application did not answer';
const stoppedAnsweringLine = (subjects: readonly string[], timeoutMs: number) =>
  `${stoppedAnsweringStart} when ${[...new Set(subjects)].join(', ')} was read back (within ${timeoutMs} ms): it was hung or busy, which says nothing of the action's effect; check with get_window_state before acting again`;

export function nameProbe(desktop: LinuxDesktop, ref: ObjectRef, label: string): Probe {
  return {
    label: `name of ${label}`,
    // Read as the tree names it, so the line speaks of the name the agent saw ("Start" → "Pause", not GTK 4.8's "Start Start").
    read: async () => unlessGone(desktop, ref, async () => nameAsTreeReads(await desktop.atspi(), ref), true),
    describe: (before, after) => (after === goneMark ? goneLine(label) : `name of ${label}: ${quote(before)} → ${quote(after)}`),
  };
}

export interface ObserveOptions {
  /** How long to wait for a first sign of change (with `until`: since the probes' last change). */
  settleMs?: number;
  /**
   * How long to wait for the first sign at all, when that is longer than settleMs: an app on a loaded machine may be
   * slow to start on input it then goes through quickly. Web engines, and apps with a modal dialog up, get 1.5 s
   * unless told (see observe).
   */
  firstSignMs?: number;
  /** After the first sign, how long at most to keep collecting the rest of the burst (it ends when the events pause). */
  graceMs?: number;
  /**
   * How long the app's events must pause for the burst to be over, when longer than a toolkit's few ms (a terminal's
   * program answers after the keys: see terminal-quiet.ts); the burst is then collected for terminalQuietLimitMs at most.
   * Without it, a window the snapshot shows holding a terminal gets the terminal's.
   */
  quietMs?: number;
  /** Event kinds that our own delivery causes (e.g. focus moves when we grab focus) and that prove nothing. */
  ignore?: (event: AccessibilityEvent) => boolean;
  snapshot?: SnapshotRef;
  /** Keep waiting (up to settleMs) until the probes' values satisfy this, e.g. "the typed text has arrived". */
  until?: (values: readonly (string | undefined)[]) => boolean;
  /** The caller's cancel: the wait for the effect ends when it aborts, with what was read by then. */
  signal?: AbortSignal;
  /** The action's target: whether it reported a change of its content is told apart (Observation.targetReported). */
  target?: ObjectRef;
  /** A hover: a tool tip appearing is the effect sought, not hover noise (see eventRoles), and is told by its text. */
  toolTips?: boolean;
  /**
   * With `until`: an event after which the condition is likely met (the last of the typed characters reported
   * inserted), so the probes are read at once instead of when the app's events pause.
   */
  readOn?: (event: AccessibilityEvent) => boolean;
  /**
   * The command is one that opens a window (see opensWindow): a window of the app opening is waited for, up to
   * announcedWindowMs after the action's first effects, even when the app has not announced it yet.
   */
  opensWindow?: boolean;
  /**
   * The gesture opens what it acts on (a double click): a program the app starts is named beside whatever else the
   * action changed. A file manager's double click on a file selects it and starts the program that shows it, whose
   * window comes later: told of the selection alone, an agent would open the file again.
   */
  opensItems?: boolean;
  /**
   * What the action ends with is its effect, and comes after it (a drag's drop): signs heard while it ran (the drag's
   * start, which a page may show) do not end the wait for one after it, up to the first-sign limit; both are
   * evidence. An object the snapshot does not hold that is destroyed by the end (the image Gecko makes for a drag,
   * in a window of its own, and destroys at the drop) was the action's own passing apparatus: what it did is none.
   */
  signAfterAct?: boolean;
  /**
   * The object acted on: when a popup that is showing holds it (a popover's button), the popup's closing, which
   * the toolkit may say after the action's own events (see popup-closing.ts), is waited for once the effect is seen.
   */
  inPopup?: ObjectRef;
  /** What is read before acting, asked earlier by a caller that had other waiting to do first (see readAhead). */
  ahead?: Promise<ReadAhead>;
  /** Awaited with the reads before acting, before `act` (see PointerOptions.ready): a rejection means nothing is sent. */
  ready?: Promise<void>;
}

/** The probes' values and the app's windows before an action, as observe reads them before acting. */
export interface ReadAhead {
  before: (string | undefined)[];
  listed: ClientWindow[] | undefined;
  /** The app's events sent before the reading were all heard (see heardUpTo): observe forgets them without asking again. */
  heardUpTo?: true;
}

/**
 * What observe reads before acting, from the probes' values the caller read already (real typing reads its field's
 * text to choose its path) and the app's windows listed now: real typing lists them before the window's activation,
 * whose wait for the window manager the listing then shares, instead of between the activation and the first key.
 * The app is pinged then too (heardUpTo): after the activation it answers only once done with its focus-in, and the
 * first key waited for that answer (1 to 5 ms). What the app sends between the ping and the keys is the activation's
 * doing (focus, activation: ignored or noise) or the focusing's, whose calls the app answers after their events.
 * Never rejects.
 */
export async function readAhead(desktop: LinuxDesktop, app: string, before: (string | undefined)[]): Promise<ReadAhead> {
  const client = await desktop.atspi().catch(() => undefined);
  const pid = client ? await client.pidOf(app).catch(() => 0) : 0;
  const [listed] = await Promise.all([appClientWindows(desktop, pid), client && heardUpTo(client, app)]);
  return { before, listed, ...(client ? { heardUpTo: true as const } : {}) };
}

const maxEvidence = 6;

/** The events by which an object reports a change of its content (text, value, name, children). */
const contentEvents = new Set(['TextChanged', 'PropertyChange', 'ChildrenChanged']);

/**
 * Events that are never an action's effect: a window gaining or losing activation is what foreground
 * delivery itself does, and GTK4 re-announces every box's orientation whenever it lays out.
 */
function isNoise(event: AccessibilityEvent, placesTellShowing = false): boolean {
  // A new size or place is layout, which any change of content brings along; except where it is all the toolkit
  // says of what it showed, hid or added (placesTellShowing, see layoutLine).
  if (event.kind === 'BoundsChanged') return !placesTellShowing;
  if (event.kind === 'Activate' || event.kind === 'Deactivate') return true;
  // GTK3 binds an accessible object to its widget with a 'widget' property change and DEFUNCT cleared: an object
  // being made, which its parent's child-added tells where it matters; and it switches HAS_TOOLTIP as a widget's
  // tool tip is set, which shows nothing. A menu opened in Meld or Gucharmap filled the evidence with these.
  if (event.kind === 'PropertyChange' && event.detail === 'widget') return true;
  if (event.kind === 'StateChanged' && (event.detail === 'has-tooltip' || (event.detail === 'defunct' && event.detail1 === 0))) return true;
  return event.kind === 'StateChanged' && (event.detail === 'active' || event.detail === 'horizontal' || event.detail === 'vertical');
}

/**
 * The line for objects the action only placed anew. GTK 4.8 announces what it shows, hides or adds by its new place
 * alone (a stack's page switched, a revealer opened, a list's new row: no SHOWING, no child added): Clocks' timer
 * started with nothing but its list's new bounds, and the click was reported as no effect.
 */
function layoutLine(count: number): string {
  return `${count} object${count === 1 ? '' : 's'} moved, resized, shown or hidden (the toolkit says no more of what it shows)`;
}

/**
 * The roles of the objects that sent events during an action, for two rules. A tool tip shows and hides as the
 * pointer passes (real input moves it there, and a press hides one), so what it does is hover, never an action's
 * effect: a click on a disabled button was once confirmed by its tool tip hiding. And a button left pressed is
 * mostly still in its press animation (see pressReleaseMs). Objects of the window's snapshot have their role there
 * (a tool tip, a window of its own, never is one); the others are asked once each.
 */
/** State changes whose meaning depends on the object's role: shown or hidden (a tool tip's), checked (a toggle button's pressed). */
const roleMatters = new Set(['showing', 'visible', 'iconified', 'checked']);

function eventRoles(desktop: LinuxDesktop, snapshot: SnapshotRef | undefined) {
  const known = new Map([...(snapshot?.elements.values() ?? [])].map((element) => [atspiElement(element.handle).path, atspiElement(element.handle).atspiRole]));
  const asked = new Map<string, Promise<void>>();
  const roles = new Map<string, number>();
  const key = (event: AccessibilityEvent) => `${event.sender}${event.path}`;
  const roleOf = (event: AccessibilityEvent) => known.get(event.path) ?? roles.get(key(event));
  return {
    isHover: (event: AccessibilityEvent) => roleOf(event) === ATSPI_ROLE.TOOL_TIP,
    /**
     * Whether an object the events name was left pressed: its last PRESSED event (or CHECKED, on a toggle button,
     * where it is CUP's pressed) turned it on. Events come on a change, so it was pressed during the action.
     */
    leftPressed(events: readonly AccessibilityEvent[]): boolean {
      const last = new Map<string, boolean>();
      for (const event of events) {
        const pressing = event.detail === 'pressed' || (event.detail === 'checked' && roleOf(event) === ATSPI_ROLE.TOGGLE_BUTTON);
        if (event.kind === 'StateChanged' && pressing) last.set(key(event), event.detail1 !== 0);
      }
      return [...last.values()].some(Boolean);
    },
    /**
     * Learns the roles of the objects `events` name that the rules may concern (not known or asked about before):
     * those shown or hidden (a tool tip is) or checked (a toggle button is). The others cost no call.
     */
    async sortOut(events: readonly AccessibilityEvent[]): Promise<void> {
      for (const event of events) {
        if (event.kind !== 'StateChanged' || !roleMatters.has(event.detail) || known.has(event.path) || asked.has(key(event))) continue;
        const ref = { bus: event.sender, path: event.path };
        asked.set(
          key(event),
          desktop
            .atspi()
            .then((client) => readRole(client, ref))
            .then((role) => void roles.set(key(event), role), () => undefined),
        );
      }
      await Promise.all(asked.values());
    },
  };
}

/**
 * A browser's own controls around its pages (toolbar, tabs, address bar) as the snapshot holds them: its objects
 * outside every web document. They follow the browser's own course (Firefox enables Reload a moment after a page
 * has loaded, with nothing in between), so a change of theirs alone does not end the wait for what an action on a
 * page did: a click on the page's button was "confirmed" by Reload while the alert it opened came after the read.
 * Objects the snapshot does not hold (a dialog just opened) are not among them.
 */
function browserChrome(snapshot: SnapshotRef | undefined): Set<string> {
  const chrome = new Set<string>();
  if (!snapshot) return chrome;
  const inPage = new Map<number, boolean>();
  const pageHolds = (index: number): boolean => {
    const known = inPage.get(index);
    if (known !== undefined) return known;
    const element = snapshot.elements.get(index);
    const held = element !== undefined && (atspiElement(element.handle).atspiRole === ATSPI_ROLE.DOCUMENT_WEB || (element.parent !== undefined && pageHolds(element.parent)));
    inPage.set(index, held);
    return held;
  };
  for (const element of snapshot.elements.values()) if (!pageHolds(element.index)) chrome.add(atspiElement(element.handle).path);
  return chrome;
}

/** Objects whose content changed tell more than objects whose states flickered: list them first. */
function weight(events: readonly AccessibilityEvent[]): number {
  return events.some((event) => event.kind === 'TextChanged' || (event.kind === 'PropertyChange' && event.detail.startsWith('accessible-'))) ? 0 : 1;
}

/** The value a range control shows now, as the tree would show it (shownNumber): its Value, text, states and value text read. */
export async function numberShownNow(client: AtspiClient, ref: ObjectRef, role: CupRole): Promise<string | undefined> {
  const [value, text, states, attributes] = await Promise.all([
    readValue(client, ref),
    role === 'spinbutton' ? readText(client, ref, textReadBack).catch(() => undefined) : undefined,
    readStates(client, ref),
    readAttributes(client, ref).catch(() => undefined),
  ]);
  return shownNumber({ value, text, states, attributes }, role);
}

/**
 * Whether every text change of these events inserted or removed embedded objects alone (U+FFFC: Gecko's children
 * added or made anew): the children changed, as their own lines and the diff say, not the object's words. A click
 * that opened a page's menu read 'listitem "Cell": text is now "Cell• \n• \n• "', its new menu's items as bullets, and
 * one that redrew an indicator 'region: text is now " Edit cell"', of the unnamed box around it.
 */
function changedByChildrenOnly(events: readonly AccessibilityEvent[]): boolean {
  const edits = events.filter((event) => event.kind === 'TextChanged');
  return edits.length > 0 && edits.every((event) => typeof event.data === 'string' && event.data !== '' && [...event.data].every((character) => character === OBJECT_REPLACEMENT));
}

function named(role: string, name: string): string {
  return `${role}${name ? ` "${name.slice(0, 40)}"` : ''}`;
}

/** An object's name read now, made readable by its toolkit's rules; undefined when it cannot be read. */
async function readableNameNow(client: AtspiClient, ref: ObjectRef, knownRole: number | undefined): Promise<string | undefined> {
  try {
    return await nameAsTreeReads(client, ref, knownRole);
  } catch {
    return undefined;
  }
}

/**
 * An object's name now as the tree names it: made readable (readableName), and, where GTK 4.8 says a button's label
 * twice ("Start Start"), the label once when the object's children hold that label, as the tree takes its content.
 * The evidence told Clocks' stopwatch button, shown "Start" in the tree and "Pause" in the diff, as `name of [e236]:
 * "Start Start" → "Pause Pause"`: a name no selector or reading of the tree gives. Rejects when it cannot be read.
 */
async function nameAsTreeReads(client: AtspiClient, ref: ObjectRef, knownRole?: number): Promise<string> {
  const [name, toolkit, role] = await Promise.all([readName(client, ref), client.toolkitOf(ref.bus).catch(() => undefined), knownRole ?? readRole(client, ref)]);
  const gtk4 = quirksFor(toolkit).gtk4NameQuirks;
  const readable = await withoutDrawnMarker(client, ref, readableName(name, gtk4, atspiRoleName(role)));
  // A control a web engine named by an icon font's picture alone is named by its title, its description (convert.ts):
  // Sphinx's sidebar toggle, whose picture turns from a minus to a plus, read `name is now ""`.
  if (readable === '' && isWordlessOnly(name)) return plainText(await readDescription(client, ref));
  const label = gtk4 ? repeatedLabel(readable) : undefined;
  const tab = gtk4 && role === ATSPI_ROLE.PAGE_TAB;
  if (label === undefined && !tab) return readable;
  const content = await contentNames(client, ref);
  if (label !== undefined) return content === label ? label : readable;
  // GTK 4.8 names every notebook tab "Tab" (in the user's language), and announces that name again as a tab is
  // selected: the tree names tabs that all share a name by their labels (tabsByContent), and a tab click read
  // 'tab "Info": name is now "Tab"'. The same rule: the label, when every tab beside it has this name.
  if (!content || content === readable) return readable;
  const parent = await parentOf(client, ref);
  const siblings = parent ? (await children(client, parent)).slice(0, 50) : [];
  const tabs = (await Promise.all(siblings.map(async (sibling) => ((await readRole(client, sibling)) === ATSPI_ROLE.PAGE_TAB ? readName(client, sibling) : undefined)))).filter((text) => text !== undefined);
  return tabs.length >= 2 && tabs.every((text) => readableName(text, gtk4, 'ROLE_PAGE_TAB') === readable) ? content : readable;
}

/**
 * A name without the disclosure triangle or list marker a browser draws before its words, where the object's states and
 * attributes say it is one, as the tree names it (convert.ts): a page's <summary> toggled in Firefox was told
 * `name of [e76]: "Advanced options" → "▾ Advanced options"`, a name no reading of the tree gave. Its states and
 * attributes are asked only of a name that starts with such a mark.
 */
async function withoutDrawnMarker(client: AtspiClient, ref: ObjectRef, name: string): Promise<string> {
  if (!startsWithDrawnMarker(name)) return name;
  const [states, attributes] = await Promise.all([readStates(client, ref).catch(() => undefined), readAttributes(client, ref).catch(() => undefined)]);
  const expandable = states !== undefined && decodeStateSet(states).has('STATE_EXPANDABLE');
  return withoutListMarker(withoutDisclosureMarker(name, expandable), attributes);
}

/** The names of an object's first few children, whitespace-normalised, joined: a button's or tab's label as the tree takes it. */
async function contentNames(client: AtspiClient, ref: ObjectRef): Promise<string> {
  // Only the first few children: a button or a tab holds its label (and perhaps an icon), never many.
  const names = await Promise.all((await children(client, ref)).slice(0, 4).map(async (child) => normaliseWhitespace(await readName(client, child))));
  return names.filter(Boolean).join(' ');
}

/** An object's role and name as it reports them now, e.g. 'push button "Close"'; rejects when it is gone. */
export async function roleAndNameNow(desktop: LinuxDesktop, ref: ObjectRef): Promise<string> {
  const client = await desktop.atspi();
  const role = await readRole(client, ref);
  const roleName = atspiRoleName(role).slice('ROLE_'.length).toLowerCase().replaceAll('_', ' ');
  return named(roleName, await nameAsTreeReads(client, ref, role));
}

/**
 * How evidence names an object: its element index when the snapshot has it, else its role and name read now; with
 * the name the snapshot had, when it had the object (what a name change is told against).
 */
export async function elementLabel(
  desktop: LinuxDesktop,
  snapshot: SnapshotRef | undefined,
  ref: ObjectRef,
): Promise<{ label: string; knownName?: string; knownDescription?: string; knownValue?: string; knownStates?: readonly string[]; inSnapshot?: true; gone?: true }> {
  for (const element of snapshot?.elements.values() ?? []) {
    if (atspiElement(element.handle).path === ref.path) return snapshotLabel(element);
  }
  try {
    return { label: `(not in the snapshot) ${await roleAndNameNow(desktop, ref)}` };
  } catch {
    // Gone already (a closed dialog's widgets): its path is all there is to name it by.
    return { label: `object ${ref.path.slice(ref.path.lastIndexOf('/') + 1)}`, gone: true };
  }
}

/** An element of the snapshot as elementLabel tells it: its index, role and name, and what the snapshot knew of it. */
function snapshotLabel(element: SnapshotElement): { label: string; knownName: string; knownDescription: string; knownValue?: string; knownStates: readonly string[]; inSnapshot: true } {
  return {
    label: `[e${element.index}] ${named(element.role, element.name)}`,
    knownName: element.name,
    knownDescription: element.description ?? '',
    knownStates: element.states ?? [],
    ...(element.value !== undefined ? { knownValue: element.value } : {}),
    inSnapshot: true,
  };
}

/**
 * Whether an object's ancestry (its ancestors' paths on its bus, nearest first) ends at an application object other than
 * the bus's registered one (ROOT_PATH); false when that cannot be read.
 */
async function underUnlistedApplication(client: AtspiClient, bus: string, paths: readonly string[]): Promise<boolean> {
  const top = paths.at(-1);
  if (top === undefined || top === ROOT_PATH) return false;
  return (await readRole(client, { bus, path: top }).catch(() => -1)) === ATSPI_ROLE.APPLICATION;
}

/** Whether the object's parent does not list it (no index in it) and it is not showing; false when that cannot be read. */
async function unlistedAndHidden(desktop: LinuxDesktop, ref: ObjectRef): Promise<boolean> {
  try {
    const [index, states] = await Promise.all([indexInParent(await desktop.atspi(), ref), liveStates(desktop, ref)]);
    return index === undefined && !states.has('STATE_SHOWING');
  } catch {
    return false;
  }
}

const topLevelRoles = new Set<number>([ATSPI_ROLE.FRAME, ATSPI_ROLE.WINDOW, ATSPI_ROLE.DIALOG]);

/** Whether a top-level object is named now as the window is (the same window in another tree); false when unreadable. */
async function twinOfWindow(client: AtspiClient, ref: ObjectRef, window: ObjectRef): Promise<boolean> {
  try {
    const [role, name, windowName] = await Promise.all([readRole(client, ref), readName(client, ref), readName(client, window)]);
    return topLevelRoles.has(role) && name !== '' && name === windowName;
  } catch {
    return false;
  }
}

/** An object destroyed (DEFUNCT set) or handed to another parent: its life in the tree, not what it shows. */
function lifecycleEvent(event: AccessibilityEvent): boolean {
  return (event.kind === 'StateChanged' && event.detail === 'defunct') || (event.kind === 'PropertyChange' && event.detail === 'accessible-parent');
}

/** AT-SPI states whose absence is a CUP state: losing SENSITIVE is gaining disabled. */
const invertedStates: Readonly<Record<string, string>> = { sensitive: 'disabled', enabled: 'disabled', visible: 'hidden', showing: 'offscreen' };

/** Each state's first and last announced value over an action's events, by state. */
function stateEnds(stateEvents: readonly AccessibilityEvent[]): Map<string, { first: boolean; last: boolean }> {
  const ends = new Map<string, { first: boolean; last: boolean }>();
  for (const event of stateEvents) {
    const on = event.detail1 !== 0;
    const known = ends.get(event.detail);
    if (known) known.last = on;
    else ends.set(event.detail, { first: on, last: on });
  }
  return ends;
}

/** The AT-SPI state constant's name a state-changed event's detail stands for: "read-only" is STATE_READ_ONLY. */
function stateConstant(detail: string): string {
  return `STATE_${detail.toUpperCase().replaceAll('-', '_')}`;
}

/**
 * Whether the snapshot showed the object with an AT-SPI state already as an event announces it (`on`): Java announces
 * SHOWING again of what is shown, and such an event is no change. Told only where the snapshot's CUP states say it for
 * sure: a CUP state of its own, or one CUP derives from the state's absence alone (SHOWING's offscreen is also said of
 * an object placed outside its view, so only SHOWING announced on is judged). Undefined when the snapshot cannot tell.
 */
function heldAlready(detail: string, on: boolean, states: readonly string[], roleName: string, cupRole?: string): boolean | undefined {
  const has = (state: string) => states.includes(state);
  if (detail === 'showing') return on ? !has('offscreen') && !has('hidden') : undefined;
  if (detail === 'visible') return on ? !has('hidden') : has('hidden');
  // CUP says disabled only where both SENSITIVE and ENABLED are off: each on alone is told by its absence, and either
  // off by disabled (GTK 4.8 announces a disabled slider insensitive again as the value it shares moves it).
  if (detail === 'sensitive' || detail === 'enabled') return on ? !has('disabled') : has('disabled') ? true : undefined;
  const cup = cupStateOf(stateConstant(detail), roleName, cupRole);
  // Collapsed is also derived (expandable and not expanded): only the states CUP takes as they are are judged.
  return cup && cup !== 'collapsed' ? has(cup) === on : undefined;
}

/**
 * A state's value before the action: as the snapshot showed it, where its CUP states tell it (heldAlready); else the
 * opposite of its first event's, as an event is sent on a change. GTK 4 also announces states that did not change,
 * so a first event is no proof of the value before where the snapshot says otherwise.
 */
function valueBefore(detail: string, first: boolean, states: readonly string[] | undefined, roleName: string, cupRole?: string): boolean {
  const held = states && heldAlready(detail, first, states, roleName, cupRole);
  return held === true ? first : !first;
}

/**
 * The state events that change something: a state every event of which announces it as it was before (announced
 * again, unchanged) is left out, as a name or description announced again unchanged is.
 */
function withoutReannounced(stateEvents: readonly AccessibilityEvent[], states: readonly string[] | undefined, roleName: string, cupRole?: string): AccessibilityEvent[] {
  if (!states) return [...stateEvents];
  const unchanged = new Set(
    [...stateEnds(stateEvents)]
      .filter(([detail, { first }]) => {
        const before = valueBefore(detail, first, states, roleName, cupRole);
        return stateEvents.every((event) => event.detail !== detail || (event.detail1 !== 0) === before);
      })
      .map(([detail]) => detail),
  );
  return stateEvents.filter((event) => !unchanged.has(event.detail));
}

/**
 * A state-changed event in the diff's terms ("+prs", "-foc"); a state CUP has no word for keeps AT-SPI's ("armed on").
 * SHOWING turned on of what the snapshot had hidden is told as the diff tells it, hidden going (where offscreen going is
 * a move): a GTK3 popover's items, hidden with their closed popover in the tree (convert.ts), read "-off" in the
 * evidence as the popover opened and "-hid" in its diff.
 */
function stateEventText(detail: string, on: boolean, roleName: string, knownStates: readonly string[] = [], cupRole?: string): string {
  if (detail === 'defunct' && on) return 'destroyed';
  if (detail === 'showing' && on && knownStates.includes('hidden')) return stateChangesText([], ['hidden']);
  const inverted = invertedStates[detail];
  if (inverted) return on ? stateChangesText([], [inverted]) : stateChangesText([inverted], []);
  const cup = cupStateOf(stateConstant(detail), roleName, cupRole) ?? (detail === 'editable' ? 'editable' : detail === 'read-only' ? 'readonly' : undefined);
  if (!cup) return `${detail} ${on ? 'on' : 'off'}`;
  return on ? stateChangesText([cup], []) : stateChangesText([], [cup]);
}

/**
 * An event the evidence has no words of its own for, in words: AT-SPI's kind split into lower-case words
 * ("SelectionChanged" → "selection changed"), its detail after. Simple Scan's Page Size box read 'value is now "A4",
 * SelectionChanged': the bus's spelling, not the evidence's.
 */
function eventWords(event: AccessibilityEvent): string {
  const words = event.kind.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
  return `${words}${event.detail ? ` ${event.detail}` : ''}`;
}

/** States a button shows while it is pressed (Chromium's own dialog buttons say CHECKED, others PRESSED). */
export const pressLike = new Set(['checked', 'pressed']);

/**
 * Whether the object is a push button that is no toggle (not a toggle button, not checkable): its own pressed or
 * checked state is the press itself, never the click's effect. Chromium's dialog buttons turn CHECKED as they are
 * pressed, also when they ignore the press (a dialog just shown ignores clicks for a moment, against stray double
 * clicks): an alert's OK clicked then was confirmed by its own +chk while the alert stayed open.
 */
export function pushedOnly(role: number, states: ReadonlySet<string>): boolean {
  return role === ATSPI_ROLE.PUSH_BUTTON && !states.has('STATE_CHECKABLE');
}

/**
 * Each state's net change over an action's events, in the diff's terms: the state was as valueBefore tells before the
 * action (the snapshot's, else the opposite of its first event's) and is its last event's after. A state the action
 * took somewhere and back (Gnumeric's Undo item goes sensitive, insensitive, sensitive on one Return) is said "and
 * back": listed one event at a time ("-dis, +dis"), the line read as the opposite of where it ended. A GTK 4 check box
 * a click checks announces CHECKED off, as the snapshot showed it, then on: that is "+chk", not "-chk and back".
 */
function netStateChanges(stateEvents: readonly AccessibilityEvent[], roleName: string, knownStates?: readonly string[], cupRole?: string): string[] {
  return [...stateEnds(stateEvents)].map(([detail, { first, last }]) => {
    const before = valueBefore(detail, first, knownStates, roleName, cupRole);
    // Where it ends is where it began: it went to the other value on the way.
    return last === before ? `${stateEventText(detail, !before, roleName, knownStates, cupRole)} and back` : stateEventText(detail, last, roleName, knownStates, cupRole);
  });
}

/**
 * The state events, with a state they leave where it was before (said "and back") that the object holds otherwise now
 * told as one change to what it holds: Qt announces a tree's cell focused, then not as the tree takes the focus, and the
 * cell still says FOCUSED (a Return that closed an in-place editor read 'cell "Field1": +foc and back' over a diff and a
 * pyatspi reading where it held the focus). The object's states are read only where a state went and came back.
 */
async function asHeldNow(desktop: LinuxDesktop, ref: ObjectRef, stateEvents: readonly AccessibilityEvent[], roleName: string, knownStates?: readonly string[], cupRole?: string): Promise<readonly AccessibilityEvent[]> {
  const back = [...stateEnds(stateEvents)].filter(([detail, { first, last }]) => detail !== 'defunct' && last === valueBefore(detail, first, knownStates, roleName, cupRole)).map(([detail, { last }]) => [detail, last] as const);
  if (back.length === 0) return stateEvents;
  const now = await liveStates(desktop, ref).catch(() => undefined);
  if (!now) return stateEvents;
  // Each such state keeps the one event that turned it to what it holds now.
  const turnedTo = new Map(back.filter(([detail, last]) => now.has(stateConstant(detail)) !== last).map(([detail, last]) => [detail, !last]));
  if (turnedTo.size === 0) return stateEvents;
  const kept = new Set<string>();
  return stateEvents.filter((event) => {
    const to = turnedTo.get(event.detail);
    if (to === undefined) return true;
    if (kept.has(event.detail) || (event.detail1 !== 0) !== to) return false;
    kept.add(event.detail);
    return true;
  });
}

/** How much of a changed object's text is read back for its line (and told against the snapshot's value). */
const textReadBack = 2000;

/** What describeObject gives for an object in another window of the app than the action's. */
const elsewhere = Symbol('in another window');
/** What describeObject gives for an object the agent never saw that is gone by the time it is read back. */
const vanished = Symbol('gone, never seen');
/** A line describeObject gives that is told only when the evidence has no other line. */
interface Minor {
  minor: string;
}

/** What the probes' lines already told of one object: its text changed, and these state changes ("+chk"). */
interface Told {
  text: boolean;
  value: boolean;
  states: Set<string>;
}

/** The text edits (inserts and deletes: where, how long, what) an object announced, in order, as one string ('' for none). */
function textEdits(events: readonly AccessibilityEvent[]): string {
  const edits = events.filter((event) => event.kind === 'TextChanged');
  return edits.length === 0 ? '' : JSON.stringify(edits.map((event) => [event.detail, event.detail1, event.detail2, String(event.data)]));
}

/**
 * Per object (bus and path), what the changed probes' lines said of it, so the line made from the app's events about
 * it does not say it again: a field typed into read 'text of [e5]: "" → "a"' and then '[e5] textbox: text is now "a"',
 * a slider set read 'value of [e4]: "30" → "55"' and then '[e4] slider "Volume": value is now "55"'.
 */
function toldByProbes(probes: readonly Probe[], lines: ReadonlyMap<number, string>): Map<string, Told> {
  const told = new Map<string, Told>();
  for (const [i, line] of lines) {
    const reads = probes[i]!.reads;
    if (!reads) continue;
    const key = `${reads.ref.bus}${reads.ref.path}`;
    const entry = told.get(key) ?? { text: false, value: false, states: new Set<string>() };
    if (reads.fact === 'text') entry.text = true;
    else if (reads.fact === 'value') entry.value = true;
    else for (const change of line.slice(line.lastIndexOf(': ') + 2).split(' ')) entry.states.add(change);
    told.set(key, entry);
  }
  return told;
}

/**
 * Whether an event line's fact is one the probes told: the text (with the caret it moved and, in web engines, the
 * text leaves it rebuilt), or a state change they listed.
 */
function alreadyTold(change: string, told: Told | undefined): boolean {
  if (!told) return false;
  if (told.text && (change.startsWith('text is now ') || change === 'TextCaretMoved' || change === 'child added' || change === 'child removed')) return true;
  // A value the probe read back changed (set_value's 'value of [e4]: "30" → "55"') said already what the app's announcement says.
  if (told.value && change.startsWith('value is now ')) return true;
  return told.states.has(change);
}

/**
 * Whether a renamed object is named by its content, a field inside it whose text the probes told, and its words around
 * it: Gecko names a <label> around its <input> so, and typing "ap" into a search box read '[e104] text "Search fruit":
 * name is now "Search fruit ap"' after 'text of [e105]: "" → "ap"'.
 */
function namedByToldField(snapshot: SnapshotRef | undefined, known: SnapshotElement | undefined, now: string | undefined, toldOf: (ref: ObjectRef) => Told | undefined): boolean {
  if (!snapshot || !known || now === undefined) return false;
  for (const element of snapshot.elements.values()) {
    if (element.parent !== known.index || !element.name || !toldOf(atspiElement(element.handle))?.text) continue;
    if (normaliseWhitespace(now).startsWith(normaliseWhitespace(element.name))) return true;
  }
  return false;
}

/**
 * One line per object the app reported changed: what changed, and what we read back from it now (the
 * event is the app's claim; the read is ours).
 */
async function describeObject(
  desktop: LinuxDesktop,
  events: readonly AccessibilityEvent[],
  snapshot: SnapshotRef | undefined,
  toldOf: (ref: ObjectRef) => Told | undefined,
  inOpenedWindow: (top: ObjectRef) => Promise<boolean>,
  unlisted: Map<string, string>,
  walked: KnownAncestry,
): Promise<string | Minor | typeof elsewhere | typeof vanished | undefined> {
  const first = events[0]!;
  const ref = { bus: first.sender, path: first.path };
  const labelled = await elementLabel(desktop, snapshot, ref);
  // An object made anew for an element the snapshot holds is told as that element, with what its lines told of it.
  const twin = !labelled.inSnapshot && !labelled.gone && snapshot ? await snapshotTwin(desktop, snapshot, ref) : undefined;
  const { label: where, knownName, knownDescription, knownValue, knownStates, inSnapshot } = twin ? snapshotLabel(twin) : labelled;
  const gone = !twin && labelled.gone;
  const told = toldOf(twin ? atspiElement(twin.handle) : ref);
  const client = await desktop.atspi();
  // An object the agent never saw that was only destroyed or moved (a menu's items rebuilt) is nothing to tell; nor
  // is one gone by now, whatever it did on the way (Qt names, then drops, a dozen objects while it builds a file
  // dialog): a line would name it by a number and say its name is now "(unreadable)". Counted, it is still a sign.
  if (!inSnapshot && events.every(lifecycleEvent)) return undefined;
  if (!inSnapshot && gone) return vanished;
  if (!inSnapshot) {
    const { paths, detached } = await ancestry(client, ref, undefined, walked);
    // An object no window holds (Atril keeps a second page entry in the toolbar of its full-screen mode, and sets
    // both to the new page) changed nothing on screen: its events are no evidence of the action's effect.
    if (detached) return undefined;
    // Nor one under a second application object of the app's connection, which the registry does not list: no reading
    // of the app reaches it. Firefox's GTK layer makes a window of its own there for a drag's image and keeps it, and
    // every drag of a card between a page's lists read '(not in the snapshot) window: -hid, iconified off,
    // accessible-parent changed' before what the page did.
    if (await underUnlistedApplication(client, ref.bus, paths)) return undefined;
    // Nor does one its parent does not list among its children while it is not showing: no reading walks to it, and
    // its changes are told by what the tree does show. Chromium keeps its tab's title label so, beside the page tab
    // that is named after the page: a click that retitled the page also read '(not in the snapshot) static "New
    // title": renamed' under the window's and the tab's name lines.
    if (await unlistedAndHidden(desktop, ref)) return undefined;
    // One in a window the action opened is told by that window's line and tree: Mines' Scores button, which opens
    // only its Best Times dialog, also read 'the app changed at least 6 objects in its other windows'.
    const top = paths.length > 1 ? paths.at(-2)! : ref.path;
    if (paths.at(-1) === ROOT_PATH && (await inOpenedWindow({ bus: ref.bus, path: top }))) return undefined;
    // One in another window of the app is counted there.
    const window = snapshot?.elements.get(0);
    if (window && paths.at(-1) === ROOT_PATH && !paths.includes(atspiElement(window.handle).path)) return elsewhere;
    // One that is the window itself as a second tree of the app holds it, the window's line tells: Firefox's GTK layer
    // keeps a frame of its own for each window, under an application object the registry does not list, named as
    // Gecko's frame is, and a click that retitled the page read '(not in the snapshot) frame "New — Mozilla Firefox":
    // renamed' beside the window's own rename.
    if (window && paths.length === 1 && (await twinOfWindow(client, ref, atspiElement(window.handle)))) return undefined;
    // Two objects of one role and name are told apart by neither label: neither is given an index.
    const identity = objectIdentity(ref);
    unlisted.set(where, unlisted.has(where) && unlisted.get(where) !== identity ? '' : identity);
  }
  const changes: string[] = [];
  const kinds = new Set(events.map((event) => (event.kind === 'PropertyChange' ? `${event.kind}:${event.detail}` : event.kind)));
  // The snapshot's role first: a dialog's button is mostly gone with its dialog by the time it is read.
  const known = [...(snapshot?.elements.values() ?? [])].find((element) => atspiElement(element.handle).path === ref.path && atspiElement(element.handle).bus === ref.bus);
  const knownRole = known ? atspiElement(known.handle).atspiRole : undefined;
  // A toolkit that marks an item SELECTABLE only once it is first selected (GTK 4.8: ToolkitQuirks.selectableUnmarked)
  // announces it turning on with the selection: no news of the action, whose selection the selected state tells. A
  // tab click read 'tab "Info": selectable on, -sel' and 'tab "Source": selectable on' besides "+sel".
  const unmarked = events.some((event) => event.kind === 'StateChanged' && event.detail === 'selectable') && quirksFor(await client.toolkitOf(ref.bus).catch(() => undefined)).selectableUnmarked;
  const stateEvents = withoutReannounced(
    events.filter((event) => event.kind === 'StateChanged' && !(unmarked && event.detail === 'selectable' && event.detail1 !== 0)),
    knownStates,
    knownRole !== undefined ? atspiRoleName(knownRole) : '',
    known?.role,
  );
  if (stateEvents.length > 0) {
    const role = stateEvents.some((event) => pressLike.has(event.detail)) ? (knownRole ?? (await readRole(client, ref).catch(() => 0))) : 0;
    // Its states are read only for a push button, the one role the rule is about.
    const pushed = role === ATSPI_ROLE.PUSH_BUTTON && pushedOnly(role, await liveStates(desktop, ref).catch(() => new Set<string>())) ? stateEvents.filter((event) => !pressLike.has(event.detail)) : stateEvents;
    // Gecko tells the focus coming to a list's active descendant (aria-activedescendant) and not its leaving when the
    // page makes another item current at once: a click on "Banana" in a list box without the focus (its script focuses
    // the box, whose current item was "Apple", then makes Banana current) read 'option "Apple": +foc, -sel' beside a
    // diff where Apple had no focus. A focus the events leave gained is told only of an object that holds it now.
    const focusLeft = pushed.filter((event) => event.detail === 'focused').at(-1)?.detail1 === 1 && (await liveStates(desktop, ref).then((states) => !states.has('STATE_FOCUSED'), () => false));
    const counted = focusLeft ? pushed.filter((event) => event.detail !== 'focused') : pushed;
    const roleName = role !== 0 ? atspiRoleName(role) : knownRole !== undefined ? atspiRoleName(knownRole) : '';
    changes.push(...netStateChanges(await asHeldNow(desktop, ref, counted, roleName, knownStates, known?.role), roleName, knownStates, known?.role));
  }
  // Toolkits announce a label set again to the same text (Gnumeric's menu items, on every Return; GTK 4.8 a button
  // it enables): that is no change. The name read now is made readable as the snapshot's was (GTK3 pads menu items'
  // names with spaces, GTK 4.8 names a button "_Replace Replace"), so the two are compared, and told, alike.
  // Java announces a label's new text as visible data changed alone (ToolkitQuirks.renamesAsVisibleData): its name is
  // read back as for a rename, of an object the snapshot holds (the label named as it was then); one it does not is
  // told by the diff, if anything, as that event says nothing of what changed.
  const renamed = kinds.has('PropertyChange:accessible-name') || (inSnapshot && kinds.has('VisibleDataChanged'));
  const name = renamed ? { now: await readableNameNow(client, ref, knownRole) } : undefined;
  const combo = name !== undefined && (knownRole ?? (await readRole(client, ref).catch(() => 0))) === ATSPI_ROLE.COMBO_BOX;
  if (name && combo) {
    // GTK3 and Qt name a combo box by its choice, which the driver shows as its value, naming it by its label: the
    // renaming is the choice changing (set_value's evidence said `name is now "Responsive"` of a box named "Update strategy:").
    // GTK3's name is the first text column of the active row, which is the choice only when that column is the one
    // shown: a model keeping a code or an icon name there told 'value is now "de"' of a box showing German. What it
    // shows is the option its Selection names, read as the tree reads its value.
    const shown = await selectedChoiceName(client, ref).catch(() => undefined);
    const choice = shown === undefined ? name.now : normaliseWhitespace(shown);
    if (choice === undefined || choice !== knownValue) changes.push(`value is now ${quote(choice)}`);
  } else if (name && !inSnapshot && name.now !== undefined) {
    // An object the snapshot did not hold is labelled by its name now, and its name before is unknown: "name is now"
    // said it again, as a change to the same name (Meld's '(not in the snapshot) toggle button "Ln 4, Col 1": name is
    // now "Ln 4, Col 1"' after a click moved its cursor).
    changes.push('renamed (its name before is unknown)');
  } else if (name && (name.now === undefined || name.now !== knownName)) {
    if (!namedByToldField(snapshot, known, name.now, toldOf)) changes.push(`name is now ${quote(name.now)}`);
  } else if (kinds.has('TextChanged') && !changedByChildrenOnly(events) && !(await isTopLevelWindow(client, ref, knownRole))) {
    // Quoted from a little before where the app said it last changed: a long text (a terminal's screen, a document)
    // quoted from its start showed none of what changed. Where the app set the whole text anew (Gecko replaces a page
    // paragraph's text from its start), from where it parts from the text the snapshot held: a page's output line
    // "out: ... budget=500 ..." read 'text is now "out: ... depart= tent=#00ff..."', cut before "budget=750".
    const last = events.filter((event) => event.kind === 'TextChanged').at(-1)!;
    const text = await readText(client, ref, textReadBack).catch(() => undefined);
    const held = knownValue ?? (inSnapshot ? knownName : undefined);
    const from = text === undefined ? 0 : last.detail1 > 60 ? oneLine(text.slice(0, last.detail1 - 20)).length : held ? partingQuoteStart(held, text) : 0;
    // A text set again to what it held (Swing's setText removes and inserts it, announcing both: jEdit's search
    // dialog re-set its Filter field on Replace All) is no change, as a name announced again is not.
    // A text that reads as the name the tree kept, of an object showing no value (a page's <summary>, whose text Gecko
    // gives the disclosure's triangle as it turns), is no change either: 'text is now "▾ Advanced options"' of a button
    // read "Advanced options" before and after.
    const readsAsName = text !== undefined && knownValue === undefined && !!knownName && (await withoutDrawnMarker(client, ref, normaliseWhitespace(text))) === knownName;
    // Nor is an icon font's picture turning into another (Sphinx's sidebar toggle, a minus become a plus), which no
    // reading shows: it read 'text is now ""'.
    const pictureOnly = text !== undefined && knownValue === undefined && isWordlessOnly(text);
    if (!readsAsName && !pictureOnly && (text === undefined || knownValue === undefined || knownValue.length >= textReadBack || text !== knownValue)) changes.push(`text is now ${quote(text, from)}`);
  }
  if (kinds.has('PropertyChange:accessible-value')) {
    // The value the tree shows: the Value's number only for the roles that show it. Another object's number is no value
    // of it: Writer's table cells hold 0 whatever is typed into them, and typing "Name" into one read 'cell "A1": value
    // is now "0"'. Its text is, when it has one (a Calc cell's).
    const atspiRole = knownRole ?? (await readRole(client, ref).catch(() => 0));
    const cupRole = cupRoleFor({ atspiRole: atspiRoleName(atspiRole), named: true, modal: false });
    if (showsValueNumber(cupRole)) {
      // null: unreadable; undefined: no number the tree shows (an empty part of a date field).
      const value = await numberShownNow(client, ref, cupRole).catch(() => null);
      // A value announced again as the snapshot showed it (a split pane's divider left where it was) is no change either.
      if (value === null || value !== knownValue) changes.push(`value is now ${value === null ? quote(undefined) : value === undefined ? 'none' : quote(value)}`);
    } else {
      // Nor is an object without text to show.
      const value = await readText(client, ref, textReadBack).catch(() => undefined);
      if (value && value !== knownValue) changes.push(`value is now ${quote(value)}`);
    }
  }
  // A description announced again as it was (a tool tip's text set anew on every state change) is no change either.
  const descriptionNow = kinds.has('PropertyChange:accessible-description') ? await readDescription(client, ref).catch(() => undefined) : undefined;
  const sameDescription = descriptionNow !== undefined && plainText(descriptionNow) === knownDescription;
  // A destroyed object is also taken from its parent: that is the same news.
  const destroyed = stateEvents.some((event) => event.detail === 'defunct' && event.detail1 !== 0);
  // So is a parent announced changed that is the one the snapshot knew: Blink says it of a <details>'s summary button
  // as the disclosure opens, and every opening read '[e163] button "Trip options": accessible-parent changed'.
  const knownParent = known?.parent !== undefined ? snapshot?.elements.get(known.parent) : undefined;
  const sameParent = knownParent !== undefined && kinds.has('PropertyChange:accessible-parent') && (await parentOf(client, ref).catch(() => undefined))?.path === atspiElement(knownParent.handle).path;
  // A selection changing in an object whose value line says what it shows now (a combo box's choice) is that news again.
  const valueTold = changes.some((change) => change.startsWith('value is now'));
  for (const event of events) {
    if ((destroyed || sameParent) && event.kind === 'PropertyChange' && event.detail === 'accessible-parent') continue;
    if (sameDescription && event.kind === 'PropertyChange' && event.detail === 'accessible-description') continue;
    if (valueTold && event.kind === 'SelectionChanged') continue;
    if (event.kind === 'ChildrenChanged') changes.push(`child ${event.detail.startsWith('add') ? 'added' : 'removed'}`);
    // The description read back, as a name is: gpicview's Play button read 'accessible-description changed' as it
    // became Stop, where the diff said "Start Slideshow" → "Stop Slideshow".
    else if (event.kind === 'PropertyChange' && event.detail === 'accessible-description') changes.push(descriptionNow === undefined ? 'description changed' : `description is now ${quote(plainText(descriptionNow))}`);
    else if (event.kind === 'PropertyChange' && event.detail !== 'accessible-name' && event.detail !== 'accessible-value') changes.push(`${event.detail} changed`);
    else if (!['StateChanged', 'PropertyChange', 'TextChanged', 'VisibleDataChanged'].includes(event.kind)) changes.push(eventWords(event));
  }
  // Nothing left (a name announced again unchanged, or only what a probe's line said) is no evidence of anything.
  const untold = [...new Set(changes)].filter((change) => !alreadyTold(change, told));
  if (untold.length === 0) return undefined;
  // One the snapshot read hidden, and still so (no line says it turned shown), is said to be: Zim's Format > Heading 2
  // read '[e308] text: name is now "H2"' of a status label it keeps hidden, as if the agent could see it.
  const hidden = knownStates?.includes('hidden') === true && !untold.some((change) => /[+-]hid\b/.test(change));
  const line = `${where}${hidden ? ' (hidden)' : ''}: ${untold.slice(0, 4).join(', ')}`;
  // An unnamed container only shown or hidden (the panels of a GTK3 popover that opened) tells less than what it holds.
  return known?.role === 'generic' && !known.name && events.every(showingChange) ? { minor: line } : line;
}

/**
 * Whether a command's label says it opens a window: ending in an ellipsis is the convention of every desktop's
 * guidelines for a command that asks for more in a dialog ("Find…", "Save As..."). Gucharmap's Search > Find…
 * showed its dialog after the menu item's own events had ended the wait, and the result named no new window.
 */
export function opensWindow(label: string): boolean {
  return /(\u2026|\.\.\.)\s*$/u.test(label);
}

/** How long a window the app announced (window:create), or one a command opens (opensWindow), is waited for in the X server's list of windows. */
const announcedWindowMs = 1000;
/**
 * Roles of the windows the window manager lists (a menu's or tooltip's popup window it never lists: GTK3 announces
 * those too, as ROLE_WINDOW or ROLE_TOOL_TIP).
 */
const managedWindowRoles: ReadonlySet<number> = new Set([ATSPI_ROLE.FRAME, ATSPI_ROLE.DIALOG, ATSPI_ROLE.ALERT, ATSPI_ROLE.FILE_CHOOSER]);

interface WindowChanges {
  opened: NewWindow[];
  closed: NewWindow[];
}

/** Of the listed windows, those the X server no longer shows (unmapped or destroyed). */
async function unshown(desktop: LinuxDesktop, windows: readonly NewWindow[]): Promise<Set<number>> {
  const x = await desktop.x11();
  const shown = await Promise.all(windows.map((window) => x.getWindowAttributes(window.window_id).then((attributes) => attributes.mapState === 'viewable', () => false)));
  return new Set(windows.filter((_, i) => !shown[i]).map((window) => window.window_id));
}

/**
 * The app's X windows that were not there before the action, and those that were and are gone. A window the app
 * announced through accessibility reaches the window list only once the window manager has taken it on, a moment
 * later (longer on a loaded machine): while none has appeared, an announced one is waited for. The window manager
 * also drops a closed window a moment after the app: where the app announced a window destroyed, or has exited, one
 * the X server no longer shows is closed already.
 */
async function windowChanges(desktop: LinuxDesktop, app: string, pid: number, before: readonly NewWindow[], events: readonly AccessibilityEvent[], signal: AbortSignal | undefined, expected = false): Promise<WindowChanges | undefined> {
  const destroyed = events.some((event) => event.kind === 'Destroy' && event.sender === app);
  const changes = async (): Promise<WindowChanges | undefined> => {
    const listed = (await appClientWindows(desktop, pid))?.map(newWindowOf);
    if (!listed) return undefined;
    const among = (list: readonly NewWindow[]) => (window: NewWindow) => list.some((other) => other.window_id === window.window_id);
    // So does an app that exited: the X server took its windows with it.
    const gone = destroyed || !isAlive(pid) ? await unshown(desktop, listed.filter(among(before))) : new Set<number>();
    const now = listed.filter((window) => !gone.has(window.window_id));
    return { opened: now.filter((window) => !among(before)(window)), closed: before.filter((window) => !among(now)(window)) };
  };
  const now = await changes();
  if (now === undefined || now.opened.length > 0) return now;
  if (!expected) {
    const creations = events.filter((event) => event.kind === 'Create' && event.sender === app);
    if (creations.length === 0) return now;
    // Only then are the announced windows' roles asked (a menu's popup announces itself too, and is never listed).
    const client = await desktop.atspi();
    const roles = await Promise.all(creations.map((event) => readRole(client, { bus: app, path: event.path }).catch(() => undefined)));
    if (!roles.some((role) => role !== undefined && managedWindowRoles.has(role))) return now;
  }
  for (const deadline = Date.now() + announcedWindowMs; ; ) {
    await sleep(25);
    const later = await changes();
    if (later === undefined || later.opened.length > 0 || Date.now() >= deadline || signal?.aborted) return later;
  }
}

/**
 * The top-level X windows of the app's process, or undefined when that cannot be told (no pid, no X): what an
 * action opened is found by comparing this list before and after it. The process is named by the pid asked before
 * the action: an app that exited on it (a dialog program answered) has no bus name to ask any more.
 */
async function appClientWindows(desktop: LinuxDesktop, pid: number): Promise<ClientWindow[] | undefined> {
  if (pid <= 0) return undefined;
  try {
    return (await desktop.windows()).filter((window) => window.pid === pid);
  } catch {
    return undefined;
  }
}

/** How long the app is given to answer heardUpTo's ping, in ms: a busy app's earlier events arrive when it answers. */
const heardUpToMs = 150;

/**
 * Resolves once the events the app sent until now have been heard (or after heardUpToMs). They come through the
 * accessibility bus, in order with the app's answers there, while the driver's questions to the app mostly go over
 * the app's own socket: an answer read back there says nothing of its events still on their way through the bus.
 * A ping through the bus is answered after them.
 */
async function heardUpTo(client: AtspiClient, app: string): Promise<void> {
  const ping = client.bus.call({ destination: app, path: ROOT_PATH, interface: 'org.freedesktop.DBus.Peer', member: 'Ping', timeoutMs: heardUpToMs });
  await Promise.race([ping.catch(() => undefined), sleep(heardUpToMs)]);
  // The events the answer came after are dispatched by now; those read in the same turn as it, at the next.
  await new Promise((resolve) => setImmediate(resolve));
}

/** Resolves when `signal` aborts; never, without one. */
export function abortion(signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return new Promise(() => undefined);
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}

/** How long an app that took its window's menu bar or window object down is given to close the window or exit (see takingWindowDown), in ms. */
const appEndMs = 2000;

/**
 * Whether the action's events destroyed the snapshot's window object or a menu bar the snapshot holds: an app takes
 * those down only with its window, or as it quits. Other objects go with a closed tab, a removed row, a rebuilt menu.
 */
function takingWindowDown(events: readonly AccessibilityEvent[], snapshot: SnapshotRef | undefined): boolean {
  if (!snapshot) return false;
  const frames = new Set([...snapshot.elements.values()].filter((element) => element.index === 0 || element.role === 'menubar').map((element) => objectIdentity(atspiElement(element.handle))));
  return events.some((event) => event.kind === 'StateChanged' && event.detail === 'defunct' && event.detail1 !== 0 && frames.has(objectIdentity({ bus: event.sender, path: event.path })));
}

/** How long a web page's first sign of an action may take (see observe), in ms. */
const webFirstSignMs = 1500;
/** ...and an app's while it has a modal dialog up (see observe). */
const modalFirstSignMs = 1500;

/** Longest wait for events between two reads of the probes, in ms. */
const maxUnreadMs = 50;
/** A gap between an app's events this long ends a burst, in ms. */
const pauseMs = 3;
/** How long the layout of a toolkit's next frame is waited for after an action's events (see placesTellShowing), in ms. */
const layoutFrameMs = 100;
/** How long the burst of an object's passing (made, shown, hidden, destroyed) may take at most. */
const passingBurstMs = 100;
/**
 * Longest wait for a button an action left pressed to be released, in ms. galculator releases its keys about 100 ms
 * after a click through accessibility (it shows every press, typed or clicked, that long), Qt's animated click takes
 * 100 ms; twice that and more leaves room for a loaded machine. A button still pressed then stays pressed (a toggle
 * button switched on), and that is what is reported.
 */
const pressReleaseMs = 300;
/** Longest wait for a condition whose probes keep moving towards it, in ms. */
const maxProgressMs = 60_000;

/**
 * Waits for the app's next events and for the pause after them (at most maxUnreadMs in all): an app working
 * through a burst (a hundred typed keys send four hundred events) is read once it pauses, not after every
 * event, since each read is a call the app must answer between the keys it is processing. An event `picked`
 * tells of (ObserveOptions.readOn) ends the wait at once: the pause after the last key is then not waited for.
 */
async function nextPause(recorder: EventRecorder, deadline: number, picked: () => boolean): Promise<void> {
  const limit = Math.min(deadline, Date.now() + maxUnreadMs);
  if (picked() || !(await recorder.next(limit - Date.now())) || picked()) return;
  while (Date.now() < limit && (await recorder.next(Math.min(pauseMs, limit - Date.now()))) && !picked());
}

/**
 * Waits until the app's events pause (none for pauseMs), or the limit; `unheard`: none has come yet (a probe showed the
 * change first), so the first is waited for up to the limit before a pause counts.
 */
async function burstEnd(recorder: EventRecorder, limit: number, unheard: boolean, pause = pauseMs): Promise<void> {
  if (unheard && !(await recorder.next(limit - Date.now()))) return;
  while (Date.now() < limit && (await recorder.next(Math.min(pause, limit - Date.now()))));
}

/**
 * The objects the snapshot does not hold that an action made, as the recording grows (see ObserveOptions.signAfterAct):
 * `passing` picks the events of those destroyed again (and their parent's children changing by them), `newborn` those
 * of the ones still there, which may yet pass: Gecko's drag image is a window of its own, made as the drag begins and
 * destroyed at the drop, and after a quick drag its making is heard only once the drag is over.
 */
function madeObjects(events: readonly AccessibilityEvent[], snapshot: SnapshotRef | undefined) {
  const seen = new Set([...(snapshot?.elements.values() ?? [])].map((element) => atspiElement(element.handle).path));
  const born = new Set<string>();
  const destroyed = new Set<string>();
  let counted = 0;
  const childOf = (event: AccessibilityEvent) => {
    const path = event.kind === 'ChildrenChanged' ? childPath(event.data) : undefined;
    return path === undefined ? undefined : `${event.sender}${path}`;
  };
  const update = () => {
    for (; counted < events.length; counted++) {
      const each = events[counted]!;
      const child = childOf(each);
      if (child !== undefined && each.detail.startsWith('add') && !seen.has(child.slice(each.sender.length))) born.add(child);
      if (each.kind === 'StateChanged' && each.detail === 'defunct' && each.detail1 !== 0 && !seen.has(each.path)) destroyed.add(`${each.sender}${each.path}`);
    }
  };
  const among = (objects: Set<string>, event: AccessibilityEvent) => {
    update();
    const child = childOf(event);
    return objects.has(`${event.sender}${event.path}`) || (child !== undefined && objects.has(child));
  };
  return {
    passing: (event: AccessibilityEvent) => among(destroyed, event),
    newborn: (event: AccessibilityEvent) => among(born, event) && !among(destroyed, event),
    /** How many events the objects the action made so far were heard in (their making among them). */
    heard: () => events.filter((event) => among(born, event) || among(destroyed, event)).length,
  };
}

/** Whether an event `readOn` picks arrived since the last call (each event is looked at once). */
function eventPicker(recorder: EventRecorder, readOn: ((event: AccessibilityEvent) => boolean) | undefined): () => boolean {
  let seen = 0;
  return () => {
    if (!readOn) return false;
    let hit = false;
    // Every event is shown to readOn, which may count them.
    for (; seen < recorder.events.length; seen++) if (readOn(recorder.events[seen]!)) hit = true;
    return hit;
  };
}

/** The programs an action made its app start, said with where their windows will be found. */
function startedProcessesLine(started: readonly { pid: number; name: string }[]): string {
  const named = started.slice(0, 3).map((process) => `${process.name} (pid ${process.pid})`).join(', ');
  const more = started.length > 3 ? ` and ${started.length - 3} more` : '';
  return `the app started ${named}${more} during the action: a window it opens comes later, of its own (list_windows, or wait_for with its window_title)`;
}

/**
 * Runs an action and gathers evidence of its effect: the probes read before and after, and the app's own
 * change events (read back where they name a new value). Returns as soon as a probe changes, or shortly
 * after the first event; waits at most settleMs when nothing happens.
 */
export async function observe(desktop: LinuxDesktop, app: string, probes: Probe[], act: () => Promise<void>, options: ObserveOptions = {}): Promise<Observation> {
  const settleMs = options.settleMs ?? 400;
  // Toolkits emit an action's events in one burst within a few ms; this is the longest wait for the rest of it.
  const quietMs = options.quietMs ?? terminalQuiet(options.snapshot);
  const graceMs = options.graceMs ?? (quietMs !== undefined ? terminalQuietLimitMs : 12);
  const client = await desktop.atspi();
  const recorder = await client.events.record(app).catch(() => undefined);
  // A browser answers an action before its page has run it (the page is another process, busy or not), and what
  // the page changed reaches the accessibility tree later still: its first sign is given longer to come.
  const quirks = await client.quirksOf(app).catch(() => undefined);
  const webEngine = quirks?.webEngine ?? false;
  const placesTellShowing = quirks?.showsByPlaceOnly ?? false;
  // The probes whose last read the app did not answer in time: unreadable because the app is hung or busy, which
  // says nothing of the object (a hung GTK app's focused field read as "gone" confirmed the key that froze it).
  let silentReads = new Set<number>();
  const readAll = () => {
    const silent = new Set<number>();
    return Promise.all(
      probes.map((probe, i) =>
        probe.read().catch((error: unknown) => {
          if (error instanceof DBusTimeoutError || (error instanceof ToolError && error.code === 'app_not_responding')) silent.add(i);
          return undefined;
        }),
      ),
    ).finally(() => void (silentReads = silent));
  };
  try {
    const pid = await client.pidOf(app).catch(() => 0);
    // The popup holding the object acted on is asked for before acting: once closed, it no longer says it shows.
    const ahead: Promise<ReadAhead> = options.ahead ?? Promise.all([readAll(), appClientWindows(desktop, pid)]).then(([before, listed]) => ({ before, listed }));
    const [{ before, listed, heardUpTo: heardAhead }, popup] = await Promise.all([ahead, options.inPopup && popupHolding(client, options.inPopup), options.ready]);
    const windowsBefore = listed?.map(newWindowOf);
    // What the app was changing by itself just before (a clock, a meter) is not the action's doing when it goes on.
    // Found at the first event judged, not before acting: a look over seconds of events (2 to 3 ms) held up the input.
    const ownUntil = performance.now();
    let own: Set<string> | undefined;
    // Most apps change nothing by themselves: then no event's key is built (typing sends hundreds of events).
    const isOwn = (event: AccessibilityEvent) => {
      own ??= ownChanges(client.events, app, pid, ownUntil);
      return own.size > 0 && own.has(changeOf(event));
    };
    const dialogUp = listed?.some((window) => window.modal || window.transientFor !== undefined) ?? false;
    // An app with a modal dialog up is answering it, and what a dialog's button or Return sets off (a file saved,
    // then the dialog closed) may show no sign for longer than the usual wait: LibreOffice's Save dialog sent
    // nothing for over 400 ms and closed after a second, and an agent told "no effect" would press Return again.
    // GTK 4 on X11 marks no dialog modal, only transient for its window: its Save dialog closed 630 ms after Save
    // with no event before, so a dialog transient for another window counts as one the app is answering.
    const firstSignMs = options.firstSignMs ?? (webEngine ? webFirstSignMs : dialogUp ? modalFirstSignMs : 0);
    let unanswered: Observation['unanswered'];
    // What the app sent before the action is not its effect (a save's status text said late, after that action's
    // evidence was read, read in Pluma as the next menu item's): its events heard so far are forgotten, once every
    // event it sent before now has arrived (heardUpTo).
    if (recorder) {
      if (!heardAhead) await heardUpTo(client, app);
      recorder.startOver();
    }
    const actedAt = Date.now();
    try {
      await act();
    } catch (error) {
      // Sent and not answered is not a failure: what it did is read back like any other action's effect.
      if (!(error instanceof UnansweredActionError)) throw error;
      unanswered = { call: error.member, timeoutMs: error.timeoutMs, ...(error.loopInside ? { loopInside: true as const } : {}) };
    }
    // A wxGTK app updates its controls at idle, which only an X event brings on (idle-wake.ts).
    await wakeIdleHandlers(desktop, pid, listed);
    const heardWhileActing = options.signAfterAct ? (recorder?.events.length ?? 0) : 0;
    let deadline = Date.now() + Math.max(settleMs, firstSignMs);
    const longest = Date.now() + maxProgressMs;
    const { signal } = options;
    const cancelled = abortion(signal);
    const roles = eventRoles(desktop, options.snapshot);
    const made = options.signAfterAct ? madeObjects(recorder?.events ?? [], options.snapshot) : { passing: () => false, newborn: () => false, heard: () => 0 };
    const passing = made.passing;
    // What the objects made so far did while acting (a drag image made as the drag began): what they do after is told apart (below).
    let apparatusHeard = made.heard();
    const relevant = () => (recorder?.events ?? []).filter((event) => !isNoise(event, placesTellShowing) && !options.ignore?.(event) && !roles.isHover(event) && !isOwn(event) && !passing(event));
    // A tool tip hidden as the pointer leaves its place is the hover's start, not the reaction waited for.
    const tipsShown = () => (options.toolTips ? (recorder?.events ?? []).filter((event) => roles.isHover(event) && showingChange(event) && event.detail1 !== 0) : []);
    const readBack = async () => (await Promise.all([readAll(), roles.sortOut(recorder?.events ?? [])]))[0];
    const picked = recorder ? eventPicker(recorder, options.readOn) : () => false;
    let after = await readBack();
    const changedProbe = () => after.some((value, i) => value !== before[i]);
    // In a browser, a change of its own controls is evidence only once the page has had its time to show one.
    const chrome = webEngine ? browserChrome(options.snapshot) : new Set<string>();
    const signs = () => relevant().filter((event) => !chrome.has(event.path));
    const signsAfterAct = () => (options.signAfterAct ? signs().filter((event) => (recorder?.events.indexOf(event) ?? 0) >= heardWhileActing) : signs());
    const satisfied = () => (options.until ? options.until(after) : changedProbe() || signsAfterAct().length > 0 || tipsShown().length > 0);
    const waitForSign = async () => {
      while (!satisfied() && Date.now() < deadline && !signal?.aborted) {
        const wait = recorder
          ? options.until
            ? nextPause(recorder, deadline, picked)
            : recorder.next(Math.min(maxUnreadMs, deadline - Date.now()))
          : new Promise((resolve) => setTimeout(resolve, 20));
        await Promise.race([wait, cancelled]);
        // Signs heard end the wait by themselves: the probes are read once the burst is over (below), not here as well.
        if (!options.until && !options.signAfterAct) {
          await roles.sortOut(recorder?.events ?? []);
          if (signsAfterAct().length > 0 || tipsShown().length > 0) break;
        }
        const previous = after;
        after = await readBack();
        // Values still moving towards the condition are the app still working through the action (a long text typed
        // key by key on a busy machine): the wait runs settleMs from the last move, and as long as the first sign may
        // take (a web page's): a page busy 250 ms on each key showed "abcab" of "abc" typed into its "abc" and its last
        // key more than settleMs later, and the typing was said not to show.
        if (options.until && after.some((value, i) => value !== previous[i])) deadline = Math.min(longest, Date.now() + Math.max(settleMs, firstSignMs));
      }
    };
    await waitForSign();
    // A passing object (signAfterAct) is known once it is destroyed, at the end of the burst it began: the signs after
    // the action are judged again when the burst is over, and waited for anew when they were only its passing.
    // Signs only of objects the action made, still there, are waited past for the rest of the first-sign limit: the
    // object may yet pass, or the drop's own signs come after it; at the limit they are the evidence (a drag that
    // opened a window). An app whose made objects still change after the action is over was still working through it
    // (a loaded browser showed its drag image after the release, and the page's drop over 1.5 s later; under CI's
    // load the drag's window alone was told, and the page's drop came after): the limit then runs again from the
    // objects' last change, up to three limits after the action.
    const bornOnly = () => !changedProbe() && tipsShown().length === 0 && signsAfterAct().every(made.newborn);
    const firstSignLimit = Math.max(settleMs, firstSignMs);
    const latestDeadline = Math.min(longest, Date.now() + 3 * firstSignLimit);
    while (options.signAfterAct && recorder && satisfied() && Date.now() < deadline && !signal?.aborted) {
      if (made.heard() > apparatusHeard && bornOnly()) deadline = Math.max(deadline, Math.min(latestDeadline, Date.now() + firstSignLimit));
      apparatusHeard = made.heard();
      await burstEnd(recorder, Math.min(deadline, Date.now() + passingBurstMs), false);
      if (!satisfied()) await waitForSign();
      else if (bornOnly()) await recorder.next(Math.min(maxUnreadMs, deadline - Date.now()));
      else break;
    }
    // A condition met is the effect complete; without one, the burst's last events are still on their way: they are
    // waited for until the app's events pause, for graceMs at most (a fixed wait of graceMs was a third of a click).
    if (!(options.until && satisfied()) && !signal?.aborted && (relevant().length > 0 || changedProbe() || tipsShown().length > 0)) {
      if (recorder) await burstEnd(recorder, Date.now() + graceMs, relevant().length === 0 && tipsShown().length === 0, quietMs);
      else await sleep(graceMs);
      // GTK 4.8 lays out on its next frame, after the change's own events (a list's name announced again, then the new
      // row's place 10 ms later): where a place is all it says of what it showed, that layout is waited for too.
      if (recorder && placesTellShowing && !signal?.aborted && !relevant().some((event) => event.kind === 'BoundsChanged')) await burstEnd(recorder, Date.now() + layoutFrameMs, true);
      if (recorder && webEngine && !signal?.aborted) await untilBornDialogFilled(desktop, recorder, relevant(), Date.now() + webFirstSignMs);
      if (recorder && webEngine && !signal?.aborted) await untilPageLoaded(desktop, recorder, Date.now() + pageLoadMs, signal);
      after = await readBack();
    }
    // A choice made in a popup that closes it: the closing, said late, is part of the effect (see popup-closing.ts).
    // A popup that stays open (a check button in a popover) costs popupCloseMs.
    let popupOpen = false;
    if (popup && !signal?.aborted && (relevant().length > 0 || changedProbe())) {
      for (const limit = Date.now() + popupCloseMs; (popupOpen = await stillShowing(client, popup)) && Date.now() < limit && !signal?.aborted; ) {
        await Promise.race([recorder ? recorder.next(Math.min(maxUnreadMs, limit - Date.now())) : sleep(20), cancelled]);
      }
      after = await readBack();
    }
    // A button the action left pressed is in most apps still in its press animation: it is read once released, so
    // neither the evidence nor the diff read after the action reports a press that is over a moment later.
    const gainedPress = (i: number) => after[i] !== undefined && probes[i]!.pressed?.(after[i]!) === true && !(before[i] !== undefined && probes[i]!.pressed?.(before[i]!));
    const leftPressed = () => probes.some((_, i) => gainedPress(i)) || roles.leftPressed(relevant());
    // A press that opened something (a state turned expanded: GTK 4's menu button holds its inner button pressed while
    // its popover is open) lasts as long as what it opened, and is no animation: GHex's Main menu waited it out whole.
    const openedSomething = relevant().some((event) => event.kind === 'StateChanged' && event.detail === 'expanded' && event.detail1 !== 0);
    for (const limit = Date.now() + pressReleaseMs; !openedSomething && leftPressed() && Date.now() < limit && !signal?.aborted; ) {
      await Promise.race([recorder ? recorder.next(Math.min(maxUnreadMs, limit - Date.now())) : sleep(20), cancelled]);
      after = await readBack();
    }
    // What the action did, told from the windows, the probes and the objects the app's events named.
    const account = async () => {
      const windows = windowsBefore && (await windowChanges(desktop, app, pid, windowsBefore, recorder?.events ?? [], signal, options.opensWindow));
      const closed = windows?.closed ?? [];
      // A window that closed says it all for what was in it: its objects' last events (gone, hidden) and the probes
      // of its objects, now unreadable, are not listed one by one. One that opened is listed with its tree (the
      // objects born with it announce their first states, which isNoise leaves out, or are counted as another window's).
      const opened = windows?.opened ?? [];
      const tips = options.toolTips ? await toolTipLines(desktop, (recorder?.events ?? []).filter((event) => roles.isHover(event))) : [];
      // An app that ended on the action (a dialog program answered) sends nothing on the way: its end is the evidence.
      const exited = pid > 0 && !isAlive(pid);
      const evidence: string[] = [
        ...tips,
        ...opened.map(windowOpenedLine),
        ...closed.map((window) => `window ${window.window_id} ${windowName(window)} closed or hidden`),
        ...(exited ? [`the app (pid ${pid}) exited`] : []),
      ];
      // Every probe that changed went unreadable: what it reads is gone (a dialog's OK closed the dialog), which one line
      // says, rather than each of its facts going to "(unreadable)"; the window's closing, where it was seen, says it.
      const silent = probes.map((_, i) => before[i] !== undefined && after[i] === undefined && silentReads.has(i));
      if (silent.some(Boolean)) evidence.push(stoppedAnsweringLine(probes.filter((_, i) => silent[i]).map((probe) => probeSubject(probe.label)), client.callTimeoutMs));
      const lost = probes.map((_, i) => before[i] !== undefined && after[i] === undefined && !silent[i]);
      const gone = lost.some(Boolean) && probes.every((_, i) => lost[i] || after[i] === before[i]);
      if (gone && closed.length === 0) evidence.push(goneLine([...new Set(probes.filter((_, i) => lost[i]).map((probe) => probeSubject(probe.label)))].join(', ')));
      const probeLines = new Map<number, string>();
      const probeChanged = (i: number) => !(gone || silent[i] || after[i] === before[i] || (closed.length > 0 && (after[i] === undefined || after[i] === goneMark)));
      const othersChanged = probes.some((probe, i) => !probe.secondary && probeChanged(i));
      probes.forEach((probe, i) => {
        if (!probeChanged(i) || (probe.secondary && othersChanged)) return;
        const [was, now] = [before[i], after[i]];
        const line = probe.describe && was !== undefined && now !== undefined ? probe.describe(was, now) : `${probe.label}: ${textChange(was, now)}`;
        probeLines.set(i, line);
        // An object gone is said once, whichever of its probes noticed.
        if (!evidence.includes(line)) evidence.push(line);
      });
      const told = toldByProbes(probes, probeLines);
      const byObject = new Map<string, AccessibilityEvent[]>();
      const destroyed = (event: AccessibilityEvent) => event.kind === 'StateChanged' && event.detail === 'defunct' && event.detail1 !== 0;
      // New places are told in one line (layoutLine), when nothing else tells what the action did.
      const placed = new Set<string>();
      for (const event of relevant()) {
        if (event.kind === 'BoundsChanged') placed.add(event.path);
        else {
          const events = byObject.get(event.path);
          if (events) events.push(event);
          else byObject.set(event.path, [event]);
        }
      }
      // The edits of each text a probe's line told, so another view of the same buffer, told the same edits, is known.
      const toldEdits = new Set([...byObject.entries()].filter(([path, events]) => told.get(`${events[0]!.sender}${path}`)?.text).map(([, events]) => textEdits(events)).filter((edits) => edits !== ''));
      // The action's own window closed: what its objects did on the way (a scroll bar hidden) is said by that line too.
      const snapshotClosed = options.snapshot !== undefined && closed.some((window) => window.window_id === options.snapshot!.windowId);
      const inSnapshot = new Set(snapshotClosed ? [...options.snapshot!.elements.values()].map((element) => atspiElement(element.handle).path) : []);
      // The application object's children are its windows: a child added or removed there is a window opened or
      // closed, which the window lines tell.
      const windowsListed = opened.length > 0 || closed.length > 0;
      // An app whose one listed window is the action's, before and after, has no other window to change: what it changed
      // outside this window's objects is in popups over it (a context menu GTK3 makes a top level of its own, a
      // tooltip), which the window's tree and diff read. A right click's menu read "the app changed 4 objects in its
      // other windows" and "application: child added" in an app with no other window.
      const ownWindowOnly = !windowsListed && windowsBefore?.length === 1 && windowsBefore[0]!.window_id === options.snapshot?.windowId;
      for (const [path, events] of byObject) {
        if ((closed.length > 0 && events.some(destroyed)) || inSnapshot.has(path)) byObject.delete(path);
        else if ((windowsListed || ownWindowOnly) && path === ROOT_PATH && events.every((event) => event.kind === 'ChildrenChanged')) byObject.delete(path);
        // Text changes alone that a probe's line told (typing into a field) would give a line with nothing untold:
        // the object is not read back for it, a round trip on the action's path.
        else if (events.every((event) => event.kind === 'TextChanged') && told.get(`${events[0]!.sender}${path}`)?.text) byObject.delete(path);
        // Nor another view of that text, told the same edits: Pluma's overview map (a GtkSourceMap, kept in the tree when
        // hidden) shows the document's buffer, and typing into the document read '[e121] textbox: text is now "…"' of it.
        else if (events.every((event) => event.kind === 'TextChanged' || event.kind === 'TextCaretMoved') && toldEdits.has(textEdits(events))) byObject.delete(path);
      }
      // Cancelled, the probes' readings are the evidence: re-reading every object an event named would hold up the stop.
      // Otherwise the objects are read back together, as many at a time as lines are still wanted (one may give none).
      const queue = signal?.aborted ? [] : [...byObject.values()].sort((a, b) => weight(a) - weight(b));
      // The top-level objects the app announced made while windows opened: the opened windows' own objects.
      const openedTops = new Set(opened.length > 0 ? (recorder?.events ?? []).filter((event) => event.kind === 'Create' && event.sender === app).map((event) => event.path) : []);
      // Qt announces no window made (no window:create): the objects it names as it builds its new dialog were told one
      // by one ('(not in the snapshot) push button "Scroll Left": renamed') or counted as another window's ('the app
      // changed 161 objects in its other windows') after Kid3's Settings > Configure Kid3.... A top-level object named
      // as a window that opened is that window.
      const openedNames = new Set(opened.flatMap((window) => [window.title, window.accessible_name ?? '']).filter((name) => name.trim() !== ''));
      const namedOpened = new Map<string, Promise<boolean>>();
      // Nor is a GTK 4 window's object named by its title but by its type ("Gjs_CharacterDialog"): the top-level objects
      // the opened windows are read through (by name or box, as a reading of them matches them) are theirs too. GNOME
      // Characters' character dialog, opened by a click, read "the app changed 2 objects in its other windows".
      let matchedTops: Promise<Set<string>> | undefined;
      const openedMatches = () =>
        (matchedTops ??= appClientWindows(desktop, pid).then(async (windows) => {
          const matches = await Promise.all((windows ?? []).filter((window) => opened.some((entry) => entry.window_id === window.id)).map((window) => desktop.topLevelOf(window).catch(() => undefined)));
          return new Set(matches.flatMap((match) => (match && !match.weak ? [match.topLevel.path] : [])));
        }));
      const inOpenedWindow = async (top: ObjectRef): Promise<boolean> => {
        if (openedTops.has(top.path)) return true;
        if (opened.length === 0) return false;
        let named = namedOpened.get(top.path);
        if (!named) namedOpened.set(top.path, (named = readName(client, top).then((name) => openedNames.has(name), () => false)));
        return (await named) || (await openedMatches()).has(top.path);
      };
      let otherWindows = 0;
      let unseenGone = 0;
      const unlisted = new Map<string, string>();
      const minor: string[] = [];
      // The objects' ancestors, walked once for all: those of one window share theirs. KeePassXC's Discard, which emptied
      // the entry editor behind its main view, read 127 objects of that other window back, each walked up 15 levels to
      // its window one parent at a time, 2.9 s before the result.
      const walked: KnownAncestry = new Map();
      while (queue.length > 0 && evidence.length < maxEvidence) {
        const lines = await Promise.all(queue.splice(0, maxEvidence - evidence.length).map((events) => describeObject(desktop, events, options.snapshot, (of) => told.get(`${of.bus}${of.path}`), inOpenedWindow, unlisted, walked)));
        otherWindows += lines.filter((line) => line === elsewhere).length;
        unseenGone += lines.filter((line) => line === vanished).length;
        evidence.push(...lines.filter((line): line is string => typeof line === 'string' && line !== ''));
        minor.push(...lines.flatMap((line) => (typeof line === 'object' ? [line.minor] : [])));
      }
      if (evidence.length === 0) evidence.push(...minor.slice(0, maxEvidence));
      if (evidence.length === 0 && placed.size > 0) evidence.push(layoutLine(placed.size));
      // One line for them all: the windows themselves are the result's new_windows and other_windows_changed.
      if (otherWindows > 0) evidence.push(`the app changed ${queue.length > 0 ? 'at least ' : ''}${otherWindows} object${otherWindows === 1 ? '' : 's'} ${ownWindowOnly ? 'in popups over the window (the diff reads them)' : 'in its other windows'}`);
      // A window that closed took its objects with it: its line says what became of them.
      if (unseenGone > 0 && closed.length === 0) evidence.push(`${unseenGone} object${unseenGone === 1 ? '' : 's'} the snapshot did not hold changed and ${unseenGone === 1 ? 'is' : 'are'} gone now`);
      // Nothing seen in the app: a program it started is what the action did (a file opened from a file manager starts
      // the program that shows it, whose window comes after the wait for a first sign, and a retry would open it twice).
      // A double click's is named beside what else it changed, the selection it made first (opensItems).
      if ((evidence.length === 0 || options.opensItems) && !signal?.aborted && pid > 0) {
        const started = await processesStartedBy(pid, actedAt).catch(() => []);
        if (started.length > 0) evidence.push(startedProcessesLine(started));
      }
      return { evidence, silent, opened, unlisted, closed };
    };
    let { evidence, silent, opened, unlisted, closed: closedNow } = await account();
    // An app on its way out may take its window's menu bar (or the window's own object) down well before the window
    // closes and the process ends (saving its state first): the action is then one that ends its app, confirmed by
    // the window's closing and its exit, which are waited for; the items it destroyed on the way were no evidence.
    const shown = windowsBefore?.filter((window) => window.window_id === options.snapshot?.windowId) ?? [];
    if (pid > 0 && isAlive(pid) && closedNow.length === 0 && shown.length > 0 && !signal?.aborted && takingWindowDown(recorder?.events ?? [], options.snapshot)) {
      // Closed once the window manager lists it no more or the X server no longer shows it (the app exited a moment ago).
      const closed = async () => !(await appClientWindows(desktop, pid))?.some((window) => window.id === shown[0]!.window_id) || (await unshown(desktop, shown)).size > 0;
      for (const limit = Date.now() + appEndMs; !(await closed()) && Date.now() < limit && !signal?.aborted; ) await Promise.race([sleep(25), cancelled]);
      if (!isAlive(pid) || (await closed())) ({ evidence, silent, opened, unlisted } = await account());
    }
    // Signs that tell nothing (an object no window holds any more gaining the focus as a dialog goes: GTK 2 answers a
    // dialog's Return in an idle handler, and PCManFM's Rename dialog closed 300 ms after the first sign) are no
    // effect yet: the rest of the wait for a first sign is given to the app, and what it did then is told. The wait had
    // ended at that sign, 30 ms after the action, and the result said "no effect seen" of a dialog that closed.
    if (evidence.length === 0 && recorder && !options.until && !signal?.aborted && Date.now() < deadline) {
      const heard = relevant().length;
      while (relevant().length === heard && !changedProbe() && Date.now() < deadline && !signal?.aborted) {
        await Promise.race([recorder.next(Math.min(maxUnreadMs, deadline - Date.now())), cancelled]);
        after = await readBack();
      }
      if (relevant().length > heard || changedProbe()) {
        await burstEnd(recorder, Date.now() + graceMs, false);
        after = await readBack();
        ({ evidence, silent, opened, unlisted } = await account());
      }
    }
    const target = options.target;
    // Its content, not its states or caret: the focus the driver gives the target before the action (which may be
    // reported late, and puts the caret somewhere) is not the action's doing.
    const targetReported = target !== undefined && relevant().some((event) => event.sender === target.bus && event.path === target.path && contentEvents.has(event.kind));
    // With nothing else to show, the app's own changes are named, so that "no effect" does not read as a blind spot.
    const ownObjects = evidence.length > 0 || signal?.aborted ? [] : [...new Map((recorder?.events ?? []).filter((event) => isOwn(event) && !isNoise(event, placesTellShowing)).map((event) => [`${event.sender}${event.path}`, event])).values()];
    const ownLabels = await Promise.all(ownObjects.slice(0, 3).map(async (event) => (await elementLabel(desktop, options.snapshot, { bus: event.sender, path: event.path })).label));
    return {
      ...(ownObjects.length > 0 ? { ownChanges: [...ownLabels, ...(ownObjects.length > 3 ? [`${ownObjects.length - 3} more`] : [])] } : {}),
      evidence,
      ...(unlisted.size > 0 ? { unlisted } : {}),
      // The app falling silent is told, but it is no sign that the action did anything.
      changed: evidence.some((line) => !line.startsWith(stoppedAnsweringStart)),
      ...(silent.some(Boolean) ? { stoppedAnswering: true as const } : {}),
      ...(targetReported ? { targetReported: true as const } : {}),
      listening: recorder !== undefined,
      ...(unanswered ? { unanswered } : {}),
      ...(opened.length > 0 ? { newWindows: opened } : {}),
      ...(popupOpen ? { popupOpen: true as const } : {}),
      ...(options.until && satisfied() ? { met: true as const } : signal?.aborted ? { cancelled: true as const } : {}),
    };
  } finally {
    recorder?.stop();
  }
}

/**
 * A top-level window (frame or window) has no text of its own a person reads: Gecko's frame answers Text with its
 * children's names run together, and every click in Firefox that added a popup or alert read '[e0] window "… — Mozilla
 * Firefox": text is now "Menu BarBrowser tabsNavigation"'. Its children's lines and the diff tell what changed.
 */
async function isTopLevelWindow(client: AtspiClient, ref: ObjectRef, knownRole: number | undefined): Promise<boolean> {
  const role = knownRole ?? (await readRole(client, ref).catch(() => 0));
  return role === ATSPI_ROLE.FRAME || role === ATSPI_ROLE.WINDOW;
}
