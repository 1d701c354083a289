import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { ObjectRef } from '../../platform/linux/atspi/object-ref.js';
import { caretOffset, characterCount, insertText } from '../../platform/linux/atspi/operations.js';
import type { ClientWindow } from '../../platform/linux/windows.js';
import type { ToolContext } from '../context.js';
import { pidArgument, windowIdArgument } from '../schemas.js';
import { defineTool } from '../tool.js';
import { ToolError } from '../../errors.js';
import { focusElement, type Actionable } from './accessible-actions.js';
import { focusedElementOf } from './focused-element.js';
import { actionOutcome, actionOutput, notDelivered } from './outcome.js';
import { typeText as typeTextReally } from '../../platform/linux/input/index.js';
import { syntheticText } from '../../platform/linux/input/index.js';
import { withForeground } from './real-input.js';
import { observePixels, syntheticEventsReach } from './synthetic-rung.js';
import { actionResult, type ActionResult, deliveryMode, deliveryModeArgument, elementIndexArgument, elementTokenArgument, sessionArgument } from './schemas.js';
import { actionable, keyboardWindow, resolveElement, type ElementTarget } from './targets.js';
import { focusForKeys } from './element-point.js';
import { observe, textProbe, type Probe } from './verification.js';
import { liveStates } from './live-states.js';

/** A read-only field takes no typing from a user, so it takes none from us either. */
export async function requireEditable(context: ToolContext, ref: ObjectRef, label: string): Promise<void> {
  const states = await liveStates(context, ref);
  if (!states.has('STATE_EDITABLE') || states.has('STATE_READ_ONLY')) {
    throw new ToolError(`${label} is read-only; nothing was typed. Pick an editable field (its states include editable)`, 'read_only');
  }
}

async function insertAtCaret(context: ToolContext, target: Actionable, text: string): Promise<void> {
  const client = await context.desktop.atspi();
  const caret = await caretOffset(client, target.ref).catch(() => -1);
  const position = caret >= 0 ? caret : await characterCount(client, target.ref);
  if (!(await insertText(client, target.ref, position, text))) throw new ToolError('the application refused the text insertion', 'insert_refused');
}

