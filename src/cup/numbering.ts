// A window's element indices across its readings in one session. An element keeps its index from one reading to
// the next, and a new element takes a number the window's readings never used, so an index an agent read earlier
// names the same object, or nothing: an action that adds nodes before a button cannot shift the button's index
// onto its neighbour.
import { indexOf, matchNodes, type DiffReading, type NodeMatch } from './diff.js';
import { showsDialogsOnly } from './inert-page.js';
import { unreadCounts, unreadMenuItems } from './prune.js';
import type { CupNode, CupRole } from './types.js';

// Identities remembered beyond the last reading (what a compact read left out, a popup that closed), so their
// elements get their numbers back when a reading holds them again; a window that churns through more forgets the oldest.
const REMEMBERED_IDENTITIES = 20_000;

/** A reading as the backend numbered it, and the same reading in the window's own numbering. */
export interface NumberedTree {
  /** A copy of the reading's tree, every id "e<index>" in the window's numbering. */
  root: CupNode;
  /** The window's index of each node, by the index the reading gave it. */
  numbers: ReadonlyMap<number, number>;
  /** The reading's object identities by the window's indices. */
  identities: ReadonlyMap<number, string>;
  /** The nodes a closed modal dialog gave back, numbered as before it opened (DiffReading.returned), by the window's indices. */
  returned: ReadonlySet<number>;
}

interface Placed {
  node: CupNode;
  /** The index the backend gave it. */
  index: number;
  parent?: CupNode;
  /** Some element above it was read only in part (its unreadChildren, a closed menu's items): what looks replaced there may just be unread. */
  belowUnread: boolean;
}

/** The web documents of a tree by index. */
function documentsOf(root: CupNode): Map<number, CupNode> {
  const documents = new Map<number, CupNode>();
  const visit = (node: CupNode) => {
    if (node.role === 'document') documents.set(indexOf(node), node);
    for (const child of node.children ?? []) visit(child);
  };
  visit(root);
  return documents;
}

/** The indices of a node and of everything below it. */
function indicesBelow(node: CupNode, into = new Set<number>()): Set<number> {
  into.add(indexOf(node));
  for (const child of node.children ?? []) indicesBelow(child, into);
  return into;
}

function preorder(root: CupNode): Placed[] {
  const placed: Placed[] = [];
  const visit = (node: CupNode, parent: CupNode | undefined, belowUnread: boolean) => {
    placed.push({ node, index: indexOf(node), parent, belowUnread });
    const counts = unreadCounts(node);
    const partial = belowUnread || counts.up + counts.down + counts.left + counts.right + unreadMenuItems(node) > 0;
    for (const child of node.children ?? []) visit(child, node, partial);
  };
  visit(root, undefined, false);
  return placed;
}

/** Whether `node` is the only child of `parent` with its role and name. */
function onlyOneNamed(node: CupNode, parent: CupNode | undefined): boolean {
  return (parent?.children ?? [node]).filter((child) => child.role === node.role && child.name === node.name).length === 1;
}

/**
 * A node that took the place of one of the last reading inside a container read only in part, where it is taken for
 * that one all the same: the same role and the same name, which no other child of either parent has, in the same box.
 * A spreadsheet makes a new object for each cell it is asked for once it has dropped the last (LibreOffice does
 * after some seconds idle), and each was taken for a new element; a row that merely scrolled into the box of one
 * scrolled away has another name, or shares its name with others.
 */
function unmistakable(was: Placed | undefined, now: Placed): boolean {
  if (!was || !now.node.name || was.node.role !== now.node.role || was.node.name !== now.node.name) return false;
  const [a, b] = [was.node.bounds, now.node.bounds];
  if (!a || !b || a.x !== b.x || a.y !== b.y || a.w !== b.w || a.h !== b.h) return false;
  return onlyOneNamed(was.node, was.parent) && onlyOneNamed(now.node, now.parent);
}

/** The tree with each node's id replaced by its number in `numbers` (a copy: readings may be shared). */
function renumbered(node: CupNode, numbers: ReadonlyMap<number, number>): CupNode {
  const copy: CupNode = { ...node, id: `e${numbers.get(indexOf(node))!}` };
  if (node.children) copy.children = node.children.map((child) => renumbered(child, numbers));
  return copy;
}

