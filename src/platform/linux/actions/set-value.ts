// Setting a value in the background: a number (Value), a whole text (EditableText, or into a web field
// through the browser's debugging connection or key events), a combo box's option, a list box's selected options, a check box.
import { actionOutcome, notDelivered, nothingToChange, type ActionOutcome, type Observation, RETRY_IN_FOREGROUND } from '../../action-outcome.js';
import type { ElementTarget } from '../../targets.js';
import { ToolError } from '../../../errors.js';
import { atspiRoleName } from '../../../cup/atspi/roles.js';
import { cupStateOf } from '../../../cup/atspi/states.js';
import { stateCode } from '../../../cup/codes.js';
import { readAttributes, readValue, setTextContents, setValue } from '../atspi/operations.js';
import { shownNumber } from '../../../cup/atspi/convert.js';
import { textOnlyValue, textShape } from '../../../cup/atspi/value-range.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { findGestureAction, performAction } from './accessible-actions.js';
import { editableTextIdle } from './devtools-typing.js';
import { cellEditorAdvice } from './cell-editor.js';
import { offersOption, setComboValue } from './combo-box.js';
import { soleField } from './combo-field.js';
import { setListSelection } from './list-selection.js';
import { liveStates } from './live-states.js';
import { isPageDateField, pageInputButtonAdvice, setFieldThroughPage } from './page-field-value.js';
import { actionable, enabledOrRefused, liveTarget, type LiveElementTarget } from './live-target.js';
import { replaceFieldText, requireEditable, shows } from './typing.js';
import { observe, stateProbe, textProbe, valueProbe, type Probe } from './verification.js';
import { rangeKeysAdvice, stepRangeTo } from './range-steps.js';
import { decimalsPhrase, roundedTo, showsNumber, takenDecimals } from '../../../cup/shown-number.js';


/** Roles whose value is the text typed into them. */
const textRoles = new Set(['textbox', 'searchbox']);

