// A window's accessibility tree kept current from its application's AT-SPI events: after the first walk,
// a read re-reads only what events (and the checks below) say may have changed, and walks the whole
// window again whenever the mirror cannot be shown to be current.
import { ATSPI_ROLE } from '../../../cup/atspi/constants.js';
import type { AtspiRawNode } from '../../../cup/atspi/raw-node.js';
import { DBusError, DBusTimeoutError } from '../dbus/index.js';
import { getProperty } from '../dbus/properties.js';
import type { X11Connection } from '../x11/index.js';
import type { AtspiClient } from './client.js';
import type { AccessibilityEvent } from './event-monitor.js';
import { atspiInterface, NULL_PATH, ROOT_PATH, type ObjectRef } from './object-ref.js';
import { everywhere, changesWithoutEvent, readTree, viewInside, type ReadTreeOptions, type ReadTreeResult } from './tree-reader.js';
import type { Rect } from './visible-children.js';

/**
 * More distinct changes than this between two reads is a burst: re-reading each object would cost more than a
 * walk. Repeats of one kind of change of one object count once (a hundred typed keys send four hundred events
 * about one field, which one re-read of it covers).
 */
const MAX_PENDING_EVENTS = 256;
/** Objects the mirror does not hold that events named, each placed by asking for its parents. */
const MAX_UNKNOWN_OBJECTS = 64;
/** Parents asked while placing an unknown object; deeper than any real window. */
const MAX_PARENT_STEPS = 64;
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

/** State changes after which an object's descendants are placed or shown differently, so they are re-read too. */
const subtreeStates = new Set(['showing', 'visible', 'expanded', 'collapsed', 'iconified']);
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

interface Entry {
  node: AtspiRawNode;
  parent?: AtspiRawNode;
  depth: number;
}

/** Re-read the object's own fields, or it and everything under it. */
type Dirt = 'own' | 'subtree';

export interface MirrorRead {
  read: ReadTreeResult;
  /** The tree came from the mirror (with the re-reads it needed), not a walk of the whole window. */
  fromMirror: boolean;
  /** Why the window was walked, when it was. */
  walkedBecause?: string;
  /** Objects re-read (own fields or subtrees) to bring the mirror up to date. */
  rereads: number;
}

class Distrust extends Error {}

