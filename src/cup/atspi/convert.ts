import { keyBindingShortcut } from '../key-binding.js';
import type { CupAttributes, CupNode, CupRect, CupRole, CupState } from '../types.js';
import { clicksByNature, clicksOnlyItsAncestor, clicksThroughChild, cupActionsFor, headerClickedByInput, holdsButton, pressedOnlyByInput, type ActionContext } from './actions.js';
import { closedMenu, holdsMenuItems, itemsKeptHidden } from './closed-menus.js';
import { hidesItsContent } from './hidden-containers.js';
import { drawnViewOf, paintsBesideOwnBars, scrollsItsContent, type RoleShape } from './scroll-areas.js';
import { CONTENT_NAMED_ATSPI_ROLES, isDrawnSurfaceShape, NAMED_BLOCK_ATSPI_ROLES, unknownCoordinate, WORDS_AROUND_CHILDREN_ATSPI_ROLES, type AtspiRawNode, type RawTreeContext, type UnreadChildren } from './raw-node.js';
import { OBJECT_REPLACEMENT, objectReplacementOffsets, spliceEmbeddedText } from '../embedded-objects.js';
import { isEditableContent } from './editable-content.js';
import { intersectRect } from '../rect.js';
import { firstCodePoints, isWordlessOnly, normaliseWhitespace, withoutWordlessCharacters } from '../text.js';
import { treeNumber } from '../shown-number.js';
import { isDrawnListMarker } from '../list-markers.js';
import { isMediaType, plainText, readableName, withoutDisclosureMarker, withoutListMarker, withoutMnemonic } from './names.js';
import { atspiRoleName, cupRoleFor } from './roles.js';
import { ATSPI_ROLE } from './constants.js';
import { cupStateOf, decodeStateSet } from './states.js';
import { isTerminalRow, withTerminalRows } from './terminal-rows.js';
import { withGroupBoxTitles } from './group-box-titles.js';
import { rendererTreeNodeLevels } from './tree-nodes.js';
import { inReadingOrder } from './reading-order.js';
import { hasRange, textOnlyValue, type ValueRange } from './value-range.js';
import { itemsOutsideList, placesInSet, type SetPlace } from './set-positions.js';
import { enableUnmarkedItems } from './unmarked-items.js';
import { choiceAtPlace } from './choice-place.js';
import { placeUnplacedCells } from './cell-places.js';
import { nameFieldsByColumn } from './column-fields.js';

/** Where CUP element N came from: the accessibility object an action on it must reach. */
export interface ElementSource {
  index: number;
  bus: string;
  path: string;
  /** The AT-SPI role read then; a different role at the same path later means a different object. */
  atspiRole: number;
}

export interface ConvertedTree {
  root: CupNode;
  sources: ElementSource[];
  nodeCount: number;
}

/** Roles whose accessible name comes from their content when they have no label (W3C accname). */
const nameFromContentRoles = new Set<CupRole>([
  'button', 'cell', 'checkbox', 'columnheader', 'heading', 'link', 'menuitem', 'menuitemcheckbox', 'menuitemradio',
  'option', 'listitem', 'radio', 'row', 'rowheader', 'switch', 'tab', 'tooltip', 'treeitem',
]);
/**
 * Live regions, named by their words when nothing names them, as Gecko's keep them in their own text (raw-node.ts's
 * CONTENT_NAMED_ATSPI_ROLES): Blink keeps them in text children, so a page's role=status read `status ""` in Chromium,
 * and find_elements role=status showed no name. The controls one holds (a toast's Close button) are no words of it.
 */
const liveRegionRoles = new Set<CupRole>(['status', 'log', 'alert', 'timer', 'marquee']);
/**
 * Roles named by their tooltip when nothing else names them (accname's last step): the content-named ones, and the
 * controls that take a value, whose tooltip is often all that says what they are for (the filter drop-down of GTK
 * 4.8's file chooser: "Select which types of files are shown"; the compact view shows no description).
 */
const tooltipNamedRoles = new Set<CupRole>([...nameFromContentRoles, 'combobox', 'textbox', 'searchbox', 'slider', 'spinbutton']);
const maxNameLength = 200;
const contentNamedRoles: ReadonlySet<string> = new Set(CONTENT_NAMED_ATSPI_ROLES);
const valueRoles = new Set<CupRole>(['slider', 'spinbutton', 'progressbar', 'scrollbar']);
/** Whether an element of this role shows its Value interface's number as its value (others show their text, or none). */
export function showsValueNumber(role: CupRole): boolean {
  return valueRoles.has(role);
}
const textValueRoles = new Set<CupRole>(['textbox', 'searchbox', 'combobox']);
/**
 * GTK 4 widgets that draw their items themselves and expose none of them (GTK 4.8's tree and icon views: a file
 * chooser's files, baobab's folders; the cell view in which a combo box draws its choice, GNOME Calculator's
 * "Decimal"), named by their type as GTK 4 names what has no name of its own.
 */
const selfDrawnViews: ReadonlySet<string> = new Set(['GtkTreeView', 'GtkIconView', 'GtkCellView']);
const orientedRoles = new Set<CupRole>(['slider', 'scrollbar', 'separator', 'toolbar', 'tablist', 'menubar']);
/** Order in which states are listed on a node: the ones an agent acts on first. */
const stateOrder: readonly CupState[] = [
  'focused', 'selected', 'checked', 'pressed', 'mixed', 'expanded', 'collapsed', 'disabled',
  'editable', 'readonly', 'required', 'busy', 'modal', 'multiselectable', 'hidden', 'offscreen',
];

interface Placement {
  bounds?: CupRect;
  offscreen: boolean;
  /** Not drawn: not showing, and not visible itself or inside something that is not (a closed popup's items). */
  undrawn: boolean;
  /** Behind a sibling page that is shown in the same place (a browser's background tab): hidden from the user. */
  covered?: boolean;
  /** The object has no size (the toolkit gave it a negative one): what it holds shows it drawn only by its own SHOWING. */
  sizeless?: boolean;
  /**
   * Where what it holds can be seen: the window's visible area, narrowed by the box of each object around it that
   * scrolls what it holds (a row below a scroll area's view is offscreen however much of the window is shown).
   */
  view?: CupRect;
  /**
   * Out of the view of the pane that scrolls it, or inside something that is (raw.scrolledAway): offscreen wherever
   * its box lies, as the window's area alone would show it (a page's row below its feed's box, above the fold).
   */
  scrolledAway?: boolean;
  /** Placed nowhere and not showing where a view's cells outlive its hiding (RawTreeContext.viewsKeepHiddenCells). */
  nowhere?: true;
  /** Expandable and not expanded (an expander folded up): what it holds and does not show is folded away, not scrolled. */
  collapsed?: true;
}

/** Which of VISIBLE and SHOWING the toolkit sets at all (on the window, as toolkits that set them do; GTK4 sets no SHOWING). */
interface Visibility {
  visible: boolean;
  showing: boolean;
}

/**
 * A combo box that says no choice of its own, around one button named by what it shows, shows that: GTK 4.8's
 * GtkDropDown has no text, Selection or value, and draws its choice as the label of the toggle button that opens its
 * list, so `cmb "Color"` read with no value over `btn "Red"`, and `value=Red` found nothing.
 */
function valueFromButton(combo: CupNode): void {
  if (combo.value !== undefined || combo.children?.some((child) => child.role === 'textbox')) return;
  const buttons = combo.children?.filter((child) => child.role === 'button') ?? [];
  if (buttons.length === 1 && buttons[0]!.name && buttons[0]!.name !== combo.name) combo.value = buttons[0]!.name;
}

/**
 * A combo box that says no choice of its own and holds, before any other list, a list of one item, shows that item:
 * libadwaita's combo row (Clocks' "Ring Duration") draws its choice as the one row of a list view of its own, its other
 * choices only in the popover it opens, so `cmb "Ring Duration"` read with no value over `li "5 minutes"`. A list of
 * several items is the combo box's choices (Qt's, a page's <select>), not one it shows.
 */
function valueFromShownItem(combo: CupNode): void {
  if (combo.value !== undefined || combo.children?.some((child) => child.role === 'textbox')) return;
  const list = firstList(combo.children ?? []);
  const items = list?.children?.filter((child) => child.role === 'listitem') ?? [];
  if (items.length === 1 && items[0]!.name && items[0]!.name !== combo.name) combo.value = items[0]!.name;
}

/** The first list among these nodes and their descendants, in document order. */
function firstList(nodes: readonly CupNode[]): CupNode | undefined {
  for (const node of nodes) {
    const found = node.role === 'list' ? node : firstList(node.children ?? []);
    if (found) return found;
  }
  return undefined;
}

/**
 * The field of a combo box that takes typing (GTK3's combo box with an entry) has no name of its own: the label names
 * the combo box, and a person calls the field by it. Geany's Find dialog read `cmb "Search for:"` over a bare `tbx`,
 * and `role=textbox name="Search for:"` matched nothing. Not the combo box's own text as its name (one named by its
 * choice), which would name the field by what it holds.
 */
function nameComboField(combo: CupNode, formerName?: string): void {
  const field = comboField(combo);
  // A field named by the box's former name (a name of its own a label on screen replaced: labelsByPlace) takes the new one.
  const unnamed = field !== undefined && (!field.name || (formerName !== undefined && field.name === formerName));
  if (unnamed && combo.name && combo.name !== field.value && combo.name !== combo.value) field.name = combo.name;
}

/** The one text field a combo box holds, when it takes typing. */
function comboField(combo: CupNode): CupNode | undefined {
  // GTK 4.8 puts the entry in an unnamed box beside the button that opens the list: it is the combo box's field too.
  const parts = (combo.children ?? []).flatMap((child) => (child.role === 'generic' && !child.name ? (child.children ?? []) : [child]));
  const fields = parts.filter((child) => child.role === 'textbox');
  return fields.length === 1 ? fields[0]! : undefined;
}

/** Combo boxes named by the label a labelled-by relation points at: a label on screen beside them names them not otherwise. */
const namedByRelation = new WeakSet<CupNode>();

/**
 * A combo box that takes typing is named by the label pointing at it (a buddy, labelled-by) where its own name is the
 * text it holds, which changes with every typing: comboNamedByLabel judges a box by its value before its field is read,
 * so one holding text none of its choices has kept that text as its name. Where the toolkit names such a box by its
 * text whenever it holds any (Qt: its accessible name, or its buddy's text, only while empty), its own name is never
 * one it keeps, and the label names it always: a selector by the name read while it was empty found it no more.
 */
function nameEditableComboByLabel(combo: CupNode, raw: AtspiRawNode, namesByText: boolean): void {
  const label = normaliseWhitespace(raw.labelledBy ?? '');
  if (label === '' || !comboField(combo)) return;
  if (combo.name !== label && combo.name !== combo.value && !namesByText) return;
  combo.name = label;
  namedByRelation.add(combo);
}

/**
 * A combo box that takes typing and has no value of its own holds what its field holds. Qt names an editable combo
 * box by the text typed into it, and gives it no value when its list has no choice selected: KeePassXC's "Username
 * field" read `cmb "alice"` once alice was typed, named by what it held and with no value, so the label beside it
 * (labelsByPlace, which takes a combo box named by its value for unnamed) could not name it.
 */
function valueFromField(combo: CupNode): void {
  const held = comboField(combo)?.value;
  if (combo.value === undefined && held) combo.value = held;
}

/** What an object whose states tell nothing of its drawing is judged by: its place alone. */
const unreported: Visibility = { visible: false, showing: false };

/** Which of VISIBLE and SHOWING an object sets: at the root of a process's part of the tree, which of them that process reports. */
function reportedBy(raw: AtspiRawNode): Visibility {
  const states = decodeStateSet(raw.states);
  return { visible: states.has('STATE_VISIBLE'), showing: states.has('STATE_SHOWING') };
}

