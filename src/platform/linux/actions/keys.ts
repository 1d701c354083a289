// Keys: what accessibility can do in their place, key events where the app takes them, or real keys.
import { textAttributesProbe } from './text-attributes-probe.js';
import { foregroundReturnCall, returnRefusal } from './return-refusal.js';
import { actionOutcome, notDelivered, nothingToChange, type ActionOutcome, type Observation, type SentInput, RETRY_IN_FOREGROUND } from '../../action-outcome.js';
import type { KeyRequest } from '../../desktop.js';
import type { DesktopWindow } from '../../windows.js';
import { ToolError } from '../../../errors.js';
import { ancestry, caretOffset, characterCount, copyText, cutText, doAction, pasteText, selectAll, selectedCount, selectTextRange, textSelection } from '../atspi/operations.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { NoKeyOnLayout, pressCombination, syntheticCombination } from '../input/index.js';
import { atspiElement } from '../element-handle.js';
import { EXPAND_TOGGLE_ACTIONS } from '../../../cup/atspi/actions.js';
import { ATSPI_ROLE } from '../../../cup/atspi/constants.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { backgroundFocusMs, findNamedAction, findPressAction, focusArrives, type Actionable } from './accessible-actions.js';
import { focusKeepingCaret, focusFactsAhead } from './element-point.js';
import { focusedElementOf, focusedTargetFor } from './focused-element.js';
import { liveStates } from './live-states.js';
import { terminalQuiet } from './terminal-quiet.js';
import { ownMenusHoldingKeys } from './menu-grab.js';
import { mayBeAccelerator, mayBeMnemonic, textFieldTakes } from '../../../cup/key-binding.js';
import { invokeMenuPath } from './menu-path.js';
import { selectEveryRow } from './select-every-row.js';
import { acceleratorMenuPath, mnemonicControls } from './mnemonics.js';
import { actionable, liveTarget, type LiveElementTarget } from './live-target.js';
import { parseKeys, refuseKeysToNotification, withForeground } from './real-input.js';
import { observePixels, pixelsChangedSince, sentKeysIgnored, syntheticEventsReach } from './synthetic-rung.js';
import { pressThroughDevTools } from './devtools-keys.js';
import { caretProbe, elementLabel, observe, selectionProbe, stateProbe, textProbe, valueProbe, type Probe } from './verification.js';
import { indexedLabel } from '../../../cup/element-label.js';

