// What changed between two readings of one window's tree: the pure comparison behind every action's `diff`.
import { hasNonFocusAction, shownValue } from './fields.js';
import { showsDialogsOnly } from './inert-page.js';
import { isClosedMenu, repeatsName, unreadMenuItems, unseenAndUnreachable } from './prune.js';
import { normaliseWhitespace } from './text.js';
import type { CupAttributes, CupNode, CupRole, CupState } from './types.js';

/** One reading: its tree (node ids are `e<index>`) and each node's object identity by index, where the reader knows it. */
export interface DiffReading {
  root?: CupNode;
  identities: ReadonlyMap<number, string>;
  /**
   * Identities of objects an earlier reading held that this one does not, which the app is known to keep all the
   * same (another page of a stack or notebook, a closed popup, a row scrolled out): no node of this reading is taken
   * for their replacement, however alike. Absent: nothing is known, and role, name and place decide alone.
   */
  kept?: ReadonlySet<string>;
  /**
   * Nodes of a web page back in the tree since the modal dialog that made it inert closed, under the indices they had
   * before it opened (see numbering.ts): the diff counts them in one line, the mirror of the inert one, not as added.
   */
  returned?: ReadonlySet<number>;
}

/** A node as a diff names it: by its index in the reading it belongs to (the new one, except for removed nodes). */
export interface DiffNode {
  index: number;
  role: CupRole;
  name: string;
  value?: string;
  /** An added node's states that say what can be done with it (ADDED_STATES): told on its line as the tree tells them. */
  states?: CupState[];
  /**
   * The closed menu (or closed list of choices) an added or removed node lies in, as the new reading has it: its items
   * are not shown, and a summary tells a menu's many new or gone items in one line (see diff-text.ts's summaryLines).
   */
  closedMenu?: DiffNode;
}

export interface TextChange {
  from: string;
  to: string;
}

/** An attribute's change: absent on a side where the node did not have it. */
export interface AttributeChange {
  from?: string | number | boolean;
  to?: string | number | boolean;
}

export interface NodeChanges {
  name?: TextChange;
  value?: TextChange;
  description?: TextChange;
  states?: { added: CupState[]; removed: CupState[] };
  /** By the envelope's key (`sort`, `level`, `valueMax`), in the order COMPARED_ATTRIBUTES lists them. */
  attributes?: Partial<Record<keyof CupAttributes, AttributeChange>>;
}

export interface ChangedNode extends DiffNode {
  changes: NodeChanges;
}

export interface MovedNode extends DiffNode {
  /** Its parent is another object than before (not only its place on screen). */
  reparented: boolean;
}

/** A page a modal dialog made inert: its nodes left the tree, not the page (see inert-page.ts). */
export interface InertPage {
  /** The dialog now all the page shows, by the new reading's index. */
  dialog: DiffNode;
  /** How many nodes of the page left the tree with it: not in `removed`. */
  count: number;
}

export interface TreeDiff {
  /** New nodes, in tree order; indices are the new reading's. */
  added: DiffNode[];
  /** Nodes that are gone, in the old tree's order; indices are the old reading's. */
  removed: DiffNode[];
  changed: ChangedNode[];
  /** Nodes that only moved (another place on screen, scrolled in or out of view, another parent): counted, and the few that matter named. */
  moved: { count: number; notable: MovedNode[] };
  /** Pages a modal dialog opened over: their nodes are counted here, not removed. */
  inert?: InertPage[];
  /** Pages back since the modal dialog over them closed (`dialog`: by its old index): their returning nodes are counted here, not added. */
  back?: InertPage[];
}

// A move is mostly scrolling or a relayout, where dozens of nodes move together: a few are named, the rest counted.
const NOTABLE_MOVES = 3;

