import type { CupAction, CupRole } from '../types.js';
import { ATSPI_ROLE } from './constants.js';

/** Action names toolkits use (GTK, Qt, web engines), lower-cased, and the CUP verb each performs. */
const actionNames: Readonly<Record<string, CupAction>> = {
  click: 'click',
  press: 'click',
  activate: 'click',
  jump: 'click',
  open: 'click',
  // Gecko offers it on what lies inside a clickable element (a label's words, a span in a button): it clicks that element.
  'click ancestor': 'click',
  clickancestor: 'click',
  push: 'click',
  invoke: 'click',
  toggle: 'toggle',
  // Blink names a check box's action after what it will do.
  check: 'toggle',
  uncheck: 'toggle',
  expand: 'expand',
  collapse: 'collapse',
  increment: 'increment',
  increase: 'increment',
  decrement: 'decrement',
  decrease: 'decrement',
  showmenu: 'rightclick',
  'show menu': 'rightclick',
  'context menu': 'rightclick',
  contextmenu: 'rightclick',
  select: 'select',
  dismiss: 'dismiss',
  close: 'dismiss',
  scroll: 'scroll',
  doubleclick: 'doubleclick',
  'double click': 'doubleclick',
  'long press': 'longpress',
  setfocus: 'focus',
};

/** The web engines' click of an object inside a clickable one (Blink's clickAncestor, Gecko's "click ancestor"). */
const ancestorClicks = new Set(['click ancestor', 'clickancestor']);

/**
 * Whether the object's only click is its ancestor's: Blink and Gecko offer one on everything inside an element the page
 * listens to for clicks (an icon, a ripple, the words of a menu item), where clicking it clicks that element and
 * nothing of its own.
 */
export function clicksOnlyItsAncestor(rawActions: readonly string[]): boolean {
  const names = rawActions.map((raw) => raw.trim().toLowerCase());
  return names.some((name) => ancestorClicks.has(name)) && !names.some((name) => actionNames[name] === 'click' && !ancestorClicks.has(name));
}

/** Roles a pointer click operates by nature, whether or not the toolkit names an AT-SPI action for it. */
const clickableRoles = new Set<CupRole>([
  'button', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio', 'tab', 'checkbox', 'radio', 'switch', 'option', 'treeitem', 'combobox',
]);
const textRoles = new Set<CupRole>(['textbox', 'searchbox']);

/** Whether a click is what the role is for (the tree offers `click` on it whatever actions the toolkit names). */
export function clicksByNature(role: string): boolean {
  return clickableRoles.has(role as CupRole);
}

/** Roles whose checked state an agent changes by toggling. */
const toggleRoles = new Set<CupRole>(['checkbox', 'switch', 'menuitemcheckbox']);
const rangeRoles = new Set<CupRole>(['slider', 'spinbutton', 'scrollbar']);

export interface ActionContext {
  role: CupRole;
  atspiRole: string;
  rawActions: readonly string[];
  interfaces: readonly string[];
  states: ReadonlySet<string>;
  parentHasSelection: boolean;
  /** The toolkit leaves SELECTABLE off an item until it is first selected (GTK 4.8): an item of a Selection container is selectable. */
  selectableUnmarked?: boolean;
  /** It scrolls what it holds (scroll-areas.ts): a scroll pane, or what holds a scroll bar (Qt's scroll areas). */
  scrolls?: boolean;
  /** The toolkit answered which actions it has (rawActions is its whole list, perhaps empty), rather than not being asked. */
  actionsAnswered?: boolean;
  /** Its one child is a button that does its click (GTK 4.8's menu button and drop-down: see accessible-actions' clickingChild). */
  clicksThroughChild?: boolean;
  /** One of its children is a button (an open GTK 4.8 drop-down's, beside its search field and list). */
  holdsButton?: boolean;
}

const pressedButtonRoles: ReadonlySet<number> = new Set([ATSPI_ROLE.PUSH_BUTTON, ATSPI_ROLE.TOGGLE_BUTTON]);
/** Controls GTK 4.8 makes of an empty Action interface around the button that does their click. */
const wrappingRoles: ReadonlySet<string> = new Set(['button', 'combobox']);

