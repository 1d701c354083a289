// The honest verdict on an action, from what was read back after it: shared by every backend.
import type { DeliveryMode } from './targets.js';
import { windowName, type DesktopWindow } from './windows.js';

/** What to try when an action was not delivered or showed no effect. */
export interface Escalation {
  recommended: 'px' | 'foreground';
  reason: string;
}

/** A top-level window as an action's result names it. */
export interface NewWindow {
  window_id: number;
  title: string;
  /** Of a window with no title: its accessible name (DesktopWindow.accessibleName). */
  accessible_name?: string;
  pid: number;
  /** A dialog of the app: modal (_NET_WM_STATE_MODAL) or transient for another window (WM_TRANSIENT_FOR, all GTK 4 sets). */
  dialog?: boolean;
}

/** A desktop window as the result names it. */
export function newWindowOf(window: Pick<DesktopWindow, 'id' | 'title' | 'pid' | 'accessibleName' | 'modal' | 'transientFor'>): NewWindow {
  const dialog = window.modal || window.transientFor !== undefined;
  return { window_id: window.id, title: window.title, ...(window.accessibleName ? { accessible_name: window.accessibleName } : {}), pid: window.pid, ...(dialog ? { dialog: true } : {}) };
}

/** The evidence line of a window the action opened, said alike wherever it was seen (the platform, the tool layer). */
export function windowOpenedLine(window: Pick<NewWindow, 'window_id' | 'title' | 'accessible_name'>): string {
  return `window ${window.window_id} ${windowName(window)} opened`;
}

const goneEnd = ' is gone (destroyed, hidden, or removed with its window or what held it)';

/** The evidence line of objects the action's read-back found gone (`subjects`, labels joined by ", "). */
export function goneLine(subjects: string): string {
  return `${subjects}${goneEnd}`;
}

/** The labels a gone line (goneLine) names; undefined for any other line. */
export function goneSubjects(line: string): string[] | undefined {
  return line.endsWith(goneEnd) ? line.slice(0, -goneEnd.length).split(', ') : undefined;
}

/**
 * A gone line told again where what the tool layer knows says otherwise of some of its subjects: `instead` gives the
 * line to say of a subject, or undefined to leave it gone. The lines in its place (the subjects left gone in one line
 * first), or undefined when `line` is no gone line or `instead` says nothing else of any subject.
 */
export function goneLineRetold(line: string, instead: (label: string) => string | undefined): string[] | undefined {
  const subjects = goneSubjects(line);
  if (!subjects) return undefined;
  const told = subjects.map((label) => instead(label));
  if (told.every((each) => each === undefined)) return undefined;
  const rest = subjects.filter((_, i) => told[i] === undefined);
  return [...(rest.length > 0 ? [goneLine(rest.join(', '))] : []), ...told.filter((each): each is string => each !== undefined)];
}

/** What was seen of an action's effect. */
export interface Observation {
  evidence: string[];
  /** Something the app reported or we read back changed. */
  changed: boolean;
  /** Events could be received from the app (it was subscribed before the action). */
  listening: boolean;
  /** The action call was sent and the app did not answer it in time (it may be running a modal dialog). */
  /** loopInside: the app answered other calls meanwhile, running what the action opened inside the call (see UnansweredActionError). */
  unanswered?: { call: string; timeoutMs: number; loopInside?: true };
  /** The app did not answer when the action's effect was read back: the evidence says so, and nothing is known. */
  stoppedAnswering?: true;
  /** Top-level windows of the app that appeared while the action ran. */
  newWindows?: NewWindow[];
  /** A cancel ended the wait for the effect early: what was read by then is all there is. */
  cancelled?: true;
  /** The action's own target reported a change of its content (not only its states, nor other parts of the app). */
  targetReported?: true;
  /** The condition the observation waited for (ObserveOptions.until) held on the last read back of the probes. */
  met?: true;
  /**
   * Objects the app changed during the action as it had been changing them by itself before it (a clock, a meter),
   * as evidence names them: not counted as the action's effect, named when nothing else changed.
   */
  ownChanges?: string[];
  /**
   * Objects the evidence names that the action's snapshot did not hold, by the label the evidence gives them
   * ("(not in the snapshot) menu item "New""), with the identity readings give them (WindowReading.identities);
   * an empty identity where two objects have the one label.
   */
  unlisted?: ReadonlyMap<string, string>;
  /** The showing popup that held the object acted on (ObserveOptions.inPopup) still showed after the wait for it to close. */
  popupOpen?: true;
  /**
   * The window's pixels were the only read-back (an app with no accessibility) of a command (a click, a key press),
   * whose effect may not be drawn at all: unchanged pixels do not show it did nothing.
   */
  commandUndrawn?: true;
}