/** Sets the element's value by what it is, and reads it back. */
export async function setValueAction(desktop: LinuxDesktop, element: ElementTarget, value: string): Promise<ActionOutcome> {
  const target = await enabledOrRefused(desktop, await liveTarget(desktop, element), 'change of its value');
  const client = await desktop.atspi();
  const label = `[e${target.element.index}]`;
  const interfaces = target.live.interfaces;
  const role = target.element.role;

  // A combo box the user types into (a page's <input role=combobox> with its suggestions) holds what is typed:
  // its text is set as a text field's is. A drop-down picks the option with that name.
  const typedInto = role === 'combobox' && interfaces.includes('Text') && (await liveStates(desktop, target.ref)).has('STATE_EDITABLE');
  if (role === 'combobox' && !typedInto) {
    // A combo box with an entry takes what is typed into it, a choice or not: its entry (its child, or in a box of the
    // combo box's) takes a value none of its options is named. GTK 4.8's exposes no option until opened: set_value on
    // the box answered "not delivered: click it, then click the option", a click that lands on the entry and opens
    // nothing. GTK3's (Poedit's "Source code charset:", a wxComboBox) refused text not among its choices as no option.
    const field = soleField(element);
    if (field && !(await offersOption(desktop, target.ref, value))) return setValueAction(desktop, { ...element, element: field }, value);
    return setComboValue(desktop, target, value);
  }
  const textField = textRoles.has(role) || typedInto;
  // A page's date or time field: its parts hold the value, which neither its own text nor theirs sets.
  if (await isPageDateField(desktop, target)) return setFieldThroughPage(desktop, target, value);
  if (role === 'list' && interfaces.includes('Selection')) return setListSelection(desktop, target, value);

  if (interfaces.includes('Value') && role !== 'textbox') {
    const shown = role === 'spinbutton' && interfaces.includes('Text') ? await textOnlyHeld(desktop, target.ref, label) : undefined;
    if (shown !== undefined) return setShownText(desktop, target, shown, value);
    const asked = Number(value);
    if (value.trim() === '' || !Number.isFinite(asked)) {
      const words = await wordsForNumber(desktop, target.ref);
      if (words?.shown.toLowerCase() === value.trim().toLowerCase()) return nothingToChange('background', `${label} shows ${JSON.stringify(words.shown)}`);
      throw await notANumber(desktop, target.ref, label, value, interfaces, words);
    }
    const range = await readValue(client, target.ref);
    if ((range.min !== undefined && asked < range.min) || (range.max !== undefined && asked > range.max)) {
      const nearest = range.min !== undefined && asked < range.min ? range.min : range.max;
      throw new ToolError(`${value} is outside the range of ${label} (${range.min ?? ''}..${range.max ?? ''}); nothing was sent: the nearest it takes is ${nearest}`, 'out_of_range');
    }
    const text = interfaces.includes('Text') ? textProbe(desktop, target.ref, label) : undefined;
    const shownBefore = await text?.read().catch(() => undefined);
    // A number finer than the control takes (7.6 in a spin button showing whole numbers, which held 7.6 and showed
    // "8": a number no person could type or pick there, which the app reads back as other than it shows) is rounded
    // to the decimals it takes before it is sent, and the evidence says so.
    const decimals = takenDecimals(range.step, range.current, shownBefore);
    const number = decimals === undefined ? asked : roundedTo(asked, decimals);
    const rounding = number === asked ? '' : ` (${value.trim()} rounded to the ${decimalsPhrase(decimals!)} it takes)`;
    // A page's number field whose browser sets it through Value unheard by the page (Gecko) is typed into as a person
    // does: the page's script (a form's own state, a framework's) hears the keys. Its text says what it holds (an
    // empty one's Value is 0).
    const unheard = role === 'spinbutton' && interfaces.includes('Text') && (await client.quirksOf(target.ref.bus)).valueUnheardInPageFields &&
      (await liveStates(desktop, target.ref)).has('STATE_EDITABLE');
    if (unheard) {
      if (shownBefore !== undefined && showsNumber(shownBefore, number) === true) return nothingToChange('background', `${label} holds ${number}${rounding}`);
      return replaceFieldText(desktop, target, String(number));
    }
    // A spin button typed into holds its number until the typing is taken (Return, or the focus leaving): Mines'
    // Percent mines field showed "2520" typed after its 25, and set_value 25 answered "holds 25 already" with the field
    // still showing 2520. Its text is read with its number, and another number there than the one held (in any locale's
    // spelling, with any unit: showsNumber) is a change still to make. A new number writes itself out over the typing;
    // the number held already does not (GTK3 sets it on the adjustment, which announces nothing), so the text is set.
    const typed = (shown: string | undefined) => shown !== undefined && showsNumber(shown, number) === false;
    const heldAlready = range.current === number;
    if (heldAlready && !typed(shownBefore)) return nothingToChange('background', `${label} holds ${number}${rounding}`);
    const overTyping = heldAlready && interfaces.includes('EditableText');
    const send = async () => {
      if (!overTyping) await setValue(client, target.ref, number);
      else if (!(await setTextContents(client, target.ref, String(number)))) throw new ToolError(`the application refused to set the text of ${label}`, 'set_text_refused');
    };
    const observation = await observe(desktop, target.ref.bus, [valueProbe(desktop, target.ref, label), ...(text ? [text] : [])], send, {
      snapshot: target.snapshot,
      until: (values) => Number(values[0]) === number && !typed(values[1]),
    });
    // A control whose app keeps its number itself (a page's ARIA slider: browsers leave a number set through Value
    // unheard by its script) is stepped by its step actions, else the keys that step it are named: the advice had been
    // to click it and type the number, which no slider takes.
    if (!observation.changed && observation.listening && !observation.unanswered && !observation.cancelled && (role === 'slider' || role === 'spinbutton')) {
      const stepped = await stepRangeTo(desktop, target, number, label);
      if (stepped) return stepped;
      return actionOutcome({
        path: 'x11_atspi',
        mode: 'background',
        observation,
        escalation: { recommended: 'foreground', reason: `${await rangeKeysAdvice(desktop, target, number, label, role)}; where the window takes no sent keys, with delivery_mode "foreground"` },
      });
    }
    // A control with steps (a web slider's step, a spin button's increments) takes the nearest value it allows.
    const held = await readValue(client, target.ref).then((read) => read.current, () => undefined);
    if (observation.changed && held !== undefined && held !== asked) {
      const why = held === number ? `it takes ${decimalsPhrase(decimals!)}` : 'it took the nearest value it allows';
      return actionOutcome({
        path: 'x11_atspi',
        mode: 'background',
        observation: { ...observation, evidence: [`${label} holds ${held}, not the ${asked} asked for: ${why}`, ...observation.evidence] },
      });
    }
    return actionOutcome({ path: 'x11_atspi', mode: 'background', observation });
  }

  if (textField && interfaces.includes('Text')) {
    await requireEditable(desktop, target.ref, label);
    const probe = textProbe(desktop, target.ref, label);
    // A field holding the value already is sent nothing: Chromium's field and rich-text box were given it again by keys,
    // their page heard them, and the result said confirmed by key events.
    if ((await probe.read().catch(() => undefined)) === value.replace(/\r?\n/g, '\n')) return nothingToChange('background', `${label} holds ${JSON.stringify(value)}`);
    // Blink's fields have no EditableText, and Gecko's takes nothing in a page (waiting out its read-back cost about
    // 2 s of every set_value there): the page's node through the browser's debugging connection, else keys.
    const editableText = interfaces.includes('EditableText') && !(await editableTextIdle(client, target.ref));
    if (!editableText) return replaceFieldText(desktop, target, value);
    const observation = await setWholeText(desktop, target, probe, value);
    // An app that answers SetTextContents and changes nothing has the key events as its next rung.
    if (!observation.unanswered && !shows((await probe.read().catch(() => undefined)) ?? '', value, 'whole')) return replaceFieldText(desktop, target, value);
    return actionOutcome({ path: 'x11_atspi', mode: 'background', observation });
  }

  // A check box or switch takes "true" or "false" whatever text interface it has: Gecko gives a page's <button
  // role=switch> EditableText, and set_value "false" on one was refused as read-only text.
  const checkable = role === 'checkbox' || role === 'switch' || role === 'menuitemcheckbox' || role === 'radio';
  if (interfaces.includes('EditableText') && !checkable) {
    await requireEditable(desktop, target.ref, label);
    const observation = await setWholeText(desktop, target, textProbe(desktop, target.ref, label), value);
    return actionOutcome({ path: 'x11_atspi', mode: 'background', observation });
  }

  if (checkable) {
    const wanted = /^(true|on|yes|1|checked)$/i.test(value.trim()) ? true : /^(false|off|no|0|unchecked)$/i.test(value.trim()) ? false : undefined;
    if (wanted === undefined) throw new ToolError(`${label} takes "true" or "false", got "${value}"`, 'not_a_boolean');
    const checked = (await liveStates(desktop, target.ref)).has('STATE_CHECKED');
    if (checked === wanted) return nothingToChange('background', `${label} ${wanted ? 'has' : 'lacks'} state ${stateCode(cupStateOf('STATE_CHECKED', atspiRoleName(target.live.role), role)!)}`);
    // A radio button's own click checks it; only choosing another of its group unchecks it.
    if (role === 'radio' && !wanted) {
      throw new ToolError(`${label} is a radio button: it is unchecked only by checking another of its group; nothing was sent. set_value "true" on the one to choose`, 'not_settable');
    }
    const action = await findGestureAction(desktop, actionable(target), 'click');
    if (!action) {
      return notDelivered('background', `${label} offers no accessibility action to toggle it; nothing was sent: use click with delivery_mode "foreground"`);
    }
    const observation = await observe(desktop, target.ref.bus, [stateProbe(desktop, target.ref, label, 'checked', target.live.role, role)], () => performAction(desktop, actionable(target), action), {
      snapshot: target.snapshot,
      until: (values) => values[0] === String(wanted),
    });
    // Other changes the action brought (the focus moving to the box) are not the box taking the asked state.
    const now = (await liveStates(desktop, target.ref)).has('STATE_CHECKED');
    if (now !== wanted && !observation.unanswered && !observation.cancelled) {
      return actionOutcome({
        path: 'x11_atspi',
        mode: 'background',
        observation: { ...observation, changed: false, listening: true },
        escalation: { recommended: 'foreground', reason: `${label} is still ${now ? 'checked' : 'unchecked'} after its "${action.name}" action; ${RETRY_IN_FOREGROUND}` },
      });
    }
    return actionOutcome({ path: 'x11_atspi', mode: 'background', observation });
  }

  const instead = (await pageInputButtonAdvice(desktop, target.ref)) ?? (await cellEditorAdvice(desktop, actionable(target)));
  throw new ToolError(
    `${label} is a ${role} without a settable value (no Value or EditableText interface); ${instead ?? 'use click, type_text or press_key on it instead'}`,
    'not_settable',
  );
}