/**
 * The numbering of one window's readings. The first reading keeps the backend's numbers (depth-first order).
 * Each later one is matched to the last as an action's diff matches them (diff.ts matchNodes): a node that is
 * the same object as one of the last reading keeps its index; else one whose object an earlier reading numbered
 * gets that number back (same role); else one the app put in place of a node that is gone (same role, name and
 * place) takes that node's index, unless it lies in a container read only in part, where the node that seems
 * gone may only be unread, or the app still keeps the gone node's object (the reading's `kept`: asked of the app
 * for the nodes `replacedObjects` names); else it gets the next number never used.
 */
export class WindowNumbering {
  private last?: DiffReading;
  /** The matching of the last reading to the one replacedObjects was asked about, for number() to reuse. */
  private asked?: { last: DiffReading; root: CupNode; matches: Map<number, NodeMatch> };
  private readonly known = new Map<string, { index: number; role: CupRole }>();
  /** Which identity each remembered index was last given to, so an index given to another forgets the first. */
  private readonly owners = new Map<number, string>();
  private next = 0;
  /**
   * The readings from before a modal dialog made a web page inert, by the page's document's index: Blink leaves the
   * page out of the tree while the dialog is open and makes most of its objects anew when it closes, and a page of 42
   * nodes came back under new indices (its Delete button e170 read e286), each node listed as added.
   */
  private readonly behindDialogs = new Map<number, DiffReading>();

  /** This numbering gave `index` out, to an element of some reading of the window. */
  issued(index: number): boolean {
    return Number.isInteger(index) && index >= 0 && index < this.next;
  }

  /**
   * The object identities of the last reading's nodes that nodes of `reading` could be taken for the replacements
   * of (absent from it, with the role and name of one of its new nodes). Whether the app still keeps those objects
   * tells one it destroyed and made anew from one only hidden (another page of a stack), scrolled out or in a closed
   * popup, whose index must stay its own. The caller asks the app and passes those it keeps to number() as `kept`.
   */
  replacedObjects(reading: DiffReading & { root: CupNode }): string[] {
    if (!this.last?.root) return [];
    const matches = matchNodes(this.last, reading);
    this.asked = { last: this.last, root: reading.root, matches };
    // Not only those paired now: an old node found kept leaves its look-alike to the next old node of that role and
    // name (GTK's stack showed a slider where two unnamed sliders had been), so every old node the reading does not
    // hold that a new node looks like is asked about.
    const same = new Set<number>();
    const looks = new Set<string>();
    const look = (node: CupNode) => `${node.role}\u0000${node.name}`;
    const visit = (node: CupNode) => {
      const match = matches.get(indexOf(node));
      if (match?.byIdentity) same.add(match.index);
      else looks.add(look(node));
      for (const child of node.children ?? []) visit(child);
    };
    visit(reading.root);
    const objects: string[] = [];
    for (const { node, index } of preorder(this.last.root!)) {
      const identity = this.last.identities.get(index);
      if (identity !== undefined && !same.has(index) && looks.has(look(node))) objects.push(identity);
    }
    return objects;
  }

  /** The reading in this window's numbering; it becomes the one the next reading is matched to. */
  number(reading: DiffReading & { root: CupNode }): NumberedTree {
    const placed = preorder(reading.root);
    const numbers = this.last ? this.matched(placed, reading) : new Map(placed.map(({ index }) => [index, index]));
    for (const number of numbers.values()) if (number >= this.next) this.next = number + 1;
    // Numbers that are the backend's own (a first reading, or nothing moved) leave the tree as it is: no copy.
    let kept = true;
    for (const [index, number] of numbers) if (index !== number) kept = false;
    const root = kept ? reading.root : renumbered(reading.root, numbers);
    const identities = new Map<number, string>();
    for (const { node, index } of placed) {
      const identity = reading.identities.get(index);
      if (identity === undefined) continue;
      const number = numbers.get(index)!;
      identities.set(number, identity);
      this.remember(identity, number, node.role);
    }
    const returned = this.pagesBack(root);
    this.last = { root, identities };
    this.asked = undefined;
    return { root, numbers, identities, returned };
  }

