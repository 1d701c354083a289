import { z } from 'zod';
import { characterCount, copyText, cutText, doAction, pasteText, caretOffset, selectTextRange, textSelection } from '../../platform/linux/atspi/operations.js';
import type { ToolContext } from '../context.js';
import { defineTool } from '../tool.js';
import { ToolError } from '../../errors.js';
import { findNamedAction, findPressAction, type Actionable } from './accessible-actions.js';
import { focusedElementOf } from './focused-element.js';
import { actionOutcome, actionOutput, notDelivered } from './outcome.js';
import { pressCombination, syntheticCombination } from '../../platform/linux/input/index.js';
import { observePixels, syntheticEventsReach } from './synthetic-rung.js';
import { parseKeys, withForeground } from './real-input.js';
import { actionResult, deliveryMode, deliveryModeArgument, elementAddressing, type ActionResult } from './schemas.js';
import { actionable, keyboardWindow, resolveElement } from './targets.js';
import { focusForKeys } from './element-point.js';
import { observe, stateProbe, textProbe, type Probe } from './verification.js';
import { liveStates } from './live-states.js';

/** Roles that Space presses when they have the focus, as a click would (a text field types the space instead). */
const spacePressedRoles = new Set(['button', 'checkbox', 'radio', 'switch', 'menuitemcheckbox', 'menuitemradio']);

/** Keys that open or close a tree row: what they do depends on whether it is expanded now. */
const expandKeys = new Set(['right', 'plus', '+']);
const collapseKeys = new Set(['left', 'minus', '-']);

/** A tree row's expand-or-collapse action, when this key would toggle it from its present state. */
async function expanderFor(context: ToolContext, target: Actionable, combo: string) {
  if (!expandKeys.has(combo) && !collapseKeys.has(combo)) return undefined;
  const states = await liveStates(context, target.ref);
  if (!states.has('STATE_EXPANDABLE') || states.has('STATE_EXPANDED') !== collapseKeys.has(combo)) return undefined;
  return findNamedAction(context, target, ['expand or contract', 'expand or collapse']);
}

/**
 * Key presses an accessibility interface can perform without any keystroke, so they work in the
 * background: Enter activates, Space presses a button or check box, Right/Left (or +/-) expand and
 * collapse a tree row, and the clipboard and select-all shortcuts of text fields.
 */
