import { z } from 'zod';
import type { ToolContext } from '../context.js';
import { defineTool } from '../tool.js';
import type { ToolOutput } from '../tool.js';
import { observeAction } from './action-diff.js';
import { targetResult } from './outcome.js';
import { actionOptions, actionResult, deliveryMode, deliveryModeArgument, elementAddressing, type ActionResult } from './schemas.js';
import { keyboardWindow, resolveElement } from './targets.js';

interface KeyArgs {
  pid?: number;
  window_id?: number;
  element_index?: number;
  element_token?: string;
  delivery_mode?: string;
  diff?: boolean;
}

async function sendKeys(context: ToolContext, tool: string, args: KeyArgs, keys: string[], repeat = 1): Promise<ToolOutput<ActionResult>> {
  context.desktop.validateKeys(keys);
  const mode = deliveryMode(args.delivery_mode);
  const element = args.element_index !== undefined || args.element_token !== undefined ? await resolveElement(context, args) : undefined;
  const window = element?.window ?? (await keyboardWindow(context, args, tool));
  const snapshot = element ? undefined : context.state.snapshots.latest(window.pid, window.id);
  return observeAction(context, tool, args, window, async () => targetResult(await context.desktop.pressKeys({ window, element, snapshot, keys, repeat, mode, signal: context.signal }), element));
}

const addressing = { ...elementAddressing, delivery_mode: deliveryModeArgument, ...actionOptions };

export const pressKey = defineTool({
  name: 'press_key',
  capability: 'input',
  title: 'Press a key',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description:
    'Press and release one key, optionally with modifiers, in an app (pid / window_id) or on an element (focused first). Key names: return ' +
    '(enter), tab, escape (esc), space, backspace, delete, insert, home, end, pageup, pagedown, up, down, left, right, f1-f24, menu, any single ' +
    'character, and X\'s names (KP_Enter, Control_L); combinations are joined with "+". Background performs what accessibility can (Enter activates; Space presses a button or check box; Right/Left or +/- expand and collapse a tree row; ctrl+a/c/x/v ' +
    'on text fields; ctrl+a on a list or icon view selects all its items); apps that take synthetic X events get X key events; otherwise the result recommends ' +
    'foreground, which sends real key events (XTEST) to the activated window.',
  input: z.strictObject({
    key: z.string().min(1).max(64).describe('Key name or single character; a combination written with "+" ("ctrl+shift+s") is one too.'),
    modifiers: z.array(z.string()).optional().describe('Modifiers held: ctrl, shift, alt, super (cmd/meta are super).'),
    repeat: z.number().int().min(1).max(100).optional().describe('Press it this many times (foreground). Default 1.'),
    ...addressing,
  }),
  output: actionResult,
  async handle(args, context) {
    return sendKeys(context, 'press_key', args, [...(args.modifiers ?? []), args.key], args.repeat ?? 1);
  },
});

export const hotkey = defineTool({
  name: 'hotkey',
  capability: 'input',
  title: 'Press a key combination',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description:
    'Press a key combination: modifiers first, one non-modifier key last, e.g. ["ctrl", "c"]. Background covers what accessibility can ' +
    '(ctrl+a/c/x/v on text fields, ctrl+a on a list or icon view, Enter); otherwise the result recommends foreground (real keys, modifiers released in reverse order).',
  input: z.strictObject({
    keys: z.array(z.string().min(1).max(64)).min(1).max(6).describe('Modifier(s) then one key, e.g. ["ctrl", "shift", "t"].'),
    ...addressing,
  }),
  output: actionResult,
  async handle(args, context) {
    return sendKeys(context, 'hotkey', args, args.keys);
  },
});
