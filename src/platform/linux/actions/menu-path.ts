// A menu item by its path (["File", "Save As..."]) through accessibility: the window's menu bar is found in
// its tree, each name is looked up among the items of the menu before it, and the last item's click action is
// performed. GTK3 and Qt expose a closed menu's items, so nothing opens on screen; a toolkit that builds items
// only when the menu is shown (LibreOffice) gets that menu opened first, through its own action.
import { windowName } from '../../windows.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { ATSPI_ROLE, ATSPI_STATE } from '../../../cup/atspi/constants.js';
import { keptHidden } from '../../../cup/atspi/closed-menus.js';
import { hasState } from '../../../cup/atspi/states.js';
import { menuNameKey } from '../../../cup/menu-names.js';
import { ToolError } from '../../../errors.js';
import { actionOutcome } from '../../action-outcome.js';
import type { MenuOutcome } from '../../desktop-services.js';
import type { SnapshotRef } from '../../targets.js';
import type { AtspiClient } from '../atspi/client.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { actionNames, children, clearSelection, doAction, extents, readInterfaces, readName, readRole, readStates } from '../atspi/operations.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import type { ClientWindow } from '../windows.js';
import { releaseMenuGrab } from './menu-grab.js';
import { nothingUnlessUnresponsive } from './unresponsive.js';
import { observe, opensWindow, statesProbe } from './verification.js';

/** A menu's items; in a menu, a check box or radio button is one too (Java's JCheckBoxMenuItem, JRadioButtonMenuItem: see roles.ts). */
const menuRoles = new Set<number>([
  ATSPI_ROLE.MENU, ATSPI_ROLE.MENU_ITEM, ATSPI_ROLE.CHECK_MENU_ITEM, ATSPI_ROLE.RADIO_MENU_ITEM, ATSPI_ROLE.TEAROFF_MENU_ITEM, ATSPI_ROLE.CHECK_BOX, ATSPI_ROLE.RADIO_BUTTON,
]);
/** Where a menu bar may sit: near the top of a window's tree. */
const menuBarSearch = { maxDepth: 6, maxNodes: 600 };
/** Actions that choose a menu item, in order of preference (toolkits name them differently). */
const chooseActions = ['click', 'activate', 'press', 'trigger', 'toggle'];
/** Actions that open a menu whose items are built only when it is shown. */
const openActions = ['click', 'showmenu', 'show menu', 'open', 'press', 'activate'];
/** How long a menu opened on the way may take to fill in its items. */
const fillTimeoutMs = 1500;

interface Item {
  ref: ObjectRef;
  name: string;
  role: number;
}

interface MenuBar {
  ref: ObjectRef;
  /** Drawn with some width and height. */
  sized: boolean;
}

/**
 * The menu bars near the top of a window's tree, nearest first, down to the first level that holds one drawn with some
 * size: LibreOffice keeps a menu bar of its own, 0 pixels high and nearer the top of its tree, under the GTK one it draws.
 */
async function findMenuBars(client: AtspiClient, top: ObjectRef, unreadable: (error: unknown) => undefined): Promise<MenuBar[]> {
  const bars: MenuBar[] = [];
  let level: ObjectRef[] = [top];
  let visited = 0;
  for (let depth = 0; depth <= menuBarSearch.maxDepth && level.length > 0; depth++) {
    const next: ObjectRef[] = [];
    const roles = await Promise.all(level.map((ref) => readRole(client, ref).catch(unreadable)));
    for (let index = 0; index < level.length; index++) {
      const ref = level[index]!;
      if (roles[index] === ATSPI_ROLE.MENU_BAR) {
        const sized = await extents(client, ref).then((box) => box.w > 0 && box.h > 0, () => false);
        bars.push({ ref, sized });
        continue;
      }
      if (visited++ > menuBarSearch.maxNodes) return bars;
      next.push(...((await children(client, ref).catch(unreadable)) ?? []));
    }
    if (bars.some((bar) => bar.sized)) return bars;
    level = next;
  }
  return bars;
}

/**
 * The menu bar to follow a path in: one drawn with some size before one of none, and among those the first holding the
 * path's first name. Through LibreOffice's bar of no size, whose entries offer an action with no name, Edit > Undo was
 * refused as "offers no accessibility action", GTK4's case.
 */
async function menuBarFor(client: AtspiClient, bars: readonly MenuBar[], first: string): Promise<ObjectRef | undefined> {
  const ordered = [...bars.filter((bar) => bar.sized), ...bars.filter((bar) => !bar.sized)].map((bar) => bar.ref);
  const key = menuNameKey(first);
  for (const bar of ordered) {
    const items = await itemsOf(client, bar).catch((): Item[] => []);
    if (items.some((item) => menuNameKey(item.name) === key)) return bar;
  }
  return ordered[0];
}