/**
 * An action's outcome, in the field names of the action result contract (seed 001) so that it passes to
 * the caller unchanged: the rung that ran (path; 'none' when nothing was sent), what was seen, what to try next.
 */
export interface ActionOutcome {
  path: string;
  delivery_mode: DeliveryMode;
  effect: 'confirmed' | 'unverifiable' | 'suspected_noop';
  verified: boolean;
  evidence?: string[];
  escalation?: Escalation;
  /**
   * The target's own read-back shows the action did not do what was asked (the typed text is not in the field it was
   * typed into): what else the app changed meanwhile (its title marked modified) is told, and confirms nothing.
   */
  refuted?: true;
  /** The element was scrolled out of view and had to be brought in before the real input reached it. */
  scrolled_into_view?: true;
  no_reply_ms?: number;
  /**
   * With no_reply_ms: the call that got no reply (DoAction, SelectChild, ...), as its note in the evidence names it,
   * so that what follows the outcome (heldByDialog) knows it from the result, not by searching the evidence's words.
   */
  no_reply_call?: string;
  /**
   * With no_reply_ms: the dialog of the app that opened while the action call went unanswered, which holds the call's
   * reply (its toolkit runs the dialog inside the call and answers once it closes): the action's effect, not a hang.
   */
  reply_held_by_dialog?: number;
  new_windows?: NewWindow[];
  /** A cancel stopped the action part-way (the rest of its input was not sent, or its read-back was cut short). */
  cancelled?: true;
  /** With cancelled, for typed text: the characters sent before the cancel (the app receives each of them). */
  typed_chars?: number;
  /** With cancelled, for a repeated key: the presses sent before the cancel. */
  key_presses?: number;
  /**
   * Observation.unlisted, for the tool layer to name those objects by their index in the snapshot it takes after the
   * action (as its diff names them); not part of the result.
   */
  unlisted?: ReadonlyMap<string, string>;
}

/** How much of an input that a cancel can cut short was sent (the input layer's report). */
export interface SentInput {
  /** The cancel stopped the sending before the end. */
  cancelled?: true;
  characters?: number;
  presses?: number;
}

export interface OutcomeInput {
  path: string;
  mode: DeliveryMode;
  observation?: Observation;
  /** Why nothing was dispatched, or what to try when the dispatched action showed no effect. */
  escalation?: Escalation;
  /** For input a cancel can cut short: how much was sent. */
  sent?: SentInput;
  /** The target's read-back refutes the action (see ActionOutcome.refuted). */
  refuted?: true;
}

/** The cancel fields: set when a cancel cut the input or its read-back short, with how much input went. */
function cancelFields(input: OutcomeInput): Pick<ActionOutcome, 'cancelled' | 'typed_chars' | 'key_presses'> {
  const { sent, observation } = input;
  if (!sent?.cancelled && !observation?.cancelled) return {};
  return {
    cancelled: true,
    ...(sent?.characters !== undefined ? { typed_chars: sent.characters } : {}),
    ...(sent?.presses !== undefined ? { key_presses: sent.presses } : {}),
  };
}

/**
 * The advice to send the same call again as real input, said in these words wherever it is given: a tool that takes no
 * delivery_mode (set_value) says instead what real input does what it could not (see src/tools/input/next-try.ts).
 */
export const RETRY_IN_FOREGROUND = 'retry with delivery_mode "foreground"';

