// The keyboard and pointer grab an app's menu bar keeps after its menu was closed through accessibility. GTK3's menu
// bar takes the grab when one of its menus opens; its Selection's ClearSelection (the only way accessibility closes
// that menu) deselects the bar's item and hides the menu, but leaves the bar active, holding the grab with nothing on
// screen: every real key of every app then went to that app. A type_text into another window, after invoke_menu
// refused Pluma's File > Empty (its menu opened to look again, then closed), wrote into Pluma's document, and read
// "no effect seen". A real Escape, which only the grab's holder receives, ends it as it ends a person's menu.
import { setTimeout as sleep } from 'node:timers/promises';
import type { DesktopWindow } from '../../windows.js';
import { keyboardGrabbedElsewhere, pressCombination } from '../input/index.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import type { X11Connection } from '../x11/index.js';
import { menusByClient } from '../popups.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { children } from '../atspi/operations.js';

/** How long the app may take to give the grab back after the Escape. */
const releaseTimeoutMs = 1000;

/**
 * Ends the grab the window's app kept for a menu the driver has just closed through accessibility: called only then,
 * so a grab held is that app's. Another app's open menu would hold it instead (and take the Escape): then nothing is
 * sent. Answers whether a grab was found and ended.
 */
export async function releaseMenuGrab(desktop: LinuxDesktop, window: DesktopWindow): Promise<boolean> {
  const x = await desktop.x11();
  if (!(await keyboardGrabbedElsewhere(x))) return false;
  if ((await menusByClient(x, window.id)).others.length > 0) return false;
  return escapeUntil(x, async () => !(await keyboardGrabbedElsewhere(x)));
}

/** Presses a real Escape, then waits for `done` to hold, for releaseTimeoutMs at most; answers whether it did. */
async function escapeUntil(x: X11Connection, done: () => Promise<boolean>): Promise<boolean> {
  await pressCombination(x, 'escape');
  for (const deadline = Date.now() + releaseTimeoutMs; !(await done()); await sleep(30)) if (Date.now() >= deadline) return false;
  return true;
}

/**
 * The window's app's own open menus (a menu bar's, a context menu) when they hold the keyboard: a menu of its X client
 * is open, no other client's is, and a keyboard grab is held. A real key then reaches that app alone, whichever window
 * is active. Undefined otherwise.
 */
export async function ownMenusHoldingKeys(desktop: LinuxDesktop, window: DesktopWindow): Promise<number[] | undefined> {
  const x = await desktop.x11();
  const { own, others } = await menusByClient(x, window.id);
  if (own.length === 0 || others.length > 0) return undefined;
  return (await keyboardGrabbedElsewhere(x)) ? own.map((menu) => menu.id) : undefined;
}

/** The roles of a menu's entries that a click chooses (a submenu opener is one too, but holds its submenu). */
const menuEntryRoles = new Set(['menuitem', 'menuitemcheckbox', 'menuitemradio']);
/** How many menu levels the Escapes close at most: a choice three submenus deep is already far. */
const maxMenuLevels = 5;

/**
 * Closes the window's app's own open menus while they hold the keyboard: a real Escape per level, which only the
 * grab's holder receives, as it closes a person's menu. Answers how many Escapes went (none when no menu of the app
 * holds the keyboard, or another app's menu is open too).
 */
export async function escapeOwnMenus(desktop: LinuxDesktop, window: DesktopWindow): Promise<number> {
  const x = await desktop.x11();
  let escapes = 0;
  for (let menus = await ownMenusHoldingKeys(desktop, window); menus && escapes < maxMenuLevels; escapes++) {
    const before = menus.length;
    await escapeUntil(x, async () => (await menusByClient(x, window.id)).own.length < before);
    menus = await ownMenusHoldingKeys(desktop, window);
  }
  return escapes;
}

/**
 * Closes the app's popup menu a background click on one of its entries left open. Qt triggers a menu item's action
 * through accessibility without closing its menu, where a person's click closes it: the menu a "Tools" button popped
 * up stayed on screen, inside the app's modal menu loop, holding the keyboard, so every app's real input went to it.
 * Only for an entry with nothing under it (a submenu opener's click is meant to leave its submenu open), and only
 * while the app's own menus hold the keyboard (see escapeOwnMenus). Answers the evidence line, or undefined when
 * nothing was left open.
 */
export async function closeMenuLeftOpen(desktop: LinuxDesktop, window: DesktopWindow, role: string, ref: ObjectRef): Promise<string | undefined> {
  if (!menuEntryRoles.has(role)) return undefined;
  // An entry whose children cannot be read is left as it is: it may be a submenu's opener.
  const under = await children(await desktop.atspi(), ref).catch(() => undefined);
  if (under === undefined || under.length > 0) return undefined;
  const escapes = await escapeOwnMenus(desktop, window);
  if (escapes === 0) return undefined;
  return `the app's menu stayed open after the choice, holding the keyboard (its toolkit does not close it for an action through accessibility, as a person's click does): ${escapes === 1 ? 'a real Escape' : `${escapes} real Escapes`}, which only the menu's app receives, closed it`;
}