/**
 * Whether a control's click is its one child's: GTK 4.8's menu button is a button with an empty Action interface around
 * the toggle button that opens its menu, its GtkDropDown such a combo box. Only a sole button child counts: of several,
 * none is the control's own click, and a button inside a row or card is no click of it.
 */
export function clicksThroughChild(role: string, childAtspiRoles: readonly number[]): boolean {
  return wrappingRoles.has(role) && childAtspiRoles.length === 1 && pressedButtonRoles.has(childAtspiRoles[0]!);
}

/**
 * Roles whose click is no press of their own: items a click selects through their container's Selection, whatever
 * actions they name (tabs, options, rows), and a combo box, whose parts (its field, its button) and set_value operate it.
 */
const notPressed = new Set<CupRole>(['tab', 'option', 'treeitem', 'combobox']);

/**
 * A control that names no action at all, asked: GTK 4.8's check and radio buttons, its menu bar's entries and colour
 * swatches have an Action interface with nothing in it. Nothing performs their click or toggle but real input (the
 * background click was refused as having "no accessibility action"), so the tree lists neither verb for them; the
 * window's reading says to click them in the foreground.
 */
export function pressedOnlyByInput(context: Pick<ActionContext, 'role' | 'rawActions' | 'actionsAnswered' | 'clicksThroughChild'>): boolean {
  if (!context.actionsAnswered || context.rawActions.some((name) => !name.includes('.')) || context.clicksThroughChild) return false;
  return clickableRoles.has(context.role) && !notPressed.has(context.role);
}

/**
 * A view's column header that the toolkit gives no Action interface at all, though a person's click on it sorts the
 * view by that column (or selects the column): Qt 5's header sections (QAccessibleTableHeaderCell) have a place and
 * nothing else, so KeePassXC's entry list and DB Browser for SQLite's tables read their headers with no box and no verb,
 * and a background click on one was refused. Like pressedOnlyByInput's controls, the tree lists no verb for them and
 * shows their box; the window's reading says to click them in the foreground. So is a row header, whose click selects
 * its row (DB Browser for SQLite's record numbers, which read `rowh "1"` with no box while their cells had theirs).
 * GTK gives its headers a click; a web page's header is no such case (the caller leaves pages out): Gecko gives one an
 * action when the page listens for its click, and a plain <th> is clicked for nothing.
 */
export function headerClickedByInput(context: Pick<ActionContext, 'role' | 'interfaces'>): boolean {
  return (context.role === 'columnheader' || context.role === 'rowheader') && !context.interfaces.includes('Action') && context.interfaces.includes('Component');
}

/**
 * A combo box that names no action and holds no button of its own is operated through its parts: GTK 4.8's combo box
 * with an entry is an empty Action interface around a box holding its entry (which takes typing and set_value) and the
 * toggle button that opens its list (which offers click). A click on the box lands on its entry, which opens nothing,
 * so the tree offered [clk] on it that did nothing. A drop-down whose button is its child (GtkDropDown, open or closed)
 * is clicked on that button.
 */
function operatedByParts(context: Pick<ActionContext, 'role' | 'rawActions' | 'actionsAnswered' | 'clicksThroughChild' | 'holdsButton'>): boolean {
  return context.role === 'combobox' && context.actionsAnswered === true && !context.rawActions.some((name) => !name.includes('.')) && !context.clicksThroughChild && !context.holdsButton;
}

/** Whether one of these children is a button (holdsButton). */
export function holdsButton(childAtspiRoles: readonly number[]): boolean {
  return childAtspiRoles.some((role) => pressedButtonRoles.has(role));
}

/** Items a container with the Selection interface selects (list items, tabs, cells, rows, tree items). */
const selectionItemRoles: ReadonlySet<string> = new Set(['ROLE_LIST_ITEM', 'ROLE_PAGE_TAB', 'ROLE_TABLE_CELL', 'ROLE_TABLE_ROW', 'ROLE_TREE_ITEM']);

/**
 * The CUP verbs an agent can use on a node: named AT-SPI actions first (in the toolkit's order), then
 * what its interfaces and role make possible. Dotted names such as GTK4's "clipboard.copy" are widget
 * internals every label carries, not things a user does to the element, so they map to nothing.
 */