/** The next delivery to try after one that showed nothing, and how to say it. */
function nextTry(mode: DeliveryMode): { recommended: Escalation['recommended']; advice: string } {
  return mode === 'background'
    ? { recommended: 'foreground', advice: `${RETRY_IN_FOREGROUND} (real input to the activated window)` }
    : { recommended: 'px', advice: 'check the target on a fresh get_window_state screenshot and address it by pixels' };
}

function defaultEscalation(mode: DeliveryMode, path: string): Escalation {
  const { recommended, advice } = nextTry(mode);
  return { recommended, reason: `${mode === 'background' ? 'the background delivery' : `real input (${path})`} showed no effect; ${advice}` };
}

/**
 * The advice after no pixel changed in a window with no accessibility: a command whose effect is not drawn leaves the
 * pixels as they were too (xcalc's memory store, a Tk button that writes a file), and a retry would run it twice.
 */
function undrawnEscalation(mode: DeliveryMode): Escalation {
  const { recommended, advice } = nextTry(mode);
  return {
    recommended,
    reason: `no pixel of the window changed, as none does for a command whose effect is not drawn (a calculator's memory store, a button that saves a file): it may have run, so check the app's state (its files, a later screenshot) before sending it again; if it did not run, ${advice}`,
  };
}

/**
 * The honest verdict: confirmed only with evidence read back; suspected_noop when we could have seen a
 * change and saw none (or dispatched nothing); unverifiable when the app gives us no way to see.
 */
export function actionOutcome(input: OutcomeInput): ActionOutcome {
  const observation = input.observation;
  const base = {
    path: input.path,
    delivery_mode: input.mode,
    ...(observation?.newWindows ? { new_windows: observation.newWindows } : {}),
    ...cancelFields(input),
    ...(input.refuted ? { refuted: true as const } : {}),
    ...(observation?.unlisted?.size ? { unlisted: observation.unlisted } : {}),
  };
  if (input.path === 'none') {
    return { ...base, effect: 'suspected_noop', verified: false, escalation: input.escalation ?? defaultEscalation(input.mode, input.path) };
  }
  if (observation?.unanswered) return unansweredOutcome(base, observation);
  if (observation?.changed) return { ...base, effect: 'confirmed', verified: true, evidence: observation.evidence };
  // A hung app shows no effect, and a retry would only queue behind what froze it.
  if (observation?.stoppedAnswering) return { ...base, effect: 'unverifiable', verified: false, evidence: observation.evidence };
  // Cut short by a cancel, nothing seen yet is no sign of a no-op: there is nothing to retry or escalate.
  if (base.cancelled) return { ...base, effect: 'unverifiable', verified: false };
  if (observation?.listening) {
    const escalation = input.escalation ?? (observation.commandUndrawn ? undrawnEscalation(input.mode) : defaultEscalation(input.mode, input.path));
    return { ...base, effect: 'suspected_noop', verified: false, evidence: [], escalation: observation.ownChanges ? withOwnChanges(escalation, observation.ownChanges) : escalation };
  }
  return { ...base, effect: 'unverifiable', verified: false };
}

/** The advice after no effect, saying first which changes the app made by itself and why they are not counted. */
function withOwnChanges(escalation: Escalation, changes: readonly string[]): Escalation {
  return { ...escalation, reason: `only what the app changes on its own changed (${changes.join('; ')}), as it did before the action too, which is not counted as its effect; ${escalation.reason}` };
}

/**
 * The action was dispatched and the app did not answer in time. Never a failure and never a suggestion to
 * retry (that would run the action twice, e.g. open a second dialog): confirmed when the read-back shows
 * the effect anyway, else unverifiable, with the windows the app opened meanwhile named.
 */