/** Blink moves the focus a moment after GrabFocus answers; keys sent before it would go to the old control. */
async function focusArrives(context: ToolContext, ref: ObjectRef, timeoutMs = 1000): Promise<boolean> {
  for (const deadline = Date.now() + timeoutMs; ; await sleep(20)) {
    if ((await liveStates(context, ref)).has('STATE_FOCUSED')) return true;
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
  context: ToolContext,
  window: ClientWindow,
  element: ElementTarget | undefined,
  target: Actionable,
  label: string,
  probe: Probe,
  sendKeys: () => Promise<void>,
  arrived: (values: readonly (string | undefined)[]) => boolean,
): Promise<ActionResult> {
  if (!window.active) {
    return notDelivered(
      'background',
      element,
      `window ${window.id} is not the active window: its app reads key events only there, and focusing ${label} through accessibility would raise it; nothing was typed: retry with delivery_mode "foreground"`,
    );
  }
  if (element) {
    await requireEditable(context, target.ref, label);
    const focused = (await focusElement(context, target)) && (await focusArrives(context, target.ref));
    if (!focused) return notDelivered('background', element, `${label} could not be focused through accessibility, and key events go to the focused control; nothing was typed: retry with delivery_mode "foreground"`);
  }
  const observation = await observe(context, target.ref.bus, [probe], sendKeys, { snapshot: element?.snapshot, until: arrived });
  if (arrived([await probe.read().catch(() => undefined)])) return actionOutcome({ path: 'key_events', mode: 'background', target: element, observation });
  return actionOutcome({
    path: 'key_events',
    mode: 'background',
    target: element,
    observation: { ...observation, changed: false, listening: true },
    escalation: { recommended: 'foreground', reason: `the key events were sent but the text of ${label} does not contain the typed text; retry with delivery_mode "foreground"` },
  });
}

export const typeText = defineTool({
  name: 'type_text',
  capability: 'input',
  title: 'Type text',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description:
    'Type text into an element (element_index + window_id, or element_token) or, without one, into the focused element of the window ' +
    '(window_id, or pid for its front window). Background (default) inserts the text at the caret through accessibility (EditableText): ' +
    'no keystrokes, no focus change, works on covered windows. Foreground types real keys (any Unicode character; a spare keycode is ' +
    'bound for characters the keyboard layout lacks, then restored). Newlines in foreground typing press Return.',
  input: z.strictObject({
    pid: pidArgument.optional(),
    text: z.string().min(1).max(100_000).describe('Text to insert.'),
    window_id: windowIdArgument.optional(),
    element_index: elementIndexArgument.optional(),
    element_token: elementTokenArgument.optional(),
    delay_ms: z.number().int().min(0).max(1000).optional().describe('Milliseconds between characters on the foreground path. Default 0 (as fast as the app reads them; raise it for apps that drop keys).'),
    delivery_mode: deliveryModeArgument,
    session: sessionArgument,
  }),
  output: actionResult,
  async handle(args, context) {
    const mode = deliveryMode(args.delivery_mode);
    const element: ElementTarget | undefined =
      args.element_index !== undefined || args.element_token !== undefined ? await resolveElement(context, args) : undefined;
    const window = element?.window ?? (await keyboardWindow(context, args, 'type_text'));
    const target: Actionable | undefined = element ? actionable(element) : await focusedElementOf(context, window).catch(() => undefined);
    const label = element ? `[e${element.element.index}]` : 'the focused element';
    const probes = target?.interfaces.includes('Text') ? [textProbe(context, target.ref, label)] : [];
    // Real keys arrive one by one; the evidence waits for the whole text (newlines are Return presses, not text).
    const expected = args.text.replace(/\r?\n/g, '');
    const arrived = (values: readonly (string | undefined)[]) => (values[0] ?? '').replace(/\r?\n/g, '').includes(expected);

    if (mode === 'background') {
      if (!target || !target.interfaces.includes('EditableText')) {
        const synthetic = await syntheticEventsReach(context, window);
        if (synthetic.accepted) {
          const x = await context.desktop.x11();
          const sendKeys = async () => {
            try {
              await syntheticText(x, window.id, args.text);
            } catch (error) {
              throw new ToolError((error as Error).message, 'unsupported_character');
            }
          };
          if (target && probes.length > 0) return actionOutput('type_text', await keysIntoField(context, window, element, target, label, probes[0]!, sendKeys, arrived));
          const observation = await observePixels(context, window, sendKeys);
          return actionOutput('type_text', actionOutcome({ path: 'key_events', mode, target: element, observation }));
        }
        return actionOutput(
          'type_text',
          notDelivered(
            mode,
            element,
            `${target ? `${label} does not accept text through accessibility (no EditableText)` : `window ${window.id} has no focused element`}; nothing was typed: retry with delivery_mode "foreground", or pass the text field's element_index`,
          ),
        );
      }
      await requireEditable(context, target.ref, label);
      const observation = await observe(context, target.ref.bus, probes, () => insertAtCaret(context, target, args.text), { snapshot: element?.snapshot, until: arrived });
      // The field's own text says whether the insertion took: other events of the app in the meantime (Firefox
      // renames toolbar buttons and tabs while it starts) are not the typing's effect.
      if (probes.length > 0 && observation.changed && !arrived([await probes[0]!.read().catch(() => undefined)])) {
        return actionOutput('type_text', actionOutcome({ path: 'x11_atspi', mode, target: element, observation: { ...observation, changed: false, evidence: [] } }));
      }
      return actionOutput('type_text', actionOutcome({ path: 'x11_atspi', mode, target: element, observation }));
    }

    const app = target?.ref.bus;
    const observation = await withForeground(context, window, async (x) => {
      // Put the caret in the field first, outside the observation.
      if (element) await focusForKeys(context, x, element);
      const type = async () => {
        await typeTextReally(x, args.text, { delayMs: args.delay_ms ?? 0, holdMs: 1 });
      };
      // Without an accessible target the window's pixels are the read-back.
      if (!app) return observePixels(context, window, type);
      return observe(context, app, probes, type, { snapshot: element?.snapshot, settleMs: 1000, until: probes.length ? arrived : undefined });
    });
    return actionOutput('type_text', actionOutcome({ path: 'key_events_fg', mode, target: element, observation }));
  },
});