interface Entry {
  node: CupNode;
  index: number;
  parent?: Entry;
  /** Roles and names from the root down to this node: where it sits when its identity is unknown (see ancestryOf). */
  ancestry?: string;
  children: Entry[];
  /** The node of the other reading it is paired with (see pair): kept on the entry, as a map's lookups cost a diff's time. */
  partner?: Entry;
  /** Whether its node is a closed menu, asked once (see closedMenu): a rebuilt list's thousands of rows share one parent. */
  closed?: boolean;
}

/** Pairs a node of the new reading with one of the old. */
function join(entry: Entry, old: Entry): void {
  entry.partner = old;
  old.partner = entry;
}

/** Whether the entry's node is a closed menu, asked of its node once. */
function closedMenu(entry: Entry): boolean {
  entry.closed ??= isClosedMenu(entry.node);
  return entry.closed;
}

/** Built when first asked for: most nodes are paired by identity, and a 2000-node tree's paths cost a diff's time. */
function ancestryOf(entry: Entry): string {
  entry.ancestry ??= `${entry.parent ? ancestryOf(entry.parent) : ''}/${entry.node.role}:${entry.node.name}`;
  return entry.ancestry;
}

/** A node's index in its reading: its id is "e<index>". */
export function indexOf(node: CupNode): number {
  // Read digit by digit: a slice and a Number per node were a tenth of a diff of a 2000-node window.
  const id = node.id;
  let index = 0;
  for (let at = 1; at < id.length; at++) {
    const digit = id.charCodeAt(at) - 48;
    if (digit < 0 || digit > 9) return Number(id.slice(1));
    index = index * 10 + digit;
  }
  return index;
}

function flatten(root: CupNode | undefined): Entry[] {
  const entries: Entry[] = [];
  const visit = (node: CupNode, parent: Entry | undefined) => {
    const entry: Entry = { node, index: indexOf(node), parent, children: [] };
    entries.push(entry);
    parent?.children.push(entry);
    const children = node.children;
    if (children) for (let at = 0; at < children.length; at++) visit(children[at]!, entry);
  };
  if (root) visit(root, undefined);
  return entries;
}

/**
 * Pairs old and new nodes: first by identity (the same object, same role), then, for objects the app
 * replaced, by role and name among the unpaired children of the parent's partner, or by role, name and
 * ancestry when the parent is new too. Ties go in tree order. New nodes are visited parents first, so a
 * parent's partner is known when its children are paired. An old node whose object the app still keeps (`kept`)
 * was not replaced, only left out: GTK's stack showed its second page's slider where the first page's had been,
 * with the same role, no name and the same unnamed parents, and the hidden slider's index went to it.
 */
function pair(before: Entry[], after: Entry[], beforeIds: ReadonlyMap<number, string>, afterIds: ReadonlyMap<number, string>, kept?: ReadonlySet<string>): void {
  // Indices are kept from one reading of a window to the next (see numbering.ts), so a node's object is looked for at
  // its own index first; the map by identity is built only for a node found elsewhere.
  // Made as long as the highest index first: filled out of order, a growing array turned into a dictionary.
  let highest = -1;
  for (const entry of before) if (entry.index > highest) highest = entry.index;
  const oldAt = new Array<Entry | undefined>(highest + 1).fill(undefined);
  for (const entry of before) oldAt[entry.index] = entry;
  let byIdentity: Map<string, Entry> | undefined;
  const withIdentity = (identity: string): Entry | undefined => {
    if (!byIdentity) {
      byIdentity = new Map();
      for (const entry of before) {
        const known = beforeIds.get(entry.index);
        if (known !== undefined) byIdentity.set(known, entry);
      }
    }
    return byIdentity.get(identity);
  };
  for (const entry of after) {
    const identity = afterIds.get(entry.index);
    if (identity === undefined) continue;
    const atIndex = oldAt[entry.index];
    const old = atIndex && beforeIds.get(atIndex.index) === identity ? atIndex : withIdentity(identity);
    if (old && old.node.role === entry.node.role && !old.partner) join(entry, old);
  }
  const byAncestry = new Map<string, Entry[]>();
  // Taken already: only what the app destroyed can have been replaced.
  const keptAside = new Set<Entry>();
  for (const entry of before) {
    if (entry.partner) continue;
    const identity = kept && beforeIds.get(entry.index);
    if (identity && kept.has(identity)) {
      keptAside.add(entry);
      continue;
    }
    const ancestry = ancestryOf(entry);
    const list = byAncestry.get(ancestry) ?? [];
    list.push(entry);
    byAncestry.set(ancestry, list);
  }
  for (const entry of after) {
    if (entry.partner) continue;
    const parentPartner = entry.parent?.partner;
    const candidates = parentPartner
      ? parentPartner.children.filter((child) => child.node.role === entry.node.role && child.node.name === entry.node.name)
      : (byAncestry.get(ancestryOf(entry)) ?? []);
    const old = candidates.find((candidate) => !candidate.partner && !keptAside.has(candidate));
    if (old) join(entry, old);
  }
  pairRewrittenTexts(after, keptAside);
}

