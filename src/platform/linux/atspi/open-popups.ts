// A context menu is a top level of its own: GTK3 shows it in a popup window (override-redirect, which the window
// manager never lists) whose accessible object is another child of the application, beside the window it was opened
// over. Read through that window's object alone, it was in no tree: after a right click in xfce4-taskmanager the
// screenshot showed Stop, Terminate and Kill, and the tree, the action's new windows and find_elements none of them.
// Qt's context menu is no child of the application at all (it leaves popups out), and is found by its announcement:
// PCManFM-Qt's Open, Cut, Copy, Delete and Rename were drawn over the file list and read nowhere.
// Chromium (its views toolkit) makes its menus' popups frames, and puts the menu some levels down (frame, menu bar,
// panels, menu): its app menu (the three dots) was drawn over the page and read nowhere, so a popup is taken by its
// box whatever its top level's role, and kept for a menu anywhere in it.
import { ATSPI_ROLE, ATSPI_STATE } from '../../../cup/atspi/constants.js';
import type { AtspiRawNode } from '../../../cup/atspi/raw-node.js';
import { hasState } from '../../../cup/atspi/states.js';
import type { Popup } from '../popups.js';
import type { AccessibleTopLevel, AtspiClient } from './client.js';
import type { ObjectRef } from './object-ref.js';
import { readTree, type ReadTreeOptions } from './tree-reader.js';

const menuRoles = new Set<number>([ATSPI_ROLE.MENU, ATSPI_ROLE.POPUP_MENU]);
/** What a drop-down's popup offers its choices in, when it is no menu: LibreOffice's drop-downs show a table of them. */
const choiceRoles = new Set<number>([ATSPI_ROLE.LIST, ATSPI_ROLE.LIST_BOX, ATSPI_ROLE.TABLE, ATSPI_ROLE.TREE, ATSPI_ROLE.TREE_TABLE]);

/**
 * A popup that offers something to choose: a menu anywhere in it (Chromium's app menu is a frame with the menu a few
 * levels down), or a list, table or tree of choices (LibreOffice's drop-downs open a popup window with a table of
 * their choices, and the Sort dialog's Column list was drawn over the dialog and read nowhere). A popup holding only
 * words (a drag image's label, a tooltip) is not one.
 */
function offersChoices(root: AtspiRawNode): boolean {
  if (holdsMenu(root)) return true;
  const holdsChoices = (node: AtspiRawNode, depth: number): boolean => choiceRoles.has(node.role) || (depth < 5 && node.children.some((child) => holdsChoices(child, depth + 1)));
  return holdsChoices(root, 0);
}

/** A menu anywhere in the tree. */
function holdsMenu(node: AtspiRawNode): boolean {
  return menuRoles.has(node.role) || node.children.some(holdsMenu);
}

/**
 * A box within a couple of pixels of another: a popup's object and its X window report the same rectangle, the
 * object's in the app's own units (`scale` screen pixels each: an app scaled on its own, see extents-scale.ts), which
 * round to within a unit or so of it.
 */
function sameBox(top: AccessibleTopLevel, popup: Popup, scale: number): boolean {
  const box = top.extents;
  const near = (reported: number, real: number) => Math.abs(reported * scale - real) <= 2 * scale;
  return box !== undefined && near(box.x, popup.x) && near(box.y, popup.y) && near(box.w, popup.width) && near(box.h, popup.height);
}

function pathsOf(node: AtspiRawNode, into = new Set<string>()): Set<string> {
  into.add(`${node.bus}${node.path}`);
  for (const child of node.children) pathsOf(child, into);
  return into;
}

/**
 * The menus the app shows now in popups of its own over `bounds` (its X client's mapped override-redirect windows,
 * `popups`, matched to the app's other top levels by their box), read whole, each a menu or the top level holding one.
 * A popup whose objects the window's tree holds already is left out: a GTK3 combo box's list is in its popup's
 * window too, and is read where it belongs, under the combo box.
 */
export async function openPopupMenus(
  client: AtspiClient,
  app: ObjectRef,
  own: ObjectRef,
  popups: readonly Popup[],
  tree: AtspiRawNode,
  options: ReadTreeOptions,
  scale: number,
): Promise<AtspiRawNode[]> {
  if (popups.length === 0) return [];
  const listed = await client.topLevels(app);
  // Qt lists no popup among the application's children (its context menus, made without a parent, and a QCompleter's
  // list of suggestions, a list view shown as a popup of its own): a popup no listed top level fits is looked for
  // among the menus and lists of choices the app announced shown. A completer's suggestions under a field typed into
  // were drawn over the window and read nowhere.
  const unmatched = popups.some((popup) => !listed.some((top) => sameBox(top, popup, scale)));
  const announced = unmatched ? await Promise.all(client.events.shownObjects(app.bus).map((path) => client.asTopLevel({ bus: app.bus, path }).catch(() => undefined))) : [];
  const tops = [...listed, ...announced.filter((top): top is AccessibleTopLevel => top !== undefined && (menuRoles.has(top.role) || choiceRoles.has(top.role)))];
  const candidates = tops.filter(
    (top) => top.path !== own.path && hasState(top.states, ATSPI_STATE.SHOWING) && popups.some((popup) => sameBox(top, popup, scale)),
  );
  if (candidates.length === 0) return [];
  // An announced popup is new, and its path may have been a destroyed object's (Qt 5 reuses ids): what was known of
  // that object is not the popup's.
  for (const top of candidates) if (!listed.includes(top)) client.facts.forget(top);
  const held = pathsOf(tree);
  const read = await Promise.all(candidates.map((top) => readTree(client, top, { ...options, maxNodes: Math.min(options.maxNodes, 1000) })));
  return read.flatMap(({ root, failure }) => {
    if (!root || failure) return [];
    return offersChoices(root) && ![...pathsOf(root)].some((path) => held.has(path)) ? [root] : [];
  });
}
