// invoke_menu in windows that keep their menus behind buttons (GTK4 and GNOME's header bars, a toolbar's "More"):
// the button named first is clicked, then each next name among the entries the click showed, one click each, as a
// person does, with one diff over the whole path.
import { setTimeout as sleep } from 'node:timers/promises';
import { indexedLabel } from '../../cup/element-label.js';
import { menuNameKey } from '../../cup/menu-names.js';
import { ToolError } from '../../errors.js';
import type { ChangeWatch } from '../../platform/desktop.js';
import type { SnapshotElement } from '../../platform/targets.js';
import type { DesktopWindow } from '../../platform/windows.js';
import type { ToolContext } from '../context.js';
import { readNumbered, rememberReading } from '../perception/window-snapshot.js';
import { beginPlanDiff } from '../plan/plan-diff.js';
import { runTool } from '../run.js';
import type { ToolOutput } from '../tool.js';
import { READ_LIMITS } from './action-diff.js';
import type { ActionResult } from './schemas.js';
import type { CupNode } from '../../cup/types.js';
import { flattenNodes } from '../../tui/ui-node.js';

/** The roles a shown menu's entries take: GTK3 makes a model menu's items check boxes, radio buttons or buttons. */
const entryRoles = new Set(['menuitem', 'menuitemcheckbox', 'menuitemradio', 'checkbox', 'radio', 'button']);
/** How long the entries a click opened may take to show (a popover fades in; an app builds its menu first). */
const ENTRIES_SHOW_MS = 2000;
/** How long the app stays quiet with some entries shown before its menu counts as shown whole. */
const MENU_QUIET_MS = 200;

export interface MenuButtonChoice {
  output: ToolOutput<ActionResult>;
  /** The names clicked, as the app names them: the button's, then each entry's. */
  path: string[];
}

interface Reading {
  elements: SnapshotElement[];
  identityOf(element: SnapshotElement): string | undefined;
}

/** Reads the window as get_window_state does, the reading becoming its snapshot: its indices are the clicks' targets. */
async function readShown(context: ToolContext, window: DesktopWindow): Promise<Reading> {
  const reading = await readNumbered(context, window, READ_LIMITS);
  const { snapshot } = rememberReading(context, window, reading);
  return { elements: [...snapshot.elements.values()], identityOf: (element) => reading.identities.get(element.index) };
}

const shown = (element: SnapshotElement) => !element.states?.includes('hidden') && !element.states?.includes('offscreen');

/**
 * The buttons named `name` on screen, one per control: GTK 4.8 names a labelled menu button and the button inside it
 * alike, and the inner one (which has the click action) stands for both.
 */
function buttonsNamed(reading: Reading, name: string): SnapshotElement[] {
  const key = menuNameKey(name);
  const named = reading.elements.filter((element) => element.role === 'button' && shown(element) && menuNameKey(element.name) === key);
  const byIndex = new Map(reading.elements.map((element) => [element.index, element]));
  const holds = (outer: SnapshotElement, inner: SnapshotElement) => {
    for (let at = inner.parent; at !== undefined; at = byIndex.get(at)?.parent) if (at === outer.index) return true;
    return false;
  };
  return named.filter((outer) => !named.some((inner) => inner !== outer && holds(outer, inner)));
}

/** The menu entries shown now that were not shown in `before` (the ones the last click opened). */
function entriesShownSince(before: ReadonlySet<string>, now: Reading): SnapshotElement[] {
  return now.elements.filter((element) => entryRoles.has(element.role) && shown(element) && element.name.trim() !== '' && !before.has(now.identityOf(element) ?? ''));
}

function shownIdentities(reading: Reading): Set<string> {
  return new Set(reading.elements.filter(shown).flatMap((element) => reading.identityOf(element) ?? []));
}