/** Unnamed holders between a menu and its items (Qt puts each menu's items in a popup menu under its bar item). */
const holderRoles = new Set<number>([ATSPI_ROLE.POPUP_MENU, ATSPI_ROLE.MENU, ATSPI_ROLE.PANEL, ATSPI_ROLE.FILLER]);

/**
 * A menu's items, separators and other non-items left out, and those the app keeps hidden in it (GTK3's menus from a UI
 * file end in a hidden "Empty", which was offered among Pluma's File items and refused as disabled); looked for one
 * level down when the menu holds them in a holder. Names as CUP gives them: GTK3 pads a model menu's names with spaces
 * ("Tab Size      "), and menu_path and the items listed had them.
 */
async function itemsOf(client: AtspiClient, menu: ObjectRef, depth = 0): Promise<Item[]> {
  const refs = await children(client, menu);
  const showingReliable = (await client.quirksOf(menu.bus).catch(() => undefined))?.showingIsReliable ?? false;
  const nodes = await Promise.all(
    refs.map(async (ref) => {
      const [name, role, states] = await Promise.all([readName(client, ref), readRole(client, ref), readStates(client, ref).catch((): number[] => [])]);
      return { ref, name: name.trim(), role, states };
    }),
  );
  const hidden = keptHidden(nodes.map((node) => node.states), showingReliable);
  const items = nodes.filter((node, index) => menuRoles.has(node.role) && node.name !== '' && !hidden[index]).map(({ ref, name, role }) => ({ ref, name, role }));
  if (items.length > 0 || depth > 0) return items;
  const holders = nodes.filter((node) => holderRoles.has(node.role) && node.name === '');
  return (await Promise.all(holders.map((holder) => itemsOf(client, holder.ref, depth + 1)))).flat();
}

/** The item's first action among `wantedActions`, by name and index; menu_not_actionable when it offers none of them. */
async function actionOf(client: AtspiClient, item: Item, wantedActions: readonly string[]): Promise<{ name: string; index: number }> {
  const names = (await actionNames(client, item.ref)).map((name) => name.trim().toLowerCase());
  const wanted = wantedActions.find((name) => names.includes(name));
  if (!wanted) {
    throw new ToolError(
      `the menu item "${item.name}" offers no accessibility action to ${wantedActions === openActions ? 'open' : 'choose'} it (it offers: ${names.join(', ') || 'none'}); ` +
        'GTK4\'s menu bar is like that: click the menu (delivery_mode "foreground"), then the item',
      'menu_not_actionable',
    );
  }
  return { name: wanted, index: names.indexOf(wanted) };
}

async function perform(client: AtspiClient, item: Item, index: number): Promise<void> {
  if (!(await doAction(client, item.ref, index))) throw new ToolError(`the application refused to activate "${item.name}"`, 'menu_item_disabled');
}

async function activate(client: AtspiClient, item: Item, wantedActions: readonly string[]): Promise<string> {
  const { name, index } = await actionOf(client, item, wantedActions);
  await perform(client, item, index);
  return name;
}

/** Disabled is neither sensitive nor enabled: GTK4 reports only SENSITIVE on an item that works. */
function isEnabled(states: readonly number[] | undefined): boolean {
  return Boolean(hasState(states, ATSPI_STATE.SENSITIVE) || hasState(states, ATSPI_STATE.ENABLED));
}

/**
 * Opens a menu through its own action and answers its items once it has some (`filled`: a menu built when shown) or
 * once they show (`shown`: an app that updates its menu when showing it has done so by then), at most fillTimeoutMs.
 */
async function openMenu(client: AtspiClient, opener: Item, menu: ObjectRef, until: 'filled' | 'shown'): Promise<Item[]> {
  await activate(client, opener, openActions);
  const deadline = Date.now() + fillTimeoutMs;
  for (;;) {
    const items = await itemsOf(client, menu);
    const done = items.length > 0 && (until === 'filled' || hasState(await readStates(client, items[0]!.ref).catch(() => []), ATSPI_STATE.SHOWING));
    if (done || Date.now() >= deadline) return items;
    await sleep(50);
  }
}

/** How deep a menu bar's submenus are followed, and how many items are read at most, for menuBarItems. */
const menuWalk = { maxDepth: 5, maxItems: 2000 };

/**
 * Every item of the window's menu bar (the one drawn with some size, else the first) with its path from the bar, read
 * live: the items of closed menus too, which GTK3 and Qt keep in the tree (a menu built only when shown has none yet).
 * Submenu openers are followed, not listed. None without a tree or a menu bar.
 */
