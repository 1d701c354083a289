import { z } from 'zod';
import { readValue, setTextContents, setValue } from '../../platform/linux/atspi/operations.js';
import { defineTool } from '../tool.js';
import { ToolError } from '../../errors.js';
import { findGestureAction, performAction } from './accessible-actions.js';
import { actionOutcome, actionOutput, describeTarget, notDelivered } from './outcome.js';
import { requireEditable } from './type-text.js';
import { actionResult, elementAddressing } from './schemas.js';
import { actionable, resolveElement } from './targets.js';
import { observe, stateProbe, textProbe, valueProbe } from './verification.js';
import { setComboValue } from './combo-box.js';
import { liveStates } from './live-states.js';

export const setValueTool = defineTool({
  name: 'set_value',
  capability: 'input',
  title: 'Set a value',
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: true },
  description:
    'Set an element\'s value through accessibility, in the background: a number on sliders, spin buttons and scroll bars (Value), the ' +
    'whole text of a text field (EditableText), the option of a combo box whose name matches value (case-insensitive; no popup is opened), ' +
    'or "true"/"false" on check boxes and switches. The value is read back.',
  input: z.strictObject({
    ...elementAddressing,
    value: z.string().max(100_000).describe('The new value; coerced to the element\'s kind.'),
  }),
  output: actionResult,
  async handle(args, context) {
    if (args.element_index === undefined && args.element_token === undefined) {
      throw new ToolError('set_value needs an element: element_index + window_id, or element_token', 'missing_target');
    }
    const target = await resolveElement(context, args);
    const client = await context.desktop.atspi();
    const label = `[e${target.element.index}]`;
    const interfaces = target.live.interfaces;
    const role = target.element.role;

    if (role === 'combobox') return actionOutput('set_value', await setComboValue(context, target, args.value));

    if (interfaces.includes('Value') && role !== 'textbox') {
      const number = Number(args.value);
      if (args.value.trim() === '' || !Number.isFinite(number)) throw new ToolError(`${label} takes a number, got "${args.value}"`, 'not_a_number');
      const range = await readValue(client, target.element);
      if (number < range.min || number > range.max) {
        throw new ToolError(`${args.value} is outside the range of ${label} (${range.min}..${range.max})`, 'out_of_range');
      }
      const observation = await observe(context, target.element.bus, [valueProbe(context, target.element, label)], () => setValue(client, target.element, number), {
        snapshot: target.snapshot,
        until: (values) => Number(values[0]) === number,
      });
      return actionOutput('set_value', actionOutcome({ path: 'x11_atspi', mode: 'background', target, observation }));
    }

    if (interfaces.includes('EditableText')) {
      await requireEditable(context, target.element, label);
      const observation = await observe(context, target.element.bus, [textProbe(context, target.element, label)], async () => {
        if (!(await setTextContents(client, target.element, args.value))) throw new ToolError(`the application refused to set the text of ${label}`, 'set_text_refused');
      }, { snapshot: target.snapshot, until: (values) => values[0] === args.value });
      return actionOutput('set_value', actionOutcome({ path: 'x11_atspi', mode: 'background', target, observation }));
    }

    if (role === 'checkbox' || role === 'switch' || role === 'menuitemcheckbox' || role === 'radio') {
      const wanted = /^(true|on|yes|1|checked)$/i.test(args.value.trim()) ? true : /^(false|off|no|0|unchecked)$/i.test(args.value.trim()) ? false : undefined;
      if (wanted === undefined) throw new ToolError(`${label} takes "true" or "false", got "${args.value}"`, 'not_a_boolean');
      const checked = (await liveStates(context, target.element)).has('STATE_CHECKED');
      if (checked === wanted) {
        return actionOutput('set_value', {
          path: 'none',
          delivery_mode: 'background',
          effect: 'confirmed',
          verified: true,
          evidence: [`checked state of ${label} is already ${wanted}: nothing to change`],
          target: describeTarget(target),
        });
      }
      const action = await findGestureAction(context, actionable(target), 'click');
      if (!action) {
        return actionOutput('set_value', notDelivered('background', target, `${label} offers no accessibility action to toggle it; nothing was sent: use click with delivery_mode "foreground"`));
      }
      const observation = await observe(context, target.element.bus, [stateProbe(context, target.element, label, 'checked')], () => performAction(context, actionable(target), action), {
        snapshot: target.snapshot,
        until: (values) => values[0] === String(wanted),
      });
      return actionOutput('set_value', actionOutcome({ path: 'x11_atspi', mode: 'background', target, observation }));
    }

    throw new ToolError(
      `${label} is a ${role} without a settable value (no Value or EditableText interface); use click, type_text or press_key on it instead`,
      'not_settable',
    );
  },
});
