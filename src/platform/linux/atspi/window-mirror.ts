// A window's accessibility tree kept current from its application's AT-SPI events: after the first walk,
// a read re-reads only what events (and the checks below) say may have changed, and walks the whole
// window again whenever the mirror cannot be shown to be current.
import { ATSPI_ROLE, ATSPI_STATE } from '../../../cup/atspi/constants.js';
import type { AtspiRawNode } from '../../../cup/atspi/raw-node.js';
import { hasState } from '../../../cup/atspi/states.js';
import { DBusClosedError, DBusError, DBusTimeoutError } from '../dbus/index.js';
import { getProperty } from '../dbus/properties.js';
import type { X11Connection } from '../x11/index.js';
import type { AtspiClient } from './client.js';
import { childPath, type AccessibilityEvent } from './event-monitor.js';
import { heldAncestor } from './held-ancestor.js';
import { anchorBox } from './link-anchor.js';
import { atspiInterface, type ObjectRef } from './object-ref.js';
import { everywhere, changesWithoutEvent, readTree, scrollingRoles, scrollViewInside, viewInside, type ReadTreeOptions, type ReadTreeResult } from './tree-reader.js';
import type { Rect } from './visible-children.js';

/**
 * More distinct changes than this between two reads is a burst: re-reading each object would cost more than a
 * walk. Repeats of one kind of change of one object count once (a hundred typed keys send four hundred events
 * about one field, which one re-read of it covers).
 */
const MAX_PENDING_EVENTS = 256;
/** Objects the mirror does not hold that events named, each placed by asking for its parents. */
const MAX_UNKNOWN_OBJECTS = 64;
/** Calls in flight at once for the per-read checks (child counts, boxes). */
const CHECK_CONCURRENCY = 128;

/**
 * GTK3 adds a child to a box, grid, list box, paned or overlay (gtk_box_pack_start, gtk_grid_attach,
 * gtk_list_box_insert) without a children-changed event: only gtk_container_add announces it. The
 * widgets of these roles hold no such children (a GtkBin's one child comes only through
 * gtk_container_add; a label's links come with its text, announced), so only the others have their child
 * count checked on every read.
 */
const announcedChildrenRoles = new Set([
  ATSPI_ROLE.LABEL,
  ATSPI_ROLE.PUSH_BUTTON,
  ATSPI_ROLE.TOGGLE_BUTTON,
  ATSPI_ROLE.CHECK_BOX,
  ATSPI_ROLE.RADIO_BUTTON,
  ATSPI_ROLE.ENTRY,
  ATSPI_ROLE.TEXT,
  ATSPI_ROLE.PASSWORD_TEXT,
  ATSPI_ROLE.SEPARATOR,
  ATSPI_ROLE.SCROLL_BAR,
  ATSPI_ROLE.SLIDER,
  ATSPI_ROLE.SPIN_BUTTON,
  ATSPI_ROLE.PROGRESS_BAR,
  ATSPI_ROLE.LIST_ITEM,
  ATSPI_ROLE.DRAWING_AREA,
  ATSPI_ROLE.ICON,
  ATSPI_ROLE.IMAGE,
]);

/**
 * State changes after which an object's descendants are placed or shown differently, so they are re-read too;
 * a document that turns busy (or idle) is loading another page into itself. A container turned insensitive (or
 * sensitive) takes everything in it along, and GTK (2 and 3) announces the change for the container alone: the
 * labels beside Pidgin's port range stayed disabled in the mirror after its check box enabled their row.
 */
const subtreeStates = new Set(['showing', 'visible', 'expanded', 'collapsed', 'iconified', 'busy', 'sensitive', 'enabled']);
/** A document's events that say a page was loaded into it (document:load-complete, document:reload). */
const pageLoads = new Set(['LoadComplete', 'Reload']);
/**
 * A table's events that say its rows or columns now stand in another order, or its model was replaced: the same
 * child objects in new places, which no other event announces. A file chooser's list re-sorted by a click on its
 * Name header sent RowReordered alone, and the click's diff said the window had not changed.
 */
const reorderings = new Set(['RowReordered', 'ColumnReordered', 'ModelChanged']);
/**
 * Events that change no object's size or place. After any other, boxes anywhere in the window may have moved
 * (a longer label widens its box and pushes its neighbours), which toolkits announce unevenly or only to
 * clients that ask for every bounds event of every application, so every box is read again.
 */
const inPlaceStates = new Set(['focused', 'selected', 'checked', 'armed', 'pressed', 'active', 'indeterminate', 'sensitive', 'enabled']);
const inPlaceEvents = new Set(['SelectionChanged', 'ActiveDescendantChanged', 'TextCaretMoved', 'TextSelectionChanged', 'Activate', 'Deactivate']);
function keepsLayout(event: AccessibilityEvent): boolean {
  return event.kind === 'StateChanged' ? inPlaceStates.has(event.detail) : inPlaceEvents.has(event.kind);
}

/**
 * Whether a node is a one-line field: its box is the toolkit's, whatever text it holds (a GTK entry, a Qt line edit,
 * a spin button scroll what does not fit), so its text changing moves nothing. A typing's events named the field
 * alone, and every box of the window was read again after each, and once more at the next read.
 */
function oneLineField(node: AtspiRawNode | undefined): boolean {
  return node !== undefined && hasState(node.states, ATSPI_STATE.SINGLE_LINE) === true && hasState(node.states, ATSPI_STATE.EDITABLE) === true;
}

