import { setTimeout as sleep } from 'node:timers/promises';
import { clicksByNature, clicksThroughChild } from '../../../cup/atspi/actions.js';
import { ATSPI_ROLE } from '../../../cup/atspi/constants.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { actionNames, caretOffset, children, doAction, grabFocus, readInterfaces, readRole } from '../atspi/operations.js';
import type { PointerKind } from '../../targets.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { liveStates } from './live-states.js';

/** What acting on an accessible object needs to know about it. */
export interface Actionable {
  ref: ObjectRef;
  /** CUP role, when known: decides whether "activate" counts as a click. */
  role?: string;
  /** AT-SPI role, when known: tells apart what CUP names alike (a terminal is a document there). */
  atspiRole?: number;
  interfaces: readonly string[];
}

/**
 * AT-SPI action names that perform each pointer gesture, in order of preference. Matching is by name
 * (toolkits order their actions differently), never "action 0".
 */
const gestureActions: Record<PointerKind, readonly string[]> = {
  // Blink names a check box's action after what it will do ("check", "uncheck") and an option's "select";
  // Gecko's "click ancestor" (on the words inside a label or a clickable element) clicks that element.
  click: ['click', 'press', 'jump', 'activate', 'open', 'toggle', 'check', 'uncheck', 'push', 'invoke', 'select', 'click ancestor', 'clickancestor'],
  double_click: ['doubleclick', 'double click', 'open', 'activate'],
  right_click: ['showmenu', 'show menu', 'context menu', 'contextmenu', 'showcontextmenu', 'popup', 'menu'],
};

/** Roles whose "activate" submits rather than clicks (an entry's activate is pressing Enter). */
const activateIsNotClick = new Set(['textbox', 'searchbox']);
/**
 * A click on a menu bar entry or a submenu opener opens its menu, which is what Qt's ShowMenu does there. So it does
 * on a button whose press pops up its menu: Qt offers ShowMenu alone on such a tool button (a toolbar's "Tools" with
 * its menu), where a button with a press of its own offers Press too, which is its click.
 */
const menuOpenerActions = ['showmenu', 'show menu'];
/**
 * A disclosure button's only action may be what its click does to what it shows: Gecko gives a page's <summary>
 * "expand" (then "collapse") and no click. On a button, and only after every click action, they are its click.
 */
const disclosureActions = ['expand', 'collapse'];
/**
 * Chromium's own interface (views) names the default action of everything "doDefault", a panel's and a separator's
 * too, so it is no click in general; but on what clicks by nature (a menu item, a button, a tab) it is the click: the
 * app menu's History and Settings offered nothing else, and a click on them was refused as not delivered.
 */
export const defaultAction = 'dodefault';

export interface AccessibleAction {
  index: number;
  name: string;
}

/**
 * Pressing a control: what Space does to a focused button or check box, and what a click does to a list
 * or tree item besides selecting it (toggling a check-box cell). Not "activate", which on an entry
 * submits and on an item is its double click (GTK's row activation).
 */
const pressActions = ['click', 'press', 'toggle', 'check', 'uncheck'];

export function findPressAction(desktop: LinuxDesktop, target: Actionable): Promise<AccessibleAction | undefined> {
  return findNamedAction(desktop, target, pressActions);
}

/** The first of the wanted actions (lower-case names, in order of preference) that this element offers. */
export async function findNamedAction(
  desktop: LinuxDesktop,
  target: Actionable,
  wanted: readonly string[] | ((offered: readonly string[]) => readonly string[]),
): Promise<AccessibleAction | undefined> {
  if (!target.interfaces.includes('Action')) return undefined;
  const names = (await actionNames(await desktop.atspi(), target.ref)).map((name) => name.trim().toLowerCase());
  for (const name of typeof wanted === 'function' ? wanted(names) : wanted) {
    const index = names.indexOf(name);
    if (index >= 0) return { index, name };
  }
  return undefined;
}

/**
 * The actions that click an element of this role offering these, in order of preference. "activate" is no click on an
 * entry (it submits), nor on what offers "select" beside it: that is an item whose activation is its double click, as
 * GTK names them (GTK4's colour swatch offers select, activate and customize; its activate picks the colour and closes
 * the dialog with the colour chosen before, and a background click on Dark Orange closed Pick a Color, nothing chosen).
 */
