// Choosing which options of a list box are selected (an HTML <select multiple> or <select size>, a toolkit's
// list box), by their names, through the list's Selection interface.
import { ToolError } from '../../../errors.js';
import { actionOutcome, type ActionOutcome } from '../../action-outcome.js';
import { children, clearSelection, readName, selectChild } from '../atspi/operations.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { liveStates } from './live-states.js';
import type { LiveElementTarget } from './live-target.js';
import { observe, type Probe } from './verification.js';
import { typedSpelling } from '../../../cup/text.js';

interface ListOption {
  ref: ObjectRef;
  name: string;
}

/** The names a value lists: one per line when it has several lines, else separated by commas ("Cheese, Olives"). */
export function listedNames(value: string): string[] {
  return value
    .split(value.includes('\n') ? /\r?\n/ : ',')
    .map((name) => name.trim())
    .filter(Boolean);
}

/** Compared as typed, without case (typedSpelling: an en dash is the "-" an agent types). */
const key = (name: string) => typedSpelling(name).trim().toLowerCase();

/** The names of the selected options, in the list's order, joined as set_value takes them. */
async function selectedNames(desktop: LinuxDesktop, options: readonly ListOption[]): Promise<string> {
  const selected = await Promise.all(options.map(async (option) => (await liveStates(desktop, option.ref)).has('STATE_SELECTED')));
  return options.filter((_, i) => selected[i]).map((option) => option.name).join(', ');
}

/**
 * Makes exactly the named options selected: the selection is cleared when it holds an unwanted option, then
 * each wanted one is selected by its index among the list's children; the list's selected options are the read-back.
 */
export async function setListSelection(desktop: LinuxDesktop, target: LiveElementTarget, value: string): Promise<ActionOutcome> {
  const client = await desktop.atspi();
  const label = `[e${target.element.index}]`;
  const refs = await children(client, target.ref);
  const options: ListOption[] = await Promise.all(refs.map(async (ref) => ({ ref, name: (await readName(client, ref)).trim() })));
  const wanted = listedNames(value);
  const missing = wanted.filter((name) => !options.some((option) => key(option.name) === key(name)));
  if (missing.length > 0) {
    throw new ToolError(`${label} has no option ${missing.map((name) => `"${name}"`).join(', ')}; its options are: ${options.map((option) => `"${option.name}"`).join(', ')}`, 'no_such_option');
  }
  if (wanted.length > 1 && !(await liveStates(desktop, target.ref)).has('STATE_MULTISELECTABLE')) {
    throw new ToolError(`${label} selects one option at a time; give one of: ${options.map((option) => `"${option.name}"`).join(', ')}`, 'not_multiselectable');
  }
  const wantedKeys = new Set(wanted.map(key));
  const expected = options.filter((option) => wantedKeys.has(key(option.name))).map((option) => option.name).join(', ');
  const probe: Probe = { label: `selected options of ${label}`, read: () => selectedNames(desktop, options) };
  const observation = await observe(desktop, target.ref.bus, [probe], async () => {
    const selected = async () => Promise.all(options.map(async (option) => (await liveStates(desktop, option.ref)).has('STATE_SELECTED')));
    let now = await selected();
    // Cleared first when anything unwanted is selected: Gecko's DeselectChild leaves some options selected.
    if (options.some((option, i) => now[i] && !wantedKeys.has(key(option.name)))) {
      if (!(await clearSelection(client, target.ref))) throw new ToolError(`the application refused to clear the selection of ${label}`, 'choice_not_taken');
      now = await selected();
    }
    for (const [i, option] of options.entries()) {
      if (!now[i] && wantedKeys.has(key(option.name)) && !(await selectChild(client, target.ref, i))) {
        throw new ToolError(`the application refused to select "${option.name}" in ${label}`, 'option_not_selectable');
      }
    }
  }, { snapshot: target.snapshot, until: (values) => values[0] === expected });
  const shown = await selectedNames(desktop, options).catch(() => undefined);
  if (!observation.unanswered && shown !== expected) {
    throw new ToolError(`${label} has ${shown ? `"${shown}"` : 'nothing'} selected after selecting "${expected}": the selection did not take`, 'choice_not_taken');
  }
  return actionOutcome({ path: 'x11_atspi', mode: 'background', observation });
}
