// Clicks, double clicks and right clicks, by element or at a point: the rungs of each delivery mode.
import { focusedTextAttributesProbes } from './text-attributes-probe.js';
import { ATSPI_ROLE, ATSPI_STATE } from '../../../cup/atspi/constants.js';
import { decodeStateSet, hasState } from '../../../cup/atspi/states.js';
import { actionOutcome, notDelivered, nothingToChange, type ActionOutcome, RETRY_IN_FOREGROUND } from '../../action-outcome.js';
import type { ElementTarget, PointerKind, PointerOptions, PointTarget, SnapshotRef } from '../../targets.js';
import { ToolError } from '../../../errors.js';
import type { AccessibilityEvent } from '../atspi/event-monitor.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { ancestry, characterCount, offsetAtPoint, parentOf, readInterfaces, readObject, setCaretOffset } from '../atspi/operations.js';
import { click as pointerClick, moveTo, syntheticClick } from '../input/index.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import type { X11Connection } from '../x11/index.js';
import type { Observation } from '../../action-outcome.js';
import { clickingChild, findGestureAction, focusElement, performAction } from './accessible-actions.js';
import { elementScreenPoint, mightScrollIntoView, pointOnScreen, screenPointNow, visibleBox, type PlacedPoint } from './element-point.js';
import { reachablePoint, syntheticEventWindow } from './point-cover.js';
import { coverRefAt } from './page-cover.js';
import { itemGesture, itemOutcome, type ActionOn, type ItemGesture } from './item-gestures.js';
import { itemSelected } from './item-selection.js';
import { actionable, enabledOrRefused, inUnmarkedView, isDisabled, liveTarget, refuseDisabled, type LiveElementTarget } from './live-target.js';
import { toolkitName, withForeground } from './real-input.js';
import { drawnSurfaceOf, itemViewsOf, withSurfacePixels } from './drawn-surface-pixels.js';
import { observePixels, pixelsAtRest, syntheticEventsReach } from './synthetic-rung.js';
import { liveStates } from './live-states.js';
import { nothingUnlessUnresponsive, objectUnderInput, unansweredPixels } from './unresponsive.js';
import { caretProbe, elementLabel, nameProbe, observe, opensWindow, pressLike, pushedOnly, selectionProbe, stateProbe, statesProbe, type Probe } from './verification.js';
import { indexedLabel } from '../../../cup/element-label.js';
import { focusTakenByClick } from './press-focus.js';
import { closeMenuLeftOpen } from './menu-grab.js';
import { terminalQuiet } from './terminal-quiet.js';

const buttons: Record<PointerKind, 'left' | 'right'> = { click: 'left', double_click: 'left', right_click: 'right' };
const gestureWords: Record<PointerKind, string> = { click: 'click', double_click: 'double-click', right_click: 'right-click (context menu)' };

const clickStates = ['checked', 'pressed', 'selected', 'expanded', 'focused'];

/** What a click's judgement asks of the clicked object: its interfaces, and its states and AT-SPI role where known. */
interface ClickedObject {
  interfaces: readonly string[];
  states?: readonly number[];
  atspiRole?: number;
}

/** The clicked element as ClickedObject, with its object for the observation's ignores (see clickIgnores). */
function clickedElement(target: LiveElementTarget): ClickedObject & { ref: ObjectRef } {
  return { ...target.live, atspiRole: target.live.role, ref: target.ref };
}

/**
 * A click moves the focus to what it clicks (Blink focuses a button it clicks through accessibility, GTK one it
 * clicks for real): only on a field, clicked to type into, is that the click's effect. On anything else the focus
 * moving, to the target or away from what had it, confirms nothing: a click on a button that did nothing was
 * confirmed by its own +foc.
 */
function focusIsEffect(object: ClickedObject): boolean {
  // A spin button is a field for its digits, editable or not: a page's date part (Blink's, Gecko's) takes typed digits
  // with no editable text, and a real click into Firefox's Day part, which took the focus as a person's does, read
  // "no effect seen" and advised finding it by pixels.
  if (object.atspiRole === ATSPI_ROLE.SPIN_BUTTON) return true;
  // A field is told by its EDITABLE state: Blink's fields have no EditableText, and Gecko gives a page's buttons
  // EditableText too. Without states, EditableText is all there is to go on.
  return object.states !== undefined ? decodeStateSet(object.states).has('STATE_EDITABLE') : object.interfaces.includes('EditableText');
}

