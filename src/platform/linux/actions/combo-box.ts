// A combo box's options as toolkits expose them, and choosing one through accessibility.
import { ATSPI_ROLE } from '../../../cup/atspi/constants.js';
import { normaliseWhitespace, typedSpelling } from '../../../cup/text.js';
import { choiceAtPlace } from '../../../cup/atspi/choice-place.js';
import { ancestry, children, comboText, readAttributes, readInterfaces, readName, readRole, readStates, selectChild, selectedChoiceName } from '../atspi/operations.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { UnansweredActionError } from '../atspi/unanswered-action.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { ToolError } from '../../../errors.js';
import { syntheticCombination } from '../input/index.js';
import { findGestureAction, focusArrives, focusElement, performAction } from './accessible-actions.js';
import { actionOutcome, notDelivered, nothingToChange, type ActionOutcome } from '../../action-outcome.js';
import { liveStates } from './live-states.js';
import { actionable, isDisabled, type LiveElementTarget } from './live-target.js';
import { syntheticEventsReach } from './synthetic-rung.js';
import { observe, type Probe } from './verification.js';

const menuItemRoles = new Set([ATSPI_ROLE.LIST_ITEM, ATSPI_ROLE.MENU_ITEM, ATSPI_ROLE.CHECK_MENU_ITEM, ATSPI_ROLE.RADIO_MENU_ITEM]);
const listRoles = new Set([ATSPI_ROLE.LIST, ATSPI_ROLE.LIST_BOX]);
/**
 * How far below the combo box its options may lie: GTK3's are in its popup menu (and its submenus); Java's JComboBox
 * holds them in a list, in a viewport, in a scroll pane, in its popup menu, and set_value found none there and said
 * the combo box exposes its options only when opened.
 */
const optionsDepth = 4;

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
async function comboOptions(desktop: LinuxDesktop, combo: ObjectRef): Promise<ComboOption[]> {
  const client = await desktop.atspi();
  const options: ComboOption[] = [];
  const visit = async (ref: ObjectRef, depth: number, inSubmenu: boolean, inList: boolean) => {
    for (const [place, child] of (await children(client, ref)).entries()) {
      const role = await readRole(client, child);
      // A list's children are its rows whatever role they say: Java's JList cells take their renderer's (a label).
      if (menuItemRoles.has(role) || (inList && role !== ATSPI_ROLE.SEPARATOR)) options.push({ ref: child, name: await readName(client, child), selectIndex: inSubmenu ? undefined : place });
      else if (depth < optionsDepth) await visit(child, depth + 1, inSubmenu || (role === ATSPI_ROLE.MENU && depth >= 1), listRoles.has(role));
    }
  };
  await visit(combo, 0, false, false);
  return options;
}

/** An option's name or a value asked for, compared as typed, without case: "Word 2007-365 (.docx)" is LibreOffice's "Word 2007–365 (.docx)" (an en dash). */
function typed(name: string): string {
  return typedSpelling(name).trim().toLowerCase();
}

/**
 * Whether a combo box exposes, while closed, an option of this name (GTK 4.8's combo boxes expose none until opened;
 * a combo box with an entry, GTK3's, offers a few choices and takes any text typed).
 */
export async function offersOption(desktop: LinuxDesktop, combo: ObjectRef, value: string): Promise<boolean> {
  return (await comboOptions(desktop, combo)).some((option) => typed(option.name) === typed(value));
}

/**
 * The choice a combo box says it shows: its selected child's name; else its text (an editable combo box) unless
 * stale; else its own name when that is one of its options (Qt names a combo box by the text it shows, and its
 * closed popup's "selected" item is only the last one toggled there, which the combo box need not have taken).
 * Undefined when it says none of these.
 */
async function saidChoice(desktop: LinuxDesktop, combo: ObjectRef, interfaces: readonly string[], options: readonly ComboOption[]): Promise<string | undefined> {
  const client = await desktop.atspi();
  const selected = interfaces.includes('Selection') ? await selectedChoiceName(client, combo).catch(() => undefined) : undefined;
  if (selected !== undefined) return selected;
  // Blink's <select> says its choice's place among its options, where its options' marks can be stale (choiceAtPlace).
  if (!interfaces.includes('Selection')) {
    const placed = choiceAtPlace(await readAttributes(client, combo).catch(() => undefined), options);
    if (placed) return placed.name;
  }
  const text = interfaces.includes('Text') ? ((await comboText(client, combo).catch(() => '')) ?? '') : '';
  if (text) return text;
  const name = await readName(client, combo);
  if (name && options.some((option) => normaliseWhitespace(option.name) === normaliseWhitespace(name))) return name;
  return undefined;
}

