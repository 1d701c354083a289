import { readFileSync } from 'node:fs';
import type { DesktopWindow, WindowRect } from '../windows.js';
import type { X11Connection } from './x11/index.js';
import { askedAhead } from './asked-ahead.js';

/** A top-level client window as the window manager and the X server describe it. */
export interface ClientWindow extends DesktopWindow {
  /** GTK's client-side-decoration margins (_GTK_FRAME_EXTENTS: left, right, top, bottom) when declared. */
  csdMargins?: { left: number; right: number; top: number; bottom: number };
}

export function processName(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

function intersectsScreen(bounds: WindowRect, width: number, height: number): boolean {
  return bounds.x < width && bounds.y < height && bounds.x + bounds.width > 0 && bounds.y + bounds.height > 0;
}

async function windowTitle(x: X11Connection, id: number): Promise<string> {
  return (await x.getString(id, '_NET_WM_NAME')) ?? (await x.getString(id, 'WM_NAME')) ?? '';
}

async function windowClass(x: X11Connection, id: number): Promise<string> {
  const value = await x.getString(id, 'WM_CLASS');
  if (!value) return '';
  // WM_CLASS holds "instance\0class\0"; the class names the application.
  const [instance, klass] = value.split('\0');
  return klass || instance || '';
}

/** Top-level windows when no EWMH window manager lists them: mapped, managed-looking children of the root. */
async function rootChildren(x: X11Connection): Promise<number[]> {
  const tree = await x.queryTree(x.screen.root);
  const attributes = await Promise.all(tree.children.map((id) => x.getWindowAttributes(id).catch(() => undefined)));
  return tree.children.filter((_, i) => attributes[i] && !attributes[i]!.overrideRedirect && attributes[i]!.class === 'InputOutput');
}

/**
 * The process of a window whose app sets no _NET_WM_PID (Tk, Xt/Xaw and Motif apps do not), as the X server
 * knows it (X-Resource); 0 when it cannot tell (a client over TCP, a server without the extension).
 */
async function clientPid(x: X11Connection, id: number): Promise<number> {
  return (await x.xres.clientPid(id).catch(() => undefined)) ?? 0;
}

/** Motif's window manager hints ask for no decorations at all: flags has MWM_HINTS_DECORATIONS (2) and decorations is 0. */
function undecorated(hints: readonly number[] | null): boolean {
  return hints !== null && hints.length >= 3 && (hints[0]! & 2) !== 0 && hints[2] === 0;
}

type ListingContext = {
  activeWindow: number;
  currentDesktop: number | undefined;
  hiddenAtom: number;
  modalAtom: number;
  splashAtom: number;
  skipTaskbarAtom: number;
  aboveAtom: number;
  shadedAtom: number;
  maximizedAtoms: readonly [number, number];
  fullscreenAtom: number;
};

/** What the X server says of one client window, or undefined when it was destroyed while asked. */
type WindowFacts = Awaited<ReturnType<typeof windowFacts>>;

async function windowFacts(x: X11Connection, id: number) {
  try {
    const [geometry, origin, attributes, pids, title, appClass, states, desktops, csd, owner, types, motifHints] = await Promise.all([
      x.getGeometry(id),
      x.translateCoordinates(id, x.screen.root, 0, 0),
      x.getWindowAttributes(id),
      x.getCardinals(id, '_NET_WM_PID'),
      windowTitle(x, id),
      windowClass(x, id),
      x.getAtomList(id, '_NET_WM_STATE'),
      x.getCardinals(id, '_NET_WM_DESKTOP'),
      x.getCardinals(id, '_GTK_FRAME_EXTENTS'),
      x.getWindowList(id, 'WM_TRANSIENT_FOR'),
      x.getAtomList(id, '_NET_WM_WINDOW_TYPE'),
      x.getCardinals(id, '_MOTIF_WM_HINTS'),
    ]);
    const pid = pids?.[0] ?? (await clientPid(x, id));
    return { geometry, origin, attributes, pid, title, appClass, states, desktops, csd, owner, types, motifHints };
  } catch {
    // The window was destroyed while we looked at it.
    return undefined;
  }
}

/** The window as list_windows tells it, from its facts and the root's (its place in the stacking order, the active window). */
function describeWindow(x: X11Connection, id: number, zIndex: number, facts: WindowFacts, context: ListingContext): ClientWindow | undefined {
  if (!facts) return undefined;
  const root = x.screen.root;
  const { geometry, origin, attributes, pid, title, appClass, states, desktops, csd, owner, types, motifHints } = facts;
  const bounds = { x: origin.x, y: origin.y, width: geometry.width, height: geometry.height };
  const minimized = states?.includes(context.hiddenAtom) ?? false;
  // A shaded window is rolled up into its title bar: mapped, yet nothing of its client area shows or takes a click.
  const shaded = states?.includes(context.shadedAtom) ?? false;
  const desktop = desktops?.[0];
  // 0xFFFFFFFF means "on every desktop".
  const onCurrentSpace = context.currentDesktop === undefined || desktop === undefined || desktop === 0xffffffff || desktop === context.currentDesktop;
  const viewable = attributes.mapState === 'viewable';
  const window: ClientWindow = {
    id,
    pid,
    title,
    appName: appClass || (pid ? processName(pid) : ''),
    bounds,
    zIndex,
    isOnScreen: viewable && !minimized && !shaded && onCurrentSpace && intersectsScreen(bounds, x.screen.width, x.screen.height),
    onCurrentSpace,
    minimized,
    active: id === context.activeWindow,
  };
  if (states?.includes(context.modalAtom)) window.modal = true;
  if (types?.includes(context.splashAtom)) window.splash = true;
  if (shaded) window.shaded = true;
  if (states?.includes(context.aboveAtom)) window.above = true;
  // Maximized is both ways at once (one way alone is a window stretched along one side of the screen).
  if (context.maximizedAtoms.every((atom) => states?.includes(atom))) window.maximized = true;
  if (states?.includes(context.fullscreenAtom)) window.fullscreen = true;
  // The root (or None) as the owner is a dialog of the whole app, which ICCCM allows; only a window is an owner here.
  if (owner?.[0] && owner[0] !== root) window.transientFor = owner[0];
  if (!window.transientFor && states?.includes(context.skipTaskbarAtom) && undecorated(motifHints)) window.bare = true;
  if (csd && csd.length === 4) window.csdMargins = { left: csd[0]!, right: csd[1]!, top: csd[2]!, bottom: csd[3]! };
  return window;
}

/**
 * The notification bubbles on screen: override-redirect children of the root typed _NET_WM_WINDOW_TYPE_NOTIFICATION
 * (notification-daemon's, xfce4-notifyd's). No window manager lists them, yet a person sees them over every window and
 * clicks their buttons (Reply, Open, the close mark): a HexChat or mail notification with a Reply button was in no
 * listing, and get_window_state on its X window was window_not_found. Bottom to top, as the root stacks them.
 */
async function notificationBubbles(x: X11Connection, children: readonly number[], notificationAtom: number): Promise<number[]> {
  const attributes = await Promise.all(children.map((id) => x.getWindowAttributes(id).catch(() => undefined)));
  const popups = children.filter((_, index) => attributes[index]?.overrideRedirect && attributes[index]!.mapState === 'viewable' && attributes[index]!.class === 'InputOutput');
  const types = await Promise.all(popups.map((id) => x.getAtomList(id, '_NET_WM_WINDOW_TYPE').catch(() => null)));
  return popups.filter((_, index) => types[index]?.[0] === notificationAtom);
}

/** The client windows each connection listed last, whose facts the next listing asks for ahead (asked-ahead.ts). */
const listedBefore = new WeakMap<X11Connection, readonly number[]>();

/**
 * Every top-level client window the window manager knows, minimized and unmapped ones included,
 * with z_index from the EWMH stacking order. All requests are pipelined.
 */
export async function listClientWindows(x: X11Connection): Promise<ClientWindow[]> {
  const root = x.screen.root;
  const factsOf = askedAhead(listedBefore.get(x) ?? [], (id) => windowFacts(x, id));
  const [stacking, clients, active, currentDesktop, hiddenAtom, modalAtom, splashAtom, skipTaskbarAtom, aboveAtom, shadedAtom, notificationAtom, rootTree, maximizedVertAtom, maximizedHorzAtom, fullscreenAtom] = await Promise.all([
    x.getWindowList(root, '_NET_CLIENT_LIST_STACKING'),
    x.getWindowList(root, '_NET_CLIENT_LIST'),
    x.getWindowList(root, '_NET_ACTIVE_WINDOW'),
    x.getCardinals(root, '_NET_CURRENT_DESKTOP'),
    x.internAtom('_NET_WM_STATE_HIDDEN'),
    x.internAtom('_NET_WM_STATE_MODAL'),
    x.internAtom('_NET_WM_WINDOW_TYPE_SPLASH'),
    x.internAtom('_NET_WM_STATE_SKIP_TASKBAR'),
    x.internAtom('_NET_WM_STATE_ABOVE'),
    x.internAtom('_NET_WM_STATE_SHADED'),
    x.internAtom('_NET_WM_WINDOW_TYPE_NOTIFICATION'),
    x.queryTree(root),
    x.internAtom('_NET_WM_STATE_MAXIMIZED_VERT'),
    x.internAtom('_NET_WM_STATE_MAXIMIZED_HORZ'),
    x.internAtom('_NET_WM_STATE_FULLSCREEN'),
  ]);
  let ordered = stacking ?? clients;
  if (!ordered) ordered = await rootChildren(x);
  // Clients missing from the stacking list (rare) go to the bottom.
  const managed = [...(clients ?? []).filter((id) => !ordered!.includes(id)), ...ordered];
  // Bubbles stack over every managed window.
  const bubbles = await notificationBubbles(x, rootTree.children.filter((id) => !managed.includes(id)), notificationAtom);
  const ids = [...managed, ...bubbles];
  const context = { activeWindow: active?.[0] ?? 0, currentDesktop: currentDesktop?.[0], hiddenAtom, modalAtom, splashAtom, skipTaskbarAtom, aboveAtom, shadedAtom, maximizedAtoms: [maximizedVertAtom, maximizedHorzAtom] as const, fullscreenAtom };
  listedBefore.set(x, ids);
  const facts = await Promise.all(ids.map(factsOf));
  return ids
    .map((id, zIndex) => {
      const window = describeWindow(x, id, zIndex, facts[zIndex], context);
      if (window && bubbles.includes(id)) window.notification = true;
      return window;
    })
    .filter((window): window is ClientWindow => window !== undefined);
}

export async function findClientWindow(x: X11Connection, id: number): Promise<ClientWindow | undefined> {
  return (await listClientWindows(x)).find((window) => window.id === id);
}
