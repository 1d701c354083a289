import { z } from 'zod';
import { defineTool } from '../tool.js';
import { ToolError } from '../../errors.js';
import { observeAction } from './action-diff.js';
import { targetResult } from './outcome.js';
import { actionOptions, actionResult, elementAddressing } from './schemas.js';
import { resolveElement } from './targets.js';

export const setValueTool = defineTool({
  name: 'set_value',
  capability: 'input',
  title: 'Set a value',
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  description:
    'Set an element\'s value through accessibility, in the background: a number on sliders, spin buttons and scroll bars (Value), the ' +
    'whole text of a text field (EditableText; a web page\'s field takes it through the browser\'s debugging connection when it has one, ' +
    'else as key events after focusing), the option of a combo box whose ' +
    'name matches value (case-insensitive; no popup is opened; a combo box the user types into takes value as its text), the options of a list box ("Ham, Peppers", or one a line; exactly those ' +
    'end up selected), "true"/"false" on check boxes, switches and radio buttons, or a web page\'s date or time field as the page writes ' +
    'it (2024-05-01, 14:30; through the browser\'s debugging connection). The value is read back. An element the app reports disabled is ' +
    'refused as click refuses it (element_disabled, after up to 1 s for the app to enable it), with nothing sent.',
  input: z.strictObject({
    ...elementAddressing,
    ...actionOptions,
    value: z.string().max(100_000).describe('The new value; coerced to the element\'s kind.'),
  }),
  output: actionResult,
  async handle(args, context) {
    if (args.element_index === undefined && args.element_token === undefined) {
      throw new ToolError('set_value needs an element: element_index + window_id, element_token, or selector + window_id (or pid)', 'missing_target');
    }
    const target = await resolveElement(context, args);
    return observeAction(context, 'set_value', args, target.window, async () => targetResult(await context.desktop.setValue(target, args.value), target));
  },
});