/**
 * The choice a combo box shows: the one it says (saidChoice); else the option its popup marks selected (Gecko's
 * <select> has neither Selection nor text, and is named by its label); else its own name, which GTK3 sets to the
 * active choice (it selects the submenu, "A - B", not the choice, "Boston").
 */
async function comboChoice(desktop: LinuxDesktop, combo: ObjectRef, interfaces: readonly string[], options: readonly ComboOption[]): Promise<string> {
  const said = await saidChoice(desktop, combo, interfaces, options);
  if (said !== undefined) return said;
  if (!interfaces.includes('Selection')) {
    const marked = await Promise.all(options.map(async (option) => (await liveStates(desktop, option.ref).catch(() => new Set<string>())).has('STATE_SELECTED')));
    const index = marked.indexOf(true);
    if (index >= 0) return options[index]!.name;
  }
  return readName(await desktop.atspi(), combo);
}

/**
 * How far above an item its combo box is looked for: Qt, GTK3 and Gecko put the options in a list or menu that is the
 * combo box's child; GTK 4.8's drop-down puts its list view in a scroll pane in a popover, six levels down.
 */
const comboItemDepth = 6;

/** A combo box's drop-down (its child that holds the options shown) and the combo box. */
export interface DropDown {
  combo: ObjectRef;
  popup: ObjectRef;
}

/** The combo box whose drop-down holds the item (an option in its list, menu or popover), if it is one's. */
export async function dropDownHolding(desktop: LinuxDesktop, item: ObjectRef): Promise<DropDown | undefined> {
  const client = await desktop.atspi();
  // The ancestors found first, their roles asked together (a role read per level was a round trip each, in turn).
  const held = [item, ...(await ancestry(client, item, comboItemDepth)).paths.map((path) => ({ bus: item.bus, path }))];
  const roles = await Promise.all(held.slice(1).map((at) => readRole(client, at)));
  const combo = roles.indexOf(ATSPI_ROLE.COMBO_BOX);
  // The item's own parent a combo box: the item is no option of a drop-down, but the combo box's own part.
  return combo > 0 ? { combo: held[combo + 1]!, popup: held[combo]! } : undefined;
}

/** The choice the combo box says it shows now (saidChoice), undefined when it says none. */
export async function comboSays(desktop: LinuxDesktop, combo: ObjectRef): Promise<string | undefined> {
  const client = await desktop.atspi();
  const [interfaces, options] = await Promise.all([readInterfaces(client, combo), comboOptions(desktop, combo)]);
  return saidChoice(desktop, combo, interfaces, options);
}

/** At most this many other options are asked whether the toolkit marks its options enabled at all. */
const maxOptionsAsked = 20;

/**
 * An option the app greys out is no choice, in the background or the foreground: Sylpheed's account Protocol box offers
 * IMAP4 insensitive for a POP3 account, and the choice was sent, not taken, and answered with advice to click it in
 * the foreground. It is refused before anything is sent, when the toolkit marks its options at all (another option
 * says enabled or sensitive: a closed popup's items need not say either).
 */
async function refuseDisabledOption(desktop: LinuxDesktop, options: readonly ComboOption[], chosen: ComboOption, label: string): Promise<void> {
  const client = await desktop.atspi();
  const statesOf = (option: ComboOption) => readStates(client, option.ref).catch(() => undefined);
  const own = await statesOf(chosen);
  if (!own || !isDisabled(own)) return;
  for (const other of options.filter((option) => option !== chosen).slice(0, maxOptionsAsked)) {
    const states = await statesOf(other);
    if (states && !isDisabled(states)) {
      throw new ToolError(`the option "${chosen.name}" of ${label} is disabled (the app reports it neither enabled nor sensitive), so it cannot be chosen now; nothing was sent. Do what enables it first`, 'option_not_selectable');
    }
  }
}

