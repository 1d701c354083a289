// Typing text: inserted through accessibility, sent as key events, or typed with real keys.
import { setTimeout as sleep } from 'node:timers/promises';
import { actionOutcome, notDelivered, type ActionOutcome } from '../../action-outcome.js';
import type { TypeRequest } from '../../desktop.js';
import type { DesktopWindow } from '../../windows.js';
import { ToolError } from '../../../errors.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { caretOffset, characterCount, insertText, selectTextRange, setCaretOffset } from '../atspi/operations.js';
import { quirksFor } from '../atspi/toolkit.js';
import { syntheticCombination, syntheticText, typeText as typeTextReally } from '../input/index.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { focusElement, type Actionable } from './accessible-actions.js';
import { focusForKeys } from './element-point.js';
import { focusedElementOf } from './focused-element.js';
import { nothingUnlessUnresponsive } from './unresponsive.js';
import { liveStates } from './live-states.js';
import { actionable, liveTarget, type LiveElementTarget } from './live-target.js';
import { withForeground } from './real-input.js';
import { observePixels, syntheticEventsReach } from './synthetic-rung.js';
import { observe, textProbe, type Probe } from './verification.js';

const masked = /^[\u2022\u25cf*]+$/u;

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

/** A read-only field takes no typing from a user, so it takes none from us either. */
export async function requireEditable(desktop: LinuxDesktop, ref: ObjectRef, label: string): Promise<void> {
  const states = await liveStates(desktop, ref);
  if (!states.has('STATE_EDITABLE') || states.has('STATE_READ_ONLY')) {
    throw new ToolError(`${label} is read-only; nothing was typed. Pick an editable field (its states include editable)`, 'read_only');
  }
}

async function insertAtCaret(desktop: LinuxDesktop, target: Actionable, text: string): Promise<void> {
  const client = await desktop.atspi();
  const caret = await caretOffset(client, target.ref).catch(() => -1);
  const position = caret >= 0 ? caret : await characterCount(client, target.ref);
  if (!(await insertText(client, target.ref, position, text))) throw new ToolError('the application refused the text insertion', 'insert_refused');
}

/**
 * Blink moves the focus a moment after GrabFocus answers; keys sent before it would go to the old control.
 * Gecko does not mark a field FOCUSED while its window is inactive, but only the focused field has a caret.
 */
async function focusArrives(desktop: LinuxDesktop, target: Actionable, timeoutMs = 1000): Promise<boolean> {
  const client = await desktop.atspi();
  const hasText = target.interfaces.includes('Text');
  for (const deadline = Date.now() + timeoutMs; ; await sleep(20)) {
    if ((await liveStates(desktop, target.ref)).has('STATE_FOCUSED')) return true;
    if (hasText && (await caretOffset(client, target.ref).catch(() => -1)) >= 0) return true;
    if (Date.now() > deadline) return false;
  }
}

/**
 * Focus for typing: GrabFocus, then the caret put at the end of the field's text, which also focuses what
 * GrabFocus leaves alone (Gecko's contenteditable blocks in a window behind others). True when either took.
 */
async function focusInto(desktop: LinuxDesktop, target: Actionable): Promise<boolean> {
  const grabbed = await focusElement(desktop, target);
  if (!target.interfaces.includes('Text')) return grabbed;
  const client = await desktop.atspi();
  const placed = await characterCount(client, target.ref)
    .then((end) => setCaretOffset(client, target.ref, end))
    .catch(() => false);
  return grabbed || placed;
}

/** Key events sent to a window as X events (SendEvent), for apps that read them (Blink, Gecko). */
function syntheticKeys(desktop: LinuxDesktop, window: DesktopWindow, text: string): () => Promise<void> {
  return async () => {
    try {
      await syntheticText(await desktop.x11(), window.id, text);
    } catch (error) {
      throw new ToolError((error as Error).message, 'unsupported_character');
    }
  };
}

/**
 * Key events typed into an accessible field of an app that takes them (Blink has no EditableText, Gecko's
 * answers and changes nothing in a web page): keys go where the app's focus is, so the field is focused
 * first through accessibility, and the field's own text is the evidence. Another control reacting to the
 * keys (a list's type-ahead) or the window's pixels changing is not the text arriving. An app whose
 * GrabFocus activates its window (Blink) is typed into only while the window is the active one, so a
 * covered window is never raised; Gecko's moves the page's focus only, and takes the keys behind others.
 * A browser's DevTools connection, where there is one, is the rung to try before this one.
 */
async function keysIntoField(
  desktop: LinuxDesktop,
  window: DesktopWindow,
  element: LiveElementTarget | undefined,
  target: Actionable,
  label: string,
  probe: Probe,
  sendKeys: () => Promise<void>,
  arrived: (values: readonly (string | undefined)[]) => boolean,
): Promise<ActionOutcome> {
  if (!window.active && quirksFor(await (await desktop.atspi()).toolkitOf(target.ref.bus).catch(() => undefined)).focusActivatesWindow) {
    return notDelivered(
      'background',
      `window ${window.id} is not the active window: its app reads key events only there, and focusing ${label} through accessibility would raise it; nothing was typed: retry with delivery_mode "foreground"`,
    );
  }
  if (element) {
    await requireEditable(desktop, target.ref, label);
    // Gecko leaves focus states as they were when its window was last active: behind another window, its
    // GrabFocus answer is all there is to go on, and the field's own text judges where the keys went.
    const focused = (await focusInto(desktop, target)) && (!window.active || (await focusArrives(desktop, target)));
    if (!focused) return notDelivered('background', `${label} could not be focused through accessibility, and key events go to the focused control; nothing was typed: retry with delivery_mode "foreground"`);
  }
  const observation = await observe(desktop, target.ref.bus, [probe], sendKeys, { snapshot: element?.snapshot, until: arrived });
  if (arrived([await probe.read().catch(() => undefined)])) return actionOutcome({ path: 'key_events', mode: 'background', observation });
  return actionOutcome({
    path: 'key_events',
    mode: 'background',
    observation: { ...observation, changed: false, listening: true },
    escalation: { recommended: 'foreground', reason: `the key events were sent but the text of ${label} does not contain the typed text; retry with delivery_mode "foreground"` },
  });
}