/** A text with nothing in it: the words of a paragraph or a label, as a browser exposes them. */
function leafText(entry: Entry): boolean {
  return entry.node.role === 'text' && entry.children.length === 0;
}

/**
 * Pairs a text the app made anew with other words in the place of the old one: the one text left unpaired among
 * the children of a paired parent, on both sides. Blink replaces a paragraph's text object whenever the page sets
 * its words, and a page's output line "out: ... street= city= ..." read as one text added and one removed, both
 * cut to the same first 80 characters, where the words that changed lay past them; paired, it is one name change,
 * quoted from where the two differ, and keeps its index.
 */
function pairRewrittenTexts(after: readonly Entry[], keptAside: ReadonlySet<Entry>): void {
  for (const entry of after) {
    if (entry.partner || !leafText(entry) || !entry.parent) continue;
    const parentPartner = entry.parent.partner;
    if (!parentPartner) continue;
    const olds = parentPartner.children.filter((child) => leafText(child) && !child.partner && !keptAside.has(child));
    const news = entry.parent.children.filter((child) => leafText(child) && !child.partner);
    if (olds.length !== 1 || news.length !== 1) continue;
    join(entry, olds[0]!);
  }
}

/** How a node of a later reading was matched to one of an earlier reading: the earlier node's index, and whether by identity. */
export interface NodeMatch {
  index: number;
  /** The same object (its identity is the earlier node's); false: a replacement, matched by role, name and place. */
  byIdentity: boolean;
}

/**
 * The pairing diffTrees uses, by index: for each node of `after` that is a node of `before` (the same object, or
 * the object the app replaced it with), that node. Nodes of `after` not in the map are new.
 */
export function matchNodes(before: DiffReading, after: DiffReading): Map<number, NodeMatch> {
  const newEntries = flatten(after.root);
  pair(flatten(before.root), newEntries, before.identities, after.identities, after.kept);
  const matches = new Map<number, NodeMatch>();
  for (const entry of newEntries) {
    const old = entry.partner;
    if (!old) continue;
    const identity = after.identities.get(entry.index);
    matches.set(entry.index, { index: old.index, byIdentity: identity !== undefined && identity === before.identities.get(old.index) });
  }
  return matches;
}

function described(node: CupNode): DiffNode {
  const value = shownValue(node);
  return { index: indexOf(node), role: node.role, name: node.name, ...(value !== undefined ? { value } : {}) };
}

/**
 * The states an added node's line tells: those that say whether and how it can be acted on. Pluma's context menu read
 * `+ [e469] mi "Cut"` for an item the tree reads `{dis}`, and an agent clicking it met element_disabled a second later.
 */
const ADDED_STATES: ReadonlySet<CupState> = new Set(['disabled', 'checked', 'mixed', 'pressed', 'selected', 'expanded', 'focused', 'modal']);

function describedAdded(node: CupNode): DiffNode {
  const states = (node.states ?? []).filter((state) => ADDED_STATES.has(state));
  return { ...described(node), ...(states.length > 0 ? { states } : {}) };
}