/** The states a click on this object may be confirmed by: the focused state only on a field (see focusIsEffect). */
function statesToRead(states: readonly string[], object: ClickedObject): string[] {
  return states.filter((state) => state !== 'focused' || focusIsEffect(object));
}

/** The focus moving: what a press does wherever it lands, never by itself the effect of a click or a drag. */
export const focusMove = (event: AccessibilityEvent) => event.kind === 'StateChanged' && event.detail === 'focused';

/**
 * The clicked object's own ARMED state going on (and off): the press itself, which any click makes whether the app acts
 * on it or not, as a push button's own pressed state is (see pushedOnly). GTK 2 arms a button while its click action
 * presses it: gpicview's Back, with no other image to go back to, changed nothing and read "confirmed" by `armed on and
 * back`.
 */
function ownArming(ref: ObjectRef): (event: AccessibilityEvent) => boolean {
  return (event) => event.kind === 'StateChanged' && event.detail === 'armed' && event.path === ref.path && event.sender === ref.bus;
}

/** What a click's observation leaves out: the focus moving, unless the target is a field; the target's own arming (ownArming); and `also`. */
function clickIgnores(target: ClickedObject & { ref: ObjectRef }, also?: (event: AccessibilityEvent) => boolean): { ignore: (event: AccessibilityEvent) => boolean } {
  const armed = ownArming(target.ref);
  const field = focusIsEffect(target);
  return { ignore: (event) => armed(event) || (!field && focusMove(event)) || (also?.(event) ?? false) };
}

async function probesFor(desktop: LinuxDesktop, target: LiveElementTarget, states: readonly string[] = clickStates): Promise<Probe[]> {
  const label = `[e${target.element.index}]`;
  // A push button that is no toggle is pressed by any click, taken or not: its pressed or checked state tells nothing
  // (see pushedOnly), unless its toolkit marks its toggle buttons so (GTK 4.8's toggle buttons are push buttons whose
  // PRESSED is their on state: a background click on one toggled it and was told "no effect seen").
  const quirks = await (await desktop.atspi()).quirksOf(target.ref.bus).catch(() => undefined);
  const pushButton = !quirks?.pressedMarksToggles && pushedOnly(target.live.role, decodeStateSet(target.live.states));
  const read = statesToRead(states, clickedElement(target)).filter((state) => !(pushButton && pressLike.has(state)));
  // A toolbar's Bold button formats the text selected in the focused editor, where its effect shows.
  return [nameProbe(desktop, target.ref, label), statesProbe(desktop, target.ref, label, read, target.live.role, target.element.role), ...focusedTextAttributesProbes(desktop, target.snapshot, target.ref)];
}

/**
 * What a real click does in a text (a field, a document, an editor) that nothing else shows: it puts the caret where
 * it lands, a double click selects the word there and a triple click the line, and shift with a click selects up to
 * the point. So the text's selection is read before and after, and in an editable text its caret too (secondary: the
 * selection's line says more; a page's caret, which no one sees, moves wherever a click lands), as keys that move them
 * are: a click between two words of GtkTextView's text, a double click on a word and a triple click read "no effect
 * seen" with advice to retry, the caret moved and the word selected as asked. The text is the object under the point
 * or, when that has none, its parent: Qt puts a text edit's viewport, an empty filler, over its text. None for a point
 * over no text.
 */
async function textProbesAt(desktop: LinuxDesktop, hit: ObjectRef | undefined, snapshot: SnapshotRef | undefined, label?: string): Promise<Probe[]> {
  if (!hit) return [];
  const client = await desktop.atspi();
  const hasText = async (ref: ObjectRef) => (await readInterfaces(client, ref).catch((): string[] => [])).includes('Text');
  let ref: ObjectRef | undefined = hit;
  if (!(await hasText(hit))) {
    const parent = await parentOf(client, hit).catch(() => undefined);
    ref = parent && (await hasText(parent)) ? parent : undefined;
  }
  if (!ref) return [];
  const named = ref === hit && label ? label : (await elementLabel(desktop, snapshot, ref)).label;
  const editable = (await liveStates(desktop, ref).catch(() => new Set<string>())).has('STATE_EDITABLE');
  return [selectionProbe(desktop, ref, named), ...(editable ? [caretProbe(desktop, ref, named)] : [])];
}

