// Clicks and double clicks on items of lists, trees, tables and tab strips, by element or at a point.
import { ATSPI_ROLE } from '../../../cup/atspi/constants.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { actionOutcome, type ActionOutcome, type Observation, RETRY_IN_FOREGROUND } from '../../action-outcome.js';
import type { PointerKind, SnapshotRef } from '../../targets.js';
import { defaultAction, findPressAction, performAction, type AccessibleAction, type Actionable } from './accessible-actions.js';
import { itemSelectionFor, selectItem, type ItemSelection } from './item-selection.js';
import { observe, type Probe } from './verification.js';
import { liveStates } from './live-states.js';
import { comboSays, dropDownHolding } from './combo-box.js';
import { popupCloseMs } from './popup-closing.js';
import { normaliseWhitespace } from '../../../cup/text.js';
import { readName, readStates } from '../atspi/operations.js';
import { ATSPI_STATE } from '../../../cup/atspi/constants.js';
import { hasState } from '../../../cup/atspi/states.js';
import { ToolError } from '../../../errors.js';

/** Press actions that flip a check box (Blink names them after what they will do). */
const toggleActions = new Set(['toggle', 'check', 'uncheck']);

/** What an accessibility action is performed on. */
export type ActionOn = { action: AccessibleAction; candidate: Actionable };

/** A gesture on a list or tree item: selecting it, then the action that goes with the gesture, if any. */
export interface ItemGesture {
  selection: ItemSelection;
  then?: ActionOn;
  /** A double click: it opens the item (see ObserveOptions.opensItems). */
  opens?: true;
  /** A click on an item with no Action at all, selected through its container alone (see selectedOnlyLine). */
  actionless?: true;
}

/**
 * How a gesture works on a list or tree item, when the object is one: a click selects it (and performs a
 * check-box cell's toggle), a double click selects it and then performs its double-click action. An item whose
 * only click is its default action (Chromium's own tab strip, whose tabs offer "doDefault" and whose Selection
 * refuses them) is given that action after the selection: the click on a background tab was refused.
 */
export async function itemGesture(desktop: LinuxDesktop, candidate: Actionable, role: number, kind: PointerKind, action: AccessibleAction | undefined, windowActive: boolean): Promise<ItemGesture | undefined> {
  if (kind === 'right_click' || (kind === 'double_click' && !action)) return undefined;
  const selection = await itemSelectionFor(desktop, candidate.ref, role, windowActive);
  if (!selection) return undefined;
  // An item selected by its own toggle (Qt 5's views) is clicked by that selection alone: its toggle again would undo it.
  const press = selection.toggle === undefined ? await findPressAction(desktop, candidate) : undefined;
  const then = kind === 'click' ? (press ?? (action?.name === defaultAction ? action : undefined)) : action;
  // A page tab is no such item: its tab list's selection is the page shown, all a click on it does (GTK 2's notebook:
  // Pidgin's Preferences switched to its Sounds page, and the click said it had only selected the tab).
  const actionless = kind === 'click' && !then && role !== ATSPI_ROLE.PAGE_TAB && !candidate.interfaces.includes('Action') && selection.toggle === undefined && selection.selectAction === undefined;
  return { selection, then: then && { action: then, candidate }, ...(kind === 'double_click' ? { opens: true as const } : {}), ...(actionless ? { actionless: true as const } : {}) };
}

/**
 * Selects the item, then performs the gesture's action. A page's ARIA tab or tree item is selected by the page's
 * own click handler, and Blink refuses SelectChild on it: its click action is then the whole gesture, judged by
 * what it changes. Only an item with no action to fall back on is refused.
 */
async function performItemGesture(desktop: LinuxDesktop, gesture: ItemGesture): Promise<void> {
  const selected = await selectItem(desktop, gesture.selection);
  if (!selected && !gesture.then) throw new ToolError(`the application refused to select the item, and the item offers no action to click it with; ${RETRY_IN_FOREGROUND} (real input)`, 'option_not_selectable');
  if (gesture.then) await performAction(desktop, gesture.then.candidate, gesture.then.action);
}

/**
 * Runs a gesture on an item and judges it. Clicking a check-box cell is for toggling it: if its checked
 * state did not change, the selection alone is not the effect asked for (GTK3's toggle action on tree
 * cells answers true and does nothing), so the verdict says so and points to real input.
 */