/**
 * A node whose coming and going is told by others, or by nothing: an unnamed filler or panel with nothing to read or
 * do (its children tell it), a lone text child that repeats its parent's name (a list row's label, under wrappers
 * too: loneHolder), as the compact view skips it, or one hidden and off screen.
 */
function toldByOthers(entry: Entry): boolean {
  const { node } = entry;
  if (wrapsOnly(node)) return true;
  // One the app keeps hidden and off screen is in no compact view: its coming or going names nothing an agent can
  // see or reach. Qt's file dialog keeps a list view of the folder, of no size, beside its detail view, and a new folder
  // was told twice, as a list item too, which no view showed; once shown, its states' change says so.
  if (unseenAndUnreachable(node) && !inClosedMenu(entry)) return true;
  return node.role === 'text' && repeatsName(loneHolder(entry)?.node.name, node.name);
}

/** Nothing of its own to read or act on: the compact view hoists such a node's children in its place. */
function wrapsOnly(node: CupNode): boolean {
  return !node.name && !node.value && !hasNonFocusAction(node);
}

/**
 * The node a lone child is read under once the compact view has hoisted the wrappers around it: its parent, through
 * parents that wrap it alone with nothing of their own. dconf Editor's folder rows hold their label two unnamed boxes
 * deep: a folder opened read every row twice in the diff, `+ opt "gnome"` and `+ txt "gnome"`, which filled half its lines.
 */
function loneHolder(entry: Entry): Entry | undefined {
  let holder = entry.parent;
  while (holder && holder.children.length === 1 && wrapsOnly(holder.node) && holder.parent) holder = holder.parent;
  return holder?.children.length === 1 ? holder : undefined;
}

/**
 * Inside a closed menu or list of choices (a combo box's history): hidden and off screen until it opens, and reached
 * by opening it, choosing it by name, or set_value, so its items' coming and going is told (a search's Find added its
 * query to the history, and the diff said nothing of it).
 */
function inClosedMenu(entry: Entry): boolean {
  return outermostClosedMenu(entry) !== undefined;
}

/** The outermost closed menu an entry lies in: the one an agent opens to reach it (a submenu opens from inside it). */
function outermostClosedMenu(entry: Entry): Entry | undefined {
  let outermost: Entry | undefined;
  for (let ancestor = entry.parent; ancestor; ancestor = ancestor.parent) if (closedMenu(ancestor)) outermost = ancestor;
  return outermost;
}

/**
 * Under a closed menu whose counterpart in the other reading left its items unread (a compact read counts a closed
 * menu's items without reading them): one reading holds them, the other does not, and that is no change.
 */
function unreadInOther(entry: Entry): boolean {
  for (let parent = entry.parent; parent; parent = parent.parent) {
    if (!closedMenu(parent)) continue;
    const other = parent.partner?.node;
    return other !== undefined && (other.children ?? []).length === 0 && unreadMenuItems(other) > 0;
  }
  return false;
}

/**
 * The changed nodes whose change a node inside them tells: one with nothing to read or do (an unnamed filler or panel,
 * as toldByOthers's) whose only change is states that a changed node it holds shows too. GTK3 hides and shows a
 * popover's panels with its buttons, and wraps each toolbar button in a tool item it enables with it: Mines' menu
 * read nine `~ [e97] gen states: -hid` lines among its buttons', Pluma's first typing `~ [e20] gen states: -dis` beside
 * `~ [e21] btn "Save" states: -dis`.
 */