/**
 * Replaces a field's whole text by key events, for fields whose EditableText is missing (Blink) or takes
 * nothing (Gecko's web fields): the field is focused, its text selected through accessibility, and the new
 * text typed over the selection (Delete when it is empty). The field's text equal to the value is the proof.
 */
export async function replaceTextByKeys(desktop: LinuxDesktop, target: LiveElementTarget, value: string): Promise<ActionOutcome> {
  const label = `[e${target.element.index}]`;
  const window = target.window;
  if (!target.live.interfaces.includes('Text') || !(await syntheticEventsReach(desktop, window)).accepted) {
    return notDelivered('background', `${label} takes no text through accessibility and its app reads no key events sent in the background; nothing was changed: click it and type_text with delivery_mode "foreground"`);
  }
  const client = await desktop.atspi();
  const probe = textProbe(desktop, target.ref, label);
  const single = value.replace(/\r?\n/g, '\n');
  const sendKeys = async () => {
    const length = await characterCount(client, target.ref);
    if (length > 0 && !(await selectTextRange(client, target.ref, 0, length))) throw new ToolError(`the application refused to select the text of ${label}`, 'set_text_refused');
    if (single === '') {
      if (length > 0) await syntheticCombination(await desktop.x11(), window.id, 'Delete');
    } else await syntheticKeys(desktop, window, single)();
  };
  return keysIntoField(desktop, window, target, actionable(target), label, probe, sendKeys, (values) => shows(values[0] ?? '', single, 'whole'));
}

/**
 * Types the text into the element, or into the focused element of the window: in the background through
 * EditableText, or as key events where the app takes them; in the foreground with real keys.
 */
export async function typeTextAction(desktop: LinuxDesktop, request: TypeRequest): Promise<ActionOutcome> {
  const { window, mode } = request;
  const element = request.element && (await liveTarget(desktop, request.element));
  const target: Actionable | undefined = element ? actionable(element) : await focusedElementOf(desktop, window).catch(nothingUnlessUnresponsive(window.pid, desktop.callTimeoutMs));
  const label = element ? `[e${element.element.index}]` : 'the focused element';
  const probes = target?.interfaces.includes('Text') ? [textProbe(desktop, target.ref, label)] : [];
  // Real keys arrive one by one; the evidence waits for the whole text (newlines are Return presses, not text).
  const expected = request.text.replace(/\r?\n/g, '');
  const arrived = (values: readonly (string | undefined)[]) => shows((values[0] ?? '').replace(/\r?\n/g, ''), expected, 'part');

  if (mode === 'background') {
    if (!target || !target.interfaces.includes('EditableText')) {
      const synthetic = await syntheticEventsReach(desktop, window);
      if (synthetic.accepted) {
        const sendKeys = syntheticKeys(desktop, window, request.text);
        if (target && probes.length > 0) return keysIntoField(desktop, window, element, target, label, probes[0]!, sendKeys, arrived);
        const observation = await observePixels(desktop, window, sendKeys);
        return actionOutcome({ path: 'key_events', mode, observation });
      }
      return notDelivered(
        mode,
        `${target ? `${label} does not accept text through accessibility (no EditableText)` : `window ${window.id} has no focused element`}; nothing was typed: retry with delivery_mode "foreground", or pass the text field's element_index`,
      );
    }
    await requireEditable(desktop, target.ref, label);
    const observation = await observe(desktop, target.ref.bus, probes, () => insertAtCaret(desktop, target, request.text), { snapshot: element?.snapshot, until: arrived });
    // The field's own text says whether the insertion took: other events of the app in the meantime (Firefox
    // renames toolbar buttons and tabs while it starts) are not the typing's effect.
    if (probes.length > 0 && !arrived([await probes[0]!.read().catch(() => undefined)])) {
      // Gecko answers EditableText on a web page's fields and changes nothing: key events are the next rung.
      if (element && (await syntheticEventsReach(desktop, window)).accepted) {
        return keysIntoField(desktop, window, element, target, label, probes[0]!, syntheticKeys(desktop, window, request.text), arrived);
      }
      return actionOutcome({ path: 'x11_atspi', mode, observation: { ...observation, changed: false, evidence: [] } });
    }
    return actionOutcome({ path: 'x11_atspi', mode, observation });
  }

  const app = target?.ref.bus;
  const observation = await withForeground(desktop, window, async (x) => {
    // Put the caret in the field first, outside the observation.
    if (element) await focusForKeys(desktop, x, element);
    // No hold between a key's press and its release: XTEST delivers both in order either way (as `xdotool type
    // --delay 0` sends them), and a timer per key (a millisecond or more, longer on a busy machine) made 100
    // characters cost over 100 ms.
    const type = async () => {
      await typeTextReally(x, request.text, { delayMs: request.delayMs, holdMs: 0 });
    };
    // Without an accessible target the window's pixels are the read-back.
    if (!app) return observePixels(desktop, window, type);
    return observe(desktop, app, probes, type, { snapshot: element?.snapshot, settleMs: 1000, until: probes.length ? arrived : undefined });
  });
  return actionOutcome({ path: 'key_events_fg', mode, observation });
}