/** The text a spin button holds in place of a number (textOnlyValue: Qt's date and time edits), if it does. */
async function textOnlyHeld(desktop: LinuxDesktop, ref: ObjectRef, label: string): Promise<string | undefined> {
  const client = await desktop.atspi();
  const [range, text] = await Promise.all([readValue(client, ref).catch(() => undefined), textProbe(desktop, ref, label).read().catch(() => undefined)]);
  return range ? textOnlyValue(range, text) : undefined;
}

/**
 * A spin button that holds the text it shows (a Qt date edit: "2024-03-15") is set by that text, as a person types it:
 * its Value takes no date. Qt's takes its whole text through EditableText and reads it as typed (an impossible
 * 2024-02-30 becomes 2024-02-29); the text read back is what it shows. A text written otherwise than the one shown
 * (textShape) is refused before anything is sent: Qt keeps it in the field untaken, and nothing says so. Without
 * EditableText nothing sets it.
 */
async function setShownText(desktop: LinuxDesktop, target: LiveElementTarget, shown: string, value: string): Promise<ActionOutcome> {
  const label = `[e${target.element.index}]`;
  if (shown === value.trim()) return nothingToChange('background', `${label} shows ${JSON.stringify(shown)}`);
  if (!target.live.interfaces.includes('EditableText')) {
    throw new ToolError(
      `${label} holds the text it shows (${JSON.stringify(shown)}), no number, and offers no editable text to set; nothing was sent: ` +
        `click it with delivery_mode "foreground", then type_text ${JSON.stringify(value)} with delivery_mode "foreground"`,
      'not_settable',
    );
  }
  if (textShape(value) !== textShape(shown)) {
    throw new ToolError(
      `${label} holds the text it shows (${JSON.stringify(shown)}), no number, and takes a text written the same way; ${JSON.stringify(value)} is not, and its app would keep it unread; nothing was sent: ` +
        `set_value a text written as ${JSON.stringify(shown)} is, or click it with delivery_mode "foreground" and type_text`,
      'not_settable',
    );
  }
  const observation = await setWholeText(desktop, target, textProbe(desktop, target.ref, label), value.trim());
  return actionOutcome({ path: 'x11_atspi', mode: 'background', observation });
}