function statesToldInside(changed: ReadonlyMap<Entry, NodeChanges>): Set<Entry> {
  // Each ancestor of a changed node, with the state changes ("+hidden", "-disabled") the nodes inside it had.
  const inside = new Map<Entry, Set<string>>();
  for (const [entry, changes] of changed) {
    if (!changes.states) continue;
    const told = stateChangeWords(changes.states);
    for (let ancestor = entry.parent; ancestor; ancestor = ancestor.parent) {
      const seen = inside.get(ancestor) ?? new Set<string>();
      inside.set(ancestor, seen);
      for (const change of told) seen.add(change);
    }
  }
  const echoes = new Set<Entry>();
  for (const [entry, changes] of changed) {
    const { node } = entry;
    if (node.name || node.value || hasNonFocusAction(node) || !changes.states || Object.keys(changes).length !== 1) continue;
    const seen = inside.get(entry);
    if (seen && stateChangeWords(changes.states).every((change) => seen.has(change))) echoes.add(entry);
  }
  return echoes;
}

/**
 * The changed nodes whose only change is a name their content gives them, out of a field inside whose value changed
 * with it: Gecko names a <label> around its field by its words and the field's text, and every typing into such a
 * field read `~ [e104] txt name: "Search fruit" → "Search fruit ap"` beside the field's own value line.
 */
function namesToldInside(changed: ReadonlyMap<Entry, NodeChanges>): Set<Entry> {
  const echoes = new Set<Entry>();
  for (const [entry, changes] of changed) {
    if (!changes.name || Object.keys(changes).length !== 1) continue;
    const now = normaliseWhitespace(changes.name.to);
    const field = entry.children.find((child) => changed.get(child)?.value !== undefined);
    if (field && now === normaliseWhitespace(`${field.node.name} ${field.node.value ?? ''}`)) echoes.add(entry);
  }
  return echoes;
}

/**
 * The changed texts whose only change is a rename their parent's line tells already: the words of a cell or label
 * named by them (about:config's value cell read `~ [e75] cel name: "false (default)" → "true (custom)"` and then the
 * same of its text `[e76] txt`).
 */
function namesToldAbove(changed: ReadonlyMap<Entry, NodeChanges>): Set<Entry> {
  const echoes = new Set<Entry>();
  for (const [entry, changes] of changed) {
    if (entry.node.role !== 'text' || !changes.name || Object.keys(changes).length !== 1 || !entry.parent) continue;
    const above = changed.get(entry.parent);
    const same = (change: TextChange | undefined) => change !== undefined && change.from === changes.name!.from && change.to === changes.name!.to;
    if (above && (same(above.name) || same(above.value))) echoes.add(entry);
  }
  return echoes;
}

/**
 * The changed nodes whose only change is taking or dropping the words of a text they hold: an unnamed block is named
 * by its text child while the child is out of view, which the compact view leaves out, and unnamed again once it shows
 * (see convert.ts's contentName). A Chromium chat scrolled read `~ [e40] rgn name: "Page 1 of 3" → ""` and
 * `txt name: "message 80" → ""` while the page changed nothing: the words only came into view in the child.
 */
function namesToldBelow(changed: ReadonlyMap<Entry, NodeChanges>): Set<Entry> {
  const echoes = new Set<Entry>();
  for (const [entry, changes] of changed) {
    if (!changes.name || Object.keys(changes).length !== 1) continue;
    const from = normaliseWhitespace(changes.name.from);
    const to = normaliseWhitespace(changes.name.to);
    if ((from === '') === (to === '')) continue;
    const words = from || to;
    if (entry.children.some((child) => leafText(child) && normaliseWhitespace(child.node.name) === words)) echoes.add(entry);
  }
  return echoes;
}

/** A node's state changes as words: "+hidden" for one added, "-disabled" for one removed. */
function stateChangeWords(states: NonNullable<NodeChanges['states']>): string[] {
  return [...states.added.map((state) => `+${state}`), ...states.removed.map((state) => `-${state}`)];
}

function textChange(from: string | undefined, to: string | undefined): TextChange | undefined {
  return from === to || (from ?? '') === (to ?? '') ? undefined : { from: from ?? '', to: to ?? '' };
}

// Scrolling in or out of view is a move, not a change: a scroll would otherwise list every row it passed.
const MOVE_STATES: ReadonlySet<CupState> = new Set(['offscreen']);