async function backgroundKeys(context: ToolContext, target: Actionable, combo: string): Promise<(() => Promise<void>) | undefined> {
  const client = await context.desktop.atspi();
  const editable = target.interfaces.includes('EditableText');
  if (combo === 'return') {
    const activate = await findNamedAction(context, target, ['activate']);
    if (activate) return async () => void (await doAction(client, target.ref, activate.index));
  }
  if (combo === 'space' && spacePressedRoles.has(target.role ?? '')) {
    const press = await findPressAction(context, target);
    if (press) return async () => void (await doAction(client, target.ref, press.index));
  }
  const expander = await expanderFor(context, target, combo);
  if (expander) return async () => void (await doAction(client, target.ref, expander.index));
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

interface KeyArgs {
  pid?: number;
  window_id?: number;
  element_index?: number;
  element_token?: string;
  delivery_mode?: string;
}

async function sendKeys(context: ToolContext, tool: string, args: KeyArgs, rawKeys: string[], repeat = 1): Promise<ActionResult> {
  const keys = parseKeys(rawKeys);
  const mode = deliveryMode(args.delivery_mode);
  const element = args.element_index !== undefined || args.element_token !== undefined ? await resolveElement(context, args) : undefined;
  const window = element?.window ?? (await keyboardWindow(context, args, tool));
  const target = element ? actionable(element) : await focusedElementOf(context, window).catch(() => undefined);
  const label = element ? `[e${element.element.index}]` : 'the focused element';
  const probes: Probe[] = target
    ? [
        ...(target.interfaces.includes('Text') ? [textProbe(context, target.ref, label)] : []),
        ...['checked', 'selected', 'expanded'].map((state) => stateProbe(context, target.ref, label, state)),
      ]
    : [];

  if (mode === 'background') {
    const perform = target && repeat === 1 ? await backgroundKeys(context, target, keys.canonical) : undefined;
    if (!target || !perform) {
      const synthetic = await syntheticEventsReach(context, window);
      if (synthetic.accepted) {
        const x = await context.desktop.x11();
        const observation = await observePixels(context, window, async () => {
          try {
            await syntheticCombination(x, window.id, rawKeys, repeat);
          } catch (error) {
            throw new ToolError((error as Error).message, 'invalid_key');
          }
        });
        return actionOutcome({ path: 'key_events', mode, target: element, observation });
      }
      const toolkit = synthetic.toolkit;
      return notDelivered(
        mode,
        element,
        `${keys.canonical} has no accessibility equivalent on ${label}, and ${toolkit} ignores synthetic key events; nothing was sent: retry with delivery_mode "foreground" (real keys to the activated window)`,
      );
    }
    const observation = await observe(context, target.ref.bus, probes, perform, { snapshot: element?.snapshot });
    // Copying changes nothing an application reports: it is delivered, and honestly unverifiable.
    if (keys.canonical === 'ctrl+c' && !observation.changed) return actionOutcome({ path: 'x11_atspi', mode, target: element });
    return actionOutcome({ path: 'x11_atspi', mode, target: element, observation });
  }

  const observation = await withForeground(context, window, async (x) => {
    // Focus first, outside the observation: only what the keys do counts as their effect.
    if (element) await focusForKeys(context, x, element);
    const press = async () => {
      await pressCombination(x, rawKeys, { repeat });
    };
    // Without an accessible target the window's pixels are the read-back.
    if (!target) return observePixels(context, window, press);
    return observe(context, target.ref.bus, probes, press, { snapshot: element?.snapshot });
  });
  return actionOutcome({ path: 'key_events_fg', mode, target: element, observation });
}

const addressing = { ...elementAddressing, delivery_mode: deliveryModeArgument };

export const pressKey = defineTool({
  name: 'press_key',
  capability: 'input',
  title: 'Press a key',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description:
    'Press and release one key, optionally with modifiers, in an app (pid / window_id) or on an element (focused first). Key names: return ' +
    '(enter), tab, escape (esc), space, backspace, delete, insert, home, end, pageup, pagedown, up, down, left, right, f1-f24, menu, any single ' +
    'character. Background performs what accessibility can (Enter activates; Space presses a button or check box; Right/Left or +/- expand and collapse a tree row; ctrl+a/c/x/v ' +
    'on text fields); apps that take synthetic X events get X key events; otherwise the result recommends ' +
    'foreground, which sends real key events (XTEST) to the activated window.',
  input: z.strictObject({
    key: z.string().min(1).max(64).describe('Key name or single character.'),
    modifiers: z.array(z.string()).optional().describe('Modifiers held: ctrl, shift, alt, super (cmd/meta are super).'),
    repeat: z.number().int().min(1).max(100).optional().describe('Press it this many times (foreground). Default 1.'),
    ...addressing,
  }),
  output: actionResult,
  async handle(args, context) {
    return actionOutput('press_key', await sendKeys(context, 'press_key', args, [...(args.modifiers ?? []), args.key], args.repeat ?? 1));
  },
});

export const hotkey = defineTool({
  name: 'hotkey',
  capability: 'input',
  title: 'Press a key combination',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description:
    'Press a key combination: modifiers first, one non-modifier key last, e.g. ["ctrl", "c"]. Background covers what accessibility can ' +
    '(ctrl+a/c/x/v on text fields, Enter); otherwise the result recommends foreground (real keys, modifiers released in reverse order).',
  input: z.strictObject({
    keys: z.array(z.string().min(1).max(64)).min(1).max(6).describe('Modifier(s) then one key, e.g. ["ctrl", "shift", "t"].'),
    ...addressing,
  }),
  output: actionResult,
  async handle(args, context) {
    return actionOutput('hotkey', await sendKeys(context, 'hotkey', args, args.keys));
  },
});