/** Sets an element's whole text through EditableText, read back until it holds the value. */
async function setWholeText(desktop: LinuxDesktop, target: LiveElementTarget, probe: Probe, value: string): Promise<Observation> {
  const client = await desktop.atspi();
  return observe(desktop, target.ref.bus, [probe], async () => {
    if (!(await setTextContents(client, target.ref, value))) throw new ToolError(`the application refused to set the text of [e${target.element.index}]`, 'set_text_refused');
  }, { snapshot: target.snapshot, until: (values) => shows(values[0] ?? '', value, 'whole') });
}

interface WordsForNumber {
  shown: string;
  current: number;
  min?: number;
  max?: number;
}

/**
 * What a range control shows for its number when it writes words, no number (its value text): the AM/PM part of
 * Blink's time field holds 1 of 1..2 and writes "AM" (shownNumber in convert.ts). Undefined for one showing a number.
 */
async function wordsForNumber(desktop: LinuxDesktop, ref: ObjectRef): Promise<WordsForNumber | undefined> {
  const client = await desktop.atspi();
  const [range, attributes] = await Promise.all([readValue(client, ref).catch(() => undefined), readAttributes(client, ref).catch(() => undefined)]);
  const shown = range && attributes ? shownNumber({ value: range, attributes, states: [] }, 'spinbutton') : undefined;
  return range && shown !== undefined && !/\d/.test(shown) ? { shown, current: range.current, min: range.min, max: range.max } : undefined;
}

/**
 * A number field given something else. A spreadsheet's cell offers Value for its number, and is also editable text
 * that takes what is typed (a formula, a word), which no accessibility call sets (LibreOffice's cells have no
 * EditableText): the error names the route that does, rather than only that this is no number. One that writes words
 * for its number (wordsForNumber) is given a word: the error names the typing its app takes.
 */
async function notANumber(desktop: LinuxDesktop, ref: ObjectRef, label: string, value: string, interfaces: readonly string[], words?: WordsForNumber): Promise<ToolError> {
  if (words) {
    return new ToolError(
      `${label} writes words for the number it holds (it shows ${JSON.stringify(words.shown)}, ${words.current} of ${words.min ?? ''}..${words.max ?? ''}), and accessibility ` +
        `sets only the number, which its app may not take (Blink's date and time parts take none); nothing was sent. Its app takes the word typed: ` +
        `click it with delivery_mode "foreground", then type_text ${JSON.stringify(value)} with delivery_mode "foreground"`,
      'not_settable',
    );
  }
  const typedInto = interfaces.includes('Text') && (await liveStates(desktop, ref).catch(() => new Set<string>())).has('STATE_EDITABLE');
  if (!typedInto) return new ToolError(`${label} takes a number, got "${value}"`, 'not_a_number');
  return new ToolError(
    `${label} takes a number through accessibility, and "${value}" is not one; it is editable text too, which takes what is typed: ` +
      `click it with delivery_mode "foreground", text ${JSON.stringify(value)} and press_key "return" (one call), or set_value a number`,
    'not_a_number',
  );
}