/**
 * The attributes a diff compares: what the node says of itself. Not its place among others (rowIndex, colIndex,
 * posInSet, setSize), which every later row or item changes when one is added or moved and which the added and moved
 * lines tell; nor keyShortcut, read only for the items of the menus read, so present in one reading and not the other.
 * A header sorted the other way (`sort`), a heading's level, a spin button's range changed by another field, a link's
 * new address, a field the page marks invalid: none of these had shown in a diff, which read "no change in the window's tree".
 */
const COMPARED_ATTRIBUTES = ['level', 'sort', 'valueNow', 'valueMin', 'valueMax', 'orientation', 'rowCount', 'colCount', 'placeholder', 'url', 'live', 'autocomplete', 'roledescription', 'invalid', 'errorMessage'] as const;

/** Whether two nodes' attributes hold the same compared values: looked through by the keys they have (most have none or two). */
function sameAttributes(before: CupAttributes | undefined, after: CupAttributes | undefined): boolean {
  if (before === after) return true;
  for (const key in before) if (before[key as keyof CupAttributes] !== after?.[key as keyof CupAttributes]) return false;
  for (const key in after) if (before?.[key as keyof CupAttributes] !== after[key as keyof CupAttributes]) return false;
  return true;
}

function attributeChanges(before: CupAttributes | undefined, after: CupAttributes | undefined, valueChanged: boolean): NodeChanges['attributes'] {
  // Asked of every node of both readings: a diff of an unchanged 2000-node window spent an eighth of its time here.
  if (sameAttributes(before, after)) return undefined;
  let changes: NonNullable<NodeChanges['attributes']> | undefined;
  for (const key of COMPARED_ATTRIBUTES) {
    const [from, to] = [before?.[key], after?.[key]];
    if (from === to) continue;
    // A range's number moves with the value it shows, which the value's change already tells.
    if (key === 'valueNow' && valueChanged) continue;
    (changes ??= {})[key] = { ...(from !== undefined ? { from } : {}), ...(to !== undefined ? { to } : {}) };
  }
  return changes;
}

/** A node's changes, or undefined for none (most nodes of a reading: no object is made for them). */
function changesOf(before: CupNode, after: CupNode): NodeChanges | undefined {
  let changes: NodeChanges | undefined;
  const name = textChange(before.name, after.name);
  if (name) (changes ??= {}).name = name;
  const value = textChange(before.value, after.value);
  if (value) (changes ??= {}).value = value;
  const description = textChange(before.description, after.description);
  // Words that are the value as well (a drawn surface's description, which convert.ts makes its value: Qalculate's result)
  // are told once, as the value: 'value: "" → "= 42"; description: "" → "= 42"' said the one change twice.
  const toldAsValue = value !== undefined && description !== undefined && description.from === value.from && description.to === value.to;
  if (description && !toldAsValue) (changes ??= {}).description = description;
  const attributes = attributeChanges(before.attributes, after.attributes, value !== undefined);
  if (attributes) (changes ??= {}).attributes = attributes;
  // Most nodes of a reading keep their states, in the same order: compared as they are before any set is built.
  if (sameList(before.states, after.states)) return changes;
  const oldStates = new Set(before.states ?? []);
  const newStates = new Set(after.states ?? []);
  const added = [...newStates].filter((state) => !oldStates.has(state) && !MOVE_STATES.has(state));
  const removed = [...oldStates].filter((state) => !newStates.has(state) && !MOVE_STATES.has(state));
  if (added.length > 0 || removed.length > 0) (changes ??= {}).states = { added, removed };
  return changes;
}

function sameList<T>(a: readonly T[] | undefined, b: readonly T[] | undefined): boolean {
  const left = a ?? [];
  const right = b ?? [];
  if (left.length !== right.length) return false;
  // A loop, not every(): asked of each node of both readings, the callback was a fifth of a diff's time.
  for (let at = 0; at < left.length; at++) if (left[at] !== right[at]) return false;
  return true;
}

