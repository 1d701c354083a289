import { z } from 'zod';
import type { ElementTarget } from '../../platform/targets.js';
import { pidArgument, windowIdArgument } from '../schemas.js';
import { defineTool } from '../tool.js';
import { observeAction } from './action-diff.js';
import { targetResult } from './outcome.js';
import { actionOptions, actionResult, deliveryMode, deliveryModeArgument, elementIndexArgument, elementTokenArgument, elementSelectorArgument, selectorTimeoutArgument } from './schemas.js';
import { keyboardWindow, resolveElement } from './targets.js';

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
    text: z.string().min(1).max(100_000).describe('Text to insert.'),
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
    return observeAction(context, 'type_text', args, window, async () => targetResult(await context.desktop.typeText(request), element));
  },
});