export async function menuBarItems(desktop: LinuxDesktop, window: ClientWindow): Promise<{ path: string[]; ref: ObjectRef }[]> {
  const client = await desktop.atspi();
  const match = await desktop.topLevelOf(window);
  if (!match) return [];
  const bars = await findMenuBars(client, match.topLevel, nothingUnlessUnresponsive(window.pid, desktop.callTimeoutMs));
  const bar = [...bars.filter((candidate) => candidate.sized), ...bars][0];
  if (!bar) return [];
  const found: { path: string[]; ref: ObjectRef }[] = [];
  // Each menu's items are read once: those that hold items are walked into with them.
  const walk = async (items: readonly Item[], path: readonly string[]): Promise<void> => {
    await Promise.all(
      items.map(async (item) => {
        const below = path.length < menuWalk.maxDepth && found.length < menuWalk.maxItems ? await itemsOf(client, item.ref).catch((): Item[] => []) : [];
        if (below.length > 0) await walk(below, [...path, item.name]);
        else if (path.length > 0 && found.length < menuWalk.maxItems) found.push({ path: [...path, item.name], ref: item.ref });
      }),
    );
  };
  await walk(await itemsOf(client, bar.ref).catch((): Item[] => []), []);
  return found;
}

/** Whether the item is enabled now (GTK4 reports only SENSITIVE on an item that works). */
export async function menuItemEnabled(desktop: LinuxDesktop, ref: ObjectRef): Promise<boolean> {
  return isEnabled(await readStates(await desktop.atspi(), ref).catch(() => undefined));
}

/** How long a menu path waits for the tree of a window that has none yet, from an app that can have one. */
const TREE_WAIT_MS = 5000;

/**
 * The window's top-level object, awaited a bounded while when it has none yet: an app still starting up shows its
 * window before it joins the accessibility bus, and a menu path asked right after its window came (a GTK3 app whose
 * bridge started 4 s after its window showed) was refused at once as having no tree, with advice for Tk and Motif.
 * A process whose toolkit has no accessibility at all (Tk, Motif, Xaw), or one that has exited, is not waited for.
 */
async function treeAwaited(desktop: LinuxDesktop, window: ClientWindow, signal?: AbortSignal): Promise<Awaited<ReturnType<LinuxDesktop['topLevelOf']>>> {
  const deadline = Date.now() + TREE_WAIT_MS;
  for (;;) {
    const match = await desktop.topLevelOf(window);
    if (match || Date.now() >= deadline || desktop.processWithoutAccessibility(window.pid) || !desktop.processAlive(window.pid)) return match;
    // A plan stops within milliseconds of its cancel: the wait ends with it, nothing chosen.
    await sleep(150, undefined, { signal }).catch(() => undefined);
    if (signal?.aborted) throw new ToolError(`invoke_menu was cancelled while waiting for window ${window.id}'s accessibility tree; nothing was chosen`, 'cancelled');
  }
}

/** What to try when the chosen item showed nothing: the menu's own way, with real input. */
const noEffectEscalation = {
  recommended: 'foreground' as const,
  reason: 'the menu item showed no effect through accessibility (some items change nothing the app reports, such as Copy); if it should have, open the menu with a foreground click and click the item',
};

/**
 * Chooses the item at `path`; the choice is observed as a click on an element is (the app's events, re-read, and the
 * windows it opened), so the result says what it did. `snapshot` names the objects of the evidence by their [eN].
 */