/** Roles that hold or caption controls rather than being one, whatever click a page's listener gives them. */
const CONTAINER_ROLES: ReadonlySet<string> = new Set(['group', 'region', 'generic', 'heading', 'text', 'list', 'listitem', 'document', 'window', 'dialog', 'toolbar', 'form', 'table', 'row']);

function isContainerRole(role: CupRole): boolean {
  return CONTAINER_ROLES.has(role);
}

function movedOnScreen(before: CupNode, after: CupNode): boolean {
  // A node hidden in either reading has no place it moved from or to: it turned hidden or shown, which its state change
  // says. Clocks' Alarms tab, clicked, read each row of the World page it hid "+hid", and again among "24 moved".
  if (before.states?.includes('hidden') || after.states?.includes('hidden')) return false;
  for (const state of MOVE_STATES) if ((before.states ?? []).includes(state) !== (after.states ?? []).includes(state)) return true;
  if (!before.bounds || !after.bounds) return before.bounds !== after.bounds;
  return before.bounds.x !== after.bounds.x || before.bounds.y !== after.bounds.y;
}

/** What changed from one reading of a window to the next, every index but a removed node's naming the new reading. */
export function diffTrees(before: DiffReading, after: DiffReading): TreeDiff {
  const oldEntries = flatten(before.root);
  const newEntries = flatten(after.root);
  pair(oldEntries, newEntries, before.identities, after.identities, after.kept);

  const changed: ChangedNode[] = [];
  const moved: MovedNode[] = [];
  // Moves that brought a node into view (off screen before, not now): a tab switched shows its page's controls.
  const cameIntoView = new Set<MovedNode>();
  // Of those, the controls (something to act on), which are what a search or a switched pane brought to act on.
  const controlsIntoView = new Set<MovedNode>();
  const changedEntries = new Map<Entry, NodeChanges>();
  for (const entry of newEntries) {
    const old = entry.partner;
    // Unseen before and after (see toldByOthers), its changes are no one's to see: the hidden list view's items
    // lost their selection as the shown view's rows did, and each was told twice.
    if (!old || (unseenAndUnreachable(old.node) && unseenAndUnreachable(entry.node) && !inClosedMenu(entry))) continue;
    const changes = changesOf(old.node, entry.node);
    if (changes) changedEntries.set(entry, changes);
    const reparented = entry.parent?.partner !== old.parent;
    if (reparented || movedOnScreen(old.node, entry.node)) {
      const move = { ...described(entry.node), reparented };
      moved.push(move);
      if (old.node.states?.includes('offscreen') && !entry.node.states?.includes('offscreen')) {
        cameIntoView.add(move);
        if (hasNonFocusAction(entry.node) && !isContainerRole(entry.node.role)) controlsIntoView.add(move);
      }
    }
  }
  const echoes = new Set([...statesToldInside(changedEntries), ...namesToldInside(changedEntries), ...namesToldAbove(changedEntries), ...namesToldBelow(changedEntries)]);
  for (const [entry, changes] of changedEntries) if (!echoes.has(entry)) changed.push({ ...described(entry.node), changes });
  // The moves worth naming: a new parent first, then named ones (an agent can tell those apart), those brought into
  // view before those taken out of it (Thunar's Behavior tab, clicked, named three controls of the Display page it
  // hid, and none of its own), controls before the groups, headings and texts around them (Firefox's settings searched
  // for "zoom" named the Zoom group, its caption and its heading, and not the Default zoom box the search brought), then
  // unnamed ones, which their index and role still point at ("↕ 1 moved" in gedit said nothing of what had moved),
  // shown in tree order (`moved` is in tree order; indices are not, once a window's numbering has outlived some changes).
  const named = moved.filter((node) => !node.reparented && node.name);
  const picked = new Set(
    [
      ...moved.filter((node) => node.reparented),
      ...named.filter((node) => controlsIntoView.has(node)),
      ...named.filter((node) => cameIntoView.has(node)),
      ...named.filter((node) => !cameIntoView.has(node)),
      ...moved.filter((node) => !node.reparented && !node.name),
    ]
      .filter((node, at, ranked) => ranked.indexOf(node) === at)
      .slice(0, NOTABLE_MOVES),
  );
  const notable = moved.filter((node) => picked.has(node));
  const gone = oldEntries.filter((entry) => !entry.partner && !toldByOthers(entry) && !unreadInOther(entry));
  const inert = inertPages(newEntries, gone);
  const behindDialogs = new Set(inert.flatMap((page) => page.entries));
  const added = newEntries.filter((entry) => !entry.partner && !toldByOthers(entry) && !unreadInOther(entry));
  const back = pagesBack(newEntries, added, after.returned);
  const returning = new Set(back.flatMap((page) => page.entries));
  return {
    added: added.filter((entry) => !returning.has(entry)).map((entry) => {
      const menu = outermostClosedMenu(entry);
      return { ...describedAdded(entry.node), ...(menu ? { closedMenu: described(menu.node) } : {}) };
    }),
    removed: gone.filter((entry) => !behindDialogs.has(entry)).map((entry) => {
      // Only a menu still there: one gone with its items is a removed line of its own.
      const menu = outermostClosedMenu(entry)?.partner;
      return { ...described(entry.node), ...(menu ? { closedMenu: described(menu.node) } : {}) };
    }),
    changed,
    moved: { count: moved.length, notable },
    ...(inert.length > 0 ? { inert: inert.map(({ dialog, entries }) => ({ dialog, count: entries.length })) } : {}),
    ...(back.length > 0 ? { back: back.map(({ dialog, entries }) => ({ dialog, count: entries.length })) } : {}),
  };
}