/**
 * A real click goes to whatever is at the point, and what covers an element there (a page's overlay, a cookie
 * banner) takes it instead: the focus then leaves the element for the page around it, which is where the click
 * landed, never the element's doing. For a target that has the focus, the focus events that say so (the target
 * losing it, an ancestor gaining it) are told apart, so that they alone never confirm the click (a field's own
 * focus counts otherwise, see focusIsEffect); undefined for a target without the focus, where no such move can be
 * mistaken for an effect.
 */
async function focusAside(desktop: LinuxDesktop, target: LiveElementTarget): Promise<{ ignore: (event: AccessibilityEvent) => boolean } | undefined> {
  if (!decodeStateSet(target.live.states).has('STATE_FOCUSED')) return undefined;
  const around = new Set(await ancestors(desktop, target.ref));
  return {
    ignore: (event) =>
      event.kind === 'StateChanged' && event.detail === 'focused' && event.sender === target.ref.bus && (event.path === target.ref.path ? event.detail1 === 0 : around.has(event.path)),
  };
}

/** The paths of the object's ancestors in its application, its parent first. */
async function ancestors(desktop: LinuxDesktop, ref: ObjectRef): Promise<string[]> {
  return (await ancestry(await desktop.atspi(), ref)).paths;
}

/**
 * Whether what the page's hit test found over the element where it was clicked, with nothing freeing the element of it
 * (PlacedPoint.coveredBy), took a click that changed something: it holds the focus now, or is gone (a bubble or an
 * overlay a click closes), and the element holds none. Chromium's "Save password?" bubble lay over a page's Name
 * field; the click focused the bubble's Password field and read "confirmed" for the Name field.
 */
async function coverTookClick(desktop: LinuxDesktop, target: LiveElementTarget, cover: ObjectRef): Promise<boolean> {
  const own = await liveStates(desktop, target.ref).catch(() => undefined);
  if (!own || own.has('STATE_FOCUSED')) return false;
  const states = await liveStates(desktop, cover).catch(() => undefined);
  return states === undefined || states.has('STATE_DEFUNCT') || states.has('STATE_FOCUSED');
}

/** What the toolkit's hit test finds over the element where it was clicked (see coverRefAt), as the escalation names it. */
async function coverAt(desktop: LinuxDesktop, target: LiveElementTarget, point: PlacedPoint): Promise<string | undefined> {
  const hit = await coverRefAt(desktop, target, point);
  return hit && (await elementLabel(desktop, target.snapshot, hit)).label;
}

/**
 * Puts a field's caret where a real click at the middle of its visible part would: on the character there, or at
 * the end of the text when the point lies past it (a short text's field). Focus given through accessibility leaves
 * the caret where the app last put it, which is the start of a text the app set itself: Gnumeric's name box held
 * "A6", a click with text "B5" typed "B5A6", and its Return defined a name instead of going to B5. Best effort: a
 * field without a place on screen or a toolkit that refuses keeps its caret.
 */
async function caretWhereClicked(desktop: LinuxDesktop, target: LiveElementTarget): Promise<void> {
  if (!target.live.interfaces.includes('Text')) return;
  const client = await desktop.atspi();
  // Where it shows now: nothing is scrolled for it (a field out of view takes the end of its text).
  const box = await visibleBox(desktop, target).catch(() => undefined);
  const placed = box && !('why' in box) ? box : undefined;
  const at = placed ? await offsetAtPoint(client, target.ref, Math.round(placed.x + placed.w / 2), Math.round(placed.y + placed.h / 2)).catch(() => -1) : -1;
  const offset = at >= 0 ? at : await characterCount(client, target.ref).catch(() => -1);
  if (offset >= 0) await setCaretOffset(client, target.ref, offset).catch(() => false);
}

/**
 * A click on the tab that is shown already, with no action of its own to run, asks for what is so: selecting a
 * selected item sends nothing, and a person's click there changes nothing either. It read "no effect seen" with advice
 * to retry in the foreground, where the click does no more (Geany's Symbols tab; HexChat's, a GTK 2 tab whose tab list's
 * Selection alone says it is shown, see itemSelected). A list's or tree's row is not so
 * judged: a real click on a selected row may still act (Geany jumps to a symbol's line).
 */