function intersects(a: CupRect, b: CupRect): boolean {
  if (a.w === 0 || a.h === 0) return a.x >= b.x && a.x < b.x + b.w && a.y >= b.y && a.y < b.y + b.h;
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

/**
 * Places a node on the screen. Offscreen is decided from geometry against the visible area, not from
 * the SHOWING state: GTK4 never sets SHOWING, so trusting it would hide every GTK4 control.
 */
function place(raw: AtspiRawNode, context: RawTreeContext, parent: Placement, states: Set<string>, visibility: Visibility, covered: boolean, nested: boolean): Placement {
  const placed = placeInWindow(raw, context, parent, states, visibility, covered);
  if (nested && raw.role === ATSPI_ROLE.FRAME && placed.bounds && endsBeforeArea(placed.bounds, context.visibleArea)) return { offscreen: true, undrawn: true };
  const away = parent.scrolledAway || raw.scrolledAway ? { ...placed, offscreen: true, scrolledAway: true } : placed;
  // Copied only where folded: a copy of every node's placement (a spread of objects of varying keys) made the
  // conversion's reads and writes of it slow enough to cost a 1,967-node window 9 ms a reading.
  return states.has('STATE_EXPANDABLE') && !states.has('STATE_EXPANDED') ? { ...away, collapsed: true } : away;
}

/**
 * A box that ends above and left of the window's area, wholly: a window inside the window placed so (a frame under
 * the window's own) is drawn nowhere in it. Qt moves a dock widget tabbed behind another out of its main window's way,
 * up and left of it, and leaves it VISIBLE and SHOWING: DB Browser for SQLite's SQL Log, Plot and Remote docks, one
 * shown, read as the others' buttons at -468,-548 and "# 99 more items — scroll up to see", which no scroll brings in;
 * their tabs show them. A popup opens beside its opener, never wholly above and left of its window.
 */
function endsBeforeArea(box: CupRect, area: CupRect): boolean {
  return box.x + box.w <= area.x && box.y + box.h <= area.y;
}

function placeInWindow(raw: AtspiRawNode, context: RawTreeContext, parent: Placement, states: Set<string>, visibility: Visibility, covered: boolean): Placement {
  const visibilityReported = visibility.visible || visibility.showing;
  const extents = raw.extents;
  const showing = states.has('STATE_SHOWING');
  if (parent.covered || covered) return { offscreen: true, undrawn: true, covered: true };
  // Inside something not drawn, or neither showing nor visible itself, in a toolkit that reports both: it is
  // drawn nowhere, whatever extents it keeps (Qt leaves a closed menu's items at 0,0 + their offset, Blink a
  // closed drop-down's chosen option, marked showing, on the drop-down): a click there would hit something else.
  if (parent.undrawn || (visibilityReported && !showing && !states.has('STATE_VISIBLE'))) return { offscreen: true, undrawn: true };
  // Nor is what a collapsed control holds and does not show, where the toolkit reports SHOWING: GTK3's expander keeps
  // its fields VISIBLE, unplaced, while folded up (File Roller's "Other Options"), and they read offscreen, as if a
  // scroll would bring them, and expanding it told them among "14 moved", not shown.
  if (parent.collapsed && visibility.showing && !showing) return { offscreen: true, undrawn: true };
  const placedNowhere = raw.positionUnknown || (extents && (unknownCoordinate(extents.x) || unknownCoordinate(extents.y)));
  const hiddenThere = context.viewsKeepHiddenCells === true && (parent.nowhere || (placedNowhere && visibility.showing && !showing));
  if (placedNowhere || hiddenThere) return { offscreen: true, undrawn: false, ...(hiddenThere ? { nowhere: true as const } : {}) };
  // Qt reports an empty box at the origin for what is not shown (closed popup menus): no position, not a place.
  if (extents && extents.x === 0 && extents.y === 0 && extents.w === 0 && extents.h === 0 && !showing) return { offscreen: true, undrawn: false };
  // A negative size is no size at all: GTK3 reports -1,-1 -1x-1 for the page of a notebook whose tabs are
  // hidden, although the page and everything in it is on screen. The place is unknown, not "above the view". Not
  // showing as well, where the toolkit reports SHOWING, it is drawn nowhere: Gecko gives a closed drop-down's options
  // (a page's <select>, pdf.js's zoom) -1,-1 -1x-1 and no SHOWING, and the compact view listed them all.
  if (!extents || extents.w < 0 || extents.h < 0) return { offscreen: parent.offscreen || (visibility.showing && !showing), undrawn: false, sizeless: extents !== undefined };
  const scale = context.extentsScale ?? 1;
  const bounds: CupRect = {
    x: Math.round(extents.x * scale) + context.extentsOrigin.x,
    y: Math.round(extents.y * scale) + context.extentsOrigin.y,
    w: Math.round(Math.max(0, extents.w) * scale),
    h: Math.round(Math.max(0, extents.h) * scale),
  };
  // A menu bar lays its menus out inside itself, so one drawn at no height or width shows none of them, whatever boxes
  // they keep: LibreOffice keeps its own menu bar, 0 pixels high, under the GTK one it shows, and its eleven menus
  // read as a second File ... Help over the toolbar, where a click went to the toolbar.
  if (raw.role === ATSPI_ROLE.MENU_BAR && (bounds.w === 0 || bounds.h === 0)) return { bounds, offscreen: true, undrawn: true };
  const inView = intersects(bounds, parent.view ?? context.visibleArea);
  // Nor is what is not showing in the view, inside something of no size, where its process reports SHOWING: Firefox
  // collapses its menu bar to no size (it shows on Alt) and leaves the menus in it VISIBLE at their old places, over
  // the tab strip, where a click on "File" went to a tab. GTK3's page of a notebook whose tabs are hidden has no size
  // either, and everything in it shows by its own SHOWING; what a scroll pane clips is out of the view, offscreen.
  if (parent.sizeless && visibility.showing && !showing && inView) return { offscreen: true, undrawn: true };
  return { bounds, offscreen: !inView, undrawn: false };
}

/**
 * Children that are pages stacked behind a shown sibling: in the same place as a sibling that is SHOWING,
 * while not showing themselves (Firefox keeps every tab's document in the tree, the background ones
 * visible but not showing, all in the same box). Only toolkits that report SHOWING at all are judged.
 */
function coveredPages(children: readonly AtspiRawNode[], visibilityReported: boolean): Set<AtspiRawNode> {
  const covered = new Set<AtspiRawNode>();
  if (!visibilityReported || children.length < 2) return covered;
  const box = (node: AtspiRawNode) => (node.extents && node.extents.w > 0 && node.extents.h > 0 ? `${node.extents.x},${node.extents.y},${node.extents.w},${node.extents.h}` : undefined);
  const shownBoxes = new Set(children.filter((child) => decodeStateSet(child.states).has('STATE_SHOWING')).map(box).filter((key) => key !== undefined));
  for (const child of children) {
    const key = box(child);
    if (key && shownBoxes.has(key) && !decodeStateSet(child.states).has('STATE_SHOWING')) covered.add(child);
  }
  return covered;
}

function cupStates(raw: Set<string>, atspiRole: string, role: CupRole, offscreen: boolean, isText: boolean): CupState[] {
  const present = new Set<CupState>();
  for (const state of raw) {
    const cup = cupStateOf(state, atspiRole, role);
    if (cup) present.add(cup);
  }
  if (raw.has('STATE_EXPANDABLE') && !raw.has('STATE_EXPANDED')) present.add('collapsed');
  // GTK4 sets SENSITIVE but never ENABLED; only an object with neither is disabled.
  if (!raw.has('STATE_ENABLED') && !raw.has('STATE_SENSITIVE')) present.add('disabled');
  const readOnly = raw.has('STATE_READ_ONLY') || (isText && textValueRoles.has(role) && role !== 'combobox' && !raw.has('STATE_EDITABLE'));
  if (raw.has('STATE_EDITABLE') && !readOnly) present.add('editable');
  if (readOnly) present.add('readonly');
  if (!raw.has('STATE_VISIBLE')) present.add('hidden');
  if (offscreen) present.add('offscreen');
  return stateOrder.filter((state) => present.has(state));
}

/**
 * A count ARIA gives a table in its attributes (browsers' rowcount and colcount, from aria-rowcount: a virtualised grid
 * holds only some of its rows); -1, "unknown", is none.
 */
function ariaCount(value: string | undefined): number | undefined {
  const count = Number(value);
  return value !== undefined && Number.isInteger(count) && count >= 0 ? count : undefined;
}

/** The row a table row lies in: its cells' row, when they all say the same (browsers place cells, not rows). */
function rowOfCells(raw: AtspiRawNode): number | undefined {
  const rows = new Set(raw.children.flatMap((child) => (child.cellPosition ? [child.cellPosition.row] : [])));
  return rows.size === 1 ? [...rows][0] : undefined;
}

function cupAttributes(raw: AtspiRawNode, states: Set<string>, role: CupRole, setPlace: SetPlace | undefined): CupAttributes | undefined {
  const attributes: CupAttributes = {};
  if (raw.cellPosition) {
    attributes.rowIndex = raw.cellPosition.row;
    attributes.colIndex = raw.cellPosition.column;
  } else if (raw.role === ATSPI_ROLE.TABLE_ROW) {
    const row = rowOfCells(raw);
    if (row !== undefined) attributes.rowIndex = row;
  }
  const rowCount = ariaCount(raw.attributes?.rowcount) ?? raw.tableSize?.rows;
  const colCount = ariaCount(raw.attributes?.colcount) ?? raw.tableSize?.columns;
  if (raw.tableSize && rowCount !== undefined) attributes.rowCount = rowCount;
  if (raw.tableSize && colCount !== undefined) attributes.colCount = colCount;
  if (setPlace) {
    attributes.posInSet = setPlace.posInSet;
    attributes.setSize = setPlace.setSize;
  }
  const level = Number(raw.attributes?.level);
  if (Number.isInteger(level) && level >= 1) attributes.level = level;
  const placeholder = raw.attributes?.['placeholder-text'];
  if (placeholder) attributes.placeholder = placeholder;
  if (orientedRoles.has(role)) {
    if (states.has('STATE_HORIZONTAL')) attributes.orientation = 'horizontal';
    else if (states.has('STATE_VERTICAL')) attributes.orientation = 'vertical';
  }
  if (raw.value && valueRoles.has(role) && !(role === 'spinbutton' && textOnlyValue(raw.value, raw.text) !== undefined)) {
    attributes.valueMin = raw.value.min;
    attributes.valueMax = raw.value.max;
    const held = heldNumber(raw, role);
    if (held !== undefined) attributes.valueNow = held;
  }
  // A sortable table's header says how it sorts (aria-sort): a page's grid sorted by Total read no word of it.
  const sort = raw.attributes?.sort;
  if ((role === 'columnheader' || role === 'rowheader') && (sort === 'ascending' || sort === 'descending' || sort === 'other')) attributes.sort = sort;
  // A field whose value the page rejects (aria-invalid after a failed submit, or its own constraint check): a signup
  // form's email field read `{edt,req}` before and after the page marked it, no word of the error it was in. Not on a
  // form, which Gecko marks invalid while any of its fields is: its fields say which.
  if (states.has('STATE_INVALID_ENTRY') && role !== 'form') {
    attributes.invalid = true;
    if (raw.errorMessage) attributes.errorMessage = normaliseWhitespace(raw.errorMessage);
  }
  const live = livePoliteness(raw.attributes);
  if (live) attributes.live = live;
  const shortcut = raw.keyBinding === undefined ? undefined : keyBindingShortcut(raw.keyBinding);
  if (shortcut) attributes.keyShortcut = shortcut;
  return Object.keys(attributes).length > 0 ? attributes : undefined;
}

/** The politeness ARIA gives a live region's role when the page sets none (WAI-ARIA 1.2's implicit aria-live). */
const implicitLive: Readonly<Record<string, CupAttributes['live']>> = { alert: 'assertive', status: 'polite', log: 'polite', timer: 'off', marquee: 'off' };

/**
 * A live region's politeness: the page's aria-live as the browser reports it (the region's own `live`; its
 * descendants carry `container-live`, and are not regions themselves), else what its role implies. Gecko reports no
 * `live` for role=alert, which Blink reports assertive: a page's alert read alike in both only by its role.
 */
function livePoliteness(attributes: Readonly<Record<string, string>> | undefined): CupAttributes['live'] | undefined {
  const own = attributes?.live;
  if (own === 'polite' || own === 'assertive' || own === 'off') return own;
  const role = attributes?.['xml-roles']?.split(' ')[0];
  return role === undefined ? undefined : implicitLive[role];
}

/**
 * The number a range control holds, if any. A value outside its own range is none: an empty part of Blink's date or
 * time field (month, day, hour) reports 0 against a range of 1..12. Without a range (its ends unset or equal) a spin
 * button's text, when it has one, is what it holds: Gecko's date parts report 0 whatever they show ("12", or "mm"
 * when empty), and an empty number field 0.
 */
function heldNumber(raw: Pick<AtspiRawNode, 'value' | 'text' | 'states' | 'attributes'>, role: CupRole): number | undefined {
  const value = raw.value!;
  if (hasRange(value)) return outsideOwnRange(value) || emptyDatePart(raw) ? undefined : value.current;
  const shown = raw.text?.trim();
  // A spin button that shows no text and takes none (Blink's ARIA spin button: its words are hidden) holds its Value.
  if (role !== 'spinbutton' || shown === undefined || (shown === '' && !decodeStateSet(raw.states).has('STATE_EDITABLE'))) return value.current;
  return /^[-+]?\d+(\.\d+)?$/.test(shown) ? Number(shown) : undefined;
}

/**
 * An empty part of Blink's date or time field whose range holds the number it reports: an empty minutes part reports
 * 0 of 0..59, and read as holding 0. Blink's parts carry a placeholder ("--", "mm") and write what they show, padded
 * to its width ("00", "05"), as their value text; an empty part's value text is the bare number, shorter than it.
 */
function emptyDatePart(raw: Pick<AtspiRawNode, 'attributes'>): boolean {
  const placeholder = raw.attributes?.placeholder;
  const written = raw.attributes?.valuetext;
  return placeholder !== undefined && written !== undefined && [...written].length < [...placeholder].length;
}

/** A range control's value outside a range it has: no value (an empty part of Blink's date field reports 0 against 1..12). */
export function outsideOwnRange(value: ValueRange): boolean {
  return hasRange(value) && (value.current < value.min || value.current > value.max);
}

const namedBlockRoles: ReadonlySet<string> = new Set(NAMED_BLOCK_ATSPI_ROLES);

/**
 * The words a range control writes for its number, when its value text has no number in it. A control whose value text
 * writes words shows those words: the AM/PM part of Blink's time field holds Value 1 of 1..2 and writes "AM", and read
 * val="1" (as an ARIA slider's aria-valuetext "Medium" would read its number).
 */
export function valueWords(attributes: Readonly<Record<string, string>> | undefined, value: ValueRange): string | undefined {
  const words = attributes?.valuetext?.trim();
  return words && !/\d/.test(words) && !outsideOwnRange(value) ? words : undefined;
}

/**
 * The value a range control of this role shows, as the tree writes it, from its Value, its text, its states and its
 * value text: an
 * action's evidence tells a value change by it, so it says what the tree then shows (Gecko's date parts announce a
 * Value of 0 while they show "05").
 */
export function shownNumber(raw: Pick<AtspiRawNode, 'value' | 'text' | 'states' | 'attributes'> & { value: ValueRange }, role: CupRole): string | undefined {
  const words = valueWords(raw.attributes, raw.value);
  if (words) return words;
  const held = heldNumber(raw, role);
  return held === undefined ? undefined : treeNumber(held);
}

function cupValue(raw: AtspiRawNode, role: CupRole): string | undefined {
  if (raw.value && valueRoles.has(role)) return shownNumber({ ...raw, value: raw.value }, role) ?? (role === 'spinbutton' ? textOnlyValue(raw.value, raw.text) : undefined);
  const placed = role === 'combobox' ? placedChoice(raw) : undefined;
  if (placed !== undefined) return placed;
  if (raw.text !== undefined && textValueRoles.has(role)) return raw.text;
  // A spreadsheet names a cell by its place ("B2"); what it holds is its text.
  if (raw.text && role === 'cell' && raw.text !== raw.name) return raw.text;
  // A block or live region named apart from its words (a page's aria-labelled log): the words are what it shows.
  if (raw.text && raw.name && raw.children.length === 0 && namedBlockRoles.has(atspiRoleName(raw.role))) {
    const words = normaliseWhitespace(withoutWordlessCharacters(raw.text.replaceAll(OBJECT_REPLACEMENT, ' ')));
    if (words && words !== normaliseWhitespace(raw.name)) return firstCodePoints(words, maxNameLength);
  }
  if (raw.selectedName !== undefined && role === 'combobox') return raw.selectedName;
  if (raw.uri && role === 'link') return raw.uri;
  return undefined;
}

const wordsAroundChildrenRoles: ReadonlySet<string> = new Set(WORDS_AROUND_CHILDREN_ATSPI_ROLES);

/**
 * The words a container writes between the objects it holds (WORDS_AROUND_CHILDREN_ATSPI_ROLES), when they name it
 * not: Firefox's nav "Pagination" read its Previous and Next buttons and not "Page 1 of 3", its dialog "Delete
 * file?" not "This cannot be undone.". Only Gecko's shape, where every child is a U+FFFC of the text: Blink gives
 * such words static text children of their own, which show them.
 */
function wordsAroundChildren(raw: AtspiRawNode): string | undefined {
  if (!raw.text || raw.children.length === 0 || !wordsAroundChildrenRoles.has(atspiRoleName(raw.role))) return undefined;
  // An unnamed block is named by these words (contentName).
  if (!raw.name && contentNamedRoles.has(atspiRoleName(raw.role))) return undefined;
  const offsets = objectReplacementOffsets(raw.text);
  if (offsets.length !== raw.children.length || raw.text.replaceAll(OBJECT_REPLACEMENT, '').trim() === '') return undefined;
  // The child that names it (a fieldset's legend, an inline label) is its name, not its words: "PlanYou pay monthly.".
  const name = normaliseWhitespace(raw.name);
  const inline = new Map(offsets.map((offset, index) => [offset, normaliseWhitespace(raw.children[index]!.name) === name ? ' ' : inlineWords(raw.children[index]!)]));
  const words = normaliseWhitespace(withoutWordlessCharacters(spliceEmbeddedText(raw.text, inline)));
  return words && words !== name ? firstCodePoints(words, maxNameLength) : undefined;
}

const choiceRoles: ReadonlySet<string> = new Set(['ROLE_MENU_ITEM', 'ROLE_LIST_ITEM', 'ROLE_CHECK_MENU_ITEM', 'ROLE_RADIO_MENU_ITEM']);
/** What groups a drop-down's choices under a heading inside its popup (an <optgroup>). */
const groupRoles: ReadonlySet<string> = new Set(['ROLE_PANEL', 'ROLE_GROUPING']);

/**
 * A drop-down's choices read with it, by level: its own children, its popup's, and those of the groups in its popup.
 * A page's <optgroup>s are panels in the popup, holding the choices: a <select> of sizes grouped "Small" and "Large"
 * read with no value in Firefox, which marks the choice selected there only.
 */
function choiceLevels(raw: AtspiRawNode): AtspiRawNode[][] {
  const below = raw.children.flatMap((child) => child.children);
  const grouped = below.filter((node) => groupRoles.has(atspiRoleName(node.role))).flatMap((group) => group.children);
  return [raw.children, below, grouped].map((level) => level.filter((node) => choiceRoles.has(atspiRoleName(node.role))));
}

/**
 * A drop-down that is no field says its choice by its place among its choices, where it gives one (choiceAtPlace):
 * Blink's text for its <select> is its popup's, which keeps the choice before one made in another <optgroup>.
 */
function placedChoice(raw: AtspiRawNode): string | undefined {
  if (raw.attributes?.posinset === undefined || decodeStateSet(raw.states).has('STATE_EDITABLE')) return undefined;
  const placed = choiceAtPlace(raw.attributes, choiceLevels(raw).flat());
  return placed && normaliseWhitespace(placed.name);
}

/**
 * A drop-down without text or Selection of its own shows, when its name is one of its choices, that choice (Qt
 * names a combo box by the text it shows, and its closed popup's "selected" item is only the last one toggled
 * there, which the combo box has not taken); else, when it has no Selection to ask, the choice its popup marks
 * selected (Gecko's <select>, named by its label): the first selected item among its children and their children.
 */
function selectedChoice(raw: AtspiRawNode): string | undefined {
  const levels = choiceLevels(raw);
  const own = normaliseWhitespace(raw.name);
  if (own && levels.flat().some((node) => normaliseWhitespace(node.name) === own)) return own;
  // A combo box with Selection of its own says there what it holds (tree-reader's selectedName): with nothing
  // selected it holds nothing, whatever item its open popup highlights (GTK3 selects the item under the pointer).
  if (raw.interfaces.includes('Selection')) return undefined;
  // A combo box that takes typing shows what its field holds (valueFromField), not the item its closed list marks: Qt
  // marks there the last item toggled through accessibility, which the combo box did not take, and keeps it marked
  // whatever the field comes to hold: qpdfview's zoom box, after a set_value of "200 %" refused as not taken and a
  // Zoom in, showed "110 %" and read "200 %".
  if (raw.children.some((child) => (child.role === ATSPI_ROLE.TEXT || child.role === ATSPI_ROLE.ENTRY) && decodeStateSet(child.states).has('STATE_EDITABLE'))) return undefined;
  for (const level of levels) {
    const chosen = level.find((node) => decodeStateSet(node.states).has('STATE_SELECTED'));
    if (chosen) return normaliseWhitespace(chosen.name);
  }
  return undefined;
}

/**
 * A combo box a label points at is named by that label: Qt and GTK3 name a combo box by its value ("When minimized"
 * beside the label "Show media change popup:", "line" once typed into Kate's Find box), so no selector by its label
 * found it, and its name changed with every choice. GTK3's name is the first text column of its active row, which is
 * not even what it shows when the model keeps a code or an icon name there ("de" for a box showing German, beside
 * "Language:"). The label names it, as a labelled-by relation comes before a control's own name (W3C accname); the
 * value stays its value.
 */
function comboNamedByLabel(raw: AtspiRawNode, role: CupRole, value: string | undefined): boolean {
  if (role !== 'combobox' || value === undefined || raw.labelledBy === undefined) return false;
  const label = normaliseWhitespace(raw.labelledBy);
  const name = normaliseWhitespace(raw.name);
  // A label that holds the control reads its choice into its own text (a page's <label>Colour <select>, whose label
  // Gecko reads "Colour Red"): a name that is the label's words before the choice is the label's already.
  const labelWords = label.split(' ');
  const labelled = name !== '' && name.split(' ').every((word, i) => labelWords[i] === word);
  return label !== '' && label !== value && name !== label && !labelled;
}

/**
 * A button that shows a value and has a label pointing at it that asks for one is named by that label, its own name
 * being its value: GTK names a font button by the font it shows, and Pluma's "Editor font:" points at its font button
 * (labelled-by). labelsByPlace named it so only while its notebook page was shown, so the tab's click read `btn name:
 * "Monospace Regular" → "Editor font:"` in the diff, and a selector by the label found nothing on the page not shown.
 * The relation is certain where the place is not: the label names it wherever it is. As mayShowValue's: a button
 * holding no object of its own, a label ending in a colon, and a name ending in no ellipsis ("Browse…" says what the
 * button does).
 */
function valueButtonNamedByLabel(raw: AtspiRawNode, role: CupRole, value: string | undefined): boolean {
  if (role !== 'button' || value !== undefined || raw.labelledBy === undefined || raw.children.length > 0) return false;
  const label = normaliseWhitespace(raw.labelledBy);
  const name = normaliseWhitespace(raw.name);
  return name !== '' && label !== name && /:$/u.test(label) && !/(?:…|\.\.\.)$/u.test(name);
}

/**
 * The title of the list item an unnamed control is all of (its row's labelled-by, read as rowLabel): libhandy's
 * preferences rows (GNOME System Monitor's "Update Interval in Seconds", "Show Memory in IEC") hold one spin button or
 * switch and draw their title in a label no object lists, so the controls read as an unnamed spin button and four
 * unnamed switches under unnamed list items. Of a row holding more, the title names the row, not any one of them.
 */
function rowTitle(raw: AtspiRawNode, parent: AtspiRawNode | undefined): string {
  return raw.rowLabel !== undefined && parent?.children.length === 1 ? normaliseWhitespace(raw.rowLabel) : '';
}

/**
 * The name of an unnamed toggle button that stands for a combo box kept unshown beside it: LibreOffice's gtk3 combo
 * boxes draw their face as a toggle button next to a GtkComboBox that never shows, which alone carries the label
 * ("Background:" in Impress's sidebar, by labelled-by) or the description ("Filter by Category"). The compact view
 * showed six unnamed buttons in a row of labelled drop-downs, and none could be told apart. Named as the combo box
 * is: its label, else its description. Empty when the button is no such face.
 */
function hiddenComboName(raw: AtspiRawNode, parent: AtspiRawNode | undefined): string {
  if (raw.role !== ATSPI_ROLE.TOGGLE_BUTTON || raw.name || !parent) return '';
  const combos = parent.children.filter((sibling) => sibling.role === ATSPI_ROLE.COMBO_BOX);
  if (combos.length !== 1) return '';
  const combo = combos[0]!;
  if (decodeStateSet(combo.states).has('STATE_SHOWING')) return '';
  return normaliseWhitespace(combo.labelledBy ?? '') || plainText(combo.description);
}

/** An unnamed item's own text as its name; U+FFFC marks an embedded object, whose words are its own or, inline, the item's too (wordsWithInlineObjects). */
function contentName(raw: AtspiRawNode, atspiRole: string): string {
  if (raw.text === undefined || !contentNamedRoles.has(atspiRole)) return '';
  // Blink also exposes a block's words as static text children: those carry them, the block need not repeat them.
  // Not those scrolled out of view (a block at the view's edge): a reading of what is in view leaves them out, and
  // the block's own words must name it alike in both readings. A static child the block's text embeds as an object
  // (U+FFFC: Gecko's <strong> and <em>) is no such child: a paragraph "Welcome to the <strong>Widget</strong> manual.
  // See <a>Installation</a>" read `txt "Widget"` and its links, its other words in no node.
  if (raw.children.some((child) => !child.scrolledAway && textChildRoles.has(atspiRoleName(child.role))) && objectReplacementOffsets(raw.text).length < raw.children.length) return '';
  return firstCodePoints(normaliseWhitespace(withoutWordlessCharacters(wordsWithInlineObjects(raw, raw.text))), maxNameLength);
}

const dialogRoles: ReadonlySet<CupRole> = new Set(['dialog', 'alertdialog']);

/** The name of the first heading a dialog shows, not one of a dialog inside it nor one hidden. */
function titleHeading(dialog: CupNode): string | undefined {
  for (const child of dialog.children ?? []) {
    if (dialogRoles.has(child.role) || child.states?.includes('hidden')) continue;
    if (child.role === 'heading' && child.name) return child.name;
    const inside = titleHeading(child);
    if (inside) return inside;
  }
  return undefined;
}

/**
 * Roles of what a web engine embeds in a block's words as part of its sentence: a link, Gecko's <strong>, <em> and
 * <code>, a superscript, a highlight. Any other embedded object (a paragraph, a list, a landmark, a field) is no word
 * of the block's.
 */
const inlineRoles: ReadonlySet<string> = new Set(['ROLE_LINK', 'ROLE_STATIC', 'ROLE_LABEL', 'ROLE_SUBSCRIPT', 'ROLE_SUPERSCRIPT', 'ROLE_MARK', 'ROLE_CONTENT_DELETION', 'ROLE_CONTENT_INSERTION']);

/**
 * A block's text with the words of the inline objects it embeds in place of their U+FFFC: Gecko embeds every child
 * object in its parent's text, and a Sphinx page's footer "Built with <a>Sphinx</a> using a <a>theme</a> provided by
 * <a>Read the Docs</a>." read `rgn "Built with using a provided by ."`, a Jupyter notebook's "Some <em>text</em>."
 * `txt "Some ."`. The objects are matched to the U+FFFCs in order only where there are as many of each (Gecko's
 * block); a block with no words of its own between them (a wrapper around a link) takes none of theirs.
 */
function wordsWithInlineObjects(raw: AtspiRawNode, text: string): string {
  const offsets = objectReplacementOffsets(text);
  if (offsets.length === 0) return text;
  if (offsets.length !== raw.children.length || text.replaceAll(OBJECT_REPLACEMENT, '').trim() === '') return text.replaceAll(OBJECT_REPLACEMENT, ' ');
  const words = new Map(offsets.map((offset, index) => [offset, inlineWords(raw.children[index]!)]));
  return spliceEmbeddedText(text, words);
}

/** The words an embedded object adds to its block's sentence (wordsWithInlineObjects): a space for one that is no part of it. */
function inlineWords(child: AtspiRawNode): string {
  if (!inlineRoles.has(atspiRoleName(child.role))) return ' ';
  const named = normaliseWhitespace(withoutWordlessCharacters(child.name));
  return named || (child.text === undefined ? '' : wordsWithInlineObjects(child, child.text));
}

const textChildRoles: ReadonlySet<string> = new Set(['ROLE_STATIC', 'ROLE_LABEL', 'ROLE_TEXT']);
const blockRoles: ReadonlySet<string> = new Set(['ROLE_SECTION', 'ROLE_PARAGRAPH']);

/** On screen with an area of its own: bounds of real size that are not off the visible area. */
function hasRealPlace(node: CupNode): boolean {
  return node.bounds !== undefined && node.bounds.w > 0 && node.bounds.h > 0 && !node.states?.includes('offscreen');
}

/**
 * The narrowest side, in pixels, of a drawn surface that can show something to read: a thinner drawing area is a grip
 * or a rule. LibreOffice's sidebar deck has a 4x16 drawing area as the grip of its title, and every reading of
 * Impress, Draw, Writer and Calc with the sidebar said "a surface the app draws itself ([e113] 4x16 ...): no element
 * holds what it shows; read it in the screenshot".
 */
const minSurfaceSide = 8;

/** Large enough to show something (minSurfaceSide). */
function roomToShow(node: CupNode): boolean {
  return node.bounds !== undefined && node.bounds.w >= minSurfaceSide && node.bounds.h >= minSurfaceSide;
}

/** The node or something inside it is on screen (children are converted first, so this is read bottom-up). */
function shownOnScreen(node: CupNode): boolean {
  return hasRealPlace(node) || (node.children ?? []).some(shownOnScreen);
}

/** Roles ATK gives a chooser dialog's parts as well as the chooser itself (see chooserPart). */
const chooserPartRoles: ReadonlySet<string> = new Set(['ROLE_COLOR_CHOOSER', 'ROLE_FONT_CHOOSER']);

/** Objects whose children pop up in a surface of their own (a menu's items, a combo box's list). */
/** The roles of a window's own object, which its title names when the toolkit does not. */
const windowRoles: ReadonlySet<string> = new Set(['ROLE_FRAME', 'ROLE_DIALOG', 'ROLE_WINDOW', 'ROLE_ALERT', 'ROLE_FILE_CHOOSER']);
const popupHolderRoles: ReadonlySet<string> = new Set(['ROLE_MENU', 'ROLE_POPUP_MENU', 'ROLE_COMBO_BOX', 'ROLE_WINDOW']);

/** Fields a form labels with a text beside or above them: unnamed, they are named by it (labelsByPlace). */
const placeLabelledRoles: ReadonlySet<CupRole> = new Set(['textbox', 'searchbox', 'combobox', 'slider', 'spinbutton']);
/**
 * Boxes a form labels with a text beside them only (Qt's form layouts put "Show tab indicators:" left of a check box
 * with no text of its own): a text above a check box heads a group of them, and names none.
 */
const rowLabelledRoles: ReadonlySet<CupRole> = new Set(['checkbox', 'switch']);
/**
 * A button that draws no text or child of its own, labelled by the text left of it on its row. A switch GTK3 reports
 * as a toggle button (GtkSwitch): a settings list's row puts its label left of it ("Row 1 ....... [switch]"), and it
 * read as an unnamed button. A colour button (GtkColorButton, which wxGTK's colour picker is too) shows only its
 * swatch: xfce4-dict's Preferences put four right of "Links:", "Phonetics:" and the like, read as four unnamed buttons.
 * Only unnamed ones are named so (labelsByPlace): a button described by a tool tip is named by it already.
 */
function isBareButton(node: CupNode): boolean {
  // A menu the button pops up (focus-outside-tree.ts adds it under the button) is drawn apart from it: the button
  // draws its name still. Gnumeric's Format Cells "Style:" button, read with its menu open, lost its name to "Regular".
  // So do the labels of a button the toolkit names not, whose name they are (namedByContent): GTK 2 lists a font
  // button's "Sans" and "10", and LXAppearance's "Default font:" row read `btn "Sans 10"`.
  const drawn = (child: CupNode) => child.role === 'menu' || (namedByContent.has(node) && child.role === 'text' && !child.children?.length && !child.actions?.length);
  return node.role === 'button' && (node.children ?? []).every(drawn);
}
/**
 * A button that shows a value the row's label asks for, and is named by it: GTK names a font button (wxGTK's font
 * picker is one too) by the font it shows, so Poedit's "Use custom text font:" and "Use custom UI font:" rows read two
 * buttons named "Sans Regular" that no selector could tell apart. A named bare button right of a text or check box
 * ending in a colon (which asks for a value, as introducesField's do) is such a one; a name ending in an ellipsis says
 * what the button does ("Browse…", "Choose…") and is kept. The name it had is its value (labelsByPlace).
 */
function mayShowValue(node: CupNode): boolean {
  return isBareButton(node) && node.name !== '' && node.value === undefined && !/(?:…|\.\.\.)$/u.test(node.name.trim()) && !isHelpButton(node) && !buttonsNamedByToolTip.has(node);
}
/**
 * Whether another named bare button stands right of the button on its row: a label before a row of buttons asks what
 * to do, each button naming one choice in its own words (Kid3's "From: [Tag 1] [Tag 2]", which fill the file name
 * from one tag or the other), and shows no value. Taken for a font button's, the first read `btn "From:" val="Tag 1"`
 * and name="Tag 1" found only the second row's.
 */
function inRowOfButtons(button: CupNode, siblings: readonly CupNode[]): boolean {
  const box = button.bounds;
  if (!box) return false;
  const middle = box.y + box.h / 2;
  return siblings.some((other) => other !== button && isBareButton(other) && other.name !== '' && other.bounds !== undefined && other.bounds.x >= box.x + box.w - 2 &&
    other.bounds.y <= middle && middle <= other.bounds.y + other.bounds.h);
}

/**
 * The one field a scroll pane shows, unnamed: a multi-line text box (a GtkTextView in its scrolled window, wxGTK's
 * multi-line text control) beside the pane's bars. The label over or beside the pane names it as it would the field
 * itself: Poedit's "Source text" and "Translation" stand over their panes, and read as two unnamed text boxes.
 */
function paneField(node: CupNode): CupNode | undefined {
  if (node.role !== 'group' || node.name !== '' || !node.actions?.includes('scroll')) return undefined;
  const held = (node.children ?? []).filter((child) => child.role !== 'scrollbar');
  return held.length === 1 && held[0]!.role === 'textbox' && held[0]!.name === '' ? held[0] : undefined;
}
/**
 * Buttons named by their tool tip, which says what they do, never a value they show (mayShowValue): GTK 4 names the
 * delete button of a Clocks alarm's row by its tool tip "Delete" alone, in a box of its own with the alarm's "Active"
 * switch, and it read `btn "Active" val="Delete"`.
 */
const buttonsNamedByToolTip = new WeakSet<CupNode>();
/** Nodes the toolkit gave no name, named by the words of what they hold (nameFromContent). */
const namedByContent = new WeakSet<CupNode>();
/** Controls named by labelsByPlace: the label beside them is no content of what holds them (nameFromContent). */
const namedByPlace = new WeakSet<CupNode>();
/**
 * Nodes named by their tool tip, accname's last resort: a label on their row names them before it (labelsByPlace).
 * qBittorrent's port field read `spn "Set to 0 to let your system pick an unused port"` beside "Port used for incoming
 * connections:", and its log folder's field by the folder its tool tip shows.
 */
const namedByToolTip = new WeakSet<CupNode>();
/**
 * The fields a label on their row names before their tool tip: those that take a value. A button's tool tip says what
 * it does ("Choose font..."), where the text beside it is what it acts on (KCalc's font preview, "Sans Serif 9").
 */
const labelledFieldRoles = new Set<CupRole>(['combobox', 'textbox', 'searchbox', 'slider', 'spinbutton']);
/** How far a label may lie from its field: left of it on its row, or above it, in pixels. */
const labelGapLeft = 160;
const labelGapAbove = 24;

/**
 * Names unnamed fields after the text that labels them on screen, where the app ties no label to them (zenity's
 * forms and scale put a label beside or above each field with no labelled-by relation, so its name fields were
 * four unnamed text boxes): a sibling text (or a box holding only one) on the field's row ending left of it with no
 * control between, the nearest, else one just above it that overlaps it across; or a check box that introduces it
 * (introducesField). What screen readers do for such fields (Orca's label inference), kept to siblings and to the
 * first field of an unnamed box beside them (leadingField).
 */
function labelsByPlace(children: readonly CupNode[], namesEditableCombosByText: boolean): void {
  // Placed, though perhaps scrolled out of view: a row below a scroll area's view keeps its label beside it.
  const shown = (node: CupNode) => node.bounds !== undefined && node.bounds.w > 0 && node.bounds.h > 0 && !node.states?.includes('hidden');
  const labels = children.map(labelIn).filter((label) => label !== undefined && shown(label)) as CupNode[];
  const introducers = children.filter((child) => (introducesField(child) || switchesLoneField(child, children)) && shown(child));
  if (labels.length === 0 && introducers.length === 0) return;
  const controls = children.filter((child) => (child.actions?.length ?? 0) > 0 && shown(child));
  const leadingIn = new Map(children.flatMap((child) => leadingField(child).map((field) => [field, child] as const)));
  const leading = new Set(leadingIn.keys());
  for (const field of [...children, ...leading]) {
    // A scroll pane is placed where the text box it shows is (whose own box GTK3 may not give): it is labelled so.
    const named = paneField(field) ?? field;
    // A combo box named by its choice (its name is its value) is unlabelled too: a label beside it names it. So is one
    // that takes typing where the toolkit names it by its text while it holds any (nameEditableComboByLabel), unless a
    // label points at it: KeePassXC's "Username field" was renamed "Username:" by the first letter typed into it.
    const namedByText = field.name === field.value || (namesEditableCombosByText && comboField(field) !== undefined && !namedByRelation.has(field));
    const showsValue = mayShowValue(field) && !inRowOfButtons(field, children);
    const unnamed = named.name === '' || namedByToolTip.has(named) || (field.role === 'combobox' && namedByText) || showsValue;
    // A box's first field is labelled from its row only: a text above the box (a frame's title) heads all it holds.
    const onRowOnly = rowLabelledRoles.has(field.role) || isBareButton(field) || leading.has(field);
    if (!unnamed || !(placeLabelledRoles.has(named.role) || onRowOnly) || !shown(field)) continue;
    const box = field.bounds!;
    const middle = box.y + box.h / 2;
    const gapLeft = (label: CupNode) => box.x - (label.bounds!.x + label.bounds!.w);
    const gapAbove = (label: CupNode) => box.y - (label.bounds!.y + label.bounds!.h);
    // A label labels the first field right of it: one with another control between (Inkscape's "Format: [A4] [mm]") does
    // not. One small button of its own name between is the label's help, and the label names the field past it
    // (KeePassXC's "Key File:", a 15 px "Key file help" button, then the key file's field).
    const between = (label: CupNode) => {
      const others = controls.filter((other) => other !== field && other.bounds!.x >= label.bounds!.x + label.bounds!.w - 2 && other.bounds!.x + other.bounds!.w <= box.x + 2 &&
        other.bounds!.y <= middle && middle <= other.bounds!.y + other.bounds!.h);
      return others.length > 1 || (others.length === 1 && !isHelpButton(others[0]!));
    };
    // A check box whose words end in a colon labels the value field right of it on its row (a check box does not),
    // the first field of a box beside it too (Transmission's "Scheduled times:" before its "09:00" to "17:00").
    const introducing = (rowLabelledRoles.has(field.role) || isBareButton(field)) && !showsValue ? [] : introducers;
    const asking = (label: CupNode) => !showsValue || /:$/.test(label.name.trim()) || switchesLoneField(label, children);
    const onRow = [...labels, ...introducing].filter((label) => asking(label) && label.bounds!.y <= middle && middle <= label.bounds!.y + label.bounds!.h && gapLeft(label) >= -2 && (gapLeft(label) <= labelGapLeft || inLabelColumn(label, field, labels, controls)) && !between(label));
    const over = labels.filter((label) => label.bounds!.x < box.x + box.w && box.x < label.bounds!.x + label.bounds!.w && gapAbove(label) >= -2 && gapAbove(label) <= labelGapAbove);
    const nearest = (list: CupNode[], gap: (label: CupNode) => number) => list.sort((a, b) => gap(a) - gap(b))[0];
    const frame = frameOf(leadingIn.get(field));
    const label = nearest(onRow, gapLeft) ?? (onRowOnly ? (frame && labelOverFrame(frame, labels, children)) : nearest(over, gapAbove));
    if (label) {
      if (showsValue) field.value = field.name;
      const formerName = named.name;
      named.name = label.name;
      namedByPlace.add(named);
      namedByToolTip.delete(named);
      // The field of a combo box named by its value was left unnamed (nameComboField): the label names it too.
      if (named.role === 'combobox') nameComboField(named, formerName);
      const box = leadingIn.get(field);
      if (box) continueRow(placedLeftToRight(box), label.name);
    }
  }
}

/** The widest a button may be, each side in pixels, to be a label's help between it and its field ("?"): an icon's size. */
const helpButtonSide = 24;

/**
 * A small button with a name of its own (a bare one is a field a label names: a colour swatch): a label's "?" help,
 * too small to show a value (mayShowValue). Taken for a font button, KeePassXC's 15 px "Key file help" read
 * `btn "Key File:" val="Key file help"`.
 */
function isHelpButton(node: CupNode): boolean {
  return node.role === 'button' && node.name !== '' && node.bounds !== undefined && node.bounds.w <= helpButtonSide && node.bounds.h <= helpButtonSide;
}

/**
 * The box the app names around the one field it holds (leadingField's named box), as a field's frame: a label above
 * it names that field as a label above a field does. KeePassXC's unlock screen puts "Enter Password:" over the widget
 * it names "Password field", holding the password's line edit, and the field read as an unnamed text box.
 */
function frameOf(holder: CupNode | undefined): CupNode | undefined {
  return holder && holder.name !== '' && holder.bounds ? holder : undefined;
}

/**
 * The text right above a field's frame that labels it: within labelGapAbove of it, its left edge lined up with the
 * frame's, nothing on its row right of it (a row's label, which names the field beside it) and no control between
 * them. Narrower than a plain field's label above (any text overlapping it across): a text above a box may head all
 * the box holds, as a frame's title does, and only one lined up with it and alone on its row is taken for its label.
 */
function labelOverFrame(frame: CupNode, labels: readonly CupNode[], siblings: readonly CupNode[]): CupNode | undefined {
  const box = frame.bounds!;
  // What a person could take for the label's field: a control, or a field though read-only.
  const controls = siblings.filter((other) => other !== frame && hasRealPlace(other) && ((other.actions?.length ?? 0) > 0 || placeLabelledRoles.has(other.role)));
  const gap = (label: CupNode) => box.y - (label.bounds!.y + label.bounds!.h);
  const rowGoesOn = (label: CupNode) => {
    const end = label.bounds!.x + label.bounds!.w;
    const middle = label.bounds!.y + label.bounds!.h / 2;
    return controls.some((other) => other.bounds!.x >= end - 2 && other.bounds!.y <= middle && middle <= other.bounds!.y + other.bounds!.h);
  };
  const coversGap = (label: CupNode) =>
    controls.some((other) => other.bounds!.y >= label.bounds!.y + label.bounds!.h - 2 && other.bounds!.y + other.bounds!.h <= box.y + 2 &&
      other.bounds!.x < box.x + box.w && box.x < other.bounds!.x + other.bounds!.w);
  const over = labels.filter((label) => Math.abs(label.bounds!.x - box.x) <= 2 && gap(label) >= -2 && gap(label) <= labelGapAbove && !rowGoesOn(label) && !coversGap(label));
  return over.sort((a, b) => gap(a) - gap(b))[0];
}

/**
 * Whether a label farther left of a field than labelGapLeft stands in a form's column of labels whose fields stand in
 * the field's column: its left edge lines up with another label's, which has a field near right of it on its own row
 * whose left (or right) edge lines up with this field's. A grid lays a form out so (Qt's QGridLayout, GTK's GtkGrid), and a
 * longer label on another row sets how far right the fields stand: lximage-qt's Preferences put "Icon theme:" 190 px
 * left of its combo box, below "Maximum number of recent files:", and the combo box read as named by its choice.
 */
function inLabelColumn(label: CupNode, field: CupNode, labels: readonly CupNode[], controls: readonly CupNode[]): boolean {
  const lined = (a: number, b: number) => Math.abs(a - b) <= 2;
  return labels.some((other) => {
    if (other === label || !lined(other.bounds!.x, label.bounds!.x)) return false;
    const otherEnd = other.bounds!.x + other.bounds!.w;
    return controls.some((near) => {
      // The column's fields line up by their left edges, or by their right edges where the grid sets a narrow one
      // right (JuffEd's font Size: spin box, 189 px right of "Size", under the font's combo box beside "Font").
      const column = lined(near.bounds!.x, field.bounds!.x) || lined(near.bounds!.x + near.bounds!.w, field.bounds!.x + field.bounds!.w);
      if (near === field || !column || !placeLabelledRoles.has(near.role)) return false;
      const middle = near.bounds!.y + near.bounds!.h / 2;
      const gap = near.bounds!.x - otherEnd;
      return other.bounds!.y <= middle && middle <= other.bounds!.y + other.bounds!.h && gap >= -2 && gap <= labelGapLeft;
    });
  });
}

/**
 * A column header that has no place on screen at all (no Component) beside headers that have one is a hidden column's:
 * Qt lists a header for every column of a view, and gives one it hides no Component, its cells no size. KeePassXC's
 * entry list read 15 column headers ("Password", "Expires", "Created", ...) over the 7 columns it shows, and an agent
 * would look for a Password column that is not there. It is hidden and off screen, as the cells under it are.
 */
function hideUnplacedHeaders(children: readonly CupNode[], rawChildren: readonly AtspiRawNode[]): void {
  const headers = children.flatMap((child, i) => (child.role === 'columnheader' ? [{ header: child, placed: rawChildren[i]!.interfaces.includes('Component') }] : []));
  if (!headers.some(({ header, placed }) => placed && header.bounds !== undefined)) return;
  for (const { header, placed } of headers) if (!placed) header.states = stateOrder.filter((state) => state === 'hidden' || state === 'offscreen' || header.states?.includes(state));
}

/**
 * A group box's one value field that no text on its row names is named by the group's title, which Qt named it by
 * (group-box-titles.ts), as words on screen before its tool tip: ScreenGrab's "Image quality" slider is alone in its
 * group box. Of several fields, the title names none.
 */
function titleLoneField(children: readonly CupNode[], rawChildren: readonly AtspiRawNode[]): void {
  const fields = children.flatMap((child, i) => (labelledFieldRoles.has(child.role) ? [{ child, title: rawChildren[i]!.groupTitle }] : []));
  const [only] = fields;
  if (fields.length === 1 && only!.title !== undefined && (only!.child.name === '' || namedByToolTip.has(only!.child))) only!.child.name = only!.title;
}

/**
 * Names unnamed fields that have no place (a notebook's page not shown: GTK3 reports x and y of -2^31 for all it
 * holds, sizes kept; Qt hides a tab page's widgets at 0,0 0x0) after the label listed next to them, where the pairing
 * is certain. labelsByPlace names them once
 * the page is shown and not before, so Transmission's Seeding page read two unnamed spin buttons, and its Speed page,
 * switched away, renamed "Upload (kB/s):" to "". Among siblings without a place, a run of labels (texts and check
 * boxes whose words end in a colon, as labelsByPlace's do) and unnamed fields listed one after another is paired as
 * label and field when they alternate and are even in number: the one way to pair them all by neighbours, in either
 * order (GTK3's grid lists each field before its label). Anything else between ends a run; a run that does not pair
 * so names nothing, nor does a text that names a field already (by a labelled-by relation).
 */
function labelsByOrder(children: readonly CupNode[]): void {
  const placeless = (node: CupNode) => node.bounds === undefined && node.states?.includes('offscreen') === true;
  const hidden = (node: CupNode) => node.states?.includes('hidden') === true;
  const named = new Set(children.filter((child) => placeLabelledRoles.has(child.role) && child.name !== '').map((child) => child.name));
  const labelOf = (node: CupNode) => {
    const text = labelIn(node);
    const switches = switchesLoneField(node, children);
    const label = text ?? (introducesField(node) || switches ? node : undefined);
    return label && placeless(label) && (/:$/.test(label.name.trim()) || switches) && !(text && named.has(text.name)) ? label : undefined;
  };
  const isField = (node: CupNode) => placeless(node) && placeLabelledRoles.has(node.role) && (node.name === '' || (node.role === 'combobox' && node.name === node.value));
  // A row's fields in an unnamed box of their own (Transmission's "Scheduled times:" 09:00 to 17:00): the first one
  // listed, of those not hidden, is the field the row's label names, as leadingField's leftmost is (a folder chooser
  // keeps a hidden button before its combo box).
  const leading = (node: CupNode) => (hidden(node) ? node.children?.[0] : node.children?.find((part) => !hidden(part)));
  const fieldOf = (node: CupNode) => {
    if (isField(node)) return node;
    const first = node.role === 'generic' && node.name === '' && placeless(node) ? leading(node) : undefined;
    return first && isField(first) ? first : undefined;
  };
  let run: { field?: CupNode; label?: CupNode; box?: CupNode }[] = [];
  const pair = () => {
    const alternates = run.length % 2 === 0 && run.every((part, i) => i === 0 || (part.label === undefined) !== (run[i - 1]!.label === undefined));
    if (alternates) {
      for (let i = 0; i < run.length; i += 2) {
        const [one, other] = [run[i]!, run[i + 1]!];
        const [{ field, box }, label] = one.label ? [other, one.label] : [one, other.label!];
        field!.name = label.name;
        namedByPlace.add(field!);
        // A box whose fields have no place: in the order the box lists them (a GtkBox: left to right).
        if (box) continueRow(box.children ?? [], label.name);
      }
    }
    run = [];
  };
  // A run is of labels and fields alike hidden (all on a page Qt hides) or alike not (GTK3's page not shown).
  let runHidden = false;
  for (const child of children) {
    const label = labelOf(child);
    const field = label ? undefined : fieldOf(child);
    if (!label && !field) {
      pair();
      continue;
    }
    if (run.length > 0 && hidden(child) !== runHidden) pair();
    runHidden = hidden(child);
    run.push(label ? { label } : { field: field!, ...(field === child ? {} : { box: child }) });
  }
  pair();
}

/**
 * The fields after the first in a row's box, each named by the text between it and the field before it (by the
 * label pointing at it, or by place): that text continues the row's label, and alone says nothing of what the field
 * is for. Transmission's "Scheduled times:" row holds "09:00", " to " (labelling the second) and "17:00", and the
 * second read as a combo box named "to". Named by both: "Scheduled times: to". A text ending in a colon is a label
 * of its own, which says alone what its field is for: DB Browser for SQLite's plot row, "Line type:" beside a box
 * holding a combo box, "Point shape:" and a second combo box, read the second "Line type: Point shape:".
 */
function continueRow(parts: readonly CupNode[], rowLabel: string): void {
  parts.forEach((field, index) => {
    const [before, text] = [parts[index - 2], parts[index - 1]];
    if (!before || !text || !placeLabelledRoles.has(field.role) || !placeLabelledRoles.has(before.role)) return;
    if (labelIn(text) === undefined || text.name === '' || field.name !== text.name || /:$/.test(text.name.trim())) return;
    field.name = `${rowLabel} ${text.name}`;
    namedByPlace.add(field);
  });
}

/** A box's children placed on screen, left to right. */
function placedLeftToRight(box: CupNode): CupNode[] {
  const placed = (box.children ?? []).filter((child) => child.bounds !== undefined && child.bounds.w > 0 && child.bounds.h > 0);
  return placed.sort((a, b) => a.bounds!.x - b.bounds!.x);
}

/**
 * The field a row of fields in an unnamed box of its own starts with, which the label left of the box labels
 * (Transmission's "Scheduled times:" check box, then a box holding "09:00", "to" and "17:00"): its leftmost child,
 * starting where the box starts, labelled from the box's row only. Its siblings in the box label the others.
 */
function leadingField(node: CupNode): CupNode[] {
  if (node.role !== 'generic' || !node.bounds) return [];
  const placedChildren = (node.children ?? []).filter((child) => child.bounds !== undefined && child.bounds.w > 0 && child.bounds.h > 0);
  const first = placedChildren.sort((a, b) => a.bounds!.x - b.bounds!.x)[0];
  // A box the app names is one field's frame when that is the one field it holds (KeePassXC's "Password field": a
  // widget holding its password line edit and a strength bar, beside "Enter password:"), and the label beside it is
  // what a person calls the field: its field read as an unnamed text box. A named box of several fields is a part of
  // the form its name is about, and names none of them.
  if (node.name !== '') return first && placeLabelledRoles.has(first.role) && first.bounds!.x <= node.bounds.x + 2 && placedChildren.filter((child) => placeLabelledRoles.has(child.role)).length === 1 ? [first] : [];
  // A button showing a value in a box of its own: wxGTK's font picker wraps its GtkFontButton in a panel.
  const field = first && (placeLabelledRoles.has(first.role) || (mayShowValue(first) && node.children!.length === 1));
  return field && first.bounds!.x <= node.bounds.x + 2 ? [first] : [];
}

/**
 * A check box whose words end in a colon, as a label's do: it switches the field right of it on and off and is the
 * only text that says what that field is for (Transmission's "Upload (kB/s):" check box beside its speed spin button,
 * "Scheduled times:" beside a combo box showing "09:00"), so those fields were unnamed or named by their value. A
 * check box that ends in no colon ("Match case" before a search box) says what it switches, not what the field is.
 */
function introducesField(node: CupNode): boolean {
  return node.role === 'checkbox' && /:$/.test(node.name.trim());
}

/**
 * A check box alone in a box with one field (or a button showing a value): it switches that field on and off, and is
 * all that says what the field is for, colon or not. Gnote's preferences put "Automatic background sync interval
 * (minutes)" and its spin button in a box of their own, and "Use custom font" with its font button: they read an
 * unnamed spin button and `btn "11"`, the font's size. The geometry (the check box left of the field on its row) is
 * labelsByPlace's; a "Match case" among a search bar's several controls is no such box.
 */
function switchesLoneField(node: CupNode, siblings: readonly CupNode[]): boolean {
  if (node.role !== 'checkbox' || siblings.length !== 2) return false;
  const field = siblings.find((sibling) => sibling !== node)!;
  return placeLabelledRoles.has(field.role) || mayShowValue(field);
}

/**
 * The label a sibling is: a named text, or a box that holds only one (Inkscape's status bar puts its "O:" in a box of
 * its own beside the opacity field, and the field was named by the farther "Stroke:" on its row).
 */
function labelIn(node: CupNode): CupNode | undefined {
  // A text with no letter or digit is punctuation between fields (a timer's "∶" between its hours and minutes), no label.
  if (node.role === 'text') return /[\p{L}\p{N}]/u.test(node.name) ? node : undefined;
  if (node.role !== 'generic' || node.name !== '' || node.children?.length !== 1) return undefined;
  return labelIn(node.children[0]!);
}

/**
 * GTK 4.8 gives every page tab of a notebook the same name ("Tab", in the user's language) and draws the tab's label
 * inside it: tabs that all share one name while what is drawn on them differs are named by what is drawn.
 */
function tabsByContent(children: readonly CupNode[]): void {
  const tabs = children.filter((child) => child.role === 'tab');
  if (tabs.length < 2 || tabs.some((tab) => tab.name !== tabs[0]!.name)) return;
  const contents = tabs.map((tab) => nameFromContent(tab, tab.children ?? []));
  if (contents.some((content) => !content) || new Set(contents).size !== contents.length) return;
  tabs.forEach((tab, index) => (tab.name = contents[index]!));
}

/**
 * GTK 4.8's tree view lists its column header buttons last column first (the GTK4 fixture's Name, Size came as Size,
 * Name; gtk4-widget-factory's headers read right to left): they are put back in column order, in their own places
 * among the view's children.
 */
function columnButtonsInColumnOrder(children: CupNode[]): void {
  const places = children.flatMap((child, index) => (child.role === 'button' ? [index] : []));
  const buttons = places.map((index) => children[index]!).reverse();
  places.forEach((index, i) => (children[index] = buttons[i]!));
}

/**
 * A description that is the control's value as it draws it, no tooltip: GTK3's scale describes itself by the number
 * drawn beside its slider ("30", "30.0"), so zenity's volume slider was named "30", and that name kept the label
 * above it ("Volume") from naming it.
 */
function drawsItsValue(node: CupNode): boolean {
  if (node.value === undefined || !valueRoles.has(node.role)) return false;
  const described = node.description!.trim();
  return described === node.value || (described !== '' && Number(described) === Number(node.value));
}

/** What opens over its opener rather than being drawn on it: a menu, a popover, a dialog, a tool tip. */
const popupRoles: ReadonlySet<CupRole> = new Set(['menu', 'dialog', 'alertdialog', 'window', 'tooltip']);

/** Not rendered: hidden, or drawn at zero size. */
function unrendered(node: CupNode): boolean {
  return node.states?.includes('hidden') === true || (node.bounds !== undefined && (node.bounds.w === 0 || node.bounds.h === 0));
}

/**
 * The text of a node's descendants, in order, as accname computes a name from content (toolkits often skip this).
 * Of a node not rendered itself, nor is all it holds: its content is then read as it is when shown, so the name stays
 * as the node is hidden and shown (Disk Usage Analyzer's column headers, on a page switched away, read as renamed
 * "Modified" → "" in the diff, and a GTK 4.8 page never shown yet, laid out at zero size, named its buttons later).
 */
function nameFromContent(holder: CupNode, children: readonly CupNode[], unrenderedItself = false, wordsOnly = false): string {
  const parts: string[] = [];
  const collect = (nodes: readonly CupNode[], parent: CupNode) => {
    for (const node of nodes) {
      // The marker a list draws before its item is no word of it (Blink's ::marker: `li "• Milk"`).
      if (isDrawnListMarker(node, parent)) continue;
      // Content that is not rendered is not part of the name, nor is a popup it holds: GTK4's menu button holds its
      // popover, whose items named the button "Keyboard Shortcuts About Characters" once open.
      if ((!unrenderedItself && unrendered(node)) || popupRoles.has(node.role)) continue;
      // A control named by the label beside it adds nothing: that label is content already (a list's row holding
      // "Row 2" and a slider it names read "Row 2 Row 2").
      if (namedByPlace.has(node)) continue;
      // Nor does one named by the value it shows (GTK3 and Qt name a combo box by its choice): that value is no word of
      // the row, which was renamed with every choice. Simple Scan's preference rows, whose titles libhandy exposes
      // nothing of, read `li "Automatic"` over `cmb "Automatic"`, and choosing A4 read `li name: "Automatic" → "A4"`.
      if (node.value !== undefined && node.name === node.value) continue;
      if (wordsOnly && clicksByNature(node.role)) continue;
      if (node.name) parts.push(node.name);
      else if (node.children) collect(node.children, node);
    }
  };
  collect(children, holder);
  return firstCodePoints(normaliseWhitespace(parts.join(' ')), maxNameLength);
}

/**
 * Element numbers: depth-first in pre-order (the window is 0), first over everything that is not scrolled away
 * nor an item of a closed menu (closed-menus.ts) nor held by a hidden container (hidden-containers.ts), then over the
 * subtrees that are (raw.scrolledAway, the items, the content),
 * in the order met. A read of the visible part only holds exactly the first set, so it numbers each element as
 * a read of the whole window does.
 */
function elementNumbers(root: AtspiRawNode, showingReliable: boolean): Map<AtspiRawNode, number> {
  const numbers = new Map<AtspiRawNode, number>();
  const later: AtspiRawNode[] = [];
  const number = (raw: AtspiRawNode, deferred: boolean, parent?: AtspiRawNode) => {
    if (raw.scrolledAway && !deferred) {
      later.push(raw);
      return;
    }
    numbers.set(raw, numbers.size);
    const closed = !deferred && raw.children.length > 0 && (closedMenu(raw, raw.children.map((child) => child.states), showingReliable, parent?.role) || hidesItsContent(raw, parent));
    if (closed) later.push(...raw.children);
    else for (const child of raw.children) number(child, deferred, raw);
  };
  number(root, false);
  for (const raw of later) number(raw, true);
  return numbers;
}

/**
 * Children a read left out, by direction: those of a huge container's hidden part, those scrolled away, and the items
 * of a list that keeps only some of its set in the page (set-positions.ts).
 */
function unreadOf(raw: AtspiRawNode): UnreadChildren | undefined {
  const read = sumUnread(raw.unreadChildren, raw.offscreenChildren);
  return sumUnread(read, itemsOutsideList(raw, read));
}

function sumUnread(one: UnreadChildren | undefined, other: UnreadChildren | undefined): UnreadChildren | undefined {
  if (!one || !other) return one ?? other;
  return { up: one.up + other.up, down: one.down + other.down, left: one.left + other.left, right: one.right + other.right };
}

/**
 * Maps one window's raw AT-SPI tree to CUP nodes. Ids are element numbers (elementNumbers: e0 is the window),
 * and element N's source is the exact object it was read from.
 */
export function atspiToCup(read: AtspiRawNode, context: RawTreeContext): ConvertedTree {
  const root = inReadingOrder(withTerminalRows(context.namesByGroupBoxTitle ? withGroupBoxTitles(read) : read));
  const sources: ElementSource[] = [];
  const numbers = elementNumbers(root, context.showingReliable ?? false);
  // Java's tree nodes, which read as labels: each is its tree's item, at its level (tree-nodes.ts).
  const treeNodes = rendererTreeNodeLevels(root);
  // Toolkits that set VISIBLE or SHOWING at all set them on the window; some bridges set neither anywhere.
  const rootStates = decodeStateSet(root.states);
  const windowVisibility: Visibility = { visible: rootStates.has('STATE_VISIBLE'), showing: rootStates.has('STATE_SHOWING') };

  // The objects of scroll areas that show what the app draws, found as their areas are converted (drawnViewOf).
  const drawnViews = new Set<RoleShape>();
  const convert = (raw: AtspiRawNode, parent: AtspiRawNode | undefined, parentPlacement: Placement, covered = false, visibility = windowVisibility, setPlace?: SetPlace): CupNode => {
    const index = numbers.get(raw)!;
    sources.push({ index, bus: raw.bus, path: raw.path, atspiRole: raw.role });
    const states = decodeStateSet(raw.states);
    // The tab its tab list's Selection names is the current one, whether it says SELECTED (GTK3) or not (GTK 2's GAIL).
    if (parent?.selectedTab === raw.path) states.add('STATE_SELECTED');
    // Qt 5 says FOCUSED of its tab bar's current tab, never SELECTED, and of every tab bar's current tab at once: a
    // settings dialog with a preview read two tabs focused and none shown. That tab is the one shown; it has the
    // keyboard focus only when its tab bar says so too.
    if (context.focusMarksCurrentItems && raw.role === ATSPI_ROLE.PAGE_TAB && states.has('STATE_FOCUSED')) {
      states.add('STATE_SELECTED');
      if (!parent || !decodeStateSet(parent.states).has('STATE_FOCUSED')) states.delete('STATE_FOCUSED');
    }
    // Java's tabs copy their tab bar's states: with the tab bar focused, every tab said it had the focus ({foc} on all
    // five of a JTabbedPane's tabs). The focus shows on the current tab alone.
    if (context.tabsRepeatTabBarFocus && raw.role === ATSPI_ROLE.PAGE_TAB && !states.has('STATE_SELECTED')) states.delete('STATE_FOCUSED');
    // Java says CHECKED of a menu that is open (JMenu's button model is selected): its File menu read {sel,chk}, as if
    // a check item. A menu that opens a submenu is checked in no toolkit; a page's role=menu is left as the page says.
    if (raw.role === ATSPI_ROLE.MENU && !raw.attributes?.['xml-roles']) states.delete('STATE_CHECKED');
    const atspiRole = atspiRoleName(raw.role);
    // A control without a name of its own is named by the label that points at it (W3C accname, aria-labelledby);
    // a combo box is named by it too, once its value is known (comboNamedByLabel).
    // A terminal's row is text on its screen, whose spaces are its content (indentation, columns), as in the terminal
    // tools' screens: it keeps them.
    // A window left unnamed, or named by its type ("ClocksWindow"), is called what its title bar says.
    const name = isTerminalRow(raw.path)
      ? raw.name
      : withoutListMarker(withoutDisclosureMarker(readableName(raw.name, context.gtk4NameQuirks, atspiRole) || normaliseWhitespace(raw.labelledBy ?? '') || rowTitle(raw, parent) || contentName(raw, atspiRole) || hiddenComboName(raw, parent), states.has('STATE_EXPANDABLE')), raw.attributes) ||
        (raw === root && windowRoles.has(atspiRole) ? normaliseWhitespace(context.windowTitle ?? '') : '');
    const mapped = cupRoleFor({
      atspiRole,
      parentAtspiRole: parent ? atspiRoleName(parent.role) : undefined,
      named: name.length > 0,
      modal: states.has('STATE_MODAL'),
      topLevel: parent === undefined,
      xmlRole: raw.attributes?.['xml-roles'],
      tag: raw.attributes?.tag,
      actions: raw.actions,
      switchesAreToggleButtons: context.switchesAreToggleButtons,
    });
    // A paragraph or block the user types into (an office document's paragraph, a contenteditable div) is
    // a text box to an agent: it takes typing, and its text is its value. A labelled one (aria-label) is a named
    // section, a region: Gecko keeps its words in its own Text, and as a region they were in no node of the tree
    // (see isEditableContent for Blink's, which have no EditableText).
    const editableBlock = (mapped === 'text' || mapped === 'generic' || mapped === 'region') && isEditableContent(raw, parent);
    // A block with nothing in it but its own words (a web page's output div) is text.
    const wordsOnly = !editableBlock && !raw.name && name !== '' && raw.children.length === 0 && blockRoles.has(atspiRole);
    // An object that scrolls what it holds is kept as a group, as a scroll pane is, so its box clips what it shows (not
    // a page's tab panel, a scroll pane to the browsers that scrolls nothing).
    const scrolls = scrollsItsContent(raw) && mapped !== 'tabpanel';
    // A part of a chooser holding no other object (GTK3's colour editor's Hue and Alpha scales and its colour plane,
    // each of which ATK calls a colour chooser) is no group of anything: one holding a number in a range is a slider,
    // the others a surface the app draws. Zenity's colour editor read three groups with no place and no value.
    const chooserPart = mapped === 'group' && parent !== undefined && chooserPartRoles.has(atspiRole) && raw.children.length === 0;
    const rangePart = chooserPart && raw.value !== undefined && hasRange(raw.value);
    // What a scroll area shows and holds no object of is drawn by the app (drawnViewOf): the compact view showed an
    // empty scrolled group where the screenshot showed a document's text.
    if (scrolls) {
      const drawn = drawnViewOf(raw);
      if (drawn) drawnViews.add(drawn);
    }
    const emptyView = drawnViews.has(raw) && !name;
    const treeLevel = treeNodes.get(raw);
    // Java says COLLAPSED of every leaf of a tree too: a node that cannot expand is not collapsed.
    if (treeLevel !== undefined && !states.has('STATE_EXPANDABLE')) states.delete('STATE_COLLAPSED');
    const role: CupRole = treeLevel !== undefined ? 'treeitem' : editableBlock ? 'textbox' : wordsOnly ? 'text' : rangePart ? 'slider' : scrolls && mapped === 'generic' ? 'group' : mapped;
    // An object that holds only another process's objects (an ATK socket: WebKitGTK's web view, whose page runs in a
    // web process) says no state at all: it is judged by its place, not taken for hidden with all it embeds.
    const embeds = raw.children.length > 0 && raw.children.every((child) => child.bus !== raw.bus);
    const judged = embeds ? unreported : visibility;
    const placement = place(raw, context, parentPlacement, states, judged, covered, parent !== undefined);
    const view = parentPlacement.view ?? context.visibleArea;
    const box = placement.bounds;
    // A box wholly outside the view is the wrong fact about a pane whose content is on screen: it narrows nothing.
    // What a menu or drop-down holds pops up in a surface of its own, outside every box around its opener (Calc's
    // File menu hangs below the scroll pane its menu bar is docked in): it is judged against the window's area.
    // A popover found on its own popup window shows what it holds within its box: Text Editor's main menu hangs below
    // its window, and its Help and About items read offscreen, to be found by no selector for what is on screen.
    placement.view = raw.ownSurface && box && box.w > 0 && box.h > 0 ? box : popupHolderRoles.has(atspiRole) ? undefined : scrolls && box && box.w > 0 && box.h > 0 && !placement.offscreen ? intersectRect(view, box) : parentPlacement.view;
    const node: CupNode = { id: `e${index}`, role, name };
    const description = plainText(raw.description);
    if (description) node.description = description;
    const around = wordsAroundChildren(raw);
    const value = cupValue(raw, role) ?? (role === 'combobox' ? selectedChoice(raw) : undefined) ?? around;
    if (value !== undefined) node.value = value;
    if (comboNamedByLabel(raw, role, value)) {
      node.name = normaliseWhitespace(raw.labelledBy!);
      namedByRelation.add(node);
    }
    if (valueButtonNamedByLabel(raw, role, value)) [node.name, node.value] = [normaliseWhitespace(raw.labelledBy!), name];
    if (placement.bounds) node.bounds = placement.bounds;
    node.states = cupStates(states, atspiRole, role, placement.offscreen, raw.interfaces.includes('Text'));
    // Nor is what sets no VISIBLE in such a part of the tree hidden for lacking it, nor a socket disabled for its
    // empty state set (WebKitGTK's scroll pane read hidden over the page it shows).
    if (judged !== windowVisibility && !judged.visible) node.states = node.states.filter((state) => state !== 'hidden' && !(embeds && state === 'disabled'));
    // What a hidden container holds is hidden with it: a page behind the shown one, and the contents of a closed
    // popup (GTK3's popovers keep their buttons VISIBLE inside a panel that is neither visible nor showing).
    if ((placement.covered || placement.undrawn) && !node.states.includes('hidden')) node.states = stateOrder.filter((state) => state === 'hidden' || node.states!.includes(state));
    // A surface the app paints itself (a game's board, a chart): the tree holds nothing of what it shows.
    const drawnSurface = (isDrawnSurfaceShape(atspiRole, raw.children.length, states) || paintsBesideOwnBars(raw, states.has('STATE_FOCUSABLE')) || (chooserPart && !rangePart) || emptyView) && hasRealPlace(node) && roomToShow(node) && !node.states.includes('hidden');
    // Unless the app says it in words: a drawing area has no Text, so the description is where an app puts what it
    // draws there (Qalculate's result, "= 42", drawn under "12 + 30" and in no object's text, read as a surface to be
    // read in the screenshot). It is the surface's value: shown, sought with value=, and its change diffed as such.
    if (drawnSurface && node.value === undefined && node.description && node.description !== node.name) node.value = node.description;
    const childRoles = raw.children.map((child) => child.role);
    const actionContext: ActionContext = {
      role,
      atspiRole,
      rawActions: raw.actions ?? [],
      interfaces: raw.interfaces,
      states,
      parentHasSelection: parent?.interfaces.includes('Selection') ?? false,
      selectableUnmarked: context.selectableUnmarked,
      scrolls,
      actionsAnswered: raw.interfaces.includes('Action') && raw.actions !== undefined,
      clicksThroughChild: clicksThroughChild(role, childRoles),
      holdsButton: holdsButton(childRoles),
    };
    node.actions = cupActionsFor(actionContext);
    // A web engine's bus (namesTakeToolTips holds those) is no toolkit's view: its header says by its own action.
    const inputOnly = (pressedOnlyByInput(actionContext) && raw.interfaces.includes('Component')) || (headerClickedByInput(actionContext) && !context.namesTakeToolTips?.has(raw.bus));
    const attributes = cupAttributes(raw, states, role, setPlace);
    if (attributes) node.attributes = attributes;
    if (treeLevel !== undefined && node.attributes?.level === undefined) node.attributes = { ...node.attributes, level: treeLevel };
    const unread = unreadOf(raw);
    const hiddenMenuItems = holdsMenuItems(raw.role) ? itemsKeptHidden(raw.children.map((child) => child.states), context.showingReliable ?? false) : 0;
    node.platform = {
      linux: {
        atspiRole,
        interfaces: [...raw.interfaces],
        ...(raw.actions && raw.actions.length > 0 ? { actions: [...raw.actions] } : {}),
        // Children not read (only the visible part of a huge container, or of a scrolled pane, was): the pruning hints at them.
        ...(unread ? { unreadChildren: { ...unread } } : {}),
        // The items of a closed menu, not read (a read of what is shown): the pruning counts them on the menu.
        ...(raw.closedMenuItems ? { closedMenuItems: raw.closedMenuItems } : {}),
        // How many children of a hidden container (hidden-containers.ts) a reading of what is shown left unread.
        ...(raw.hiddenContent ? { unreadHiddenChildren: raw.hiddenContent } : {}),
        // The children the app keeps hidden in a menu, which opening it does not show: the pruning does not count them.
        ...(hiddenMenuItems > 0 ? { hiddenMenuItems } : {}),
        // Rows the toolkit draws and exposes none of: the pruning says so, as nothing in the tree would.
        ...(context.gtk4NameQuirks && selfDrawnViews.has(raw.name) ? { itemsNotExposed: true } : {}),
        ...(drawnSurface ? { drawnSurface: true } : {}),
        // Its value is the words it writes between its children (wordsAroundChildren): shown, whatever its role.
        ...(around !== undefined && value === around ? { wordsAroundChildren: true } : {}),
        // Its click is only its clickable ancestor's (clicksOnlyItsAncestor): an unnamed container so is no target of its own.
        ...(clicksOnlyItsAncestor(raw.actions ?? []) ? { clicksAncestor: true } : {}),
        // Operated by real input alone (pressedOnlyByInput): the reading says to click it in the foreground.
        ...(inputOnly ? { inputOnly: true } : {}),
      },
    };
    if (raw.children.length > 0) {
      const behind = coveredPages(raw.children, visibility.visible || visibility.showing);
      // A page stacked behind a shown one, or what the toolkit no longer draws where it still places it (raw.undrawn).
      // Objects of another process than their parent (a socket's embedded root) say by their own states whether that
      // process sets VISIBLE and SHOWING at all: WebKitGTK's embedded root and scroll pane set neither.
      const setPlaces = placesInSet(raw, context.listsSomeItemsOnly);
      node.children = raw.children.map((child) =>
        convert(child, raw, placement, behind.has(child) || child.undrawn === true, child.bus === raw.bus ? visibility : reportedBy(child), setPlaces.get(child)),
      );
      labelsByPlace(node.children, context.namesEditableCombosByText === true);
      labelsByOrder(node.children);
      titleLoneField(node.children, raw.children);
      hideUnplacedHeaders(node.children, raw.children);
      if (role === 'grid' || role === 'table' || role === 'tree') {
        placeUnplacedCells(node.children);
        for (const field of nameFieldsByColumn(node)) namedByPlace.add(field);
      }
      enableUnmarkedItems(node, node.children, raw.children.map((child) => child.role));
      if (role === 'combobox') {
        valueFromField(node);
        nameEditableComboByLabel(node, raw, context.namesEditableCombosByText === true);
        nameComboField(node);
        valueFromButton(node);
        valueFromShownItem(node);
      }
      if (context.gtk4NameQuirks) tabsByContent(node.children);
      if (context.gtk4NameQuirks && raw.name === 'GtkTreeView') columnButtonsInColumnOrder(node.children);
      const placeless = !hasRealPlace(node) && node.children.some(shownOnScreen);
      if (placeless) {
        // The toolkit gave this object no usable place (a sentinel, no size, or off the view) while something
        // inside it is on screen: its own extents are the wrong fact, so they must not hide what it holds.
        delete node.bounds;
        node.states = node.states.filter((state) => state !== 'offscreen');
      }
      // A tab is named by the label drawn on it. One with no place on screen that holds something is a page tab of a
      // notebook whose tabs are hidden (GTK 2 and 3): it holds its page (ATK's page tab is the tab and its panel in
      // one), whose buttons and text are no name for it (Meld's tab read "Save file in this pane Open ..."), whether
      // its page is the one shown or one behind it: Sylpheed's set-up assistant's steps were named by their words
      // while hidden and "" while shown, so each step renamed two tabs.
      const holdsItsPage = role === 'tab' && !hasRealPlace(node);
      // So is an expander: GTK3's is a toggle button that says EXPANDABLE and holds what it discloses, never its title
      // (ATK leaves its title out, and names it by it when the title is a plain label). System Monitor's untitled
      // "CPU" expander read "CPU2 0.0% CPU1 0.0%", renamed with each refresh of the meters it holds, and its Network
      // one, collapsed, "18.6 MiB 0 bytes/s ... Receiving": its hidden body's words in another order.
      const holdsItsBody = raw.role === ATSPI_ROLE.TOGGLE_BUTTON && states.has('STATE_EXPANDABLE');
      // So is Qt's checkable group box, a check box holding what it groups, whose title Qt may give nowhere
      // (group-box-titles.ts): qBittorrent's "Show qBittorrent in notification area" read as the words of the two
      // check boxes it holds.
      const holdsItsGroup = context.namesByGroupBoxTitle === true && raw.role === ATSPI_ROLE.CHECK_BOX && raw.children.length > 0;
      // A window that is an alert (GTK's message dialog) is named by its title, never by all it holds.
      const liveRegion = liveRegionRoles.has(role) && parent !== undefined;
      if ((nameFromContentRoles.has(role) || liveRegion) && !holdsItsPage && !holdsItsBody && !holdsItsGroup) {
        const content = nameFromContent(node, node.children, unrendered(node), liveRegion);
        if (!node.name && content) {
          node.name = content;
          namedByContent.add(node);
        }
        // GTK 4.8 names a button by its label twice ("4 4"), a check box by its label as written ("_Wrap lines").
        else if (context.gtk4NameQuirks && content && (node.name === `${content} ${content}` || withoutMnemonic(node.name) === content)) node.name = content;
      }
    }
    // accname's last resort for a control with neither label nor content is its tooltip (GTK's description). A toolkit
    // that took it already describes an unnamed control by what a page says describes it, which is no name: a web
    // icon button with only aria-describedby was named by its help text, and a field by its error message.
    // Nor is a description that only gives the content's format (isMediaType) a name.
    // A web engine that named a control by an icon font's picture (readableName leaves it out) stopped there, and
    // put its title in the description: Jupyter's toolbar buttons read twelve `btn ""`, described "Save and
    // Checkpoint", "cut selected cells"..., and a Sphinx page's permalinks `lnk ""`.
    // (The name's pictures are looked at last: only for an unnamed, described node, not for every node of a reading.)
    if (!node.name && node.description && (!context.namesTakeToolTips?.has(raw.bus) || isWordlessOnly(raw.name)) && tooltipNamedRoles.has(role) && !drawsItsValue(node) && !isMediaType(node.description)) {
      node.name = node.description;
      if (labelledFieldRoles.has(role)) namedByToolTip.add(node);
      else if (role === 'button') buttonsNamedByToolTip.add(node);
    }
    // A dialog the page names nothing (a Bootstrap modal with no aria-labelledby: Jupyter's "Restart kernel?") is called
    // by the heading it shows as its title, as one who sees it calls it: its click read `dialog "" opened in the window`
    // and `+ [e289] dlg`, and role=dialog name~=restart found nothing.
    if (!node.name && dialogRoles.has(role)) node.name = titleHeading(node) ?? '';
    return node;
  };

  const tree = convert(root, undefined, { offscreen: false, undrawn: false });
  sources.sort((a, b) => a.index - b.index);
  return { root: tree, sources, nodeCount: sources.length };
}