export async function invokeMenuPath(desktop: LinuxDesktop, window: ClientWindow, path: readonly string[], snapshot?: SnapshotRef, signal?: AbortSignal): Promise<MenuOutcome> {
  const client = await desktop.atspi();
  const started = Date.now();
  const match = await treeAwaited(desktop, window, signal);
  // An app without accessibility (Motif, Xaw, Tk) still has menus: the agent opens them the way a user does, and the
  // open menu shows in the window's screenshot.
  if (!match) {
    const waited = Date.now() - started;
    throw new ToolError(
      `window ${window.id} (${windowName(window)}) has no accessibility tree to find its menus in${waited >= TREE_WAIT_MS ? ` (waited ${waited} ms for it)` : ''}; nothing was chosen: open the menu as a user does, ` +
        `with hotkey alt+<its underlined letter> or a click on its title in the screenshot (Tk's menus take background clicks; where a background click opens nothing, as in Motif, ` +
        `use delivery_mode "foreground"), ` +
        `then click the item where get_window_state's screenshot shows it (or press its letter)`,
      'no_accessibility',
    );
  }
  // An object that cannot be read is passed over, but an app that does not answer stops the search at its first call.
  const bars = await findMenuBars(client, match.topLevel, nothingUnlessUnresponsive(window.pid, desktop.callTimeoutMs));
  const bar = await menuBarFor(client, bars, path[0]!);
  if (!bar) {
    throw new ToolError(
      `window ${window.id} (${windowName(window)}) exposes no menu bar through accessibility; nothing was chosen`,
      'no_menu_bar',
    );
  }
  let menu = bar;
  const names: string[] = [];
  const opened: string[] = [];
  // A menu left open on the way when the path is refused: the menu bar's selection is its open menu (GTK's), which
  // clearing closes; the grab the bar keeps then is ended too (see releaseMenuGrab). A bar without Selection (Qt's)
  // offers no way to close a menu its action opened.
  const closable = (await readInterfaces(client, bar).catch((): string[] => [])).includes('Selection');
  const refuse = async (error: ToolError): Promise<never> => {
    if (opened.length > 0 && closable) {
      await clearSelection(client, bar).catch(() => false);
      await releaseMenuGrab(desktop, window);
    }
    throw error;
  };
  for (let depth = 0; depth < path.length; depth++) {
    const wanted = path[depth]!;
    const key = menuNameKey(wanted);
    const find = (items: readonly Item[]) => items.find((candidate) => candidate.name === wanted) ?? items.find((candidate) => menuNameKey(candidate.name) === key);
    const opener = depth > 0 ? { ref: menu, name: names[names.length - 1]!, role: ATSPI_ROLE.MENU } : undefined;
    let items = await itemsOf(client, menu);
    let openedHere = false;
    // A menu whose items only exist once shown: open it (through its own action) and wait for them.
    if (items.length === 0 && opener) {
      items = await openMenu(client, opener, menu, 'filled');
      opened.push(opener.name);
      openedHere = true;
    }
    let item = find(items);
    let states = item && (await readStates(client, item.ref));
    // A menu the app updates when it is shown holds what it held when last shown: Thunar rebuilds its Edit menu then,
    // and its Paste, disabled when the menu was last open, read disabled after a Cut while the menu stayed closed (Qt
    // apps update their actions the same way, before a menu shows). An item missing or disabled is looked for again
    // with its menu open, as a person sees it, where the menu can be closed again if it is refused there.
    if ((!item || !isEnabled(states)) && opener && !openedHere && closable) {
      items = await openMenu(client, opener, menu, 'shown');
      opened.push(opener.name);
      item = find(items);
      states = item && (await readStates(client, item.ref));
    }
    if (!item) {
      const where = depth === 0 ? 'the menu bar' : `the "${names.join(' > ')}" menu`;
      return refuse(
        new ToolError(`${where} has no item "${wanted}"; its items: ${items.map((candidate) => `"${candidate.name}"`).join(', ') || 'none'}`, 'menu_item_not_found', {
          missing: wanted,
          at: names,
          items: items.map((candidate) => candidate.name),
        }),
      );
    }
    names.push(item.name);
    if (!isEnabled(states)) return refuse(new ToolError(`the menu item "${names.join(' > ')}" is disabled`, 'menu_item_disabled', { path: names }));
    const isLast = depth === path.length - 1;
    if (isLast) {
      const inside = (await itemsOf(client, item.ref)).map((candidate) => `"${candidate.name}"`).join(', ');
      if (inside !== '') {
        return refuse(new ToolError(`"${names.join(' > ')}" is a submenu, not an item; continue the path with one of: ${inside}`, 'menu_item_not_found', { at: names }));
      }
      const action = await actionOf(client, item, chooseActions);
      // The item's own check mark is read before and after: Qt announces none of its changes (SpeedCrunch's Settings >
      // Angle Unit > Degree moved the mark from Radian with no event, and was reported as no effect), nor does it say
      // which items are checkable (an unchecked one has no CHECKABLE state), so every chosen item's is read.
      const checked = statesProbe(desktop, item.ref, `"${names.join(' > ')}"`, ['checked'], item.role);
      // A DoAction the app answers only once the dialog it opened closes (Qt's modal dialogs) is sent, not failed: observe says so.
      const observation = await observe(desktop, item.ref.bus, [checked], () => perform(client, item, action.index), { snapshot, opensWindow: opensWindow(item.name) });
      return { path: names, action: action.name, opened, outcome: actionOutcome({ path: 'x11_atspi', mode: 'background', observation, escalation: noEffectEscalation }) };
    }
    menu = item.ref;
  }
  // The schema asks for at least one name.
  throw new ToolError('the menu path is empty; give names such as ["File", "Save As..."]', 'invalid_arguments');
}