/** Chooses a combo box's option by its name, in the background, and checks the combo box shows it. */
export async function setComboValue(desktop: LinuxDesktop, target: LiveElementTarget, value: string): Promise<ActionOutcome> {
  const options = await comboOptions(desktop, target.ref);
  const wanted = typed(value);
  const index = options.findIndex((option) => typed(option.name) === wanted);
  if (index < 0) {
    const label = `[e${target.element.index}]`;
    // A page's select-only ARIA combobox (a div whose script fills its list box when opened) keeps no options either:
    // its refusal had named only GTK 4's drop-downs. Its click opens it, in the background too, and the option is then clicked.
    if (options.length === 0) {
      return notDelivered('background', `${label} shows no options until it is opened (GTK 4's drop-downs and a page's ARIA comboboxes keep none while closed); nothing was sent: click ${label}, then click its option ${JSON.stringify(value)} once it shows`);
    }
    // GTK 4 lists a list view's items only as far as it made rows for them, unnamed (their labels hold the words), and a
    // choice in its popover only from real input: libadwaita's combo row holds a list of one row, the choice it shows,
    // and set_value on Clocks' "Ring Duration" was refused as having no option "10 minutes", its options being "".
    if ((await (await desktop.atspi()).quirksOf(target.ref.bus)).listsSomeItemsOnly) {
      return notDelivered('background', `${label} lists its options only in the popover it opens, and takes a choice there from real input only (GTK 4); nothing was sent: click ${label} with delivery_mode "foreground", then click its option ${JSON.stringify(value)} the same way once it shows`);
    }
    throw new ToolError(`${label} has no option "${value}"; its options are: ${options.map((option) => `"${option.name}"`).join(', ')}`, 'no_such_option');
  }
  const label = `[e${target.element.index}]`;
  const chosen = options[index]!;
  const choice: Probe = { label: `choice of ${label}`, read: () => comboChoice(desktop, target.ref, target.live.interfaces, options) };
  const isWanted = (shown: string | undefined) => shown !== undefined && typed(shown) === wanted;
  if (isWanted(await choice.read().catch(() => undefined))) return nothingToChange('background', `${label} shows "${chosen.name}"`);
  await refuseDisabledOption(desktop, options, chosen, label);
  const observation = await observe(desktop, target.ref.bus, [choice], async () => {
    const client = await desktop.atspi();
    const canSelect = chosen.selectIndex !== undefined && target.live.interfaces.includes('Selection');
    const refusedOrFailed = (error: unknown) => {
      // Sent and unanswered: the choice may have been made (and opened something); a second try would repeat it.
      if (error instanceof UnansweredActionError) throw error;
      return false;
    };
    if (canSelect && (await selectChild(client, target.ref, chosen.selectIndex!).catch(refusedOrFailed))) return;
    // No Selection that reaches the option: the option's own click action picks it.
    const option = { ref: chosen.ref, interfaces: ['Action'] };
    const action = await findGestureAction(desktop, option, 'click');
    if (!action) throw new ToolError(`the option "${chosen.name}" cannot be chosen through accessibility`, 'option_not_selectable');
    await performAction(desktop, option, action);
  }, { snapshot: target.snapshot, until: (values) => isWanted(values[0]) });
  const shown = await comboChoice(desktop, target.ref, target.live.interfaces, options).catch(() => undefined);
  if (!observation.unanswered && !isWanted(shown)) {
    const byKeys = await chooseByKeys(desktop, target, options.findIndex((option) => option.name === shown), index, choice, isWanted);
    if (byKeys) return byKeys;
    throw new ToolError(
      `${label} shows "${shown ?? '(unreadable)'}" after choosing "${chosen.name}": the choice did not take; choose it as a person does: ` +
        `bring_to_front its window, click ${label} with delivery_mode "foreground", then click the option "${chosen.name}" the same way`,
      'choice_not_taken',
    );
  }
  return actionOutcome({ path: 'x11_atspi', mode: 'background', observation });
}

/**
 * Gecko's closed <select> ignores its options' "select" action, but like a user's, its Up and Down keys move
 * the choice without opening the popup: the drop-down is focused through accessibility and the keys sent as
 * X events, where the app reads them and focusing does not raise its window (not Blink's). Undefined when
 * that cannot be done; the drop-down's choice is the read-back.
 */
async function chooseByKeys(
  desktop: LinuxDesktop,
  target: LiveElementTarget,
  from: number,
  to: number,
  choice: Probe,
  isWanted: (shown: string | undefined) => boolean,
): Promise<ActionOutcome | undefined> {
  const window = target.window;
  if (from < 0 || !(await syntheticEventsReach(desktop, window, 'keys')).accepted) return undefined;
  if (!(await focusElement(desktop, actionable(target)))) return undefined;
  // Keys sent before the focus has moved go to the control that had it (Gecko moves it a moment after GrabFocus
  // answers). Only an active window's control is marked FOCUSED, so only there is it waited for.
  if (window.active) await focusArrives(desktop, actionable(target), 500);
  const observation = await observe(desktop, target.ref.bus, [choice], async () => {
    await syntheticCombination(await desktop.x11(), window.id, to > from ? 'Down' : 'Up', Math.abs(to - from));
  }, { snapshot: target.snapshot, until: (values) => isWanted(values[0]) });
  return isWanted(await choice.read().catch(() => undefined)) ? actionOutcome({ path: 'key_events', mode: 'background', observation }) : undefined;
}
