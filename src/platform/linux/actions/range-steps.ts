// A range control whose number the app keeps itself (a web page's ARIA slider or spin button: a div whose script holds
// aria-valuenow and steps it by arrow keys), which takes no number set through accessibility: browsers leave such a
// set unheard by the page. It is stepped by its increment and decrement actions where it offers them (Blink's ARIA
// sliders, whose actions send the page the arrow key), else the result names the keys that step it.
import { actionOutcome, type ActionOutcome, type Observation } from '../../action-outcome.js';
import { doAction, readValue } from '../atspi/operations.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { findNamedAction } from './accessible-actions.js';
import { actionable, type LiveElementTarget } from './live-target.js';
import type { CupRole } from '../../../cup/types.js';
import { numberShownNow, observe, valueProbe } from './verification.js';

/** Steps at most taken toward a number: a slider of a thousand steps is not walked. */
const maxSteps = 200;
/** How long one step is given to show in the control's number (the page runs the key the action sends). */
const stepShownMs = 1500;

/** The control's number once it is other than `was`, or undefined when it stayed within `stepShownMs`. */
async function movedFrom(desktop: LinuxDesktop, target: LiveElementTarget, was: number): Promise<number | undefined> {
  const client = await desktop.atspi();
  for (const deadline = Date.now() + stepShownMs; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 25))) {
    const now = (await readValue(client, target.ref)).current;
    if (now !== was) return now;
  }
  return undefined;
}

/**
 * After a number set through Value showed no effect: the control stepped toward `number` by its step actions, read back
 * after each step, stopping once it reaches or passes the number, or stops moving. Undefined when it offers none.
 */
export async function stepRangeTo(desktop: LinuxDesktop, target: LiveElementTarget, number: number, label: string): Promise<ActionOutcome | undefined> {
  const client = await desktop.atspi();
  const start = (await readValue(client, target.ref)).current;
  if (start === number) return undefined;
  const up = number > start;
  const action = await findNamedAction(desktop, actionable(target), up ? ['increment', 'increase'] : ['decrement', 'decrease']);
  if (!action) return undefined;
  let steps = 0;
  const observation: Observation = await observe(desktop, target.ref.bus, [valueProbe(desktop, target.ref, label)], async () => {
    for (let now = start; steps < maxSteps && (up ? now < number : now > number); ) {
      await doAction(client, target.ref, action.index);
      steps += 1;
      const moved = await movedFrom(desktop, target, now);
      if (moved === undefined) break;
      now = moved;
    }
  }, { snapshot: target.snapshot, until: (values) => Number(values[0]) === number });
  const held = await readValue(client, target.ref).then((read) => read.current, () => undefined);
  const note = `${label} took no number set through accessibility (its app steps it itself), so it was stepped by its "${action.name}" action ${steps} time${steps === 1 ? '' : 's'}` +
    (held === number ? '' : `; it holds ${held ?? 'an unreadable number'}, not the ${number} asked for`);
  return actionOutcome({ path: 'x11_atspi', mode: 'background', observation: { ...observation, evidence: [note, ...observation.evidence] } });
}

/**
 * What to do instead, for a range control that took no number set through accessibility and offers no step actions
 * (Gecko's ARIA sliders and spin buttons, Blink's ARIA spin buttons): its arrow keys, so many presses from the number
 * it holds, one step each. The advice had been to click it and type the value, which no slider takes.
 */
export async function rangeKeysAdvice(desktop: LinuxDesktop, target: LiveElementTarget, number: number, label: string, role: string): Promise<string> {
  const client = await desktop.atspi();
  const range = await readValue(client, target.ref);
  // Counted from the number the tree reads it holding (numberShownNow), not its Value's: Gecko's date parts answer 0
  // whatever they show, and set_value 5 on a Month part showing "03" advised 5 presses up, to August.
  const shown = Number((await numberShownNow(client, target.ref, role as CupRole).catch(() => undefined)) ?? Number.NaN);
  const held = Number.isFinite(shown) ? shown : range.current;
  const step = range.step !== undefined && range.step > 0 ? range.step : 1;
  const presses = Math.max(1, Math.round(Math.abs(number - held) / step));
  const key = number > held ? (role === 'slider' ? 'right' : 'up') : role === 'slider' ? 'left' : 'down';
  return `${label} holds ${held} and took no number set through accessibility (its app steps it itself, by its arrow keys): ` +
    `press_key ${JSON.stringify(key)} with repeat ${presses} on ${label} (one step each${range.step !== undefined && range.step > 0 ? ` of ${range.step}` : ''}); the result reads back where it got`;
}