/** The entry named `name` among those the click showed, waiting for the window to change while none is. */
async function entryShown(
  context: ToolContext,
  window: DesktopWindow,
  before: ReadonlySet<string>,
  name: string,
  watch: ChangeWatch | undefined,
): Promise<{ entry?: SnapshotElement; entries: SnapshotElement[]; reading: Reading }> {
  const key = menuNameKey(name);
  const deadline = Date.now() + ENTRIES_SHOW_MS;
  for (;;) {
    const reading = await readShown(context, window);
    const entries = entriesShownSince(before, reading);
    const entry = entries.find((element) => element.name === name) ?? entries.find((element) => menuNameKey(element.name) === key);
    if (entry || Date.now() >= deadline || context.signal?.aborted) return { entry, entries, reading };
    // A menu shown whole (its app quiet a moment with its entries up) is not waited for any longer.
    if (!(await nextLook(watch, Math.min(entries.length > 0 ? MENU_QUIET_MS : 250, deadline - Date.now()))) && entries.length > 0) return { entries, reading };
  }
}

/**
 * Waits for the window's next change, `ms` at most, and says whether one came; where nothing watches the app, a short
 * look later, taken as a change.
 */
async function nextLook(watch: ChangeWatch | undefined, ms: number): Promise<boolean> {
  if (watch) return (await watch.next(ms)) !== undefined;
  await sleep(50);
  return true;
}

/** The click tool's background click on `target`, without a diff of its own; its failure is this call's. */
async function clickOn(context: ToolContext, window: DesktopWindow, target: SnapshotElement): Promise<Awaited<ReturnType<typeof runTool>>> {
  const clicked = await runTool('click', { window_id: window.id, element_index: target.index, diff: false }, context);
  if (clicked.ok) return clicked;
  const code = typeof clicked.structured.error === 'string' ? clicked.structured.error : 'internal_error';
  throw new ToolError(`the click on ${indexedLabel(target)} failed: ${clicked.summary}`, code as ToolError['code'], { at: indexedLabel(target) });
}

interface Opened {
  clicked: Awaited<ReturnType<typeof runTool>>;
  entry?: SnapshotElement;
  entries: SnapshotElement[];
  reading: Reading;
}

/** Clicks `target` and looks for the entry named `wanted` among those the click showed. */
async function openAndFind(context: ToolContext, window: DesktopWindow, target: SnapshotElement, before: ReadonlySet<string>, wanted: string, watch: ChangeWatch | undefined): Promise<Opened> {
  const clicked = await clickOn(context, window, target);
  return { clicked, ...(await entryShown(context, window, before, wanted, watch)) };
}

/** The entries a click showed, said for a refusal: "it shows [e5] menuitem "Sort", ...", or that it showed none. */
function shownWords(opened: Opened): string {
  if (opened.entries.length) return `it shows ${opened.entries.map(indexedLabel).join(', ')}`;
  // A button that opens no menu did what it does: its click's own words say what (a document saved, a dialog opened).
  return `it showed no menu entries within ${ENTRIES_SHOW_MS} ms of its click, which did this: ${opened.clicked.summary.split('\n')[0]}`;
}

/**
 * Of several buttons named alike (gedit's "Menu" beside Open and its main "Menu"), the one whose menu shows the
 * entry: each is opened in turn, and one whose menu lacks it is closed again by a second click, as its toggle does.
 * Refused when none shows it, or when a menu opened to look stays open after that click (nothing more is opened).
 */