async function shownTabAlready(desktop: LinuxDesktop, target: LiveElementTarget, kind: PointerKind, item: ItemGesture | undefined): Promise<boolean> {
  if (kind !== 'click' || target.live.role !== ATSPI_ROLE.PAGE_TAB) return false;
  if (item) return !item.then && item.selection.item.path === target.ref.path && item.selection.item.bus === target.ref.bus && (await itemSelected(desktop, item.selection, decodeStateSet(target.live.states)));
  // Qt 5's tab bar has no Selection and says FOCUSED, never SELECTED, of its current tab (the tree reads it selected):
  // a click on Qt5 Configuration Tool's shown tab read "no effect seen" and advised the foreground.
  if (hasState(target.live.states, ATSPI_STATE.FOCUSED) !== true) return false;
  return (await (await desktop.atspi()).quirksOf(target.ref.bus).catch(() => undefined))?.focusMarksCurrentItems === true;
}

/**
 * A click on a radio button that is checked already asks for what is so: no click unchecks one, and its group keeps
 * it. It is sent all the same (an app may act on the click itself); when it shows no effect, that is no failure. System
 * Monitor's Processes switch (a stack switcher's radio button), clicked while shown, read "no effect seen" with
 * advice to retry in the foreground, where the click does no more.
 */
function checkedRadioAlready(target: LiveElementTarget, kind: PointerKind): boolean {
  return kind === 'click' && target.live.role === ATSPI_ROLE.RADIO_BUTTON && hasState(target.live.states, ATSPI_STATE.CHECKED) === true;
}

/** The outcome of a click on a radio button checked already that changed nothing (checkedRadioAlready). */
function checkedAlready(observation: Observation, target: LiveElementTarget): ActionOutcome {
  const label = `[e${target.element.index}] ${target.element.role} ${JSON.stringify(target.element.name)}`;
  return actionOutcome({ path: 'x11_atspi', mode: 'background', observation: { ...observation, changed: true, evidence: [`${label} was checked already, and still is: nothing to change`] } });
}

/** `ready` (see PointerOptions.ready) is awaited before anything is sent: what comes before it only reads. */
async function backgroundElement(desktop: LinuxDesktop, target: LiveElementTarget, kind: PointerKind, ready: Promise<void> | undefined): Promise<ActionOutcome> {
  const element = actionable(target);
  // Its connection opens while it reads (see openAloneAhead), as most of what this sends goes over one of its own.
  (await desktop.atspi()).openAloneAhead(target.ref.bus);
  const action = await findGestureAction(desktop, element, kind);
  const snapshot = target.snapshot;
  const item = await itemGesture(desktop, element, target.live.role, kind, action, target.window.active);
  if (await shownTabAlready(desktop, target, kind, item)) return nothingToChange('background', `tab [e${target.element.index}] "${target.element.name}" is the one shown`);
  if (item) {
    const probes = await probesFor(desktop, target);
    if (item.selection.item !== target.ref) probes.push(stateProbe(desktop, item.selection.item, `the item [e${target.element.index}] lies in`, 'selected'));
    await ready;
    return itemOutcome(desktop, target.ref.bus, probes, item, snapshot, target.element.name);
  }
  const acting = action ? { element, action } : kind === 'click' ? await clickingChild(desktop, element) : undefined;
  if (acting) {
    const probes = await probesFor(desktop, target);
    const tree = () => observe(desktop, target.ref.bus, probes, () => performAction(desktop, acting.element, acting.action), { snapshot, opensWindow: kind === 'click' && opensWindow(target.element.name), opensItems: kind === 'double_click', inPopup: target.ref, ready, ...clickIgnores(clickedElement(target)) });
    // What the action did to items a view draws without exposing them shows in that view's pixels alone (itemViewsOf).
    const views = await itemViewsOf(desktop, target.window, snapshot);
    const acted = views.length > 0 ? await desktop.elementBounds(target.window, target.ref).catch(() => undefined) : undefined;
    const own = acted && { x: acted.x - target.window.bounds.x, y: acted.y - target.window.bounds.y, w: acted.w, h: acted.h };
    const observation = views.length > 0 ? await withSurfacePixels(desktop, target.window, views, tree, own) : await tree();
    const focusMoved = await focusTakenByClick(desktop, acting.element.ref, target.window, acting.action.name, indexedLabel(target.element));
    if (!observation.changed && checkedRadioAlready(target, kind)) return withLine(checkedAlready(observation, target), focusMoved);
    // Whatever the entry changed: a person's click on it closes its menu either way.
    const menuClosed = kind === 'click' ? await closeMenuLeftOpen(desktop, target.window, target.element.role, target.ref) : undefined;
    return withLine(withLine(actionOutcome({ path: 'x11_atspi', mode: 'background', observation }), focusMoved), menuClosed);
  }
  // Clicking an editable field means putting the caret in it: focus is that click's whole effect. Editable, not
  // just EditableText: Gecko gives that interface to a page's buttons and headers too, whose click is no focusing.
  if (kind === 'click' && target.live.interfaces.includes('EditableText') && hasState(target.live.states, ATSPI_STATE.EDITABLE) === true) {
    const label = `[e${target.element.index}]`;
    // GTK 2 and 3 present the window of what they focus this way: a background click on a field behind another
    // window activated and raised it, unannounced. Its text is reached without the focus.
    if (!target.window.active && (await (await desktop.atspi()).quirksOf(target.ref.bus)).focusActivatesWindow) {
      return notDelivered(
        'background',
        `putting the caret in ${label} means focusing it, and its app raises window ${target.window.id} (not the active window) to focus anything through accessibility; nothing was sent. ` +
          `type_text and set_value with its element_index reach the field in the background without the focus; for the focus itself, ${RETRY_IN_FOREGROUND}`,
      );
    }
    const observation = await observe(desktop, target.ref.bus, [stateProbe(desktop, target.ref, label, 'focused')], async () => {
      if (!(await focusElement(desktop, element))) throw new ToolError('the application refused to focus the field', 'focus_refused');
      await caretWhereClicked(desktop, target);
    }, { snapshot, ready });
    return actionOutcome({ path: 'x11_atspi', mode: 'background', observation });
  }
  const toolkit = await toolkitName(desktop, target.ref.bus);
  const passive = !target.live.interfaces.includes('Action');
  return notDelivered(
    'background',
    passive
      ? `[e${target.element.index}] ${target.element.role} offers no accessibility action to ${gestureWords[kind]}; ${toolkit} ignores synthetic X events, so nothing was sent: ${RETRY_IN_FOREGROUND} (real input), or pick an actionable element`
      : `[e${target.element.index}] has no accessibility action for a ${gestureWords[kind]} and ${toolkit} ignores synthetic X events; nothing was sent: ${RETRY_IN_FOREGROUND} (real input)`,
  );
}