/**
 * The names toolkits give a tree row's one action that expands it or collapses it, by its state (lower-cased): GTK3's
 * two spellings, and Java's tree nodes' "toggleexpand".
 */
export const EXPAND_TOGGLE_ACTIONS: readonly string[] = ['expand or contract', 'expand or collapse', 'toggleexpand'];

export function cupActionsFor(context: ActionContext): CupAction[] {
  const actions: CupAction[] = [];
  const add = (action: CupAction) => {
    if (!actions.includes(action)) actions.push(action);
  };
  for (const raw of context.rawActions) {
    if (raw.includes('.')) continue;
    const name = raw.trim().toLowerCase();
    // GTK3 offers this on every tree cell, leaves too; only a row that has children can do it.
    if (EXPAND_TOGGLE_ACTIONS.includes(name)) {
      if (context.states.has('STATE_EXPANDABLE')) add(context.states.has('STATE_EXPANDED') ? 'collapse' : 'expand');
      continue;
    }
    // Qt's ShowMenu on a menu bar entry opens its submenu: that is expanding it, not a context menu.
    if (name === 'showmenu' && (context.role === 'menuitem' || context.role === 'menu')) {
      add('expand');
      continue;
    }
    const action = actionNames[name];
    // Qt gives every object with a Value its Increase and Decrease, a read-only one too, whose value they leave as it is:
    // qBittorrent's Torrent Creator progress bar read `pbar {ro} [inc,dec]`, and set_value on it read "no effect seen".
    if ((action === 'increment' || action === 'decrement') && context.states.has('STATE_READ_ONLY')) continue;
    // An entry's "activate" submits it (like Enter); it does not click it.
    if (action === 'click' && name === 'activate' && textRoles.has(context.role)) continue;
    // Blink's "check" on a radio button chooses it, as a click does; a radio cannot be toggled back off.
    if (action === 'toggle' && !toggleRoles.has(context.role) && (name === 'check' || name === 'uncheck')) {
      add('click');
      continue;
    }
    if (action) add(action);
  }
  const { interfaces, states, role } = context;
  const inputOnly = pressedOnlyByInput(context);
  if (clickableRoles.has(role) && interfaces.includes('Component') && !inputOnly && !operatedByParts(context)) add('click');
  const editable = states.has('STATE_EDITABLE') && !states.has('STATE_READ_ONLY');
  // Blink's fields offer no EditableText, yet a user (and real input) types into them all the same.
  if (editable && (interfaces.includes('EditableText') || textRoles.has(role))) add('type');
  if (editable && interfaces.includes('EditableText')) add('setvalue');
  if (interfaces.includes('Value') && rangeRoles.has(role) && !states.has('STATE_READ_ONLY')) {
    add('setvalue');
    add('increment');
    add('decrement');
  }
  if (toggleRoles.has(role) && !inputOnly) add('toggle');
  // A toggle button (a page's aria-pressed button) is a button that stays on or off: its toggle tells it from a push
  // button when it is off, when no state says so. One that opens something (expandable) says that instead.
  if (context.atspiRole === 'ROLE_TOGGLE_BUTTON' && !states.has('STATE_EXPANDABLE') && !inputOnly) add('toggle');
  if (states.has('STATE_EXPANDABLE')) add(states.has('STATE_EXPANDED') ? 'collapse' : 'expand');
  // A page tab is selected in its tab list whether it says SELECTABLE or not (GAIL's never do).
  const selectable =
    states.has('STATE_SELECTABLE') || context.atspiRole === 'ROLE_PAGE_TAB' || (context.selectableUnmarked === true && selectionItemRoles.has(context.atspiRole));
  if (selectable && context.parentHasSelection) add('select');
  // Scroll panes carry no action of their own, yet they scroll (wheel, or ScrollTo on a child); a page's tab panel is
  // a scroll pane to Blink and Gecko, and scrolls nothing.
  if ((context.atspiRole === 'ROLE_SCROLL_PANE' && role !== 'tabpanel') || context.scrolls) add('scroll');
  if (states.has('STATE_FOCUSABLE') && interfaces.includes('Component')) add('focus');
  return actions;
}