async function openingOneOf(context: ToolContext, window: DesktopWindow, buttons: readonly SnapshotElement[], first: Reading, wanted: string, watch: ChangeWatch | undefined): Promise<{ button: SnapshotElement; opened: Opened }> {
  const looked: string[] = [];
  let before = shownIdentities(first);
  for (const button of buttons) {
    const opened = await openAndFind(context, window, button, before, wanted, watch);
    if (opened.entry) return { button, opened };
    looked.push(`${indexedLabel(button)}: ${shownWords(opened)}`);
    if (opened.entries.length === 0) continue;
    const opener = new Set(opened.entries.flatMap((shown) => opened.reading.identityOf(shown) ?? []));
    const stillShown = (reading: Reading) => entriesShownSince(before, reading).some((entry) => opener.has(reading.identityOf(entry) ?? ''));
    const after = await closeMenuOf(context, window, button, stillShown, watch);
    if (stillShown(after)) {
      throw new ToolError(`${buttons.length} buttons are named ${JSON.stringify(buttons[0]!.name)}; ${looked.join('; ')}, and its menu stayed open after a second click; nothing was chosen`, 'menu_item_not_found', {
        missing: wanted,
        at: [],
      });
    }
    before = shownIdentities(after);
  }
  throw new ToolError(`none of the ${buttons.length} buttons named ${JSON.stringify(buttons[0]!.name)} shows an entry ${JSON.stringify(wanted)} (${looked.join('; ')}); each was closed again`, 'menu_item_not_found', {
    missing: wanted,
    at: [],
    buttons: buttons.map((button) => button.index),
  });
}

/** A menu button's menu is open while the button says pressed (GTK's toggle) or expanded. */
const isOpen = (button: Pick<SnapshotElement, 'states'>) => button.states?.includes('pressed') === true || button.states?.includes('expanded') === true;

/**
 * Closes the menu a button has open (left open by a refusal before: "what it opened is left open"), so that the click
 * that follows opens it, and its entries count as shown by that click: Sudoku's Menu, left open by a path naming no
 * entry of it, was closed by the next invoke_menu's click, which then saw no entries. The window is read again once
 * the button says closed and the app is quiet (a popover fades out, said hidden at the fade's end).
 */
async function closeLeftOpen(context: ToolContext, window: DesktopWindow, button: SnapshotElement, watch: ChangeWatch | undefined): Promise<Reading> {
  const buttonOpen = (reading: Reading) => reading.elements.some((element) => element.index === button.index && isOpen(element));
  return closeMenuOf(context, window, button, buttonOpen, watch);
}

/**
 * Closes the menu `button` opened: a real Escape where the app's own menu holds the keyboard (a popup window), else a
 * second click on its toggle (a popover). The window is read again until `open` no longer holds of it and the app is
 * quiet a moment, ENTRIES_SHOW_MS at most: a popover fades out, said hidden at the fade's end (GTK3's takes some 170 ms).
 */
async function closeMenuOf(context: ToolContext, window: DesktopWindow, button: SnapshotElement, open: (reading: Reading) => boolean, watch: ChangeWatch | undefined): Promise<Reading> {
  if (!(await context.desktop.closeOwnMenus(window))) await runTool('click', { window_id: window.id, element_index: button.index, diff: false }, context);
  for (const deadline = Date.now() + ENTRIES_SHOW_MS; ; ) {
    const reading = await readShown(context, window);
    const stillOpen = open(reading);
    if (Date.now() >= deadline || context.signal?.aborted || (!stillOpen && !watch)) return reading;
    if (!(await nextLook(watch, Math.min(stillOpen ? 250 : MENU_QUIET_MS, deadline - Date.now()))) && !stillOpen) return reading;
  }
}

/**
 * Says that the menu the path opened is open still after the choice, when its button says so in the reading after it:
 * GTK keeps a popover open after a check item's toggle, as for a person, and GNOME Sudoku's Menu > Highlighter left it
 * so, unsaid; the next real click in the window, on a difficulty, only closed it, and read confirmed by that.
 */
function leftOpenLine(after: CupNode | undefined, opener: SnapshotElement): string | undefined {
  const now = after && flattenNodes([after]).find((node) => node.id === `e${opener.index}`);
  if (!now || !isOpen(now)) return undefined;
  return `the menu of ${indexedLabel(opener)} stays open after the choice (the app keeps it open, as for a person's click): a real click elsewhere in the window first only closes it; press Escape or click ${indexedLabel(opener)} to close it`;
}