/** What performs a gesture at a point: an accessibility action, or a gesture on a list or tree item. */
type PointGesture = { ref: ObjectRef; name: string; states?: readonly number[] } & (ActionOn | ItemGesture);

/**
 * The object under a point that performs a gesture: the deepest object there, or the nearest ancestor
 * with the action, as a real click on a button's label lands on the button (or on a row's label selects the row).
 */
async function gestureAt(desktop: LinuxDesktop, target: PointTarget, kind: PointerKind): Promise<PointGesture | undefined> {
  const client = await desktop.atspi();
  const unanswered = nothingUnlessUnresponsive(target.window.pid, desktop.callTimeoutMs);
  let ref = await desktop.accessibleAt(target.window, target.screenX, target.screenY).catch(unanswered);
  for (let depth = 0; ref && depth < 4; depth++) {
    const live = await readObject(client, ref).catch(unanswered);
    if (!live) return undefined;
    const candidate = { ref, interfaces: live.interfaces };
    const action = await findGestureAction(desktop, candidate, kind);
    // What would take the gesture is disabled: its action would do nothing.
    if (action && isDisabled(live.states) && !(await inUnmarkedView(desktop, ref, live.role))) refuseDisabled(live.states, `the element under the point${live.name ? ` ("${live.name}")` : ''}`, gestureWords[kind]);
    const item = await itemGesture(desktop, candidate, live.role, kind, action, target.window.active);
    if (item) return { ref: item.selection.item, name: live.name, ...item };
    if (action) return { ref, name: live.name, states: live.states, action, candidate };
    ref = await parentOf(client, ref).catch(() => undefined);
  }
  return undefined;
}

/** The outcome with one more evidence line, when there is one, whatever its verdict (a no-op's evidence too). */
function withLine(outcome: ActionOutcome, line: string | undefined): ActionOutcome {
  return line ? { ...outcome, evidence: [...(outcome.evidence ?? []), line] } : outcome;
}