  /**
   * Notes the pages a modal dialog made inert since the last reading (that reading is kept, to number their nodes
   * when they come back), and gives the indices of the nodes of pages back from behind a dialog that closed.
   */
  private pagesBack(root: CupNode): Set<number> {
    const returned = new Set<number>();
    if (!this.last?.root) return returned;
    const documents = documentsOf(root);
    const lastDocuments = documentsOf(this.last.root);
    for (const index of this.behindDialogs.keys()) if (!documents.has(index)) this.behindDialogs.delete(index);
    for (const [index, document] of documents) {
      const was = lastDocuments.get(index);
      if (!was) continue;
      if (showsDialogsOnly(document) && !showsDialogsOnly(was)) this.behindDialogs.set(index, this.last);
      const before = this.behindDialogs.get(index);
      if (!before || showsDialogsOnly(document)) continue;
      this.behindDialogs.delete(index);
      const page = documentsOf(before.root!).get(index);
      const held = page ? indicesBelow(page) : new Set<number>();
      const shown = indicesBelow(was);
      for (const number of indicesBelow(document)) if (number !== index && held.has(number) && !shown.has(number)) returned.add(number);
    }
    return returned;
  }

  private matched(placed: readonly Placed[], reading: DiffReading): Map<number, number> {
    // The matching replacedObjects made serves when the app keeps none of the objects it named (the usual case).
    const asked = this.asked;
    const matches = asked && asked.last === this.last && asked.root === reading.root && !reading.kept?.size ? asked.matches : matchNodes(this.last!, reading);
    const numbers = new Map<number, number>();
    const used = new Set<number>();
    // The same objects first, so no other node can take their indices.
    for (const [index, match] of matches) {
      if (!match.byIdentity) continue;
      numbers.set(index, match.index);
      used.add(match.index);
    }
    const back = this.pageMatches(placed, reading, numbers);
    // The last reading's nodes by index, made only when a replaced node below an unread part needs them.
    let lastPlaced: Map<number, Placed> | undefined;
    const lastOf = (at: number) => (lastPlaced ??= new Map(this.last?.root ? preorder(this.last.root).map((old) => [old.index, old]) : [])).get(at);
    for (const entry of placed) {
      const { node, index, belowUnread } = entry;
      if (numbers.has(index)) continue;
      const identity = reading.identities.get(index);
      const known = identity === undefined ? undefined : this.known.get(identity);
      const replaced = matches.get(index);
      let number: number;
      const returning = back.get(index);
      if (known && known.role === node.role && !used.has(known.index)) number = known.index;
      else if (returning !== undefined && !used.has(returning)) number = returning;
      else if (replaced && !used.has(replaced.index) && (!belowUnread || unmistakable(lastOf(replaced.index), entry))) number = replaced.index;
      else number = this.next++;
      numbers.set(index, number);
      used.add(number);
    }
    return numbers;
  }

  /**
   * For the nodes of a page back from behind a modal dialog that closed (its document, the same object, no longer
   * holds only dialogs), the index each had before the dialog opened: the node it pairs with in that reading (the
   * same object, or the same role, name and ancestry), by the reading's own index.
   */
  private pageMatches(placed: readonly Placed[], reading: DiffReading, numbers: ReadonlyMap<number, number>): Map<number, number> {
    const back = new Map<number, number>();
    if (this.behindDialogs.size === 0) return back;
    const below = new Set<number>();
    for (const { node, index } of placed) {
      const number = numbers.get(index);
      if (node.role === 'document' && number !== undefined && this.behindDialogs.has(number) && !showsDialogsOnly(node)) {
        for (const inside of indicesBelow(node)) if (inside !== index) below.add(inside);
        const before = this.behindDialogs.get(number)!;
        for (const [at, match] of matchNodes(before, reading)) if (below.has(at)) back.set(at, match.index);
      }
    }
    return back;
  }

  private remember(identity: string, index: number, role: CupRole): void {
    const previous = this.known.get(identity);
    // Most elements of a reading are where they were: nothing to change.
    if (previous && previous.index === index && previous.role === role) return;
    const previousOwner = this.owners.get(index);
    if (previousOwner !== undefined && previousOwner !== identity) this.known.delete(previousOwner);
    if (previous && previous.index !== index && this.owners.get(previous.index) === identity) this.owners.delete(previous.index);
    this.owners.set(index, identity);
    this.known.set(identity, { index, role });
    // The oldest remembered go first; one still in the last reading is matched there without this memory.
    while (this.known.size > REMEMBERED_IDENTITIES) {
      const [oldest, entry] = this.known.entries().next().value as [string, { index: number }];
      this.known.delete(oldest);
      if (this.owners.get(entry.index) === oldest) this.owners.delete(entry.index);
    }
  }
}
