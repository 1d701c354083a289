// Typing text: inserted through accessibility, sent as key events, or typed with real keys.
import { setTimeout as sleep } from 'node:timers/promises';
import { actionOutcome, notDelivered, type ActionOutcome } from '../../action-outcome.js';
import type { TypeRequest } from '../../desktop.js';
import type { DesktopWindow } from '../../windows.js';
import { ToolError } from '../../../errors.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { caretOffset, characterCount, insertText } from '../atspi/operations.js';
import { syntheticText, typeText as typeTextReally } from '../input/index.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { focusElement, type Actionable } from './accessible-actions.js';
import { focusForKeys } from './element-point.js';
import { focusedElementOf } from './focused-element.js';
import { liveStates } from './live-states.js';
import { actionable, liveTarget, type LiveElementTarget } from './live-target.js';
import { withForeground } from './real-input.js';
import { observePixels, syntheticEventsReach } from './synthetic-rung.js';
import { observe, textProbe, type Probe } from './verification.js';

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

/** Blink moves the focus a moment after GrabFocus answers; keys sent before it would go to the old control. */
async function focusArrives(desktop: LinuxDesktop, ref: ObjectRef, timeoutMs = 1000): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; ; await sleep(20)) {
    if ((await liveStates(desktop, ref)).has('STATE_FOCUSED')) return true;
    if (Date.now() > deadline) return false;
  }
}

/**
 * Key events typed into an accessible field of an app that takes them (Blink has no EditableText but reads
 * X key events): keys go where the app's focus is, so the field is focused first through accessibility,
 * and the field's own text is the evidence. Another control reacting to the keys (a list's type-ahead)
 * or the window's pixels changing is not the text arriving. Blink drops key events sent to a window that
 * is not the active one, and its GrabFocus activates the window, so an inactive window gets nothing.
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
  if (!window.active) {
    return notDelivered(
      'background',
      `window ${window.id} is not the active window: its app reads key events only there, and focusing ${label} through accessibility would raise it; nothing was typed: retry with delivery_mode "foreground"`,
    );
  }
  if (element) {
    await requireEditable(desktop, target.ref, label);
    const focused = (await focusElement(desktop, target)) && (await focusArrives(desktop, target.ref));
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
 * Types the text into the element, or into the focused element of the window: in the background through
 * EditableText, or as key events where the app takes them; in the foreground with real keys.
 */
export async function typeTextAction(desktop: LinuxDesktop, request: TypeRequest): Promise<ActionOutcome> {
  const { window, mode } = request;
  const element = request.element && (await liveTarget(desktop, request.element));
  const target: Actionable | undefined = element ? actionable(element) : await focusedElementOf(desktop, window).catch(() => undefined);
  const label = element ? `[e${element.element.index}]` : 'the focused element';
  const probes = target?.interfaces.includes('Text') ? [textProbe(desktop, target.ref, label)] : [];
  // Real keys arrive one by one; the evidence waits for the whole text (newlines are Return presses, not text).
  const expected = request.text.replace(/\r?\n/g, '');
  const arrived = (values: readonly (string | undefined)[]) => (values[0] ?? '').replace(/\r?\n/g, '').includes(expected);

  if (mode === 'background') {
    if (!target || !target.interfaces.includes('EditableText')) {
      const synthetic = await syntheticEventsReach(desktop, window);
      if (synthetic.accepted) {
        const x = await desktop.x11();
        const sendKeys = async () => {
          try {
            await syntheticText(x, window.id, request.text);
          } catch (error) {
            throw new ToolError((error as Error).message, 'unsupported_character');
          }
        };
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
    if (probes.length > 0 && observation.changed && !arrived([await probes[0]!.read().catch(() => undefined)])) {
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