async function backgroundPoint(desktop: LinuxDesktop, target: PointTarget, kind: PointerKind): Promise<ActionOutcome> {
  const found = await gestureAt(desktop, target, kind);
  if (found) {
    const label = found.name ? `"${found.name}"` : 'the element under the point';
    const probes = (states: readonly string[]) => [nameProbe(desktop, found.ref, label), statesProbe(desktop, found.ref, label, states)];
    // An item's gesture (selecting a row) is judged with its focus: the selection moves it.
    if ('selection' in found) return itemOutcome(desktop, found.ref.bus, probes(clickStates), found, target.snapshot, found.name);
    const pointed = { ...found.candidate, states: found.states };
    const observation = await observe(desktop, found.ref.bus, probes(statesToRead(clickStates, pointed)), () => performAction(desktop, found.candidate, found.action), { snapshot: target.snapshot, opensItems: kind === 'double_click', ...clickIgnores({ ...pointed, ref: found.ref }) });
    const focusMoved = await focusTakenByClick(desktop, found.candidate.ref, target.window, found.action.name, label);
    return withLine(actionOutcome({ path: 'x11_atspi', mode: 'background', observation }), focusMoved);
  }
  const synthetic = await syntheticEventsReach(desktop, target.window, 'pointer');
  if (synthetic.accepted) return syntheticPointer(desktop, target, kind);
  const toolkit = synthetic.toolkit;
  return notDelivered(
    'background',
    `nothing under (${Math.round(target.windowX)},${Math.round(target.windowY)}) offers an accessibility action for a ${gestureWords[kind]}, and ${toolkit} ignores synthetic X events; nothing was sent: ${RETRY_IN_FOREGROUND}`,
  );
}

/**
 * The x11_pixel rung: a click sent as X events, verified by the window's pixels. A double click is two
 * clicks with the same timestamp, which X toolkits count as one multi-click.
 */
async function syntheticPointer(desktop: LinuxDesktop, target: PointTarget, kind: PointerKind, clicks = kind === 'double_click' ? 2 : 1): Promise<ActionOutcome> {
  const x = await desktop.x11();
  const top = await syntheticEventWindow(x, target);
  const observation = await observePixels(desktop, target.window, () => syntheticClick(x, top, { x: target.screenX, y: target.screenY }, buttons[kind], clicks), undefined, { command: true });
  return actionOutcome({ path: 'x11_pixel', mode: 'background', observation });
}

const tripleClickNeedsInput = `a triple click has no accessibility action; nothing was sent: ${RETRY_IN_FOREGROUND} (real input)`;

/** A triple click at a point in the background: three clicks sent as X events, to an app that takes them (xterm selects a line). */
async function syntheticTripleClick(desktop: LinuxDesktop, target: PointTarget): Promise<ActionOutcome> {
  const synthetic = await syntheticEventsReach(desktop, target.window, 'pointer');
  if (synthetic.accepted) return syntheticPointer(desktop, target, 'click', 3);
  return notDelivered('background', tripleClickNeedsInput.replace(';', `, and ${synthetic.toolkit} ignores synthetic X events;`));
}

/**
 * The element's point read again once the pointer is in its window. LibreOffice (its GTK3 plugin) places its toolbars
 * and document for accessibility as they were before its GTK menu bar pushed them down, 25 pixels too high, until the
 * pointer first enters the window (then within a few ms): a foreground click on Writer's Bold, placed so, landed on
 * the Standard toolbar's separator above it. The pointer is moved to the point first placed (it is on its way there
 * anyway) and the element placed again; a point that moved is the one clicked. A busy LibreOffice places it anew only
 * later (not within 300 ms in a document just opened): a click that showed no effect on an element placed elsewhere
 * since is sent again where it is now (foreground()).
 */
async function placedOnceEntered(desktop: LinuxDesktop, x: X11Connection, target: LiveElementTarget, placed: PlacedPoint): Promise<PlacedPoint> {
  await moveTo(x, { x: placed.screenX, y: placed.screenY });
  const again = await screenPointNow(desktop, target, x).catch(() => placed);
  return movedFrom(placed, again) ? { ...again, ...(placed.scrolledIntoView ? { scrolledIntoView: true } : {}) } : placed;
}

function movedFrom(before: PlacedPoint, now: PlacedPoint): boolean {
  return Math.abs(now.screenX - before.screenX) > 1 || Math.abs(now.screenY - before.screenY) > 1;
}