/**
 * Chooses `path` through the window's button named path[0]: undefined when the window shows no such button (the
 * caller's refusal stands). Of several such buttons, the one whose menu shows path[1] (see openingOneOf); with nothing
 * after the button's name, several are refused, naming them. Each click is the click tool's, in the background (its
 * result's rungs and evidence); the result is the last click's, with the diff from before the first click to after
 * the last. An entry the menu does not show is refused with the entries it shows, and the menu left open (the agent
 * sees it and its entries in the window's snapshot, which this call updated).
 */
export async function chooseThroughMenuButton(context: ToolContext, window: DesktopWindow, path: readonly string[], diff: boolean | undefined): Promise<MenuButtonChoice | undefined> {
  let first = await readShown(context, window);
  const buttons = buttonsNamed(first, path[0]!);
  if (buttons.length === 0) return undefined;
  if (buttons.length > 1 && path.length === 1) {
    throw new ToolError(`window ${window.id} has ${buttons.length} buttons named ${JSON.stringify(path[0])} (${buttons.map(indexedLabel).join(', ')}); nothing was chosen: click the one meant`, 'ambiguous', {
      buttons: buttons.map((button) => button.index),
    });
  }
  const planDiff = await beginPlanDiff(context, { window_id: window.id, diff });
  const watch = await context.desktop.watchChanges(window.pid).catch(() => undefined);
  try {
    const leftOpen = path.length > 1 ? buttons.find(isOpen) : undefined;
    if (leftOpen) first = await closeLeftOpen(context, window, leftOpen, watch);
    const names: string[] = [];
    // The button whose menu the path opened first.
    let opener: SnapshotElement | undefined;
    let target = buttons[0]!;
    let before = shownIdentities(first);
    for (let depth = 0; ; depth++) {
      if (context.signal?.aborted) throw new ToolError(`invoke_menu was cancelled after ${names.length ? names.join(' > ') : 'nothing'} was clicked`, 'cancelled');
      if (depth === path.length - 1) {
        const clicked = await clickOn(context, window, target);
        names.push(target.name);
        const result = clicked.structured as ActionResult;
        // The windows the last click's own result names are not listed again.
        const compared = await planDiff.finish((result.new_windows ?? []).map((opened) => ({ id: opened.window_id, pid: opened.pid })));
        const open = opener && path.length > 1 ? leftOpenLine(compared.after, opener) : undefined;
        const chosen = open ? { ...result, evidence: [...(result.evidence ?? []), open] } : result;
        return {
          path: names,
          output: { summary: clicked.summary, body: [clicked.body, open && `- ${open}`, ...compared.lines].filter(Boolean).join('\n'), structured: { ...chosen, ...compared.fields } },
        };
      }
      const wanted = path[depth + 1]!;
      let opened: Opened;
      if (depth === 0 && buttons.length > 1) ({ button: target, opened } = await openingOneOf(context, window, buttons, first, wanted, watch));
      else opened = await openAndFind(context, window, target, before, wanted, watch);
      names.push(target.name);
      opener ??= target;
      if (!opened.entry && opened.entries.length === 0 && (opened.clicked.structured as ActionResult).effect !== 'confirmed') {
        // Qt pops up no menu for its tool button's ShowMenu through accessibility: a real click does.
        throw new ToolError(
          `the click on ${indexedLabel(target)} through accessibility showed no effect and no menu (${opened.clicked.summary}); nothing was chosen: click it with delivery_mode "foreground" (real input), then ${JSON.stringify(wanted)} in the menu it opens`,
          'menu_not_actionable',
          { at: names },
        );
      }
      if (!opened.entry) {
        throw new ToolError(`${indexedLabel(target)} showed no entry ${JSON.stringify(wanted)}; ${shownWords(opened)}; what it opened is left open (get_window_state shows it)`, 'menu_item_not_found', {
          missing: wanted,
          at: names,
          items: opened.entries.map((element) => element.name),
        });
      }
      before = shownIdentities(opened.reading);
      target = opened.entry;
    }
  } finally {
    watch?.close();
    planDiff.close();
  }
}