/** Roles that Space presses when they have the focus, as a click would (a text field types the space instead). */
const spacePressedRoles = new Set(['button', 'checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

/** Keys that open or close a tree row: what they do depends on whether it is expanded now. */
const expandKeys = new Set(['right', 'plus']);
const collapseKeys = new Set(['left', 'minus']);

/**
 * The arrow keys that step a range control (a slider, a spin button) up or down, and the actions that step it so.
 * Blink gives a page's ARIA slider increment and decrement actions, which send the page the arrow key its script steps
 * the slider by; Right on one in the background had been refused as having no accessibility equivalent, though its
 * window takes no sent keys and the action moves it as the key does.
 */
const stepKeys: Record<string, readonly string[]> = { up: ['increment', 'increase'], right: ['increment', 'increase'], down: ['decrement', 'decrease'], left: ['decrement', 'decrease'] };

/** A range control's step action for this key, when it offers one. One press is one step, so a repeat is the action repeated. */
async function stepperFor(desktop: LinuxDesktop, target: Actionable, combo: string) {
  const wanted = stepKeys[combo];
  if (!wanted || !target.interfaces.includes('Value')) return undefined;
  return findNamedAction(desktop, target, wanted);
}

/** A tree row's expand-or-collapse action, when this key would toggle it from its present state. */
async function expanderFor(desktop: LinuxDesktop, target: Actionable, combo: string) {
  if (!expandKeys.has(combo) && !collapseKeys.has(combo)) return undefined;
  const states = await liveStates(desktop, target.ref);
  if (!states.has('STATE_EXPANDABLE') || states.has('STATE_EXPANDED') !== collapseKeys.has(combo)) return undefined;
  return findNamedAction(desktop, target, EXPAND_TOGGLE_ACTIONS);
}

/**
 * Key presses an accessibility interface can perform without any keystroke, so they work in the
 * background: Enter activates, Space presses a button or check box, Right/Left (or +/-) expand and
 * collapse a tree row, the clipboard and select-all shortcuts of text fields, and select-all in a list.
 */
export async function backgroundKeys(desktop: LinuxDesktop, target: Actionable, combo: string): Promise<(() => Promise<void>) | undefined> {
  // A terminal hands every key to the program it runs (Ctrl+C interrupts it, Ctrl+A is the shell's line start), so no
  // accessibility action means what a key means there: a background Ctrl+C on LXTerminal "copied" its empty selection
  // and was reported delivered, while the command it was meant to stop ran on.
  if (target.atspiRole === ATSPI_ROLE.TERMINAL) return undefined;
  const client = await desktop.atspi();
  const editable = target.interfaces.includes('EditableText');
  // A web page hears Return in its fields as a key (its keydown handlers, a form's submission), which the field's
  // own 'activate' action does not press: Blink's only focuses the field. There it goes as a key.
  const pageField = combo === 'return' && (await client.quirksOf(target.ref.bus)).webEngine && (await liveStates(desktop, target.ref)).has('STATE_EDITABLE');
  if (combo === 'return' && !pageField) {
    const activate = await findNamedAction(desktop, target, ['activate']);
    if (activate) return async () => void (await doAction(client, target.ref, activate.index));
  }
  if (combo === 'space' && spacePressedRoles.has(target.role ?? '')) {
    const press = await findPressAction(desktop, target);
    if (press) return async () => void (await doAction(client, target.ref, press.index));
  }
  const expander = await expanderFor(desktop, target, combo);
  if (expander) return async () => void (await doAction(client, target.ref, expander.index));
  const stepper = await stepperFor(desktop, target, combo);
  if (stepper) return async () => void (await doAction(client, target.ref, stepper.index));
  // Ctrl+A on a list or icon view (a file manager's files) selects all its items, as its Selection does where it takes
  // several selected (GTK's icon views; GTK3's and GTK 2's say no MULTISELECTABLE, and one that takes one item refuses:
  // the read-back then says no effect). It was refused in the background, as if only a text field took it. A table
  // whose Selection refuses (GTK3's tree view) has its rows added through its Table (selectEveryRow).
  if (combo === 'ctrl+a' && !target.interfaces.includes('Text') && target.interfaces.includes('Selection')) {
    return async () => {
      if (!(await selectAll(client, target.ref)) && target.interfaces.includes('Table')) await selectEveryRow(client, target.ref);
    };
  }
  if (!target.interfaces.includes('Text')) return undefined;
  const selection = async () => (await textSelection(client, target.ref)) ?? { start: 0, end: 0 };
  switch (combo) {
    case 'ctrl+a':
      return async () => void (await selectTextRange(client, target.ref, 0, await characterCount(client, target.ref)));
    case 'ctrl+c':
      return async () => {
        const range = await selection();
        if (range.end > range.start) await copyText(client, target.ref, range.start, range.end);
      };
    case 'ctrl+x':
      if (!editable) return undefined;
      return async () => {
        const range = await selection();
        if (range.end > range.start) await cutText(client, target.ref, range.start, range.end);
      };
    case 'ctrl+v':
      if (!editable) return undefined;
      return async () => void (await pasteText(client, target.ref, Math.max(0, await caretOffset(client, target.ref))));
    default:
      return undefined;
  }
}

/** Whether all of a text's characters are selected (a select-all would change nothing). */
async function wholeTextSelected(desktop: LinuxDesktop, target: Actionable): Promise<boolean> {
  const client = await desktop.atspi();
  const [range, count] = await Promise.all([textSelection(client, target.ref), characterCount(client, target.ref)]);
  return count > 0 && range?.start === 0 && range.end === count;
}

/**
 * Key events go to the window's focused control, whatever element they were meant for: keys aimed at an element are
 * sent only once it, or something inside it, has the focus, given through accessibility when it has not (a press
 * of Down meant for a menu button moved the suggestions of the search field that had the focus, and was confirmed
 * by that). Returns why the keys cannot go, or undefined.
 */
async function keyFocusOn(desktop: LinuxDesktop, window: DesktopWindow, element: LiveElementTarget, label: string): Promise<string | undefined> {
  const client = await desktop.atspi();
  if ((await liveStates(desktop, element.ref)).has('STATE_FOCUSED')) return undefined;
  const focused = await focusedElementOf(desktop, window).catch(() => undefined);
  if (focused && (focused.ref.path === element.ref.path || (await ancestry(client, focused.ref)).paths.includes(element.ref.path))) return undefined;
  const nothingSent = `key events go to the control that has the keyboard focus; nothing was sent: ${RETRY_IN_FOREGROUND}`;
  if (!window.active && (await client.quirksOf(element.ref.bus)).focusActivatesWindow) {
    return `${label} does not have the keyboard focus, and giving it the focus through accessibility would raise window ${window.id}, which is not the active window; ${nothingSent}`;
  }
  const grabbed = (await focusKeepingCaret(desktop, element)).focused;
  // Behind other windows Gecko leaves focus states as they were: its GrabFocus answer is all there is to go on.
  if (grabbed && (!window.active || (await focusArrives(desktop, actionable(element), backgroundFocusMs)))) return undefined;
  return `${label} could not be given the keyboard focus through accessibility, and ${nothingSent}`;
}

/**
 * Keys pressed in a window where no element had the focus (an inactive GTK4 window reports none) are read back from
 * its pixels; where the focus is once they went is read while the window is still active, as GTK4 forgets it when
 * the activation is given back: Tab, Tab in its fixture read 'the window's pixels changed' and the diff said nothing
 * of where the focus had gone.
 */
async function withFocusNow(desktop: LinuxDesktop, window: DesktopWindow, snapshot: KeyRequest['snapshot'], observation: Observation): Promise<Observation> {
  const focused = await focusedElementOf(desktop, window).catch(() => undefined);
  if (!focused) return observation;
  const { label } = await elementLabel(desktop, snapshot, focused.ref);
  return { ...observation, evidence: [...observation.evidence, `the keyboard focus is on ${label} (read while window ${window.id} was active)`] };
}

/**
 * Keys sent as X events to an app whose tree holds their target are read back as the tree shows them (the app's change
 * events and the probes, as keys through accessibility are), and by the window's pixels only where the tree shows
 * nothing (a canvas the keys steer): Down in a Firefox page's combobox, whose script moves aria-activedescendant, read
 * only 'the window's pixels changed' while the diff showed the option it moved to focused and selected.
 */
async function sentKeysReadBack(desktop: LinuxDesktop, window: DesktopWindow, target: Actionable, probes: Probe[], send: () => Promise<void>, snapshot: KeyRequest['snapshot'], signal: AbortSignal | undefined, quietMs?: number): Promise<Observation> {
  const before = await desktop.captureWindow(window);
  const told = await observe(desktop, target.ref.bus, probes, send, { snapshot, signal, quietMs });
  if (told.changed || told.cancelled) return told;
  return pixelsChangedSince(desktop, window, before, signal, { command: true });
}

/**
 * How long the app's events must pause before the effect of a key pressed several times is read, in ms. Each press is
 * a burst of its own, and a page shows a press a frame or more after the last (Gecko sends its events at its refresh):
 * Left twice on a page's slider read 'value: "May" → "April"' in the evidence, read at the pause after the first press,
 * above the diff's "May" → "March". One press keeps the toolkit's burst pause.
 */
const repeatedKeysQuietMs = 120;

function repeatedQuiet(repeat: number): number | undefined {
  return repeat > 1 ? repeatedKeysQuietMs : undefined;
}

/** One real Escape, which only the app holding the keyboard grab for its open menus receives; nothing is activated. */
async function escapeToOwnMenu(desktop: LinuxDesktop, window: DesktopWindow, menus: readonly number[], request: KeyRequest): Promise<ActionOutcome> {
  const x = await desktop.x11();
  let sent: SentInput | undefined;
  const press = async () => {
    sent = await pressCombination(x, 'escape', { signal: request.signal });
  };
  const top = await desktop.topLevelOf(window);
  const observation = top
    ? await observe(desktop, top.topLevel.bus, [], press, { snapshot: request.snapshot, signal: request.signal })
    : await observePixels(desktop, window, press, request.signal);
  const note = `the app's open menu (${menus.map((id) => `0x${id.toString(16)}`).join(', ')}) holds the keyboard: the Escape went to it as a real key, which only the menu's app receives, and no window was activated`;
  return actionOutcome({ path: 'key_events_grab', mode: request.mode, observation: { ...observation, evidence: [note, ...observation.evidence] }, sent });
}

/** How many items a list, table or icon view holds selected, as its Selection counts them. */
function selectedItemsProbe(desktop: LinuxDesktop, ref: ObjectRef, label: string): Probe {
  return {
    label: `the number of items selected in ${label}`,
    read: async () => String(await selectedCount(await desktop.atspi(), ref)),
  };
}

/** Presses the keys on the element, or on the focused element of the window, by the rungs of the delivery mode. */
export async function pressKeysAction(desktop: LinuxDesktop, request: KeyRequest): Promise<ActionOutcome> {
  const { window, mode, repeat, keys: rawKeys, signal } = request;
  let sent: SentInput | undefined;
  const keys = parseKeys(rawKeys);
  const element = request.element && (await liveTarget(desktop, request.element));
  const target = element ? actionable(element) : await focusedTargetFor(desktop, window, mode);
  const label = element ? `[e${element.element.index}]` : 'the focused element';
  const probes: Probe[] = target
    ? [
        ...(target.interfaces.includes('Text') ? [textProbe(desktop, target.ref, label), selectionProbe(desktop, target.ref, label), caretProbe(desktop, target.ref, label), textAttributesProbe(desktop, target.ref, label)] : []),
        ...['checked', 'selected', 'expanded'].map((state) => stateProbe(desktop, target.ref, label, state, undefined, element?.element.role)),
        // A range control's number, which its arrow keys step (its value text, when it writes words, is in the diff).
        ...(target.interfaces.includes('Value') ? [valueProbe(desktop, target.ref, label)] : []),
        // A select-all in a list is read back by how many items it holds selected: GTK3's icon view announces none.
        ...(target.interfaces.includes('Selection') && !target.interfaces.includes('Text') ? [selectedItemsProbe(desktop, target.ref, label)] : []),
      ]
    : [];

  if (mode === 'background') {
    // Escape for the app's own open menu (one a background click opened in its menu bar, a context menu): its toolkit
    // holds the keyboard grab while the menu is open, so a real Escape reaches that menu alone, whichever window is
    // active, and closes it as a person's does. Accessibility has no way to (GTK3's ClearSelection leaves its menu bar
    // holding the grab, and does nothing to a context menu), and GTK and Qt ignore sent key events: it had been refused,
    // the menu left open, holding every app's real input.
    const menus = keys.canonical === 'escape' && repeat === 1 ? await ownMenusHoldingKeys(desktop, window) : undefined;
    if (menus) return escapeToOwnMenu(desktop, window, menus, request);
    // Alt with a letter is the window's mnemonic wherever its focus is (a dialog's "_No" answers Alt+N): the control
    // that reports it as its key binding is pressed through its action. It had been refused, with advice to pass an
    // element_index, as no focused element takes Alt+N.
    const mnemonic = !element && repeat === 1 && request.snapshot && mayBeMnemonic(keys.canonical) ? await mnemonicControls(desktop, request.snapshot, keys.canonical) : [];
    if (mnemonic.length > 1) {
      return notDelivered(mode, `${JSON.stringify(keys.canonical)} is the mnemonic of ${mnemonic.map(indexedLabel).join(', ')}: the real keys would only move the focus among them; nothing was sent: click the one meant`);
    }
    if (mnemonic.length === 1) {
      const control = mnemonic[0]!;
      const ref = atspiElement(control.handle);
      const client = await desktop.atspi();
      const observation = await observe(desktop, ref.bus, [], async () => void (await doAction(client, ref, 0)), { snapshot: request.snapshot, signal });
      const note = `${JSON.stringify(keys.canonical)} is the mnemonic of ${indexedLabel(control)}, pressed through its action`;
      return actionOutcome({ path: 'x11_atspi', mode, observation: observation.changed ? { ...observation, evidence: [note, ...observation.evidence] } : observation });
    }
    // What accessibility does in a key's place is what one press does: a press repeated is not that action
    // repeated (Right on a collapsed row expands it, and then moves into it).
    const single = target ? await backgroundKeys(desktop, target, keys.canonical) : undefined;
    const stepper = target && single && repeat > 1 ? await stepperFor(desktop, target, keys.canonical) : undefined;
    const perform = repeat === 1 ? single : stepper && target ? async () => {
      const client = await desktop.atspi();
      for (let press = 0; press < repeat && !signal?.aborted; press += 1) await doAction(client, target.ref, stepper.index);
    } : undefined;
    if (!target || !perform) {
      const synthetic = await syntheticEventsReach(desktop, window, 'keys');
      if (synthetic.accepted) {
        const unfocused = element ? await keyFocusOn(desktop, window, element, label) : undefined;
        if (unfocused) return notDelivered(mode, unfocused);
        const x = await desktop.x11();
        try {
          const send = async () => {
            sent = await syntheticCombination(x, window.id, [...rawKeys], repeat, signal);
          };
          const observation = target
            ? await sentKeysReadBack(desktop, window, target, probes, send, element?.snapshot ?? request.snapshot, signal, repeatedQuiet(repeat))
            : await observePixels(desktop, window, send, signal, { command: true });
          return actionOutcome({ path: 'key_events', mode, observation, sent });
        } catch (error) {
          // A key the layout lacks is refused before any press is sent; real keys bind it to a spare keycode.
          // It had been `invalid_key`, as if no key of that name existed, with no word of the foreground.
          if (error instanceof NoKeyOnLayout) return notDelivered(mode, `${error.message}; nothing was sent: ${RETRY_IN_FOREGROUND}, whose real keys type any character`);
          throw new ToolError((error as Error).message, 'invalid_key');
        }
      }
      // Blink drops sent keys outside its active window: a page's focused element takes them through the browser's
      // debugging connection instead, where it has one (a Tab, an Enter for a page behind another window had been refused).
      const page = target && synthetic.inactive
        ? await pressThroughDevTools(desktop, { window, target, named: element !== undefined, label, probes, keys: keys.parsed, written: keys.canonical, repeat, snapshot: element?.snapshot ?? request.snapshot, signal })
        : undefined;
      if (page && 'outcome' in page) return page.outcome;
      const pageNote = (reason: string) => (page?.skipped ? `${reason}. ${page.skipped}` : reason);
      // A shortcut of the window's menus (Ctrl+S for File > Save) is what GTK and Qt do with the real keys wherever the
      // focus is, its menu open or not: its item is chosen through accessibility as invoke_menu chooses it. It had been
      // refused, as no focused element takes Ctrl+S and GTK ignores sent keys. A text field keeps its own combinations.
      const editing = target?.interfaces.includes('EditableText') === true && textFieldTakes(keys.canonical);
      const accelerated = !element && repeat === 1 && mayBeAccelerator(keys.canonical) && !editing ? await acceleratorMenuPath(desktop, window, keys.canonical) : undefined;
      // An item accessibility cannot choose (invoke_menu's refusals) leaves the keys refused as before, with the advice below.
      const chosen = accelerated && (await invokeMenuPath(desktop, window, accelerated, request.snapshot).catch((error: unknown) => (error instanceof ToolError ? undefined : Promise.reject(error))));
      if (chosen) {
        const note = `${JSON.stringify(keys.canonical)} is the shortcut of the menu item ${chosen.path.join(' > ')}, chosen through accessibility`;
        return { ...chosen.outcome, evidence: [note, ...(chosen.outcome.evidence ?? [])] };
      }
      const ignored = sentKeysIgnored(window, synthetic);
      if (target && repeat === 1 && keys.canonical === 'return' && target.interfaces.includes('EditableText')) {
        const call = foregroundReturnCall(window.id, element?.element.index);
        return notDelivered(mode, pageNote(await returnRefusal(desktop, target, label, ignored, 'nothing was sent', `press Return as real keys: ${call}, which activates the window and gives the field the focus first`)));
      }
      // A window with no tree has no element to pass: only real keys are left to offer.
      const treeless = !target && !synthetic.accessible;
      return notDelivered(
        mode,
        pageNote(target && single
          ? `${JSON.stringify(keys.canonical)} has an accessibility equivalent on ${label} for one press, not for ${repeat} in a row, and ${ignored}; nothing was sent: press it once per call, or ${RETRY_IN_FOREGROUND} (real keys to the activated window)`
          : target
          ? `${JSON.stringify(keys.canonical)} has no accessibility equivalent on ${label}${target.atspiRole === ATSPI_ROLE.TERMINAL ? ' (a terminal: its keys go to the program it runs)' : ''}, and ${ignored}; nothing was sent: ${RETRY_IN_FOREGROUND} (real keys to the activated window)`
          : treeless
          ? `window ${window.id} has no accessibility tree and ${ignored}; nothing was sent: ${RETRY_IN_FOREGROUND} (real keys to the activated window)`
          : // No element reports the focus (an inactive window's often do not): the field's index lets accessibility act on it.
            `no element of window ${window.id} reports the keyboard focus${window.active ? '' : ' (an inactive window often has none)'} and ${ignored}; nothing was sent: pass the element_index of the element the keys are for, or ${RETRY_IN_FOREGROUND} (real keys to the activated window)`),
      );
    }
    if (keys.canonical === 'ctrl+a' && target.interfaces.includes('Text') && (await wholeTextSelected(desktop, target))) return nothingToChange(mode, `${label} has all its text selected`);
    const observation = await observe(desktop, target.ref.bus, probes, perform, { snapshot: element?.snapshot ?? request.snapshot, signal });
    // Copying changes nothing an application reports: it is delivered, and honestly unverifiable.
    if (keys.canonical === 'ctrl+c' && !observation.changed) return actionOutcome({ path: 'x11_atspi', mode });
    return actionOutcome({ path: 'x11_atspi', mode, observation });
  }

  refuseKeysToNotification(window);
  // The element's focus facts are asked while its window is activated (see readFocusFacts).
  const facts = element ? focusFactsAhead(desktop, element) : undefined;
  // Focus first, outside the observation: only what the keys do counts as their effect.
  const observation = await withForeground(desktop, window, async (x) => {
    const press = async () => {
      sent = await pressCombination(x, [...rawKeys], { repeat, signal });
    };
    // Without an accessible target the window's pixels are the read-back.
    if (!target) return withFocusNow(desktop, window, request.snapshot, await observePixels(desktop, window, press, signal, { command: true }));
    const snapshot = element?.snapshot ?? request.snapshot;
    return observe(desktop, target.ref.bus, probes, press, { snapshot, signal, quietMs: terminalQuiet(snapshot, target) ?? repeatedQuiet(repeat) });
  }, element ? { focus: { element, facts } } : {});
  return actionOutcome({ path: 'key_events_fg', mode, observation, sent });
}