/** How long a multi-click's app stays quiet before its effect counts as complete, and how long that is waited for at most. */
const multiClickQuietMs = 100;
const multiClickGraceMs = 600;

async function foreground(desktop: LinuxDesktop, target: LiveElementTarget | PointTarget, kind: PointerKind, modifiers: readonly string[], clicks: number): Promise<ActionOutcome> {
  // An element with nowhere to click is refused before the window is touched; a minimized window has no
  // geometry until it is restored, so its targets are placed once it is active.
  // One scrolled out of its list that neither the toolkit nor the scroll bar brings into view is placed
  // again with the window in front, where the wheel may.
  let early: PlacedPoint | undefined;
  if (!target.window.minimized) {
    try {
      early = target.kind === 'element' ? await elementScreenPoint(desktop, target) : await pointOnScreen(desktop, target);
    } catch (error) {
      if (!mightScrollIntoView(error)) throw error;
    }
  }
  const aside = target.kind === 'element' ? await focusAside(desktop, target) : undefined;
  const probes = target.kind === 'element' ? await probesFor(desktop, target, aside ? clickStates.filter((state) => state !== 'focused') : clickStates) : [];
  let scrolledIntoView = false;
  let clicked: PlacedPoint | undefined;
  let coverLabel: string | undefined;
  const attempt = async (x: X11Connection, placed: PlacedPoint): Promise<Observation> => {
    const point = await reachablePoint(desktop, x, target, placed);
    clicked = point;
    // Named before the click, which may close it.
    coverLabel = point.coveredBy && target.kind === 'element' ? (await elementLabel(desktop, target.snapshot, point.coveredBy).catch(() => undefined))?.label : undefined;
    scrolledIntoView = point.scrolledIntoView === true;
    const under = target.kind === 'element' ? { ref: target.ref } : await objectUnderInput(desktop, point.window, point.screenX, point.screenY);
    const hit = under.ref;
    const app = hit?.bus;
    const click = async () => {
      await pointerClick(x, { x: point.screenX, y: point.screenY }, { button: buttons[kind], count: clicks, modifiers: [...modifiers] });
    };
    // No accessibility for the app under the point: its pixels are the read-back, taken once the pointer is over the
    // point and the window has drawn what hovering there draws, so a highlight alone never confirms a click.
    if (!app) {
      await moveTo(x, { x: point.screenX, y: point.screenY });
      await pixelsAtRest(desktop, point.window);
      const seen = await observePixels(desktop, point.window, click, undefined, { command: true });
      return under.silent ? unansweredPixels(seen, point.window.pid, desktop.callTimeoutMs) : seen;
    }
    const textProbes = await textProbesAt(desktop, hit, target.snapshot, target.kind === 'element' ? `[e${target.element.index}]` : undefined);
    const tree = () =>
      observe(desktop, app, [...probes, ...textProbes], click, {
        snapshot: target.snapshot,
        inPopup: hit,
        opensItems: kind === 'double_click',
        // The server has taken every click of a double or triple click when the action returns, but the app takes them
        // one event at a time, answering questions between: a triple click read back the word its second click selected,
        // the line its third selected coming later (a loaded CI machine). The burst of effects ends at a longer quiet.
        ...(clicks > 1 ? { quietMs: Math.max(multiClickQuietMs, terminalQuiet(target.snapshot) ?? 0), graceMs: multiClickGraceMs } : {}),
        ...(target.kind === 'element' ? { opensWindow: kind === 'click' && opensWindow(target.element.name), ...clickIgnores(clickedElement(target), aside?.ignore) } : {}),
      });
    // A surface the app draws (a game's board) shows the click's effect in its pixels only, read once hovering has drawn.
    const surface = await drawnSurfaceOf(desktop, point.window, hit);
    if (!surface) return tree();
    await moveTo(x, { x: point.screenX, y: point.screenY });
    await pixelsAtRest(desktop, point.window);
    return withSurfacePixels(desktop, point.window, surface, tree);
  };
  const observation = await withForeground(desktop, target.window, async (x) => {
    const first = early ?? (await screenPointNow(desktop, target, x));
    if (target.kind !== 'element') return attempt(x, first);
    const seen = await attempt(x, await placedOnceEntered(desktop, x, target, first));
    const missed = clicked;
    if (seen.changed || seen.cancelled || seen.unanswered || seen.stoppedAnswering || !missed) return seen;
    const now = await screenPointNow(desktop, target, x).catch(() => undefined);
    if (!now || !movedFrom(missed, now)) return seen;
    const again = await attempt(x, now);
    const where = (point: PlacedPoint) => `${Math.round(point.windowX)},${Math.round(point.windowY)}`;
    return { ...again, evidence: [`[e${target.element.index}] was placed at ${where(missed)} (window pixels) when clicked there with no effect, and at ${where(now)} since: clicked again there`, ...again.evidence] };
  }, target.kind === 'element' ? { aimedAt: target.ref } : {});
  const covered = aside && !observation.changed && target.kind === 'element' && !(await liveStates(desktop, target.ref).catch(() => new Set<string>())).has('STATE_FOCUSED');
  const tookIt = observation.changed && target.kind === 'element' && clicked?.coveredBy !== undefined && (await coverTookClick(desktop, target, clicked.coveredBy));
  if (tookIt && target.kind === 'element') {
    const escalation = {
      recommended: 'px' as const,
      reason:
        `${coverLabel ?? 'another object'} lay over [e${target.element.index}] where it was clicked (nothing on the page left a part of [e${target.element.index}] free of it) and took the click: ` +
        `what changed is its doing, not [e${target.element.index}]'s; close or dismiss it first (a bubble, a banner, a dialog, an overlay), or click [e${target.element.index}] in the background, which reaches it through accessibility`,
    };
    const outcome = actionOutcome({ path: 'x11_pixel_fg', mode: 'foreground', observation });
    return { ...outcome, effect: 'suspected_noop', verified: false, escalation, ...(scrolledIntoView ? { scrolled_into_view: true } : {}) };
  }
  // A click that showed nothing on an element another object lies over: that object took it.
  const cover = !covered && !observation.changed && target.kind === 'element' && clicked ? await coverAt(desktop, target, clicked) : undefined;
  const escalation = covered
    ? {
        recommended: 'px' as const,
        reason:
          `the focus left [e${target.element.index}] for what surrounds it: the click landed on something else at that point (an overlay, a banner, a dialog over it), ` +
          `and [e${target.element.index}] did not take it; read the window (its screenshot shows what covers the element) and deal with that first, or click it in the background, which reaches it through accessibility`,
      }
    : cover && target.kind === 'element'
      ? {
          recommended: 'px' as const,
          reason:
            `${cover} lies over [e${target.element.index}] where it was clicked and took the click: close or dismiss it first (a banner, a dialog, an overlay), ` +
            `or click [e${target.element.index}] in the background, which reaches it through accessibility`,
        }
      : undefined;
  const outcome = actionOutcome({ path: 'x11_pixel_fg', mode: 'foreground', observation, ...(escalation ? { escalation } : {}) });
  return scrolledIntoView ? { ...outcome, scrolled_into_view: true } : outcome;
}