export async function itemOutcome(desktop: LinuxDesktop, bus: string, probes: Probe[], gesture: ItemGesture, snapshot?: SnapshotRef, name?: string): Promise<ActionOutcome> {
  const toggled = toggleActions.has(gesture.then?.action.name ?? '') ? gesture.then!.candidate.ref : undefined;
  const isChecked = async (ref: ObjectRef) => (await liveStates(desktop, ref)).has('STATE_CHECKED');
  const before = toggled && (await isChecked(toggled).catch(() => undefined));
  const item = gesture.selection.item;
  const dropDown = toggled ? undefined : await dropDownHolding(desktop, item).catch(() => undefined);
  const observation = await observe(desktop, bus, probes, () => performItemGesture(desktop, gesture), { snapshot, inPopup: item, opensItems: gesture.opens });
  // An option of a combo box's drop-down is chosen when the combo box shows it, and a choice closes the drop-down: Qt 5
  // selects the row of its open list through accessibility (its Toggle) and neither takes the choice nor closes the
  // list, GTK 4.8's drop-down selects the row of its popover's list view and leaves the popover open, and both clicks
  // were confirmed by the row's +selected with the combo box showing the choice before.
  if (dropDown) {
    const client = await desktop.atspi();
    const option = normaliseWhitespace(name ?? (await readName(client, item).catch(() => '')));
    const said = async () => {
      const choice = await comboSays(desktop, dropDown.combo).catch(() => undefined);
      return choice === undefined ? undefined : normaliseWhitespace(choice);
    };
    // Qt says its list showing and visible, open or closed: there the combo box's own word on its choice decides.
    const open = async () => {
      const states = await readStates(client, dropDown.popup).catch(() => undefined);
      return states !== undefined && (hasState(states, ATSPI_STATE.VISIBLE) === true || hasState(states, ATSPI_STATE.SHOWING) === true);
    };
    const notTaken = async () => {
      const choice = await said();
      return choice !== option && ((choice !== undefined && !!option) || (await open()));
    };
    // A toolkit may take the choice, or close the drop-down, a moment after the item's own events: given as long as a closing popup.
    let refused = await notTaken();
    for (const limit = Date.now() + popupCloseMs; refused && Date.now() < limit; refused = await notTaken()) await new Promise((resolve) => setTimeout(resolve, 50));
    if (refused) {
      const shows = await said();
      return onlySelected(observation, `${option ? `the option "${option}"` : 'the option'} was only selected in the drop-down list, which ${shows !== undefined ? `left the combo box showing "${shows}"` : 'stayed open'}: nothing was chosen (the app takes a choice there from a real click or Return)`);
    }
  }
  // An item of a list in a popup (an entry's completion list, popup for the entry) is chosen by the popup's own
  // handling of a press: GTK3's completion takes a click or Return there, and its selection alone only highlights the
  // row. Such a click was confirmed by the row's +selected, with the entry's text unchanged and the list left open.
  if (observation.popupOpen && !toggled) {
    return onlySelected(observation, 'the item was only selected in the popup list, which stayed open: nothing was chosen (the app takes a choice there from a real click or Return, not from the selection)');
  }
  if (toggled && before !== undefined && (await isChecked(toggled).catch(() => before)) === before) {
    return actionOutcome({
      path: 'x11_atspi',
      mode: 'background',
      observation: { ...observation, changed: false },
      escalation: { recommended: 'foreground', reason: `the item was selected but its check box did not toggle (the toolkit's toggle action did nothing); ${RETRY_IN_FOREGROUND}` },
    });
  }
  // Whether the app follows the selection or the current item, no reading tells (a file manager acts on the selection,
  // a settings dialog's list of pages on the current row): what was not done is said, with the way to do it.
  if (await leftNotCurrent(desktop, bus, gesture)) {
    const outcome = actionOutcome({ path: 'x11_atspi', mode: 'background', observation });
    return { ...outcome, evidence: [...(outcome.evidence ?? []), notCurrentLine] };
  }
  const outcome = actionOutcome({ path: 'x11_atspi', mode: 'background', observation });
  return gesture.actionless && observation.changed ? { ...outcome, evidence: [...(outcome.evidence ?? []), selectedOnlyLine] } : outcome;
}

/**
 * A click on an item that has no Action at all is its list's selection alone: GTK3's list box rows offer none, and a
 * click there selects a row and activates it. dconf Editor's folder rows open on that activation: a click on "org" was
 * confirmed by its +selected, the window still showing the root folder.
 */
const selectedOnlyLine =
  'the item was only selected, through its list: it offers no action of its own, so whatever a real click does beyond selecting it (a list of folders or pages opens the row) was not done; a click with delivery_mode "foreground" does it';

const notCurrentLine =
  "the item was selected, but the view's current item stayed where it was (Qt moves it only with real input): an app that follows its current item rather than the selection (a settings dialog's list of pages) has not seen the choice; a click with delivery_mode \"foreground\" makes it current";

/**
 * Whether a click selected an item of a Qt view by its Toggle and left it no current item: Qt selects through
 * accessibility without moving the view's current index, which it marks FOCUSED (focusMarksCurrentItems). A settings
 * dialog's list of pages follows the current row: qBittorrent's Preferences showed Behavior's page with Connection
 * selected, and the click was confirmed by `+sel`.
 */
async function leftNotCurrent(desktop: LinuxDesktop, bus: string, gesture: ItemGesture): Promise<boolean> {
  if (gesture.selection.toggle === undefined || gesture.opens) return false;
  if (!(await (await desktop.atspi()).quirksOf(bus).catch(() => undefined))?.focusMarksCurrentItems) return false;
  const states = await liveStates(desktop, gesture.selection.item).catch(() => undefined);
  return states !== undefined && states.has('STATE_SELECTED') && !states.has('STATE_FOCUSED');
}

/** A background click on an item that only selected it in a popup's list, where the app takes a choice from real input. */
function onlySelected(observation: Observation, why: string): ActionOutcome {
  return actionOutcome({
    path: 'x11_atspi',
    mode: 'background',
    observation: { ...observation, changed: false },
    escalation: { recommended: 'foreground', reason: `${why}; ${RETRY_IN_FOREGROUND}` },
  });
}