/**
 * The pages back since the old reading from behind a modal dialog that closed, each with its added nodes that had
 * been in the page before the dialog opened (`returned`): the mirror of inertPages. A page of 42 nodes came back
 * from behind a closed <dialog> as 42 lines of added nodes; what the page made new meanwhile is still added.
 */
function pagesBack(after: readonly Entry[], added: readonly Entry[], returned: ReadonlySet<number> | undefined): { dialog: DiffNode; entries: Entry[] }[] {
  if (!returned?.size) return [];
  const pages: { dialog: DiffNode; page: Entry; entries: Entry[] }[] = [];
  for (const entry of after) {
    const old = entry.partner;
    if (old && showsDialogsOnly(old.node) && !showsDialogsOnly(entry.node)) pages.push({ dialog: described(old.node.children![0]!), page: entry, entries: [] });
  }
  return withTheirNodes(pages, added.filter((entry) => returned.has(entry.index)));
}

/** The pages that hold any of `entries` (each under its nearest page), each with those it holds. */
function withTheirNodes<P extends { page: Entry; entries: Entry[] }>(pages: P[], entries: readonly Entry[]): P[] {
  if (pages.length === 0) return [];
  for (const entry of entries) {
    for (let above = entry.parent; above; above = above.parent) {
      const page = pages.find((each) => each.page === above);
      if (page) {
        page.entries.push(entry);
        break;
      }
    }
  }
  return pages.filter((page) => page.entries.length > 0);
}

/**
 * The pages a modal dialog opened over since the old reading, each with the old nodes of the page gone with it: Blink
 * and Gecko leave a page behind a modal <dialog> out of the tree, and a click that opened one read 43 nodes removed and
 * the button clicked "gone", though the page still shows behind the dialog and comes back when it closes.
 */
function inertPages(after: readonly Entry[], gone: readonly Entry[]): { dialog: DiffNode; entries: Entry[] }[] {
  const pages: { dialog: DiffNode; page: Entry; entries: Entry[] }[] = [];
  for (const entry of after) {
    const old = entry.partner;
    if (old && showsDialogsOnly(entry.node) && !showsDialogsOnly(old.node)) pages.push({ dialog: described(entry.node.children![0]!), page: old, entries: [] });
  }
  return withTheirNodes(pages, gone);
}