/**
 * One window's mirror. Reads are serialised: each brings the mirror up to date from the events heard
 * since the last one, or walks.
 *
 * Never stale: a read first makes a call to the application over the bus, through which its events come,
 * so every event the application sent before it answered has been heard (D-Bus keeps one sender's messages
 * in order). Events that arrive while a read runs stay pending for the next read. The window's X geometry
 * is compared (extents are screen coordinates: a move changes every box), and the child counts of the
 * containers whose additions GTK3 may not announce are asked again. Anything else it cannot account for
 * (a burst, an event of an object it cannot place, a failed call) makes it walk.
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
  private geometry?: string;
  private deepest = 0;
  private listening?: Promise<void>;
  private stopListening?: () => void;
  private closed = false;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly client: AtspiClient,
    private readonly x: X11Connection,
    readonly windowId: number,
    readonly top: ObjectRef,
  ) {}

  /** Reads the window: from the mirror when it is provably current, else by a walk that renews it. */
  read(options: ReadTreeOptions, fresh = false): Promise<MirrorRead> {
    const run = this.queue.then(() => this.readNow(options, fresh));
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

  private async readNow(options: ReadTreeOptions, fresh: boolean): Promise<MirrorRead> {
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
      return { read: { nodeCount: 0, truncated: false, failure, unresponsive: true, calls: 1, elapsedMs: Date.now() - started }, fromMirror: false, walkedBecause: failure, rereads: 0 };
    }
    if (fresh) return this.walkAside(options, 'a fresh walk was asked for');
    if (!this.root) return this.walk(options, 'first read', geometry);
    if (!synced) return this.walk(options, 'the application did not answer over the bus', geometry);
    if (geometry === undefined || geometry !== this.geometry) return this.walk(options, 'the window moved or was resized', geometry);
    if (this.deepest > options.maxDepth || this.index.size > options.maxNodes) return this.walkAside(options, 'the limits are below the mirror');
    if (this.overflowed) return this.walk(options, 'a burst of events', geometry);
    const batch = this.takePending();
    try {
      const rereads = await this.update(batch, options, started);
      return {
        read: { root: this.root, nodeCount: this.index.size, truncated: false, calls: 0, elapsedMs: Date.now() - started },
        fromMirror: true,
        rereads,
      };
    } catch (error) {
      if (!(error instanceof Distrust)) throw error;
      return this.walk(options, error.message, geometry);
    }
  }

  /** Applies a batch of events and the per-read checks; throws Distrust when only a walk will do. */
  private async update(batch: readonly AccessibilityEvent[], options: ReadTreeOptions, started: number): Promise<number> {
    const dirt = new Map<string, Dirt>();
    const mark = (node: AtspiRawNode, kind: Dirt) => {
      if (dirt.get(node.path) !== 'subtree') dirt.set(node.path, kind);
    };
    const unknown = new Set<string>();
    for (const event of batch) {
      const entry = this.index.get(event.path);
      if (!entry) unknown.add(event.path);
      else this.classify(event, entry, mark);
    }
    if (unknown.size > MAX_UNKNOWN_OBJECTS) throw new Distrust(`events named ${unknown.size} objects outside the mirror`);
    // A container read by its visible part (visible-children.ts) keeps it until it scrolls (its scroll bar's
    // event re-reads the pane), moves or changes size (its own bounds event, or a walk when the window does)
    // or its children change (their events, or its child count), so it is mirrored like any other.
    for (const { node } of this.index.values()) if (changesWithoutEvent(node)) mark(node, 'own');
    const [owners, changedCounts, boxes] = await settled([
      settled([...unknown].map((path) => this.ownerOf(path, options.callTimeoutMs))),
      this.changedChildCounts(options.callTimeoutMs),
      batch.every(keepsLayout) && !this.boxesUnsettled ? undefined : this.rereadBoxes(options.callTimeoutMs),
    ]);
    this.boxesUnsettled = !batch.every(keepsLayout) || (boxes?.moved.length ?? 0) > 0;
    for (const owner of owners) if (owner) mark(owner, 'subtree');
    for (const node of changedCounts) mark(node, 'subtree');
    for (const node of boxes?.gone ?? []) mark(this.index.get(node.path)?.parent ?? node, 'subtree');
    const moved = boxes?.moved ?? [];
    if (moved.length > 0) {
      // A container read by its visible part shows another part when it or what holds it moved.
      for (const { node } of this.index.values()) if (node.unreadChildren) mark(node, 'subtree');
      // GTK3 decides SHOWING when asked, from where an object lies in the scrolled pane that holds it: a
      // pane that moved or changed size, or content that moved in it, shows other objects, unannounced.
      for (const node of moved) {
        const pane = this.paneOf(node);
        if (pane) mark(pane, 'subtree');
      }
    }

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
    await settled(subtreeReads.map((entry) => this.rereadSubtree(entry, options, remaining())));
    if (this.index.size > options.maxNodes) throw new Distrust('the window grew past the node limit');
    return ownReads.length + subtreeReads.length;
  }

  private classify(event: AccessibilityEvent, entry: Entry, mark: (node: AtspiRawNode, kind: Dirt) => void): void {
    const { node, parent } = entry;
    // A scroll bar's move scrolls its pane's content, whose boxes move without events of their own.
    if (node.role === ATSPI_ROLE.SCROLL_BAR && parent) return mark(parent, 'subtree');
    if (event.kind === 'StateChanged' && event.detail === 'defunct') return mark(parent ?? node, 'subtree');
    if (event.kind === 'ChildrenChanged') return mark(node, 'subtree');
    // GTK3's list box says its selection changed, not which rows gained or lost SELECTED: its rows are re-read.
    if (event.kind === 'SelectionChanged') {
      if (node.unreadChildren) return mark(node, 'subtree');
      for (const child of node.children) mark(child, 'own');
    }
    if (event.kind === 'StateChanged' && subtreeStates.has(event.detail)) return mark(node, 'subtree');
    mark(node, 'own');
  }

  /**
   * Where an object the mirror does not hold belongs: under the mirrored object returned (it is new there),
   * or outside the window (undefined: another window of the application, or no longer anywhere).
   * Throws Distrust when its parents cannot be followed.
   */
  private async ownerOf(path: string, timeoutMs: number): Promise<AtspiRawNode | undefined> {
    let current = path;
    for (let step = 0; step < MAX_PARENT_STEPS; step++) {
      let parent: [string, string] | undefined;
      try {
        const body = await this.client.callObject({ bus: this.top.bus, path: current }, {
          interface: 'org.freedesktop.DBus.Properties', member: 'Get', signature: 'ss', body: [atspiInterface('Accessible'), 'Parent'], timeoutMs,
        });
        parent = (body[0] as { value: [string, string] } | undefined)?.value;
      } catch (error) {
        if (error instanceof DBusError && !(error instanceof DBusTimeoutError) && step === 0) {
          // The object is gone: it was never in the mirror, so what it was part of is named by the events of
          // the objects that held it (a removal from a mirrored container changes that container's child count).
          return undefined;
        }
        throw new Distrust(`the parents of ${path} could not be followed`);
      }
      if (!parent || parent[1] === NULL_PATH || parent[1] === ROOT_PATH || parent[0] !== this.top.bus) return undefined;
      const owner = this.index.get(parent[1]);
      if (owner) return owner.node;
      current = parent[1];
    }
    throw new Distrust(`the parents of ${path} go deeper than ${MAX_PARENT_STEPS}`);
  }

  /** The mirrored objects whose child count is not what the mirror holds (see announcedChildrenRoles). */
  private async changedChildCounts(timeoutMs: number): Promise<AtspiRawNode[]> {
    const nodes = [...this.index.values()].map(({ node }) => node).filter((node) => !announcedChildrenRoles.has(node.role));
    const changed: AtspiRawNode[] = [];
    await pooled(nodes, async (node) => {
      let count: number;
      try {
        const body = await this.client.callObject(node, {
          interface: 'org.freedesktop.DBus.Properties', member: 'Get', signature: 'ss', body: [atspiInterface('Accessible'), 'ChildCount'], timeoutMs,
        });
        count = Number((body[0] as { value: unknown } | undefined)?.value);
      } catch {
        throw new Distrust(`the child count of ${node.path} could not be read`);
      }
      if (count !== node.childCount) changed.push(node);
    });
    return changed;
  }

  /**
   * Reads every mirrored box again (one call per placed object, a quarter of a walk's) and returns the
   * objects that moved and those that are gone. Objects inside a container read by its visible part are left to that container.
   */
  private async rereadBoxes(timeoutMs: number): Promise<{ moved: AtspiRawNode[]; gone: AtspiRawNode[] }> {
    const nodes: AtspiRawNode[] = [];
    const collect = (node: AtspiRawNode) => {
      if (node.interfaces.includes('Component') && !node.positionUnknown) nodes.push(node);
      if (!node.unreadChildren) for (const child of node.children) collect(child);
    };
    if (this.root) collect(this.root);
    const moved: AtspiRawNode[] = [];
    const gone: AtspiRawNode[] = [];
    await pooled(nodes, async (node) => {
      let box: number[] | undefined;
      try {
        const body = await this.client.callObject(node, { interface: atspiInterface('Component'), member: 'GetExtents', signature: 'u', body: [0], timeoutMs });
        box = body[0] as number[] | undefined;
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
    return { moved, gone };
  }

  /** The outermost scrolled pane (scroll pane, viewport) that is or holds the object, if any. */
  private paneOf(node: AtspiRawNode): AtspiRawNode | undefined {
    let pane: AtspiRawNode | undefined;
    for (let at: AtspiRawNode | undefined = node; at; at = this.index.get(at.path)?.parent) {
      if (at.role === ATSPI_ROLE.SCROLL_PANE || at.role === ATSPI_ROLE.VIEWPORT) pane = at;
    }
    return pane;
  }

  /**
   * Re-reads an object's own fields; true when its subtree is to be re-read: its child count changed, or
   * its box did (objects a widget draws itself, such as a tree view's cells, move with it unannounced).
   */
  private async rereadOwn(entry: Entry, options: ReadTreeOptions, budgetMs: number): Promise<boolean> {
    const read = await this.readChecked(entry, { ...options, maxDepth: 0, budgetMs, view: this.viewAt(entry), parent: entry.parent });
    const fresh = read.root!;
    if (fresh.childCount !== entry.node.childCount || !sameBox(fresh, entry.node)) return true;
    fresh.children = entry.node.children;
    this.replace(entry, fresh);
    for (const child of fresh.children) this.index.get(child.path)!.parent = fresh;
    return false;
  }

  private async rereadSubtree(entry: Entry, options: ReadTreeOptions, budgetMs: number): Promise<void> {
    const read = await this.readChecked(entry, {
      ...options,
      maxDepth: options.maxDepth - entry.depth,
      maxNodes: options.maxNodes,
      budgetMs,
      view: this.viewAt(entry),
      parent: entry.parent,
    });
    if (read.truncated) throw new Distrust(`the re-read of ${entry.node.path} was cut short`);
    this.unindex(entry.node);
    this.replace(entry, read.root!);
    this.indexTree(read.root!, entry.parent, entry.depth);
  }

  private async readChecked(entry: Entry, options: ReadTreeOptions): Promise<ReadTreeResult> {
    if (options.budgetMs <= 0) throw new Distrust('the read ran out of time');
    const read = await readTree(this.client, { bus: entry.node.bus, path: entry.node.path }, options);
    if (read.failure || !read.root) throw new Distrust(read.failure ?? `${entry.node.path} could not be read`);
    // An object that no longer answers has no interfaces: it is gone, and its container did not say so.
    if (read.root.interfaces.length === 0) throw new Distrust(`${entry.node.path} is gone`);
    return read;
  }

  /** What the object's ancestors leave visible, as a walk from the top would have found it. */
  private viewAt(entry: Entry): Rect {
    const ancestors: AtspiRawNode[] = [];
    for (let parent = entry.parent; parent; parent = this.index.get(parent.path)?.parent) ancestors.unshift(parent);
    return ancestors.reduce(viewInside, everywhere);
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
  private async walk(options: ReadTreeOptions, reason: string, geometry: string | undefined): Promise<MirrorRead> {
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
      return error instanceof DBusTimeoutError ? 'timeout' : false;
    }
  }

  /** Where the X window is now (every X request is bounded by the connection's timeout). */
  private async windowGeometry(): Promise<string | undefined> {
    try {
      const [geometry, origin] = await Promise.all([this.x.getGeometry(this.windowId), this.x.translateCoordinates(this.windowId, this.x.screen.root, 0, 0)]);
      return `${origin.x},${origin.y} ${geometry.width}x${geometry.height}`;
    } catch {
      return undefined;
    }
  }
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
