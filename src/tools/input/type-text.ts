import { z } from 'zod';
import type { ElementTarget } from '../../platform/targets.js';
import { pidArgument, windowIdArgument } from '../schemas.js';
import { defineTool } from '../tool.js';
import { observeAction } from './action-diff.js';
import { targetResult } from './outcome.js';
import { actionOptions, actionResult, deliveryMode, deliveryModeArgument, elementIndexArgument, elementTokenArgument, elementSelectorArgument, selectorTimeoutArgument } from './schemas.js';
import { keyboardWindow, resolveElement } from './targets.js';

/** The keys that do what a control character would, named for press_key. */
const controlKeys: Record<number, string> = { 0x08: 'backspace', 0x1b: 'escape', 0x7f: 'delete' };

/**
 * A control character other than a line break or a tab is no text: "\b\b" typed to undo two letters was refused by
 * real keys as an internal error, after the call had been taken, where it is bad input, and press_key is what works.
 */
function controlCharacterIssue(text: string): string | undefined {
  const found = [...text].find((character) => /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/u.test(character));
  if (found === undefined) return undefined;
  const code = found.codePointAt(0)!;
  const key = controlKeys[code];
  return `holds control character U+${code.toString(16).padStart(4, '0').toUpperCase()}, which is no text to type; ${key ? `press_key "${key}" does what it stands for` : 'press_key presses a key by its name'} (newlines and tabs are typed as Return and Tab)`;
}

export const typeText = defineTool({
  name: 'type_text',
  capability: 'input',
  title: 'Type text',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description:
    'Type text into an element (element_index + window_id, element_token, or selector + window_id) or, without one, into the focused element of the window ' +
    '(window_id, or pid for its front window). Background (default) inserts the text at the caret through accessibility (EditableText): ' +
    'no keystrokes, no focus change, works on covered windows; a web page\'s field takes it through the browser\'s debugging connection when ' +
    'it has one (launch_app with electron_debugging_port; path "devtools"), else as key events. Foreground types real keys (any Unicode character; a spare keycode is ' +
    'bound for characters the keyboard layout lacks, then restored). Newlines in foreground typing press Return.',
  input: z.strictObject({
    pid: pidArgument.optional(),
    text: z
      .string()
      .min(1)
      .max(100_000)
      .superRefine((text, issues) => {
        const issue = controlCharacterIssue(text);
        if (issue) issues.addIssue({ code: 'custom', message: issue });
      })
      .describe('Text to insert.'),
    window_id: windowIdArgument.optional(),
    element_index: elementIndexArgument.optional(),
    element_token: elementTokenArgument.optional(),
    selector: elementSelectorArgument.optional(),
    selector_timeout_ms: selectorTimeoutArgument.optional(),
    delay_ms: z.number().int().min(0).max(1000).optional().describe('Milliseconds between characters on the foreground path. Default 0 (as fast as the app reads them; raise it for apps that drop keys).'),
    delivery_mode: deliveryModeArgument,
    ...actionOptions,
  }),
  output: actionResult,
  async handle(args, context) {
    const mode = deliveryMode(args.delivery_mode);
    const element: ElementTarget | undefined =
      args.element_index !== undefined || args.element_token !== undefined ? await resolveElement(context, args) : undefined;
    const window = element?.window ?? (await keyboardWindow(context, args, 'type_text'));
    const snapshot = element ? undefined : context.state.snapshots.latest(window.pid, window.id);
    const request = { window, element, snapshot, text: args.text, delayMs: args.delay_ms ?? 0, mode, signal: context.signal };
    // Real typing reads its field and the open menus while the window is read before it (see observeAction).
    return observeAction(context, 'type_text', args, window, async (ready) => targetResult(await context.desktop.typeText({ ...request, ready }), element), mode === 'foreground');
  },
});