/** A pointer gesture on an element or a point, by the rungs of the delivery mode asked for. */
export async function pointerAction(
  desktop: LinuxDesktop,
  aimed: ElementTarget | PointTarget,
  kind: PointerKind,
  options: PointerOptions,
): Promise<ActionOutcome> {
  const clicks = options.count ?? (kind === 'double_click' ? 2 : 1);
  const target = aimed.kind === 'element' ? await enabledOrRefused(desktop, await liveTarget(desktop, aimed), gestureWords[kind]) : aimed;
  // An accessibility action on an element reads its action, its popup and its values before acting while the caller
  // readies (the diff's reading before: a click's reads had waited for a reading that changes nothing they need);
  // every other gesture waits here, before anything of its own.
  if (!(target.kind === 'element' && options.mode !== 'foreground' && options.modifiers.length === 0 && clicks !== 3)) await options.ready;
  if (options.mode === 'foreground') return foreground(desktop, target, kind, options.modifiers, clicks);
  if (options.modifiers.length > 0) {
    return notDelivered(options.mode, `a click with held modifier keys needs real input; nothing was sent: ${RETRY_IN_FOREGROUND}`);
  }
  // No accessibility action means a triple click (a line or paragraph selected): only clicks sent as X events do.
  if (clicks === 3) return target.kind === 'point' ? syntheticTripleClick(desktop, target) : notDelivered(options.mode, tripleClickNeedsInput);
  return target.kind === 'element' ? backgroundElement(desktop, target, kind, options.ready) : backgroundPoint(desktop, target, kind);
}
