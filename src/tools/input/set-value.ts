import { z } from 'zod';
import { decodeStateSet } from '../../cup/atspi/states.js';
import { children, readName, readRole, readStates, readText, readValue, selectChild, selectedChild, setTextContents, setValue } from '../../platform/linux/atspi/operations.js';
import type { ObjectRef } from '../../platform/linux/atspi/object-ref.js';
import type { ToolContext } from '../context.js';
import { defineTool, ToolError } from '../tool.js';
import { findGestureAction, performAction } from './accessible-actions.js';
import { actionOutcome, actionOutput, describeTarget, notDelivered } from './outcome.js';
import { requireEditable } from './type-text.js';
import { actionResult, elementAddressing } from './schemas.js';
import { actionable, resolveElement, type ElementTarget } from './targets.js';
import { observe, stateProbe, textProbe, valueProbe, type Probe } from './verification.js';

const menuItemRoles = new Set([32, 35, 8, 45]); // list item, menu item, check menu item, radio menu item
const menuRole = 33;

interface ComboOption {
  ref: ObjectRef;
  name: string;
  /**
   * Its index for the combo box's own SelectChild: its place among the popup's children, separators
   * counted (they are rows of the model too). Undefined inside a submenu, which SelectChild cannot reach.
   */
  selectIndex?: number;
}

/**
 * A combo box's options as the toolkit exposes them: its own children, or the items of its popup menu
 * or list, including the choices GTK3 groups into submenus of the popup.
 */
async function comboOptions(context: ToolContext, combo: ObjectRef): Promise<ComboOption[]> {
  const client = await context.desktop.atspi();
  const options: ComboOption[] = [];
  const visit = async (ref: ObjectRef, depth: number, inSubmenu: boolean) => {
    for (const [place, child] of (await children(client, ref)).entries()) {
      const role = await readRole(client, child);
      if (menuItemRoles.has(role)) options.push({ ref: child, name: await readName(client, child), selectIndex: inSubmenu ? undefined : place });
      else if (depth < 2) await visit(child, depth + 1, inSubmenu || (role === menuRole && depth >= 1));
    }
  };
  await visit(combo, 0, false);
  return options;
}

/**
 * The choice a combo box shows: its selected child's name; else its text (an editable combo box); else its
 * own name, which GTK3 sets to the active choice (it selects the submenu, "A - B", not the choice, "Boston").
 */
async function comboChoice(context: ToolContext, combo: ObjectRef, interfaces: readonly string[]): Promise<string> {
  const client = await context.desktop.atspi();
  const selected = interfaces.includes('Selection') ? await selectedChild(client, combo).catch(() => undefined) : undefined;
  if (selected && (await readRole(client, selected)) !== menuRole) return readName(client, selected);
  const text = interfaces.includes('Text') ? await readText(client, combo, 4096).catch(() => '') : '';
  return text || readName(client, combo);
}

async function setComboValue(context: ToolContext, target: ElementTarget, value: string) {
  const options = await comboOptions(context, target.element);
  const wanted = value.trim().toLowerCase();
  const index = options.findIndex((option) => option.name.trim().toLowerCase() === wanted);
  if (index < 0) {
    if (options.length === 0) {
      return notDelivered('background', target, `this ${target.element.role} does not expose its options until opened (GTK4 drop-downs); nothing was sent: click it, then click the option`);
    }
    throw new ToolError(`[e${target.element.index}] has no option "${value}"; its options are: ${options.map((option) => `"${option.name}"`).join(', ')}`, 'no_such_option');
  }
  const label = `[e${target.element.index}]`;
  const chosen = options[index]!;
  const choice: Probe = { label: `choice of ${label}`, read: () => comboChoice(context, target.element, target.live.interfaces) };
  const isWanted = (shown: string | undefined) => shown?.trim().toLowerCase() === wanted;
  const observation = await observe(context, target.element.bus, [choice], async () => {
    const client = await context.desktop.atspi();
    const canSelect = chosen.selectIndex !== undefined && target.live.interfaces.includes('Selection');
    if (canSelect && (await selectChild(client, target.element, chosen.selectIndex!).catch(() => false))) return;
    // No Selection that reaches the option: the option's own click action picks it.
    const option = { ref: chosen.ref, interfaces: ['Action'] };
    const action = await findGestureAction(context, option, 'click');
    if (!action) throw new ToolError(`the option "${chosen.name}" cannot be chosen through accessibility`, 'option_not_selectable');
    await performAction(context, option, action);
  }, { snapshot: target.snapshot, until: (values) => isWanted(values[0]) });
  const shown = await comboChoice(context, target.element, target.live.interfaces).catch(() => undefined);
  if (!isWanted(shown)) throw new ToolError(`${label} shows "${shown ?? '(unreadable)'}" after choosing "${chosen.name}": the choice did not take`, 'choice_not_taken');
  return actionOutcome({ path: 'x11_atspi', mode: 'background', target, observation });
}

export const setValueTool = defineTool({
  name: 'set_value',
  capability: 'input',
  readOnly: false,
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
      const checked = decodeStateSet(await readStates(client, target.element)).has('STATE_CHECKED');
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