/**
 * Marks an object to be re-read, and the cells inside it when it is a cell: GTK3 makes a tree view's cell of several
 * renderers (a file's icon beside its name) a cell holding a cell for each, whose states are their row's and change
 * without an event of their own, so the mirror kept the icon and name of a file Thunar no longer had selected as
 * selected.
 */
function markWithParts(node: AtspiRawNode, mark: (node: AtspiRawNode, kind: Dirt) => void): void {
  mark(node, 'own');
  if (node.role === ATSPI_ROLE.TABLE_CELL) for (const part of node.children) if (part.role === ATSPI_ROLE.TABLE_CELL) mark(part, 'own');
}

/** What a toolkit leaves unannounced that a mirror of its windows checks on every read (see ToolkitQuirks). */
export interface MirrorPolicy {
  addsChildrenSilently: boolean;
  scrollsSilently: boolean;
  renamesButtonsSilently: boolean;
  describesUiSilently: boolean;
}

/** Buttons a toolkit may rename silently (see ToolkitQuirks.renamesButtonsSilently): those named by a label they hide. */
const labelHidingRoles = new Set([ATSPI_ROLE.PUSH_BUTTON, ATSPI_ROLE.TOGGLE_BUTTON]);
/**
 * A document is named by its page's title, which a script changes (document.title) with no event for the document:
 * Blink announces the new name of the window and of its tab, not of the page, and the mirror kept the page's first
 * title while the window's title counted on. Their names are asked on every read, whatever the toolkit (one call each).
 */
const titledRoles = new Set([ATSPI_ROLE.DOCUMENT_WEB, ATSPI_ROLE.DOCUMENT_FRAME]);

interface Entry {
  node: AtspiRawNode;
  parent?: AtspiRawNode;
  depth: number;
}

/** Re-read the object's own fields, or it and everything under it. */
type Dirt = 'own' | 'subtree';

/** The window's place and size on screen, from the X server. */
interface Geometry {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A child a container announced as added: its path, and its index at the time. */
interface Addition {
  path: string;
  at: number;
}

/** What a batch of events says to re-read (see WindowMirror.dirtFrom). */
interface Changes {
  dirt: Map<string, Dirt>;
  mark: (node: AtspiRawNode, kind: Dirt) => void;
  unknown: Set<string>;
  /** Children announced as added to mirrored containers, by container, in the order the app added them. */
  additions: Map<string, Addition[]>;
}

/** How a read brings the mirror up to date. */
export interface MirrorReadMode {
  /** Walk the whole window beside the mirror, leaving the mirror as it is. */
  fresh?: boolean;
  /**
   * Apply only the events heard since the last read: re-read what they name and leave the checks for what
   * apps change without an event (child counts, boxes, fields no event announces) to the next read. The
   * read says which objects it read now (MirrorRead.current); the rest are as an earlier read left them.
   */
  eventsOnly?: boolean;
  /** Make every check but the boxes' (TreeLimits.boxesLater): a box check owed stays owed to the next read. */
  boxesLater?: boolean;
}

export interface MirrorRead {
  read: ReadTreeResult;
  /** The tree came from the mirror (with the re-reads it needed), not a walk of the whole window. */
  fromMirror: boolean;
  /** Why the window was walked, when it was. */
  walkedBecause?: string;
  /** Objects re-read (own fields or subtrees) to bring the mirror up to date. */
  rereads: number;
  /**
   * After an eventsOnly read that left the per-read checks undone: the paths of the objects read from the
   * application by this read. Absent when every object was read or checked now.
   */
  current?: ReadonlySet<string>;
}

class Distrust extends Error {}

/**
 * One window's mirror. Reads are serialised: each brings the mirror up to date from the events heard
 * since the last one, or walks.
 *
 * Never stale: a read first makes a call to the application over the bus, through which its events come,
 * so every event the application sent before it answered has been heard (D-Bus keeps one sender's messages
 * in order). Events that arrive while a read runs stay pending for the next read. The window's X geometry
 * is compared (extents are screen coordinates: a move changes every box; a resize has every box read
 * again), and the child counts of the containers whose additions GTK3 may not announce are asked again.
 * Anything else it cannot account for (a burst, an event of an object it cannot place, a failed call)
 * makes it walk. A read of the events alone (MirrorReadMode.eventsOnly) leaves these checks to the next
 * read and says which objects it read now: those are current, the rest only as current as the last read.
 */
export class WindowMirror {
  private root?: AtspiRawNode;
  private readonly index = new Map<string, Entry>();
  private pending: AccessibilityEvent[] = [];
  /** What the pending events are about (object, kind, detail): all a re-read is decided by (see classify). */
  private readonly pendingKeys = new Set<string>();
  private overflowed = false;
  /**
   * GTK3 lays out a moment after the change that caused it, and says nothing when it does (bounds-changed
   * events would, but asking for them makes every application on the bus send them, and an office suite
   * scrolling its cells then answers nothing else for seconds). So after a change that may move boxes, the
   * boxes are read again on every read until one finds none moved.
   */
  private boxesUnsettled = false;
  private geometry?: Geometry;
  private deepest = 0;
  private listening?: Promise<void>;
  private stopListening?: () => void;
  private closed = false;
  private queue: Promise<unknown> = Promise.resolve();
  /** The last read the app let time out, and when it did (see read). */
  private lastTimeout?: { at: number; read: MirrorRead };
  /**
   * The mirror holds the visible part only (ReadTreeOptions.visibleOnly, where geometry decides what is shown):
   * a read of the other kind walks, and the mirror then holds what that walk read.
   */
  private visibleOnly = false;