function clickActions(role: string, offered: readonly string[]): readonly string[] {
  const activateSubmits = activateIsNotClick.has(role) || offered.includes('select');
  const clicks = activateSubmits ? gestureActions.click.filter((name) => name !== 'activate') : gestureActions.click;
  const fallback = clicksByNature(role) ? [defaultAction] : [];
  if (role === 'menuitem') return [...clicks, ...menuOpenerActions, ...fallback];
  if (role === 'button') return [...clicks, ...disclosureActions, ...menuOpenerActions, ...fallback];
  return [...clicks, ...fallback];
}

/** The action that performs a gesture on this element, if the toolkit offers one. */
export function findGestureAction(desktop: LinuxDesktop, target: Actionable, kind: PointerKind): Promise<AccessibleAction | undefined> {
  if (kind !== 'click') return findNamedAction(desktop, target, gestureActions[kind]);
  return findNamedAction(desktop, target, (offered) => clickActions(target.role ?? '', offered));
}

/**
 * The one child that clicks for a control with no click action of its own: GTK 4.8's menu button is a button with an
 * empty Action interface around the toggle button that opens its menu (GNOME Calculator's mode switch "Basic", its
 * primary menu), and a background click on it was refused as having no action, with the same-named child beside it.
 * Its GtkDropDown is such a combo box around the toggle button that opens its list: a click on it was refused too.
 * Only a sole child counts: of several, none is the control's own click.
 */
export async function clickingChild(desktop: LinuxDesktop, target: Actionable): Promise<{ element: Actionable; action: AccessibleAction } | undefined> {
  if (!clicksThroughChild(target.role ?? '', [ATSPI_ROLE.PUSH_BUTTON])) return undefined;
  const client = await desktop.atspi();
  const kids = await children(client, target.ref).catch(() => []);
  if (kids.length !== 1 || !clicksThroughChild(target.role ?? '', [await readRole(client, kids[0]!).catch(() => -1)])) return undefined;
  const element: Actionable = { ref: kids[0]!, role: target.role, interfaces: await readInterfaces(client, kids[0]!).catch(() => []) };
  const action = await findGestureAction(desktop, element, 'click');
  return action && { element, action };
}

export async function performAction(desktop: LinuxDesktop, target: Actionable, action: AccessibleAction): Promise<void> {
  const done = await doAction(await desktop.atspi(), target.ref, action.index);
  if (!done) throw new Error(`the application refused the "${action.name}" action`);
}

/** Focus through accessibility; false when the toolkit does not support it (GTK4 for many widgets). */
export async function focusElement(desktop: LinuxDesktop, target: Actionable): Promise<boolean> {
  if (!target.interfaces.includes('Component')) return false;
  return grabFocus(await desktop.atspi(), target.ref).catch(() => false);
}

/** How long a control behind other windows is given to take the focus before keys are sent to it, in ms. */
export const backgroundFocusMs = 300;

/**
 * How long a page's field in the active window is given to take the focus its browser accepted, in ms: the page's
 * renderer moves it when it gets to it, and one busy with a 100,000-character field on a loaded machine (a CI run)
 * had not within a second, so the typing was refused as if the field could not be focused. Other apps move it at once.
 */
export const pageFocusMs = 3000;

/**
 * Blink moves the focus a moment after GrabFocus answers; keys sent before it would go to the old control.
 * Gecko does not mark a field FOCUSED while its window is inactive, but only the focused field has a caret.
 */
export async function focusArrives(desktop: LinuxDesktop, target: Actionable, timeoutMs = 1000): Promise<boolean> {
  const client = await desktop.atspi();
  const hasText = target.interfaces.includes('Text');
  for (const deadline = Date.now() + timeoutMs; ; await sleep(20)) {
    if ((await liveStates(desktop, target.ref)).has('STATE_FOCUSED')) return true;
    if (hasText && (await caretOffset(client, target.ref).catch(() => -1)) >= 0) return true;
    if (Date.now() > deadline) return false;
  }
}
