// The popups an X client shows: menus, drop-down lists and tooltips are override-redirect top-level windows of
// the client's own (the window manager never sees them), told apart from its other windows only by being mapped
// over the root with the client's resource-id base.
import type { ClientWindow } from './windows.js';
import type { X11Connection } from './x11/index.js';
import { askedAhead } from './asked-ahead.js';

export interface Popup {
  id: number;
  /** Screen coordinates of its contents (inside its border). */
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The override-redirect windows that `window`'s X client has mapped now, lowest first. One wholly off the screen is
 * none: GTK keeps a 1x1 window mapped at -99,-99 for a drag and drop's messages (a GtkInvisible), and a drag kept the
 * window it started in active, as if it had opened a menu there.
 */
export async function mappedPopupsOf(x: X11Connection, window: number): Promise<Popup[]> {
  const root = x.setup.screens[0]?.root;
  if (root === undefined) return [];
  const client = window & ~x.setup.resourceIdMask;
  const seen = candidatesBefore.get(x) ?? new Map<number, readonly number[]>();
  candidatesBefore.set(x, seen);
  // The windows that were candidates last time are asked about in the same write as the root's children (asked-ahead.ts).
  const factsOf = askedAhead(seen.get(client) ?? [], (id) => popupFacts(x, id));
  const { children } = await x.queryTree(root);
  const candidates = children.filter((id) => (id & ~x.setup.resourceIdMask) === client && id !== window);
  seen.set(client, candidates);
  const found = await Promise.all(
    candidates.map(async (id): Promise<Popup | undefined> => {
      const facts = await factsOf(id);
      if (!facts) return undefined;
      const { attributes, geometry } = facts;
      if (!attributes.overrideRedirect || attributes.mapState !== 'viewable' || attributes.class !== 'InputOutput') return undefined;
      const popup = { id, x: geometry.x + geometry.borderWidth, y: geometry.y + geometry.borderWidth, width: geometry.width, height: geometry.height };
      return popup.x < x.screen.width && popup.y < x.screen.height && popup.x + popup.width > 0 && popup.y + popup.height > 0 ? popup : undefined;
    }),
  );
  return found.filter((popup): popup is Popup => popup !== undefined);
}

/**
 * The window types of a menu or a drop-down list (EWMH), which hold the keyboard and pointer while they are open. GTK4
 * types its popover menus (a menu bar's, a menu button's) as a torn-off menu, _NET_WM_WINDOW_TYPE_MENU, on an
 * override-redirect window: with a GTK4 menu open, real typing into another app was lost, read "no effect seen".
 */
const menuTypes = ['_NET_WM_WINDOW_TYPE_POPUP_MENU', '_NET_WM_WINDOW_TYPE_DROPDOWN_MENU', '_NET_WM_WINDOW_TYPE_COMBO', '_NET_WM_WINDOW_TYPE_MENU'];

/** An open menu or drop-down list: its window, and its X client's id base. */
export interface OpenMenu {
  id: number;
  client: number;
}

/** The open menus and drop-down lists on the screen: override-redirect windows mapped there whose window type says menu. */
async function openMenus(x: X11Connection): Promise<OpenMenu[]> {
  const root = x.setup.screens[0]?.root;
  if (root === undefined) return [];
  const mask = x.setup.resourceIdMask;
  const types = new Set(await Promise.all(menuTypes.map((name) => x.internAtom(name))));
  const { children } = await x.queryTree(root);
  // The root holds every client's top-level windows, most of them unmapped or managed: their attributes alone rule them
  // out, and only the few mapped override-redirect ones are asked where they lie (this is on every real input's path).
  const menus = await Promise.all(
    children.map(async (id) => {
      const attributes = await x.getWindowAttributes(id).catch(() => undefined);
      if (!attributes?.overrideRedirect || attributes.mapState !== 'viewable') return undefined;
      const [geometry, windowTypes] = await Promise.all([x.getGeometry(id).catch(() => undefined), x.getAtomList(id, '_NET_WM_WINDOW_TYPE').catch(() => null)]);
      if (!geometry) return undefined;
      if (geometry.x >= x.screen.width || geometry.y >= x.screen.height || geometry.x + geometry.width <= 0 || geometry.y + geometry.height <= 0) return undefined;
      return windowTypes?.some((type) => types.has(type)) ? { id, client: id & ~mask } : undefined;
    }),
  );
  return menus.filter((menu) => menu !== undefined);
}

/**
 * The open menus and drop-down lists on the screen, split into those of `window`'s X client and the others'. A toolkit
 * grabs the keyboard and the pointer while one is open, so real input meant for another client's window reaches that
 * menu instead (typed letters are its mnemonics).
 */
export async function menusByClient(x: X11Connection, window: number): Promise<{ own: OpenMenu[]; others: OpenMenu[] }> {
  const client = window & ~x.setup.resourceIdMask;
  const menus = await openMenus(x);
  return { own: menus.filter((menu) => menu.client === client), others: menus.filter((menu) => menu.client !== client) };
}

/** Per connection and X client, the override-redirect candidates mappedPopupsOf looked at last. */
const candidatesBefore = new WeakMap<X11Connection, Map<number, readonly number[]>>();

/** A window's attributes and geometry, asked together; undefined when it went away between the listing and the question. */
async function popupFacts(x: X11Connection, id: number) {
  try {
    const [attributes, geometry] = await Promise.all([x.getWindowAttributes(id), x.getGeometry(id)]);
    return { attributes, geometry };
  } catch {
    return undefined;
  }
}

/**
 * The menus, tooltips and other override-redirect windows the window's own X client has mapped over its client
 * area, lowest first. They are top-level windows of their own, so a capture of the window leaves them out (the
 * server's backing store gives the window's pixels under them): NEdit's Search menu, opened by a click, was in no
 * screenshot, and an app without accessibility has nothing else to show it; nor is a GTK3 context menu in the tree
 * of the window it opened over.
 */
export async function popupsOver(x: X11Connection, window: ClientWindow): Promise<Popup[]> {
  return (await mappedPopupsOf(x, window.id)).filter((popup) => overlaps(popup, window.bounds));
}

function overlaps(popup: Popup, { x: left, y: top, width, height }: ClientWindow['bounds']): boolean {
  return popup.x < left + width && popup.y < top + height && popup.x + popup.width > left && popup.y + popup.height > top;
}

/**
 * The popups of `window`'s X client that reach past its client area and lie over none of the client's other
 * windows (theirs, when they are): a Motif menu opened from a window low on the screen is placed above its menu
 * bar, wholly outside the window, and no capture of it showed the menu NEdit had open. A tooltip is none (its window
 * typed _NET_WM_WINDOW_TYPE_TOOLTIP): it holds nothing to choose, and GNOME System Monitor's, shown under the pointer
 * over its process list, read as "a popup (a menu or list) open reaching past the window's edges" whose items were
 * the list's cells under it.
 */
export async function popupsBeyond(x: X11Connection, window: ClientWindow, others: readonly ClientWindow[]): Promise<Popup[]> {
  const inside = (popup: Popup, { x: left, y: top, width, height }: ClientWindow['bounds']) =>
    popup.x >= left && popup.y >= top && popup.x + popup.width <= left + width && popup.y + popup.height <= top + height;
  const siblings = others.filter((other) => other.id !== window.id && (other.id & ~x.setup.resourceIdMask) === (window.id & ~x.setup.resourceIdMask) && other.isOnScreen);
  const beyond = (await mappedPopupsOf(x, window.id)).filter((popup) => !inside(popup, window.bounds) && !siblings.some((other) => overlaps(popup, other.bounds)));
  if (beyond.length === 0) return beyond;
  const tooltip = await x.internAtom('_NET_WM_WINDOW_TYPE_TOOLTIP');
  const types = await Promise.all(beyond.map((popup) => x.getAtomList(popup.id, '_NET_WM_WINDOW_TYPE').catch(() => null)));
  return beyond.filter((_, i) => !types[i]?.includes(tooltip));
}