function unansweredOutcome(base: Omit<ActionOutcome, 'effect' | 'verified'>, observation: Observation): ActionOutcome {
  const { call, timeoutMs, loopInside } = observation.unanswered!;
  const opened = observation.newWindows ?? [];
  const windows = opened.map((window) => `window ${window.window_id} ${windowName(window)}`).join(', ');
  const note = loopInside
    ? `${unansweredNoteStart(call, timeoutMs)}, while it answered other calls: its toolkit runs what the action opened (a menu, a modal dialog) inside the call, which it answers once that closes; the app is not hung` +
      (opened.length > 0 ? `; it opened ${windows}: read it with get_window_state before acting again` : '')
    : `${unansweredNoteStart(call, timeoutMs)} (typically because the action opened a modal dialog, whose event loop runs inside the call); ` +
      (opened.length > 0
        ? `the app opened ${windows} meanwhile: read it with get_window_state before acting again`
        : 'no new window of the app appeared; it may be busy or hung: check with get_window_state before repeating the action');
  const result = { ...base, no_reply_ms: timeoutMs, no_reply_call: call, evidence: [note, ...observation.evidence] };
  const outcome: ActionOutcome = observation.changed ? { ...result, effect: 'confirmed', verified: true } : { ...result, effect: 'unverifiable', verified: false };
  return heldByDialog(outcome, opened[0]?.pid ?? 0);
}

/** What heldByDialog reads and sets of a result: the backend's outcome, or the tool's result after it. */
interface HeldFields {
  effect: ActionOutcome['effect'];
  verified: boolean;
  evidence?: string[];
  escalation?: Escalation;
  no_reply_ms?: number;
  no_reply_call?: string;
  reply_held_by_dialog?: number;
  new_windows?: readonly NewWindow[];
  cancelled?: boolean;
}

/** How an unanswered call's note in the evidence begins: written from the fields, found by them. */
function unansweredNoteStart(call: string, timeoutMs: number): string {
  return `${call} was dispatched and the application did not answer within ${timeoutMs} ms`;
}

/**
 * An action call that went unanswered while a dialog of its app opened is that dialog opening: Qt (and any toolkit
 * that runs a modal dialog's event loop inside the DoAction, SelectChild, text or value call) answers the call only
 * once the dialog closes. SpeedCrunch's Help > About, chosen through invoke_menu, answered "confirmed ... (the app did
 * not answer the call within 2000 ms)", framing the dialog it opened as an app that did not answer. Such a result is
 * confirmed by the dialog, names it in reply_held_by_dialog, and says so in place of the unanswered call's note.
 * Applied wherever a result's new windows are known (the backend's observation, the tool layer's listing after it).
 */
export function heldByDialog<R extends HeldFields>(result: R, pid: number): R {
  if (result.no_reply_ms === undefined || result.reply_held_by_dialog !== undefined || result.cancelled) return result;
  const dialog = result.new_windows?.find((window) => window.dialog && window.pid === pid);
  if (!dialog) return result;
  const evidence = result.evidence ?? [];
  const call = result.no_reply_call ?? 'the action call';
  const start = result.no_reply_call !== undefined ? unansweredNoteStart(result.no_reply_call, result.no_reply_ms) : undefined;
  const noteAt = start === undefined ? -1 : evidence.findIndex((line) => line.startsWith(start));
  const line =
    `${call} opened the dialog window ${dialog.window_id} ${windowName(dialog)}: its toolkit runs the dialog inside the call, which answers once the dialog closes ` +
    `(after ${result.no_reply_ms} ms without that answer the driver went on; the app is not hung); answer or close the dialog (window_id ${dialog.window_id}) before acting in the window under it`;
  const rest = evidence.filter((_, i) => i !== noteAt && evidence[i] !== windowOpenedLine(dialog));
  return { ...result, effect: 'confirmed', verified: true, escalation: undefined, reply_held_by_dialog: dialog.window_id, evidence: [line, ...rest] };
}

/** Nothing was sent: the honest answer when no rung of the asked delivery mode reaches the target. */
export function notDelivered(mode: DeliveryMode, reason: string, recommended: Escalation['recommended'] = 'foreground'): ActionOutcome {
  return actionOutcome({ path: 'none', mode, escalation: { recommended, reason } });
}

/**
 * Nothing was sent because the element already holds what was asked: a person would change nothing either, and a
 * value set again would show no change, which must not read as an action that failed (set_value of a combo box's
 * own choice or a field's own text answered "no effect seen" with advice to retry in the foreground).
 */
export function nothingToChange(mode: DeliveryMode, already: string): ActionOutcome {
  return { path: 'none', delivery_mode: mode, effect: 'confirmed', verified: true, evidence: [`${already} already: nothing to change`] };
}