  constructor(
    private readonly client: AtspiClient,
    private readonly x: X11Connection,
    readonly windowId: number,
    readonly top: ObjectRef,
    private readonly policy: MirrorPolicy,
  ) {}

  /** Reads the window: from the mirror when it is provably current, else by a walk that renews it. */
  read(options: ReadTreeOptions, mode: MirrorReadMode = {}): Promise<MirrorRead> {
    const queuedAt = performance.now();
    // A read that waited for one the app let time out takes that answer: the app did not answer while it waited, and
    // asking again would wait out the same timeout (see ReadCoalescer's `unanswered`).
    const run = this.queue.then(() => (this.lastTimeout && this.lastTimeout.at >= queuedAt ? this.lastTimeout.read : this.readNow(options, mode)));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Whether the object is part of the window as last read (an event of it is a change of this window). */
  holds(bus: string, path: string): boolean {
    return bus === this.top.bus && this.index.has(path);
  }

  close(): void {
    this.closed = true;
    this.stopListening?.();
    this.drop();
  }

  private listen(): Promise<void> {
    this.listening ??= (async () => {
      const stop = await this.client.events.listen((event) => {
        if (event.sender !== this.top.bus) return;
        const key = `${event.path}\n${event.kind}\n${event.detail}`;
        if (this.pendingKeys.has(key)) return;
        if (this.pending.length >= MAX_PENDING_EVENTS) this.overflowed = true;
        else {
          this.pending.push(event);
          this.pendingKeys.add(key);
        }
      });
      if (this.closed) stop();
      else this.stopListening = stop;
    })();
    return this.listening;
  }

  private async readNow(options: ReadTreeOptions, mode: MirrorReadMode): Promise<MirrorRead> {
    const started = Date.now();
    try {
      await this.listen();
    } catch {
      this.listening = undefined;
      return this.walk(options, 'the subscription to its events failed', undefined);
    }
    const [geometry, synced] = await Promise.all([this.windowGeometry(), this.sync(options.callTimeoutMs)]);
    // An app that let the call time out is hung or stopped: a walk would wait out the same timeout again.
    if (synced === 'timeout') {
      this.drop();
      const failure = `the application (${this.top.bus}) did not answer within ${options.callTimeoutMs} ms; it may be hung or stopped`;
      const read: MirrorRead = { read: { nodeCount: 0, truncated: false, failure, unresponsive: true, calls: 1, elapsedMs: Date.now() - started }, fromMirror: false, walkedBecause: failure, rereads: 0 };
      this.lastTimeout = { at: performance.now(), read };
      return read;
    }
    if (mode.fresh) return this.walkAside(options, 'a fresh walk was asked for');
    if (!this.root) return this.walk(options, 'first read', geometry);
    if (!synced) return this.walk(options, 'the application did not answer over the bus', geometry);
    if (this.deepest > options.maxDepth || this.index.size > options.maxNodes) return this.walkAside(options, 'the limits are below the mirror');
    if (this.overflowed) return this.walk(options, 'a burst of events', geometry);
    if (!options.trustShowing && Boolean(options.visibleOnly) !== this.visibleOnly) {
      return this.walk(options, this.visibleOnly ? 'the mirror holds the visible part only' : 'the visible part was asked for', geometry);
    }
    // The checks, the window's geometry among them, are owed to the next read: a move or resize stays
    // unrecorded, so that read sees it too.
    if (mode.eventsOnly) return this.readEvents(options, started, geometry);
    // Extents are screen coordinates: a move changes every box. A change of size alone leaves them where they
    // were until the app lays out again, which reading every box again (as after any layout) finds.
    if (!geometry || !this.geometry || geometry.x !== this.geometry.x || geometry.y !== this.geometry.y) return this.walk(options, 'the window moved', geometry);
    const resized = geometry.width !== this.geometry.width || geometry.height !== this.geometry.height;
    const batch = this.takePending();
    try {
      const rereads = await this.update(batch, options, started, resized, mode.boxesLater ?? false);
      this.geometry = geometry;
      return { read: this.mirrored(started), fromMirror: true, rereads };
    } catch (error) {
      if (!(error instanceof Distrust)) throw error;
      return this.walk(options, error.message, geometry);
    }
  }

  /** Whether an event changes no box (see keepsLayout), a one-line field's text changing included. */
  private keepsLayout(event: AccessibilityEvent): boolean {
    return keepsLayout(event) || (event.kind === 'TextChanged' && event.sender === this.top.bus && oneLineField(this.index.get(event.path)?.node));
  }

  private mirrored(started: number): ReadTreeResult {
    return { root: this.root, nodeCount: this.index.size, truncated: false, calls: 0, elapsedMs: Date.now() - started };
  }

  /**
   * The objects a batch of events names, each marked for a re-read, and the children mirrored containers
   * announced as added (by container, in order); those the mirror does not hold apart.
   */
  private dirtFrom(batch: readonly AccessibilityEvent[], options: ReadTreeOptions): Changes {
    const dirt = new Map<string, Dirt>();
    const mark = (node: AtspiRawNode, kind: Dirt) => {
      if (dirt.get(node.path) !== 'subtree') dirt.set(node.path, kind);
    };
    const unknown = new Set<string>();
    const additions = new Map<string, Addition[]>();
    for (const event of batch) {
      const entry = this.index.get(event.path);
      const child = addition(event);
      if (!entry) unknown.add(event.path);
      else if (child && !entry.node.unreadChildren) additions.set(event.path, [...(additions.get(event.path) ?? []), child]);
      else this.classify(event, entry, mark);
    }
    // A read of the whole window reads the items a read of what is shown left unread in closed menus.
    if (!options.visibleOnly) for (const { node } of this.index.values()) if (node.closedMenuItems !== undefined) mark(node, 'subtree');
    // A child a mirrored object announced as added is read there (see insertChildren): its parents need no
    // asking. Should it have moved on since, unannounced, the check of its container's children finds it.
    for (const added of additions.values()) for (const { path } of added) unknown.delete(path);
    if (unknown.size > MAX_UNKNOWN_OBJECTS) throw new Distrust(`events named ${unknown.size} objects outside the mirror`);
    return { dirt, mark, unknown, additions };
  }

  /** A read that applies the events heard since the last read and nothing else (MirrorReadMode.eventsOnly). */
  private async readEvents(options: ReadTreeOptions, started: number, geometry: Geometry | undefined): Promise<MirrorRead> {
    const batch = this.takePending();
    this.boxesUnsettled ||= !batch.every((event) => this.keepsLayout(event));
    try {
      const changes = this.dirtFrom(batch, options);
      const owners = await settled([...changes.unknown].map((path) => this.ownerOf(path, options.callTimeoutMs)));
      for (const owner of owners) if (owner) changes.mark(owner, 'subtree');
      const current = new Set<string>();
      const rereads = await this.reread(changes, options, started, current);
      return { read: this.mirrored(started), fromMirror: true, rereads, current };
    } catch (error) {
      if (!(error instanceof Distrust)) throw error;
      return this.walk(options, error.message, geometry);
    }
  }

  /**
   * Applies a batch of events and the per-read checks (a resize of the window counts as a change that may
   * move boxes); throws Distrust when only a walk will do.
   */
  private async update(batch: readonly AccessibilityEvent[], options: ReadTreeOptions, started: number, resized: boolean, boxesLater: boolean): Promise<number> {
    const changes = this.dirtFrom(batch, options);
    const { mark, unknown } = changes;
    // A container read by its visible part (visible-children.ts) keeps it until it scrolls (its scroll bar's
    // event re-reads the pane), moves or changes size (the box check below, or a walk when the window moves)
    // or its children change (their events, or its child count), so it is mirrored like any other.
    for (const { node } of this.index.values()) if (changesWithoutEvent(node)) mark(node, 'own');
    const layoutKept = batch.every((event) => this.keepsLayout(event)) && !resized;
    const boxesDue = !layoutKept || this.boxesUnsettled || this.policy.scrollsSilently;
    const [owners, changedCounts, boxesRead, renamed] = await settled([
      settled([...unknown].map((path) => this.ownerOf(path, options.callTimeoutMs))),
      this.policy.addsChildrenSilently ? this.changedChildCounts(changes.additions, options.callTimeoutMs) : [],
      boxesDue && !boxesLater ? this.rereadBoxes(options.callTimeoutMs) : undefined,
      this.renamedSilently(options.callTimeoutMs),
    ]);
    for (const node of renamed) mark(node, 'own');
    // A button renamed unannounced takes its new label's width, and its neighbours move with it, unannounced too.
    const relaidOut = renamed.length > 0;
    const boxes = boxesRead ?? (relaidOut && !boxesLater ? await this.rereadBoxes(options.callTimeoutMs) : undefined);
    this.boxesUnsettled = (boxesLater && (boxesDue || relaidOut)) || !layoutKept || relaidOut || (boxes?.moved.length ?? 0) > 0 || (boxes?.shown.length ?? 0) > 0;
    for (const owner of owners) if (owner) mark(owner, 'subtree');
    for (const node of changedCounts) mark(node, 'subtree');
    for (const node of boxes?.gone ?? []) mark(this.index.get(node.path)?.parent ?? node, 'subtree');
    // Re-read with its place (rereadOwn then reads its subtree too, as its box changed).
    for (const node of boxes?.shown ?? []) mark(node, 'own');
    const moved = boxes?.moved ?? [];
    if (moved.length > 0) {
      // A container read by its visible part shows another part when it or what holds it moved.
      for (const { node } of this.index.values()) if (node.unreadChildren) mark(node, 'subtree');
      // GTK3 decides SHOWING when asked, from where an object lies in the scrolled pane that holds it: a
      // pane that moved or changed size, or content that moved in it, shows other objects, unannounced. A web
      // page that scrolled (Blink says nothing) has other content in view, read with its document.
      for (const node of moved) {
        const pane = this.paneOf(node);
        if (pane) mark(pane, 'subtree');
      }
    }
    return this.reread(changes, options, started);
  }

  /**
   * Re-reads the marked objects (each subtree once, not again for what lies inside another) and puts the
   * added children in place; returns how many objects were read, and adds the paths of every object read
   * to `current` when given.
   */
  private async reread({ dirt, additions }: Changes, options: ReadTreeOptions, started: number, current?: Set<string>): Promise<number> {
    const inDirtySubtree = (entry: Entry): boolean => {
      for (let parent = entry.parent; parent; parent = this.index.get(parent.path)?.parent) {
        if (dirt.get(parent.path) === 'subtree') return true;
      }
      return false;
    };
    const dirtyEntries = [...dirt].map(([path, kind]) => ({ entry: this.index.get(path)!, kind })).filter(({ entry }) => !inDirtySubtree(entry));
    const ownReads = dirtyEntries.filter(({ kind }) => kind === 'own').map(({ entry }) => entry);
    const subtreeReads = dirtyEntries.filter(({ kind }) => kind === 'subtree').map(({ entry }) => entry);
    const remaining = () => options.budgetMs - (Date.now() - started);
    // An object whose child count or box changed is re-read with its subtree after all (see rereadOwn).
    const grown = await settled(ownReads.map((entry) => this.rereadOwn(entry, options, remaining())));
    subtreeReads.push(...ownReads.filter((_, i) => grown[i]));
    // A container re-read for another reason (or inside one) reads its new children with the rest.
    const insertions = [...additions]
      .map(([path, added]) => ({ entry: this.index.get(path)!, added }))
      .filter(({ entry }) => !dirt.has(entry.node.path) && !inDirtySubtree(entry));
    const [rereads, inserted] = await settled([
      settled(subtreeReads.map((entry) => this.rereadSubtree(entry, options, remaining()))),
      settled(insertions.map(({ entry, added }) => this.insertChildren(entry, added, options, remaining()))),
    ]);
    // Children that do not account for their container's children have it read whole instead.
    const unplaced = insertions.filter((_, i) => !inserted[i]).map(({ entry }) => entry);
    rereads.push(...(await settled(unplaced.map((entry) => this.rereadSubtree(entry, options, remaining())))));
    // An object re-read in a new place inside a scrolled pane may have moved with all of the pane's content (a page
    // that scrolled): what is in view is judged anew by reading the pane. Its boxes are then current, so no later
    // box check would find the move.
    const panes = new Set(rereads.filter(({ moved }) => moved).map(({ root }) => this.paneOf(root)).filter((pane) => pane !== undefined));
    for (const { root } of rereads) panes.delete(root);
    const paneReads = await settled([...panes].map((pane) => this.rereadSubtree(this.index.get(pane.path)!, options, remaining())));
    const subtrees = [...rereads, ...paneReads].map(({ root }) => root).filter((root) => this.index.get(root.path)?.node === root);
    for (const roots of inserted) subtrees.push(...(roots ?? []));
    if (this.index.size > options.maxNodes) throw new Distrust('the window grew past the node limit');
    if (current) {
      for (const entry of ownReads) current.add(entry.node.path);
      // The children of a container read by its visible part are those its ancestors' boxes leave visible,
      // and only a read that checks every box knows those boxes are current: they are not counted as read now.
      const add = (node: AtspiRawNode) => {
        current.add(node.path);
        if (!node.unreadChildren) for (const child of node.children) add(child);
      };
      for (const root of subtrees) add(root);
    }
    return ownReads.length + subtreeReads.length + insertions.length + unplaced.length + paneReads.length;
  }

  private classify(event: AccessibilityEvent, entry: Entry, mark: (node: AtspiRawNode, kind: Dirt) => void): void {
    const { node, parent } = entry;
    // A scroll bar's move scrolls its pane's content, whose boxes move without events of their own.
    if (node.role === ATSPI_ROLE.SCROLL_BAR && parent) return mark(parent, 'subtree');
    if (event.kind === 'StateChanged' && event.detail === 'defunct') return mark(parent ?? node, 'subtree');
    if (pageLoads.has(event.kind)) return mark(parent ?? node, 'subtree');
    if (event.kind === 'ChildrenChanged' || reorderings.has(event.kind)) return mark(node, 'subtree');
    // GTK3's list box says its selection changed, not which rows gained or lost SELECTED: its rows are re-read.
    if (event.kind === 'SelectionChanged') {
      if (node.unreadChildren) return mark(node, 'subtree');
      for (const child of node.children) markWithParts(child, mark);
    }
    if (event.kind === 'StateChanged' && subtreeStates.has(event.detail)) return mark(node, 'subtree');
    if (event.kind === 'StateChanged') return markWithParts(node, mark);
    mark(node, 'own');
  }

  /**
   * Where an object the mirror does not hold belongs: under the mirrored object returned (it is new there),
   * or outside the window (undefined: another window of the application, or no longer anywhere).
   * Throws Distrust when its parents cannot be followed.
   */
  private async ownerOf(path: string, timeoutMs: number): Promise<AtspiRawNode | undefined> {
    try {
      return await heldAncestor(this.client, { bus: this.top.bus, path }, (at) => this.index.get(at)?.node, timeoutMs);
    } catch (error) {
      throw new Distrust(`the parents of ${path} could not be followed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** The mirrored objects whose child count is not what the mirror holds and the batch added (see announcedChildrenRoles). */
  private async changedChildCounts(additions: ReadonlyMap<string, readonly Addition[]>, timeoutMs: number): Promise<AtspiRawNode[]> {
    const nodes = [...this.index.values()].map(({ node }) => node).filter((node) => !announcedChildrenRoles.has(node.role));
    const changed: AtspiRawNode[] = [];
    await pooled(nodes, async (node) => {
      if ((await this.childCount(node, timeoutMs)) !== node.childCount + (additions.get(node.path)?.length ?? 0)) changed.push(node);
    });
    return changed;
  }

  /**
   * The objects whose name or description may change with no event and is not the one mirrored (one call each):
   * documents' names (titledRoles); where the toolkit renames them silently, the names of named buttons that hold
   * nothing; where it describes its own UI silently, the descriptions of the described objects outside documents.
   */
  private async renamedSilently(timeoutMs: number): Promise<AtspiRawNode[]> {
    const silentButton = (node: AtspiRawNode) => this.policy.renamesButtonsSilently && labelHidingRoles.has(node.role) && node.name !== '' && node.childCount === 0;
    const names = [...this.index.values()].map(({ node }) => node).filter((node) => titledRoles.has(node.role) || silentButton(node));
    const descriptions: AtspiRawNode[] = [];
    const collect = (node: AtspiRawNode) => {
      if (titledRoles.has(node.role)) return;
      if (node.description) descriptions.push(node);
      for (const child of node.children) collect(child);
    };
    if (this.policy.describesUiSilently && this.root) collect(this.root);
    const checks = [...names.map((node) => ({ node, property: 'Name' as const })), ...descriptions.map((node) => ({ node, property: 'Description' as const }))];
    const changed = new Set<AtspiRawNode>();
    await pooled(checks, async ({ node, property }) => {
      const mirrored = property === 'Name' ? node.name : node.description;
      if ((await this.accessibleProperty(node, property, timeoutMs)) !== mirrored) changed.add(node);
    });
    return [...changed];
  }

  private async childCount(node: AtspiRawNode, timeoutMs: number): Promise<number> {
    return Number(await this.accessibleProperty(node, 'ChildCount', timeoutMs));
  }

  /** One property of the object's Accessible interface, for a per-read check: one unanswered makes the mirror walk. */
  private async accessibleProperty(node: AtspiRawNode, property: 'Name' | 'Description' | 'ChildCount', timeoutMs: number): Promise<unknown> {
    try {
      const body = await this.client.callObject(node, {
        interface: 'org.freedesktop.DBus.Properties', member: 'Get', signature: 'ss', body: [atspiInterface('Accessible'), property], timeoutMs,
      });
      return (body[0] as { value: unknown } | undefined)?.value;
    } catch {
      throw new Distrust(`the ${property === 'ChildCount' ? 'child count' : property.toLowerCase()} of ${node.path} could not be read`);
    }
  }

  /**
   * Reads the children a container announced as added and puts each where the app says it is, leaving the
   * children the mirror holds as they are (their own changes come with their own events, or the per-read
   * checks): a row added to a list costs the row, not the list. Returns what it read, or undefined when the
   * children do not account for the container's child count and places (the caller re-reads it whole).
   */
  private async insertChildren(entry: Entry, added: readonly Addition[], options: ReadTreeOptions, budgetMs: number): Promise<AtspiRawNode[] | undefined> {
    const container = entry.node;
    // Inside a scrolled pane, whether a child is out of view is judged among all its siblings (tree-reader's
    // childrenToVisit): the container is read whole.
    if (!options.trustShowing && (this.viewsAt(entry).scrollView || scrollViewInside(undefined, container))) return undefined;
    const paths = added.map(({ path }) => path);
    if (container.children.length !== container.childCount || new Set(paths).size !== paths.length || paths.some((path) => this.index.has(path))) return undefined;
    const views = this.viewsAt(entry);
    const childOptions = {
      ...options,
      maxDepth: options.maxDepth - entry.depth - 1,
      budgetMs,
      view: viewInside(views.view, container),
      scrollView: scrollViewInside(views.scrollView, container),
      parent: container,
    };
    if (childOptions.maxDepth < 0) return undefined;
    let count: number;
    let children: { read: ReadTreeResult; index: number }[];
    try {
      [count, children] = await settled([
        this.childCount(container, options.callTimeoutMs),
        settled(paths.map(async (path) => {
          const ref = { bus: container.bus, path };
          const [read, index] = await settled([this.readChecked(ref, childOptions), this.indexInParent(ref, options.callTimeoutMs)]);
          return { read, index };
        })),
      ]);
    } catch (error) {
      if (error instanceof Distrust) return undefined;
      throw error;
    }
    if (count !== container.childCount + added.length || children.some(({ read }) => read.truncated)) return undefined;
    const siblings = [...container.children];
    added.forEach(({ at }, i) => siblings.splice(at, 0, children[i]!.read.root!));
    // Where the app has each one now, after all of them were added.
    if (siblings.length !== count || children.some(({ read, index }) => siblings[index] !== read.root)) return undefined;
    container.children = siblings;
    container.childCount = count;
    const roots = children.map(({ read }) => read.root!);
    for (const root of roots) this.indexTree(root, container, entry.depth + 1);
    return roots;
  }

  private async indexInParent(ref: ObjectRef, timeoutMs: number): Promise<number> {
    try {
      const body = await this.client.callObject(ref, { interface: atspiInterface('Accessible'), member: 'GetIndexInParent', signature: '', body: [], timeoutMs });
      return Number(body[0]);
    } catch {
      throw new Distrust(`the place of ${ref.path} could not be read`);
    }
  }

  /**
   * Reads every mirrored box again (one call per placed object, a quarter of a walk's) and returns the
   * objects that moved, those that are gone, and those read when not shown (their place was not asked) that
   * are shown now: GTK3 shows a widget only once it has a place, which a new widget gets at the next layout,
   * unannounced (later still when the window must first grow to hold it). Objects inside a container read
   * by its visible part are left to that container.
   */
  private async rereadBoxes(timeoutMs: number): Promise<{ moved: AtspiRawNode[]; gone: AtspiRawNode[]; shown: AtspiRawNode[] }> {
    const nodes: AtspiRawNode[] = [];
    const collect = (node: AtspiRawNode) => {
      // A link placed on its label's words (link-anchor.ts) has no Component to ask: its words are asked again.
      if (node.interfaces.includes('Component') || (node.extents && node.role === ATSPI_ROLE.LINK && node.interfaces.includes('Hyperlink'))) nodes.push(node);
      if (!node.unreadChildren) for (const child of node.children) collect(child);
    };
    if (this.root) collect(this.root);
    const moved: AtspiRawNode[] = [];
    const gone: AtspiRawNode[] = [];
    const shown: AtspiRawNode[] = [];
    await pooled(nodes, async (node) => {
      let box: number[] | undefined;
      try {
        if (node.positionUnknown) {
          const body = await this.client.callObject(node, { interface: atspiInterface('Accessible'), member: 'GetState', signature: '', body: [], timeoutMs });
          if (hasState(body[0] as number[] | undefined, ATSPI_STATE.SHOWING)) shown.push(node);
          return;
        }
        if (!node.interfaces.includes('Component')) {
          const anchored = await anchorBox(this.client, node).catch(() => undefined);
          box = anchored && [anchored.x, anchored.y, anchored.w, anchored.h];
        } else {
          const body = await this.client.callObject(node, { interface: atspiInterface('Component'), member: 'GetExtents', signature: 'u', body: [0], timeoutMs });
          box = body[0] as number[] | undefined;
        }
      } catch (error) {
        if (error instanceof DBusTimeoutError || !(error instanceof DBusError)) throw new Distrust(`the box of ${node.path} could not be read`);
        // Gone (a removed row): what held it is re-read; should that be gone too, the re-read walks.
        gone.push(node);
        return;
      }
      const [x, y, w, h] = box ?? [];
      const extents = x === undefined ? undefined : { x, y: y!, w: w!, h: h! };
      const old = node.extents;
      if (extents?.x === old?.x && extents?.y === old?.y && extents?.w === old?.w && extents?.h === old?.h) return;
      node.extents = extents;
      moved.push(node);
    });
    return { moved, gone, shown };
  }

  /** The outermost scrolled pane (scroll pane, viewport, web document) that is or holds the object, if any. */
  private paneOf(node: AtspiRawNode): AtspiRawNode | undefined {
    let pane: AtspiRawNode | undefined;
    for (let at: AtspiRawNode | undefined = node; at; at = this.index.get(at.path)?.parent) {
      if (scrollingRoles.has(at.role)) pane = at;
    }
    return pane;
  }

  /**
   * Re-reads an object's own fields; true when its subtree is to be re-read: its child count changed, or
   * its box did (objects a widget draws itself, such as a tree view's cells, move with it unannounced), or it is
   * a closed menu read without its items.
   */
  private async rereadOwn(entry: Entry, options: ReadTreeOptions, budgetMs: number): Promise<boolean> {
    // A closed menu whose items were left unread: whether it opened is told by its items' states (closed-menus.ts),
    // which a read of its own fields does not ask (an office suite's menu says only that it is selected).
    if (entry.node.closedMenuItems !== undefined) return true;
    const read = await this.readChecked(entry.node, { ...options, maxDepth: 0, budgetMs, ...this.viewsAt(entry), parent: entry.parent });
    const fresh = read.root!;
    if (fresh.childCount !== entry.node.childCount || !sameBox(fresh, entry.node)) return true;
    fresh.children = entry.node.children;
    // Its children as the last read of them left them (a read of its own fields reads none).
    if (entry.node.unreadChildren) fresh.unreadChildren = entry.node.unreadChildren;
    if (entry.node.offscreenChildren) fresh.offscreenChildren = entry.node.offscreenChildren;
    // Whether it clips its content was judged from its children, which a read of its own fields does not look at.
    if (entry.node.clipsContent) fresh.clipsContent = true;
    keepPlaceInView(entry.node, fresh);
    this.replace(entry, fresh);
    for (const child of fresh.children) this.index.get(child.path)!.parent = fresh;
    return false;
  }

  /** Re-reads the object and everything under it; returns what was read, and whether its box is not where it was. */
  private async rereadSubtree(entry: Entry, options: ReadTreeOptions, budgetMs: number): Promise<{ root: AtspiRawNode; moved: boolean }> {
    const read = await this.readChecked(entry.node, {
      ...options,
      maxDepth: options.maxDepth - entry.depth,
      maxNodes: options.maxNodes,
      budgetMs,
      ...this.viewsAt(entry),
      parent: entry.parent,
    });
    if (read.truncated) throw new Distrust(`the re-read of ${entry.node.path} was cut short`);
    keepPlaceInView(entry.node, read.root!);
    this.unindex(entry.node);
    this.replace(entry, read.root!);
    this.indexTree(read.root!, entry.parent, entry.depth);
    return { root: read.root!, moved: !sameBox(entry.node, read.root!) };
  }

  private async readChecked(ref: ObjectRef, options: ReadTreeOptions): Promise<ReadTreeResult> {
    if (options.budgetMs <= 0) throw new Distrust('the read ran out of time');
    const read = await readTree(this.client, { bus: ref.bus, path: ref.path }, options);
    if (read.failure || !read.root) throw new Distrust(read.failure ?? `${ref.path} could not be read`);
    // An object that no longer answers has no interfaces: it is gone, and its container did not say so.
    if (read.root.interfaces.length === 0) throw new Distrust(`${ref.path} is gone`);
    return read;
  }

  /**
   * What the object's ancestors leave visible and what the panes that scroll it do, as a walk from the top
   * would have found them.
   */
  private viewsAt(entry: Entry): { view: Rect; scrollView?: Rect } {
    const ancestors: AtspiRawNode[] = [];
    for (let parent = entry.parent; parent; parent = this.index.get(parent.path)?.parent) ancestors.unshift(parent);
    const scrollView = ancestors.reduce<Rect | undefined>(scrollViewInside, undefined);
    return { view: ancestors.reduce(viewInside, everywhere), ...(scrollView ? { scrollView } : {}) };
  }

  private replace(entry: Entry, fresh: AtspiRawNode): void {
    if (!entry.parent) this.root = fresh;
    else {
      const siblings = entry.parent.children;
      const at = siblings.indexOf(entry.node);
      if (at < 0) throw new Distrust(`${entry.node.path} was not under its parent`);
      siblings[at] = fresh;
    }
    this.index.set(fresh.path, { node: fresh, parent: entry.parent, depth: entry.depth });
  }

  private indexTree(node: AtspiRawNode, parent: AtspiRawNode | undefined, depth: number): void {
    // An object from another application (an embedded plug) sends its events elsewhere: not mirrorable.
    if (node.bus !== this.top.bus) throw new Distrust(`${node.path} belongs to another application`);
    this.index.set(node.path, { node, parent, depth });
    this.deepest = Math.max(this.deepest, depth);
    for (const child of node.children) this.indexTree(child, node, depth + 1);
  }

  private unindex(node: AtspiRawNode): void {
    this.index.delete(node.path);
    for (const child of node.children) this.unindex(child);
  }

  private takePending(): AccessibilityEvent[] {
    this.pendingKeys.clear();
    return this.pending.splice(0);
  }

  private drop(): void {
    this.root = undefined;
    this.index.clear();
    this.geometry = undefined;
    this.deepest = 0;
  }

  /** A walk of the whole window that renews the mirror (when it read all of it). */
  private async walk(options: ReadTreeOptions, reason: string, geometry: Geometry | undefined): Promise<MirrorRead> {
    // Events from now on are about what this walk may have read before they happened: they stay pending.
    this.takePending();
    this.overflowed = false;
    this.drop();
    const read = await readTree(this.client, this.top, options);
    if (read.root && read.root.interfaces.length > 0 && !read.truncated && !read.failure && geometry !== undefined && this.listening) {
      try {
        this.indexTree(read.root, undefined, 0);
        this.root = read.root;
        this.geometry = geometry;
        this.visibleOnly = Boolean(options.visibleOnly) && !options.trustShowing;
        // What made the walk needed (a change, a move) may still be laid out after it.
        this.boxesUnsettled = true;
      } catch (error) {
        if (!(error instanceof Distrust)) throw error;
        this.drop();
      }
    }
    return { read, fromMirror: false, walkedBecause: reason, rereads: 0 };
  }

  /** A walk under limits the mirror does not fit, which leaves the mirror as it is. */
  private async walkAside(options: ReadTreeOptions, reason: string): Promise<MirrorRead> {
    return { read: await readTree(this.client, this.top, options), fromMirror: false, walkedBecause: reason, rereads: 0 };
  }

  /** A call over the bus, answered only after the application sent every event it had (see the class comment). */
  private async sync(timeoutMs: number): Promise<boolean | 'timeout'> {
    try {
      await getProperty(this.client.bus, this.top.bus, this.top.path, atspiInterface('Accessible'), 'ChildCount', timeoutMs);
      return true;
    } catch (error) {
      // The bus itself gone is the caller's to handle (a new bus, or none): a walk through the app's own socket,
      // which outlives the bus, would read an app the driver can no longer reach by its bus.
      if (error instanceof DBusClosedError) throw error;
      return error instanceof DBusTimeoutError ? 'timeout' : false;
    }
  }

  /** Where the X window is now (every X request is bounded by the connection's timeout). */
  private async windowGeometry(): Promise<Geometry | undefined> {
    try {
      const [geometry, origin] = await Promise.all([this.x.getGeometry(this.windowId), this.x.translateCoordinates(this.windowId, this.x.screen.root, 0, 0)]);
      return { x: origin.x, y: origin.y, width: geometry.width, height: geometry.height };
    } catch {
      return undefined;
    }
  }
}

/** The child a children-changed "add" event names (its data is the child's bus name and path) and where it went. */
export function addition(event: AccessibilityEvent): Addition | undefined {
  if (event.kind !== 'ChildrenChanged' || !event.detail.startsWith('add')) return undefined;
  const path = childPath(event.data);
  return path === undefined ? undefined : { path, at: event.detail1 };
}

/**
 * An object re-read alone keeps what its parent's read judged of it among its siblings: whether it lies out of
 * the scrolled view. A box that moved has the pane re-read (WindowMirror.update and reread), which judges anew.
 */
function keepPlaceInView(old: AtspiRawNode, fresh: AtspiRawNode): void {
  if (old.scrolledAway) fresh.scrolledAway = old.scrolledAway;
}

function sameBox(a: AtspiRawNode, b: AtspiRawNode): boolean {
  const [p, q] = [a.extents, b.extents];
  const placed = p === q || (p !== undefined && q !== undefined && p.x === q.x && p.y === q.y && p.w === q.w && p.h === q.h);
  return placed && a.positionUnknown === b.positionUnknown;
}

/** Runs `work` on every item, CHECK_CONCURRENCY at a time (enough to hide latency without deep queues). */
async function pooled<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]!);
  };
  await settled(Array.from({ length: Math.min(CHECK_CONCURRENCY, items.length) }, worker));
}

/**
 * Promise.all that waits for every piece before it fails: re-reads change the mirror, and none may still be
 * running when a failed read makes the mirror start over with a walk.
 */
async function settled<T extends readonly unknown[] | []>(work: T): Promise<{ -readonly [K in keyof T]: Awaited<T[K]> }> {
  const results = await Promise.allSettled(work);
  const failed = results.find((result) => result.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return results.map((result) => (result as PromiseFulfilledResult<unknown>).value) as { -readonly [K in keyof T]: Awaited<T[K]> };
}
