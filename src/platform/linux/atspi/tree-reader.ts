import { ATSPI_ROLE, ATSPI_ROLE_NAMES, ATSPI_STATE } from '../../../cup/atspi/constants.js';
import { closedMenu, holdsMenuItems, isPopupOf, itemsKeptHidden } from '../../../cup/atspi/closed-menus.js';
import { hidesItsContent } from '../../../cup/atspi/hidden-containers.js';
import { CONTENT_NAMED_ATSPI_ROLES, NAMED_BLOCK_ATSPI_ROLES, WORDS_AROUND_CHILDREN_ATSPI_ROLES, type AtspiRawNode } from '../../../cup/atspi/raw-node.js';
import { DBusError, DBusTimeoutError } from '../dbus/index.js';
import type { AtspiClient } from './client.js';
import { OBJECT_REPLACEMENT, withoutObjectReplacements } from '../../../cup/embedded-objects.js';
import { resolveEmbeddedText } from './embedded-text.js';
import { actionStateKey, listingOf, type ObjectFacts } from './object-facts.js';
import { comboTextIsStale, deepestAtPoint, textEnd } from './operations.js';
import { keepEachObjectOnce } from './once-per-object.js';
import { markUndrawnOverlaps, markUnplaced } from './undrawn-places.js';
import { atspiInterface, NULL_PATH, objectRefs, shortInterfaceName, type ObjectRef } from './object-ref.js';
import { basicsByPath, CACHE_INTERFACE, cacheOf, type CachedBasics } from './cache-items.js';
import { clipDirection, overlap, type ClipDirection } from '../../../cup/rect.js';
import { codePointLength } from '../../../cup/text.js';
import { withoutAstralPadding } from '../../../cup/atspi/astral-padding.js';
import { passwordText } from '../../../cup/atspi/password-text.js';
import { hasState } from '../../../cup/atspi/states.js';
import { isEditableContent } from '../../../cup/atspi/editable-content.js';
import { givenBounds } from '../../../cup/atspi/value-range.js';
import { linkAnchor } from './link-anchor.js';
import { placedBack, tabContentOffset, type Offset } from './tab-content-places.js';
import { withAnnouncedChecked } from './announced-states.js';
import { showingMayBeStale, type ParentFacts } from './toolkit.js';
import { asksCellPosition, cellPosition, tableRoles, tableSize } from './table-places.js';
import { dropMisplacedExtents, placedExtents, readsVisiblePartOnly, visibleChildren, type Rect } from './visible-children.js';

export interface ReadTreeOptions {
  /** Stop adding nodes at this many (the result is then marked truncated). */
  maxNodes: number;
  /** Depth below the start object that is still read (0 = only the start object). */
  maxDepth: number;
  /** Per-call timeout: an application that does not answer one call within it is considered hung. */
  callTimeoutMs: number;
  /** Budget for the whole walk; what is not read by then is left out and the result marked truncated. */
  budgetMs: number;
  /** When the toolkit sets SHOWING reliably, a non-showing object's position is not asked (it has none on screen). */
  trustShowing: boolean;
  /**
   * A hidden container's children (hidden-containers.ts: a stacked widget's pages behind the current one) are not
   * read, only counted (AtspiRawNode.hiddenContent): in a read of what is shown, and in an action's readings (see
   * TreeLimits.hiddenContentUnread). Not where a live mirror keeps the window, which would have to read them as the
   * container shows.
   */
  hiddenContentUnread?: boolean;
  /** Ask Properties.GetAll instead of one Get per property; only for toolkits known to answer it (Qt 5 crashes on it). */
  propertiesInOneCall: boolean;
  /** Calls in flight at once; enough to hide latency without queueing so deep that queued calls time out. */
  concurrency?: number;
  /** What the start object's ancestors leave visible (a subtree re-read by the live mirror); everywhere when omitted. */
  view?: Rect;
  /** The start object's parent as last read (a re-read by the live mirror), for the rules that look at it. */
  parent?: ParentFacts;
  /**
   * Read only what can be seen: an object placed wholly outside the view of the panes that scroll it (a web page
   * below the fold) is counted on its parent (offscreenChildren), not read. Only where the toolkit's SHOWING is
   * not trusted, so geometry decides what is shown; everywhere else, and without it, such objects are read and
   * marked scrolledAway (see AtspiRawNode) so that both readings number the elements alike. In every toolkit,
   * the items of a closed menu are not read either, only counted (AtspiRawNode.closedMenuItems).
   */
  visibleOnly?: boolean;
  /** What the panes that scroll the start object leave visible (a subtree re-read by the live mirror). */
  scrollView?: Rect;
  /**
   * The toolkit clears SHOWING on content that a box of its own clips, where the tree has no scroll pane for
   * that box (a web page's CSS overflow box: a feed, a chat log, a side panel; Blink and Gecko): such a box is
   * found by its children and judged as a scroll pane (AtspiRawNode.clipsContent).
   */
  showingTellsClipping?: boolean;
  /**
   * The toolkit leaves what it stopped drawing at its last place, visible (GTK 4.8): siblings whose boxes overlap
   * are told apart by the window's hit test (undrawn-places.ts).
   */
  keepsUndrawnPlaces?: boolean;
  /** The toolkit gives a destroyed object's path to a new one (ToolkitQuirks.reusesObjectPaths): a path's role is asked on every read. */
  reusesPaths?: boolean;
  /** A page tab's content is placed from the tab, not its tab bar (ToolkitQuirks.placesTabContentFromTab): its box is moved back. */
  placesTabContentFromTab?: boolean;
  /** Buttons' key bindings are asked too, not only menu items' (ToolkitQuirks.buttonsReportShortcuts). */
  buttonShortcuts?: boolean;
  /** The toolkit answers its first client before its cache is filled (ToolkitQuirks.fillsCacheLazily): see filling-cache.ts. */
  fillsCacheLazily?: boolean;
  /** Action names are asked one by one, never listed with GetActions (ToolkitQuirks.listsActionsUnsafely). */
  actionsOneByOne?: boolean;
  /**
   * The application's Cache.GetItems answers objects' basics as their own calls do (ToolkitQuirks.basicsInCache): it
   * is asked once, and only objects it lacks are asked for them.
   */
  basicsFromCache?: boolean;
}

export interface ReadTreeResult {
  root?: AtspiRawNode;
  nodeCount: number;
  truncated: boolean;
  /** Set when the application stopped answering; the tree is then partial or absent. */
  failure?: string;
  /** The failure was a call the application did not answer in time (it is hung or stopped). */
  unresponsive?: boolean;
  calls: number;
  elapsedMs: number;
}

/** What the window's top level may show before any extents narrow it: everything. */
export const everywhere: Rect = { x: -(2 ** 31), y: -(2 ** 31), w: 2 ** 32, h: 2 ** 32 };

/**
 * What an object leaves visible of what its ancestors leave visible (`outer`). An object without a usable
 * place (not shown, no extents, a sentinel) does not narrow it: toolkits misreport some containers whose
 * content is on screen. One placed wholly outside it is a popup (a menu, a combo box's list) in a window of
 * its own, seen where it is.
 */
export function viewInside(outer: Rect, node: AtspiRawNode): Rect {
  const own = node.positionUnknown ? undefined : placedExtents(node.extents);
  return own ? (overlap(outer, own) ?? own) : outer;
}

/**
 * Panes that scroll what they hold: a web document (its box is the page's viewport), a scroll pane, a viewport.
 * Their content placed wholly outside their box is scrolled away; other containers' boxes need not hold their
 * content (a popup menu lies outside its menu item), so they do not count.
 */
export const scrollingRoles = new Set([ATSPI_ROLE.DOCUMENT_WEB, ATSPI_ROLE.DOCUMENT_FRAME, ATSPI_ROLE.SCROLL_PANE, ATSPI_ROLE.VIEWPORT]);

/** What the panes scrolling a node's children leave visible: `outer` narrowed by the node when it scrolls or clips. */
export function scrollViewInside(outer: Rect | undefined, node: AtspiRawNode): Rect | undefined {
  const own = (scrollingRoles.has(node.role) || node.clipsContent) && !node.positionUnknown ? placedExtents(node.extents) : undefined;
  if (!own) return outer;
  return outer ? (overlap(outer, own) ?? own) : own;
}

/** Where a box lies wholly outside the scrolled view, if it does. */
function scrolledAwayFrom(box: Rect | undefined, view: Rect | undefined): ClipDirection | undefined {
  const placed = placedExtents(box);
  return placed && view ? clipDirection(placed, view) : undefined;
}

/** What the visible-children rules need to know of a node that holds children. */
function containerOf(node: AtspiRawNode) {
  return {
    bus: node.bus,
    path: node.path,
    childCount: node.childCount,
    interfaces: node.interfaces,
    // A spreadsheet or tree view: it creates its children on demand and cannot list them all.
    managesDescendants: hasState(node.states, ATSPI_STATE.MANAGES_DESCENDANTS) ?? false,
  };
}

function asBox(body: Body | undefined): Rect | undefined {
  const [x, y, w, h] = (body?.[0] as number[] | undefined) ?? [];
  return x === undefined ? undefined : { x, y: y!, w: w!, h: h! };
}

/** A GetExtents answer for a page tab's content, moved back where it is (tab-content-places.ts). */
function movedBack(body: Body | undefined, offset: Offset | undefined): Body | undefined {
  const box = offset ? asBox(body) : undefined;
  if (!box) return body;
  const { x, y, w, h } = placedBack(box, offset);
  return [[x, y, w, h], ...body!.slice(1)];
}

/** Roles whose Text content is their value (entries, editable combo boxes, table cells). */
const textValueRoles = new Set([
  ATSPI_ROLE.COMBO_BOX,
  // What a spin button without a range holds (Gecko's date parts; see heldNumber in convert.ts).
  ATSPI_ROLE.SPIN_BUTTON,
  ATSPI_ROLE.PASSWORD_TEXT,
  ATSPI_ROLE.TABLE_CELL,
  ATSPI_ROLE.TEXT,
  ATSPI_ROLE.AUTOCOMPLETE,
  ATSPI_ROLE.EDITBAR,
  ATSPI_ROLE.ENTRY,
]);
/** Text roles whose attributes carry a placeholder, which the application may change at any time. */
const placeholderRoles = new Set([ATSPI_ROLE.PASSWORD_TEXT, ATSPI_ROLE.TEXT, ATSPI_ROLE.ENTRY]);
/**
 * Roles whose attributes say what changes as they are used, with no event: a combo box's choice's place among its
 * options (Blink's <select>: posinset and setsize, as a screen reader says "S, 2 of 4") and a table header's sort
 * (aria-sort). Read on every read.
 */
const usedAttributeRoles = new Set([
  ATSPI_ROLE.COMBO_BOX, ATSPI_ROLE.COLUMN_HEADER, ATSPI_ROLE.TABLE_COLUMN_HEADER, ATSPI_ROLE.ROW_HEADER, ATSPI_ROLE.TABLE_ROW_HEADER,
]);
/**
 * Roles whose attributes carry structure: list, tree (a tree item's, a tree grid row's) and heading level, landmark and table kind (xml-roles). These
 * belong to the object as long as it lives, like its role, so they are read once per object: lists make
 * up most of a large tree, and asking every row again would cost a call per row on every capture.
 */
const structuralAttributeRoles = new Set([
  ATSPI_ROLE.LIST_ITEM, ATSPI_ROLE.HEADING, ATSPI_ROLE.SECTION, ATSPI_ROLE.FORM, ATSPI_ROLE.TREE_ITEM, ATSPI_ROLE.LANDMARK,
  // A web table's xml-roles says whether it is a data table or an interactive grid.
  ATSPI_ROLE.TABLE,
  // A page's role=menu says it is a menu where a toolkit's menu object in a menu bar is one of its entries.
  ATSPI_ROLE.MENU,
  // A tree grid's rows are its tree's items: their level (aria-level) says where each lies, as a tree item's does.
  ATSPI_ROLE.TABLE_ROW,
  // A page's live regions: how politely a reader announces their changes (aria-live, or what role=status, log or alert
  // implies), which Blink gives these roles and Gecko its status bar (a page's aria-live div is a section).
  ATSPI_ROLE.STATUS_BAR, ATSPI_ROLE.LOG, ATSPI_ROLE.NOTIFICATION, ATSPI_ROLE.ALERT, ATSPI_ROLE.TIMER, ATSPI_ROLE.MARQUEE,
]);
/**
 * The attribute without which a structural role's attributes are not yet complete: Gecko exposes a new
 * landmark or heading a moment before its xml-roles or level, so attributes lacking it are read again.
 */
const decisiveAttribute = new Map([
  [ATSPI_ROLE.LANDMARK, 'xml-roles'],
  [ATSPI_ROLE.HEADING, 'level'],
]);

/**
 * A checkable toggle button, which a page's role=switch is to Blink and Gecko: its xml-roles says whether it is a switch
 * (cupRoleFor). Only those are asked: reading every toggle button's attributes left two children of Firefox's long page
 * unread in a whole reading.
 */
function switchLike(node: AtspiRawNode): boolean {
  return node.role === ATSPI_ROLE.TOGGLE_BUTTON && hasState(node.states, ATSPI_STATE.CHECKABLE) === true;
}

/**
 * Whether an object's attributes carry structure (structuralAttributeRoles), read once per object: also a web page's
 * scroll pane (one with Text: a toolkit's has none), which is what Blink and Gecko make of a page's role=tabpanel, told
 * by its xml-roles (cupRoleFor): a tab's panel had read as a scrolling group, `grp "Profile" [scr]`.
 */
function hasStructuralAttributes(node: AtspiRawNode): boolean {
  return structuralAttributeRoles.has(node.role) || (node.role === ATSPI_ROLE.SCROLL_PANE && node.interfaces.includes('Text'));
}

function settled(node: AtspiRawNode): boolean {
  const key = decisiveAttribute.get(node.role);
  return key === undefined || node.attributes?.[key] !== undefined;
}
const maxTextLength = 4096;
/** A terminal's screen: 300 columns by 100 rows. */
const maxTerminalTextLength = 30_000;
/** Names are cut at 200 code points when shown; a little more is read so the cut falls on the name, not the read. */
const maxContentNameLength = 256;
/** How many children of a box filling the view are asked where they lie (spillsIntoView). */
const maxSpillChecks = 8;
/**
 * Methods of objects that went unanswered while their app answered other calls, and that answer a call asked after
 * them: the app is not hung, the method is one it never answers (WebKitGTK's scroll pane offers Action and answers no
 * GetActions), and the walk had stopped there and called the app hung. Not asked again, so a window is not waited on
 * for them at every read. Keyed by bus name and object path: a bus never gives a unique name twice.
 */
const unansweredMethods = new Set<string>();
/** The set starts over past this many (a bound on what a long-running daemon keeps). */
const maxUnansweredMethods = 1000;
/** How long an object that answered other calls meanwhile has to answer a plain question, once one of its calls went unanswered. */
const answerNowMs = 500;
/** How many times a walk lists a node's children again after finding one of them destroyed. */
const maxRelists = 3;

/**
 * Roles whose key binding is read with their actions, for the shortcut a menu shows beside an item (GTK's accelerator,
 * Qt's shortcut). Other roles report at most a mnemonic, so asking them would only slow a big read; buttons are asked
 * too where the toolkit reports their shortcut (ReadTreeOptions.buttonShortcuts).
 */
const shortcutRoles = new Set([ATSPI_ROLE.MENU_ITEM, ATSPI_ROLE.CHECK_MENU_ITEM, ATSPI_ROLE.RADIO_MENU_ITEM]);
const buttonRoles = new Set([ATSPI_ROLE.PUSH_BUTTON, ATSPI_ROLE.TOGGLE_BUTTON]);
/** At most this many children are asked for one by one when an object lists none (childrenByIndex): a socket holds one. */
const maxChildrenByIndex = 8;
/** Roles an unnamed object of which is named by its own text content (W3C accname's name from content). */
const contentNamedRoles = new Set(CONTENT_NAMED_ATSPI_ROLES.map((name) => ATSPI_ROLE_NAMES.indexOf(name)));
const namedBlockRoles = new Set(NAMED_BLOCK_ATSPI_ROLES.map((name) => ATSPI_ROLE_NAMES.indexOf(name)));
const wordsAroundChildrenRoles = new Set(WORDS_AROUND_CHILDREN_ATSPI_ROLES.map((name) => ATSPI_ROLE_NAMES.indexOf(name)));
/**
 * Controls a dialog labels with a separate label widget (GTK's mnemonic labels): combo box, list,
 * password text, slider, spin button, table, text, tree table, entry, and a check box, radio button or switch
 * drawn without text of its own (Inkscape's preferences put the label in a column left of the box). Unnamed,
 * they are named by it.
 */
const labelledRoles = new Set([
  ATSPI_ROLE.CHECK_BOX,
  ATSPI_ROLE.RADIO_BUTTON,
  ATSPI_ROLE.TOGGLE_BUTTON,
  ATSPI_ROLE.COMBO_BOX,
  ATSPI_ROLE.LIST,
  ATSPI_ROLE.PASSWORD_TEXT,
  ATSPI_ROLE.SLIDER,
  ATSPI_ROLE.SPIN_BUTTON,
  ATSPI_ROLE.TABLE,
  ATSPI_ROLE.TEXT,
  ATSPI_ROLE.TREE_TABLE,
  ATSPI_ROLE.ENTRY,
]);
const RELATION_LABELLED_BY = 2;
/** ATSPI_RELATION_ERROR_MESSAGE: the object that says why the field's value is rejected (a page's aria-errormessage). */
const RELATION_ERROR_MESSAGE = 21;
/** How much of an error message is read: a sentence, not a page. */
const maxErrorMessageLength = 200;

/**
 * Ranges, whose bounds GTK3 moves without an event (a scroll bar as its list grows). Other objects may offer
 * Value too (LibreOffice gives it to every menu item) and announce their value's changes: re-reading each of
 * them on every read made a mirror read of a Calc window 1300 calls that the app answered for seconds.
 */
const rangeRoles = new Set([ATSPI_ROLE.SCROLL_BAR, ATSPI_ROLE.SLIDER, ATSPI_ROLE.SPIN_BUTTON, ATSPI_ROLE.PROGRESS_BAR, ATSPI_ROLE.LEVEL_BAR, ATSPI_ROLE.DIAL]);

/**
 * Whether an object's fields may change with no event of its own: they come partly from other objects (a
 * label that names it, a combo box's chosen item, embedded objects' words), or toolkits change them
 * silently (an entry's placeholder attribute; a range's bounds, which GTK3 moves as a list grows without
 * the value-changed it sends for the value). A live mirror re-reads such an object on every read.
 */
export function changesWithoutEvent(node: AtspiRawNode): boolean {
  if (node.interfaces.includes('Value') && rangeRoles.has(node.role)) return true;
  if (node.name === '' && labelledRoles.has(node.role)) return true;
  if (node.role === ATSPI_ROLE.COMBO_BOX && node.interfaces.includes('Selection') && !node.interfaces.includes('Text')) return true;
  if (placeholderRoles.has(node.role)) return true;
  // Only a page's (its tag says so): toolkits' headers and combo boxes say neither.
  if (usedAttributeRoles.has(node.role) && (node.role === ATSPI_ROLE.COMBO_BOX ? node.attributes?.posinset !== undefined : node.attributes?.tag !== undefined)) return true;
  return node.interfaces.includes('Hypertext') && node.text !== undefined;
}

type Body = unknown[];

class WalkAborted extends Error {}

/**
 * Reads an accessible subtree with many calls in flight at once: per-message cost on both ends dominates
 * a walk, so requests are pipelined instead of awaited one by one, and each object is only asked for
 * what its interfaces say it has. Every call is bounded; the first call an application fails to answer
 * ends the walk, so a hung application costs one timeout, not one per object.
 */
export function readTree(client: AtspiClient, start: ObjectRef, options: ReadTreeOptions): Promise<ReadTreeResult> {
  const facts = client.facts;
  const started = Date.now();
  const deadline = started + options.budgetMs;
  const concurrency = options.concurrency ?? 192;
  let inFlight = 0;
  let calls = 0;
  /** When each bus last answered a call of this walk: an app that answered nothing since a call was sent may be hung. */
  const lastAnswer = new Map<string, number>();
  let pendingNodes = 0;
  let nodeCount = 0;
  let truncated = false;
  let failure: string | undefined;
  let unresponsive = false;
  let finished = false;
  const waiting: (() => void)[] = [];
  let finish: (result: ReadTreeResult) => void = () => {};
  const done = new Promise<ReadTreeResult>((resolve) => {
    finish = resolve;
  });

  /**
   * The nodes whose role, states and name are not read yet, with the node whose child each is. A walk cut short (its
   * budget spent, an app that stopped answering) leaves them out: they had been shown as generics that say disabled,
   * hidden and off screen, which they are not; their parent's child count still tells that children went unread.
   */
  const basicsUnread = new Map<AtspiRawNode, AtspiRawNode | undefined>();
  /** Takes a node the walk holds out of its parent's children: it will not be shown. */
  const leaveOut = (node: AtspiRawNode, owner: AtspiRawNode) => {
    owner.children = owner.children.filter((child) => child !== node);
    nodeCount--;
  };

  /** Containers read by their visible part, with that part: their children's places are checked at the end. */
  const windowed: { node: AtspiRawNode; view: Rect }[] = [];

  /** The object's own parent, asked only of objects the walk met twice (see keepEachObjectOnce). */
  const parentOf = async (node: ObjectRef): Promise<ObjectRef | undefined> => {
    calls++;
    const body = await client.callObject(node, {
      interface: 'org.freedesktop.DBus.Properties',
      member: 'Get',
      signature: 'ss',
      body: [atspiInterface('Accessible'), 'Parent'],
      timeoutMs: Math.min(options.callTimeoutMs, Math.max(100, deadline - Date.now())),
    });
    const [bus, path] = ((body?.[0] as { value?: unknown } | undefined)?.value as [string, string] | undefined) ?? [];
    return bus && path && path !== NULL_PATH ? { bus, path } : undefined;
  };

  const complete = () => {
    if (finished) return;
    finished = true;
    for (const [node, owner] of basicsUnread) if (owner) leaveOut(node, owner);
    // Not even the top object was read: there is no tree to show.
    if (basicsUnread.has(root)) {
      nodeCount = 0;
      failure ??= `nothing was read within the read's budget of ${options.budgetMs} ms`;
    }
    for (const { node, view } of windowed) dropMisplacedExtents(node, view);
    const result = (): ReadTreeResult => ({ ...(nodeCount > 0 ? { root } : {}), nodeCount, truncated, failure, unresponsive, calls, elapsedMs: Date.now() - started });
    // A hung app answers no question about its duplicates either.
    if (unresponsive) return finish(result());
    const undrawn = async () => {
      if (!options.keepsUndrawnPlaces) return;
      markUnplaced(root);
      await markUndrawnOverlaps(root, (x, y) => {
        calls++;
        return deepestAtPoint(client, start, x, y, 0);
      });
    };
    void keepEachObjectOnce(root, parentOf).then(
      async (dropped) => {
        nodeCount -= dropped;
        await undrawn().catch(() => {});
        finish(result());
      },
      () => finish(result()),
    );
  };

  const abort = (reason: string | undefined) => {
    if (reason !== undefined) failure ??= reason;
    else truncated = true;
    complete();
  };

  async function call(ref: ObjectRef, iface: string, member: string, signature?: string, body?: Body): Promise<Body | undefined> {
    if (finished) throw new WalkAborted();
    if (inFlight >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    if (finished) throw new WalkAborted();
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      abort(undefined);
      throw new WalkAborted();
    }
    const timeoutMs = Math.min(options.callTimeoutMs, remaining);
    const method = `${ref.bus} ${ref.path} ${iface}.${member}`;
    if (unansweredMethods.has(method)) return undefined;
    inFlight++;
    calls++;
    const sent = performance.now();
    try {
      const answer = await client.callObject(ref, { interface: iface, member, signature, body, timeoutMs });
      lastAnswer.set(ref.bus, performance.now());
      return answer;
    } catch (error) {
      if (error instanceof DBusTimeoutError) {
        if (timeoutMs < options.callTimeoutMs) abort(undefined);
        else if ((lastAnswer.get(ref.bus) ?? -1) > sent && (await answersNow(ref))) {
          if (unansweredMethods.size >= maxUnansweredMethods) unansweredMethods.clear();
          unansweredMethods.add(method);
          return undefined;
        } else {
          unresponsive = true;
          abort(`the application (${ref.bus}) did not answer ${member} within ${options.callTimeoutMs} ms; it may be hung or stopped`);
        }
        throw new WalkAborted();
      }
      // The object went away or lacks what it advertised: leave the field out and keep walking.
      if (error instanceof DBusError) return undefined;
      throw error;
    } finally {
      inFlight--;
      waiting.shift()?.();
    }
  }

  /**
   * Whether the object answers a plain question asked now, at once: an app answers its calls in turn, so one that
   * answers it has passed over the call still unanswered (not merely slow to get to it).
   */
  async function answersNow(ref: ObjectRef): Promise<boolean> {
    const timeoutMs = Math.min(answerNowMs, deadline - Date.now());
    if (timeoutMs <= 0) return false;
    calls++;
    return client.callObject(ref, { interface: atspiInterface('Accessible'), member: 'GetRole', timeoutMs }).then(
      () => true,
      () => false,
    );
  }

  function newNode(ref: ObjectRef): AtspiRawNode {
    nodeCount++;
    return { bus: ref.bus, path: ref.path, role: 0, name: '', description: '', states: [0, 0], interfaces: [], childCount: 0, children: [] };
  }

  /**
   * Properties of one interface: in one GetAll where the toolkit is known to answer it, else one Get
   * per property (Qt 5.15 crashes on GetAll, whatever the interface). Value is always asked per property:
   * ATK's bridge (GTK 2 and 3) writes GetAll's answer a property at a time, and a getter that fails (a Value
   * whose number is unset: GAIL's progress bar has no minimum) leaves a dict entry without its value, on which
   * libdbus aborts the app (GIMP died on its first reading); a Get of that property only answers an error.
   */
  async function readProperties(node: ObjectRef, iface: string, names: readonly string[]): Promise<Map<string, unknown>> {
    if (options.propertiesInOneCall && iface !== 'Value') {
      const all = await call(node, 'org.freedesktop.DBus.Properties', 'GetAll', 's', [atspiInterface(iface)]);
      if (all?.[0] instanceof Map) return new Map([...(all[0] as Map<string, { value: unknown }>)].map(([key, variant]) => [key, variant.value]));
    }
    const values = await Promise.all(names.map((name) => call(node, 'org.freedesktop.DBus.Properties', 'Get', 'ss', [atspiInterface(iface), name])));
    const properties = new Map<string, unknown>();
    values.forEach((body, i) => {
      if (body) properties.set(names[i]!, (body[0] as { value: unknown }).value);
    });
    return properties;
  }

  /**
   * The application's cache items by path, asked once for the whole walk where they answer as the objects' own calls
   * (ReadTreeOptions.basicsFromCache); an application that does not answer them is asked object by object.
   */
  const cachedBasics = options.basicsFromCache ? call(cacheOf(start), CACHE_INTERFACE, 'GetItems').then(basicsByPath, () => undefined) : undefined;
  // Awaited by the first object's basics; until then a rejection must not count as unhandled.
  cachedBasics?.catch(() => {});

  /** What an object's own calls in readBasics would have answered, as its cache item says (each in its reply's shape). */
  function answersIn(item: CachedBasics, withRole: boolean, withInterfaces: boolean): [Map<string, unknown>, Body, Body | undefined, Body | undefined] {
    const props = new Map<string, unknown>([['Name', item.name], ['Description', item.description], ['ChildCount', item.childCount]]);
    return [props, [item.states], withRole ? [item.role] : undefined, withInterfaces ? [item.interfaces] : undefined];
  }

  /**
   * Name, description, child count and states always; role and interfaces only for objects not seen before (the role
   * every time where the toolkit reuses paths). `known`: the facts kept of the node's path that are still its own (see
   * reusesPaths); `alive` false when the object is gone: its states or role went unanswered (the app no longer has it)
   * or it says it is defunct.
   */
  async function readBasics(node: AtspiRawNode, cached: ObjectFacts | undefined): Promise<{ known: ObjectFacts | undefined; alive: boolean }> {
    const asksRole = cached === undefined || options.reusesPaths === true;
    const item = cachedBasics && node.bus === start.bus ? (await cachedBasics)?.get(node.path) : undefined;
    const [props, state, role, cachedInterfaces] = item
      ? answersIn(item, asksRole, cached === undefined)
      : await Promise.all([
          readProperties(node, 'Accessible', ['Name', 'Description', 'ChildCount']),
          call(node, atspiInterface('Accessible'), 'GetState'),
          asksRole ? call(node, atspiInterface('Accessible'), 'GetRole') : undefined,
          cached ? undefined : call(node, atspiInterface('Accessible'), 'GetInterfaces'),
        ]);
    // Another role than the one kept: the path is another object's now (Qt 5 gave a question's alert's path to the
    // label of the next dialog, which read as an alert), and nothing kept of it is.
    const replaced = cached !== undefined && role !== undefined && Number(role[0] ?? 0) !== cached.role;
    if (replaced) facts.forget(node);
    const known = replaced ? undefined : cached;
    const interfaces = replaced ? (item ? [item.interfaces] : await call(node, atspiInterface('Accessible'), 'GetInterfaces')) : cachedInterfaces;
    // A name has no offsets to say which embedded object a U+FFFC stands for, so the character is dropped.
    node.name = withoutObjectReplacements(String(props.get('Name') ?? ''));
    node.description = String(props.get('Description') ?? '');
    // Without the property, ask for children anyway rather than assume a leaf.
    node.childCount = props.has('ChildCount') ? Number(props.get('ChildCount')) : -1;
    node.states = state?.[0] ? withAnnouncedChecked(client, node, state[0] as number[]) : [0, 0];
    node.role = known ? known.role : Number(role?.[0] ?? 0);
    node.interfaces = known ? known.interfaces : ((interfaces?.[0] as string[] | undefined) ?? []).map(shortInterfaceName);
    // A role asked and unanswered is an object destroyed between the questions (they go out together).
    const alive = state !== undefined && (!asksRole || role !== undefined) && hasState(node.states, ATSPI_STATE.DEFUNCT) !== true;
    return { known, alive };
  }

  /**
   * Children are only asked of objects that have some, so leaves (about half of a tree) cost no call;
   * an object that had children on an earlier walk is asked at once, saving a round trip per level.
   */
  async function readChildren(node: AtspiRawNode, depth: number, early: Promise<Body | undefined> | undefined): Promise<ObjectRef[]> {
    if (node.childCount === 0) return [];
    if (depth >= options.maxDepth) {
      truncated = true;
      return [];
    }
    const body = await (early ?? call(node, atspiInterface('Accessible'), 'GetChildren'));
    const listed = objectRefs((body?.[0] as [string, string][] | undefined) ?? []);
    const refs = listed.length === 0 && node.childCount > 0 && node.childCount <= maxChildrenByIndex ? await childrenByIndex(node) : listed;
    if (node.childCount < 0) node.childCount = refs.length;
    return refs;
  }

  /**
   * Which of a combo box's unread choices are separators, asked one call each: a separator is no choice, and File
   * Roller's Location box, five places and a rule, read "# 6 more items". Only a combo box's are asked, as its choices
   * are what set_value picks among: a menu bar's closed menus hold hundreds of items.
   */
  async function separatorsAmong(items: readonly ObjectRef[]): Promise<boolean[]> {
    const roles = await Promise.all(items.map((ref) => call(ref, atspiInterface('Accessible'), 'GetRole').catch(() => undefined)));
    return roles.map((body) => Number(body?.[0]) === ATSPI_ROLE.SEPARATOR);
  }

  /**
   * The children of an object that lists none though it counts some, asked for one by one: an ATK socket holds the
   * content another process embeds in it (WebKitGTK's web view, whose page runs in a web process), and GTK3's bridge
   * answers GetChildren there with nothing, GetChildAtIndex with the embedded root. Devhelp's whole page was missing.
   */
  async function childrenByIndex(node: AtspiRawNode): Promise<ObjectRef[]> {
    const answers = await Promise.all(Array.from({ length: node.childCount }, (_, index) => call(node, atspiInterface('Accessible'), 'GetChildAtIndex', 'i', [index]).catch(() => undefined)));
    return objectRefs(answers.flatMap((body) => (body?.[0] ? [body[0] as [string, string]] : [])));
  }

  /** The words of the objects a field's error-message relation names: their names, else their text. */
  async function errorMessage(node: AtspiRawNode): Promise<string | undefined> {
    const body = await call(node, atspiInterface('Accessible'), 'GetRelationSet');
    const relations = (body?.[0] as [number, [string, string][]][] | undefined) ?? [];
    const targets = objectRefs(relations.filter(([type]) => type === RELATION_ERROR_MESSAGE).flatMap(([, refs]) => refs));
    const words = await Promise.all(
      targets.map(async (target) => {
        const name = String((await readProperties(target, 'Accessible', ['Name'])).get('Name') ?? '');
        return withoutObjectReplacements(name || ((await readText(target, maxErrorMessageLength)) ?? ''));
      }),
    );
    return words.map((each) => each.trim()).filter(Boolean).join(' ') || undefined;
  }

  /**
   * The first maxLength characters of an object's Text, read to its real length (Qt answers nothing past the end). A
   * password field (known by its role, where the object was read) is read as its masks.
   */
  async function readText(node: ObjectRef & { role?: number }, maxLength: number): Promise<string | undefined> {
    const properties = await readProperties(node, 'Text', ['CharacterCount']);
    const end = textEnd(Number(properties.get('CharacterCount') ?? Number.NaN), maxLength);
    if (end === 0) return '';
    const body = await call(node, atspiInterface('Text'), 'GetText', 'ii', [0, end]);
    return body ? passwordText(node.role ?? Number.NaN, String(body[0] ?? ''), end) : undefined;
  }

  /**
   * A combo box's text, or its name when its Text is stale (comboTextIsStale): the whole text is read as well,
   * which a combo box's few characters allow.
   */
  async function readComboText(node: AtspiRawNode): Promise<string | undefined> {
    const [properties, whole] = await Promise.all([readProperties(node, 'Text', ['CharacterCount']), call(node, atspiInterface('Text'), 'GetText', 'ii', [0, -1])]);
    const text = whole ? String(whole[0] ?? '') : '';
    const count = Number(properties.get('CharacterCount') ?? Number.NaN);
    if (node.name && comboTextIsStale(text, count)) return node.name;
    // Read whole and as long as it says: no need to ask again (Qt, which answers nothing past the end, says no length).
    return codePointLength(text) === count && count <= maxTextLength ? text : readText(node, maxTextLength);
  }

  /**
   * Action names in one GetActions. It answers localized names, which Blink leaves empty (its GetName has
   * them), so an empty one is asked again by index; matching actions by name needs every name.
   */
  async function readActionNames(node: AtspiRawNode): Promise<string[] | undefined> {
    if (options.actionsOneByOne) {
      const total = Number((await readProperties(node, 'Action', ['NActions'])).get('NActions') ?? Number.NaN);
      if (!Number.isInteger(total) || total < 0) return undefined;
      return Promise.all(Array.from({ length: total }, async (_, index) => String((await call(node, atspiInterface('Action'), 'GetName', 'i', [index]))?.[0] ?? '')));
    }
    const body = await call(node, atspiInterface('Action'), 'GetActions');
    if (!body) return undefined;
    const names = ((body?.[0] as [string, string, string][] | undefined) ?? []).map(([name]) => name);
    return Promise.all(
      names.map(async (name, index) => (name ? name : String((await call(node, atspiInterface('Action'), 'GetName', 'i', [index]))?.[0] ?? ''))),
    );
  }

  async function readDetails(
    node: AtspiRawNode,
    known: ObjectFacts | undefined,
    parent: ParentFacts | undefined,
    parentView: Promise<Rect>,
    asked: Promise<Body | undefined> | undefined,
  ): Promise<void> {
    const has = (name: string) => node.interfaces.includes(name);
    const showing = hasState(node.states, ATSPI_STATE.SHOWING) === true;
    const staleShowing = options.trustShowing && showingMayBeStale(node.role, node.states, parent);
    const askPosition = showing || !options.trustShowing || staleShowing;
    const work: Promise<void>[] = [];
    if (has('Component') && !askPosition) node.positionUnknown = true;
    if (has('Component') && askPosition) {
      work.push(
        (asked ?? call(node, atspiInterface('Component'), 'GetExtents', 'u', [0]).then((body) => movedBack(body, misplacedBy.get(node)))).then(async (body) => {
          const box = asBox(body);
          if (box) node.extents = box;
          if (!staleShowing) return;
          // Placed where its view shows it; anywhere else it is scrolled away, as its SHOWING said.
          const placed = placedExtents(node.extents);
          if (!placed || !overlap(await parentView, placed)) {
            node.positionUnknown = true;
            delete node.extents;
          }
        }),
      );
    }
    if (has('Action') && known?.actions && known.actionsReadUnder === actionStateKey(node.states)) {
      node.actions = known.actions;
      if (known.keyBinding) node.keyBinding = known.keyBinding;
    } else if (has('Action')) {
      // An empty list is kept: the toolkit said the object has no action (GTK 4.8's check boxes), which the tree shows.
      work.push(readActionNames(node).then((names) => {
        if (names) node.actions = names;
      }));
      if (shortcutRoles.has(node.role) || (options.buttonShortcuts && buttonRoles.has(node.role))) {
        work.push(call(node, atspiInterface('Action'), 'GetKeyBinding', 'i', [0]).then((body) => {
          const binding = typeof body?.[0] === 'string' ? body[0] : '';
          if (binding) node.keyBinding = binding;
        }));
      }
    }
    if (has('Value')) {
      work.push(
        readProperties(node, 'Value', ['CurrentValue', 'MinimumValue', 'MaximumValue']).then((values) => {
          const current = Number(values.get('CurrentValue'));
          if (values.has('CurrentValue') && Number.isFinite(current)) {
            node.value = { current, ...givenBounds(values.get('MinimumValue'), values.get('MaximumValue')) };
            // A spin button at the bottom of its range may be an empty part of Blink's date or time field, which
            // reports the range's bottom, 0 for minutes: only its attributes tell it (see emptyDatePart). And a spin
            // button or slider may write words for its number (value text "PM" for 2 of the AM/PM part): shownNumber.
            if ((node.role === ATSPI_ROLE.SPIN_BUTTON || node.role === ATSPI_ROLE.SLIDER) && !node.attributes) {
              return call(node, atspiInterface('Accessible'), 'GetAttributes').then((body) => {
                const attributes = body?.[0] instanceof Map ? (body[0] as Map<string, string>) : undefined;
                if (attributes && attributes.size > 0) node.attributes = Object.fromEntries(attributes);
              });
            }
          }
          return undefined;
        }),
      );
    }
    if (has('Text') && node.role === ATSPI_ROLE.TERMINAL) {
      // A terminal's Text is what its screen shows (VTE's holds the visible rows): its content, shown as rows (terminal-rows.ts).
      work.push(readText(node, maxTerminalTextLength).then((text) => {
        if (text !== undefined) node.text = withoutAstralPadding(text);
      }));
    } else if (has('Text') && (textValueRoles.has(node.role) || isEditableContent(node, parent))) {
      work.push((node.role === ATSPI_ROLE.COMBO_BOX ? readComboText(node) : readText(node, maxTextLength)).then(async (text) => {
        if (text === undefined) return;
        // Blink and Gecko put U+FFFC where an embedded object is (a drop-down's chosen item): its own words replace it.
        node.text = withoutAstralPadding(text.includes(OBJECT_REPLACEMENT) ? await resolveEmbeddedText(call, node, text, node.interfaces) : text);
      }));
    } else if (has('Text') && ((node.name === '' && contentNamedRoles.has(node.role)) || (node.childCount === 0 && namedBlockRoles.has(node.role)))) {
      // An unnamed icon, cell or label whose words are only in its Text (GTK 2 icon views name their file
      // icons this way): accname takes the name from the content. A named block without children (a page's
      // aria-labelled log in Gecko) has its words there too, and they are what it shows.
      work.push(readText(node, maxContentNameLength).then((text) => {
        if (text) node.text = withoutAstralPadding(text);
      }));
    } else if (has('Text') && node.childCount > 0 && wordsAroundChildrenRoles.has(node.role)) {
      // A container that may hold words of its own between its children (WORDS_AROUND_CHILDREN_ATSPI_ROLES): only a
      // Text longer than its children's U+FFFCs holds any, so most containers cost one property read.
      work.push(readProperties(node, 'Text', ['CharacterCount']).then(async (properties) => {
        if (!(Number(properties.get('CharacterCount')) > node.childCount)) return;
        const text = await readText(node, maxContentNameLength);
        if (text) node.text = withoutAstralPadding(text);
      }));
    }
    // A link drawn in its label's text (GTK3's markup links) has no words or place of its own: its label's say them.
    if (node.role === ATSPI_ROLE.LINK && node.name === '' && has('Hyperlink') && !has('Text') && parent?.bus && parent.path && parent.interfaces.includes('Text')) {
      const owner = { bus: parent.bus, path: parent.path };
      work.push(linkAnchor(call, node, owner, !has('Component')).then((anchor) => {
        if (!anchor) return;
        node.text = anchor.text;
        if (anchor.box) node.extents = anchor.box;
      }));
    }
    // A link its app names nothing (an icon with no text alternative) is told by where it leads, as a link's value
    // is its address in other platforms' APIs (MSAA's accValue).
    if (node.role === ATSPI_ROLE.LINK && node.name === '' && has('Hyperlink')) {
      work.push(call(node, atspiInterface('Hyperlink'), 'GetURI', 'i', [0]).then((body) => {
        const uri = String(body?.[0] ?? '');
        if (uri) node.uri = uri;
      }));
    }
    if (node.role === ATSPI_ROLE.COMBO_BOX && has('Selection') && !has('Text')) {
      work.push(
        call(node, atspiInterface('Selection'), 'GetSelectedChild', 'i', [0]).then(async (body) => {
          const [bus, path] = (body?.[0] as [string, string] | undefined) ?? [];
          if (!bus || !path || path === NULL_PATH) return;
          const [name, role] = await Promise.all([
            call({ bus, path }, 'org.freedesktop.DBus.Properties', 'Get', 'ss', [atspiInterface('Accessible'), 'Name']),
            call({ bus, path }, atspiInterface('Accessible'), 'GetRole'),
          ]);
          const variant = name?.[0] as { value: unknown } | undefined;
          // In a combo box whose choices are grouped in submenus, GTK3 selects the submenu ("A - B"), not the
          // choice ("Boston"); the combo box is named after its active choice, so that name is the value.
          if (Number(role?.[0]) === ATSPI_ROLE.MENU) node.selectedName = node.name;
          else if (variant) node.selectedName = withoutObjectReplacements(String(variant.value));
        }),
      );
    }
    if (node.role === ATSPI_ROLE.PAGE_TAB_LIST && has('Selection')) {
      work.push(
        call(node, atspiInterface('Selection'), 'GetSelectedChild', 'i', [0]).then((body) => {
          const [bus, path] = (body?.[0] as [string, string] | undefined) ?? [];
          if (bus === node.bus && path && path !== NULL_PATH) node.selectedTab = path;
        }),
      );
    }
    // A named combo box may be named by its choice or by data of its active row (Qt, GTK3): its label is read too (comboNamedByLabel).
    const namedCombo = node.name !== '' && node.role === ATSPI_ROLE.COMBO_BOX;
    // So may a button that holds nothing, which may be named by the value it shows (a font button: valueButtonNamedByLabel).
    const namedButton = node.name !== '' && node.role === ATSPI_ROLE.PUSH_BUTTON && node.childCount === 0;
    const unnamedControl = node.name === '' && labelledRoles.has(node.role);
    if (unnamedControl || namedCombo || namedButton) {
      const labelsOf = async (of: ObjectRef): Promise<string> => {
        const relations = ((await call(of, atspiInterface('Accessible'), 'GetRelationSet'))?.[0] as [number, [string, string][]][] | undefined) ?? [];
        const labels = objectRefs(relations.filter(([type]) => type === RELATION_LABELLED_BY).flatMap(([, targets]) => targets));
        const names = await Promise.all(
          labels.map(async (label) => {
            // Qt also says a group box labels everything in it: only a label of its own names a combo box or a button.
            if ((namedCombo || namedButton) && Number((await call(label, atspiInterface('Accessible'), 'GetRole'))?.[0]) !== ATSPI_ROLE.LABEL) return new Map<string, unknown>();
            return readProperties(label, 'Accessible', ['Name']);
          }),
        );
        return names.map((properties) => withoutObjectReplacements(String(properties.get('Name') ?? ''))).filter(Boolean).join(' ');
      };
      // libhandy's rows (HdyActionRow: GNOME System Monitor's preferences) tie their title to the row by labelled-by,
      // and the switch or spin button the row holds to nothing, the title label being in no object's children: an
      // unnamed control with no label of its own keeps its row's (rowLabel), which names it where it is all the row holds.
      const row = unnamedControl && parent?.role === ATSPI_ROLE.LIST_ITEM && parent.bus && parent.path ? { bus: parent.bus, path: parent.path } : undefined;
      work.push(
        labelsOf(node).then(async (text) => {
          if (text) node.labelledBy = text;
          else if (row) {
            const title = await labelsOf(row);
            if (title) node.rowLabel = title;
          }
        }),
      );
    }
    // Why a rejected field is rejected: the page's message tied to it (aria-errormessage), which both browsers expose
    // only while the field is invalid. A sign-up form's field read `(invalid)` and the message stood apart from it, or
    // elsewhere on the page, with nothing saying whose it was.
    if (hasState(node.states, ATSPI_STATE.INVALID_ENTRY) === true) {
      work.push(errorMessage(node).then((message) => {
        if (message) node.errorMessage = message;
      }));
    }
    // Where a cell lies: kept while nothing around it was listed otherwise (a row added or removed, the rows sorted),
    // as a cell lives in one place (a read of a big table's cells asked each again); its table's size, on every read.
    const placedBefore = parent && relistedAbove.has(parent) ? undefined : known?.cellPosition;
    if (placedBefore) node.cellPosition = placedBefore;
    else if (asksCellPosition(node.role, node.interfaces, parent?.interfaces)) {
      const table = parent?.bus && parent.path ? { bus: parent.bus, path: parent.path, interfaces: parent.interfaces } : undefined;
      work.push(cellPosition(call, node, table).then((position) => {
        if (position) node.cellPosition = position;
      }));
    }
    if (tableRoles.has(node.role) && has('Table')) {
      work.push(tableSize(call, node).then((size) => {
        if (size) node.tableSize = size;
      }));
    }
    const structural = hasStructuralAttributes(node);
    // An item's place in its set (posinset, setsize) changes with its siblings: kept only while they stay.
    if (structural && known?.attributes && !(parent && relistedParents.has(parent))) {
      if (Object.keys(known.attributes).length > 0) node.attributes = known.attributes;
    } else if (structural || placeholderRoles.has(node.role) || usedAttributeRoles.has(node.role) || switchLike(node)) {
      work.push(
        call(node, atspiInterface('Accessible'), 'GetAttributes').then((body) => {
          const attributes = body?.[0] instanceof Map ? (body[0] as Map<string, string>) : undefined;
          if (attributes && attributes.size > 0) node.attributes = Object.fromEntries(attributes);
        }),
      );
    }
    await Promise.all(work);
  }

  /**
   * The items of a menu, unless a read of what is shown (visibleOnly) finds the menu closed (closed-menus.ts):
   * then none is read, and the menu counts them. A menu bar's closed menus hold most of an office suite's
   * window (700 of a Calc window's 2,400 objects per menu bar), and no item shows until its menu opens.
   * Where the menu's own states do not decide it, its items' states do: one call each, not a read of each
   * item and its submenus.
   */
  async function menuItemsToRead(node: AtspiRawNode, depth: number, early: Promise<Body | undefined> | undefined, parentRole: number | undefined): Promise<ObjectRef[]> {
    let closed = closedMenu(node, undefined, options.trustShowing, parentRole);
    const refs = closed && node.childCount > 1 ? [] : await readChildren(node, depth, early);
    if (closed === undefined) {
      const states = await Promise.all(refs.map((ref) => call(ref, atspiInterface('Accessible'), 'GetState')));
      closed = closedMenu(node, states.map((body) => (body?.[0] as number[] | undefined) ?? [0, 0]), options.trustShowing, parentRole);
    }
    if (!closed) return refs;
    node.closedMenuItems = node.childCount > 0 ? node.childCount : refs.length;
    // A lone child that is the menu's popup holds the items (prune.ts counts them alike when they are read).
    if (refs.length === 1) {
      const [role, count] = await Promise.all([
        call(refs[0]!, atspiInterface('Accessible'), 'GetRole'),
        readProperties(refs[0]!, 'Accessible', ['ChildCount']),
      ]);
      if (isPopupOf(node.role, Number(role?.[0])) && count.has('ChildCount')) {
        node.closedMenuItems = Number(count.get('ChildCount'));
        if (node.role === ATSPI_ROLE.COMBO_BOX) {
          const items = objectRefs(((await call(refs[0]!, atspiInterface('Accessible'), 'GetChildren'))?.[0] as [string, string][] | undefined) ?? []);
          node.closedMenuItems -= (await separatorsAmong(items)).filter(Boolean).length;
        }
      }
    } else if (options.trustShowing && node.childCount > 1) {
      // Not the children the app keeps hidden in it (closed-menus.ts's itemsKeptHidden), as a read of every item counts
      // them: one call each, none of them a read of the item.
      const items = await readChildren(node, depth, early);
      const [states, separators] = await Promise.all([
        Promise.all(items.map((ref) => call(ref, atspiInterface('Accessible'), 'GetState'))),
        parentRole === ATSPI_ROLE.COMBO_BOX ? separatorsAmong(items) : [],
      ]);
      const choices = states.filter((_, at) => !separators[at]);
      node.closedMenuItems = choices.length - itemsKeptHidden(choices.map((body) => (body?.[0] as number[] | undefined) ?? [0, 0]), true);
    }
    return [];
  }

  /**
   * The children to read: all of them, or for a container with far more than can be shown only those
   * in the part of it that is visible (`view`), the rest counted on the node; none of a closed menu's in a
   * read of what is shown, nor (where hiddenContentUnread) any of a hidden container's, which are counted on it.
   */
  async function childrenToRead(node: AtspiRawNode, depth: number, early: Promise<Body | undefined> | undefined, view: Promise<Rect>, owner: AtspiRawNode | undefined): Promise<ObjectRef[]> {
    const container = containerOf(node);
    if (options.hiddenContentUnread && depth < options.maxDepth && node.childCount > 0 && hidesItsContent(node, owner)) {
      node.hiddenContent = node.childCount;
      return [];
    }
    if (options.visibleOnly && depth < options.maxDepth && node.childCount !== 0 && holdsMenuItems(node.role)) return menuItemsToRead(node, depth, early, (owner ?? options.parent)?.role);
    if (depth >= options.maxDepth || !readsVisiblePartOnly(container)) return readChildren(node, depth, early);
    // A container that is not shown has no visible part (its position was not even asked).
    const visibleArea = await view;
    const visible = await visibleChildren(call, container, node.positionUnknown ? undefined : visibleArea, options.maxNodes - nodeCount);
    node.unreadChildren = visible.unread;
    windowed.push({ node, view: visibleArea });
    return visible.refs;
  }

  /** Only where geometry decides what is shown (see ReadTreeOptions.visibleOnly). */
  const geometric = !options.trustShowing;

  /**
   * Whether the node is a box that clips what it holds though the tree shows no scroll pane there (see
   * ReadTreeOptions.showingTellsClipping): shown itself, it has a child placed outside its box, where the view
   * around it would show that child, that the toolkit marks visible and not showing. A box whose content may
   * spill out (a menu placed past its container) leaves such children showing. A few of them are asked.
   */
  async function clipsItsContent(node: AtspiRawNode, ownBox: () => Promise<Rect | undefined>, refs: ObjectRef[], boxes: (Body | undefined)[], scrollView: Rect): Promise<Rect | undefined> {
    if (!options.showingTellsClipping || scrollingRoles.has(node.role) || hasState(node.states, ATSPI_STATE.SHOWING) !== true) return undefined;
    const own = await ownBox();
    if (!own) return undefined;
    const outside = refs.filter((_, i) => {
      const placed = placedExtents(asBox(boxes[i]));
      return placed !== undefined && clipDirection(placed, own) !== undefined && clipDirection(placed, scrollView) === undefined;
    });
    if (outside.length === 0) return undefined;
    const states = await Promise.all(outside.slice(0, 3).map((ref) => call(ref, atspiInterface('Accessible'), 'GetState')));
    const clipped = states.some((body) => {
      const set = body?.[0] as number[] | undefined;
      return hasState(set, ATSPI_STATE.VISIBLE) === true && hasState(set, ATSPI_STATE.SHOWING) === false;
    });
    return clipped ? own : undefined;
  }

  /**
   * Whether a box placed wholly out of the view still shows what it holds there: one at least as tall as the view or
   * its parent (as wide, for a box away sideways), laid out to fill it, whose content runs past its edge (CSS overflow
   * left visible).
   * Chromium's settings page puts its whole page in a main landmark as tall as its scroller: scrolled past that height,
   * the main lay 933 px above the view, and every setting on screen read as "1 more item — scroll up to see". One of its
   * children placed in the view says so; only such boxes are asked, a few children each, so a long list's rows (each
   * smaller than the view) cost nothing more.
   */
  async function spillsIntoView(ref: ObjectRef, box: Rect | undefined, away: ClipDirection, view: Rect, parent: Rect | undefined, misplaced: Offset | undefined): Promise<boolean> {
    const placed = placedExtents(box);
    if (!placed) return false;
    const fills = away === 'up' || away === 'down' ? placed.h >= Math.min(view.h, parent?.h ?? view.h) : placed.w >= Math.min(view.w, parent?.w ?? view.w);
    if (!fills) return false;
    const children = objectRefs(((await call(ref, atspiInterface('Accessible'), 'GetChildren'))?.[0] as [string, string][] | undefined) ?? []).slice(0, maxSpillChecks);
    const asked = await Promise.all(
      children.map((child) =>
        Promise.all([call(child, atspiInterface('Component'), 'GetExtents', 'u', [0]).then((body) => movedBack(body, misplaced)), call(child, atspiInterface('Accessible'), 'GetState')]),
      ),
    );
    return asked.some(([childBox, state]) => {
      const extents = asBox(childBox);
      const childPlaced = placedExtents(extents);
      if (childPlaced) return clipDirection(childPlaced, view) === undefined;
      // A box of no size that the toolkit says is shown is shown by what it holds: Chromium places its settings page's
      // view managers (absolutely placed pages inside) with no height, and sets SHOWING by their content's place.
      return extents !== undefined && (extents.w === 0 || extents.h === 0) && hasState(state?.[0] as number[] | undefined, ATSPI_STATE.SHOWING) === true;
    });
  }

  /**
   * The children of a node to visit, each with its box asked ahead and where it lies out of view, inside a
   * scrolled pane (where geometry decides what is shown): a read of the visible part counts those scrolled
   * away instead of reading them. When every child lies out of view, those placed outside the node's own box
   * are not taken for scrolled away: what shows of the node then comes from content placed elsewhere than its
   * objects say (an open modal dialog in a section below the fold, the rest of the page made inert, is the only
   * child its document has left).
   * A node found to clip its content (clipsItsContent) narrows the view its children are judged by, and the
   * view returned is the one for their subtrees.
   */
  async function childrenToVisit(
    node: AtspiRawNode,
    ownBox: () => Promise<Rect | undefined>,
    refs: ObjectRef[],
    outerView: Rect | undefined,
    misplaced: Offset | undefined,
  ): Promise<{ children: { ref: ObjectRef; box?: Body; away?: ClipDirection }[]; scrollView: Rect | undefined }> {
    if (!geometric || !outerView || refs.length === 0) return { children: refs.map((ref) => ({ ref })), scrollView: outerView };
    const boxes = await Promise.all(refs.map((ref) => call(ref, atspiInterface('Component'), 'GetExtents', 'u', [0]).then((body) => movedBack(body, misplaced))));
    const clip = await clipsItsContent(node, ownBox, refs, boxes, outerView);
    if (clip) node.clipsContent = true;
    const scrollView = clip ? (overlap(outerView, clip) ?? clip) : outerView;
    let aways = boxes.map((box) => scrolledAwayFrom(asBox(box), scrollView));
    if (aways.every(Boolean)) {
      // Only children placed elsewhere than the node's box are taken for content shown elsewhere: those inside it
      // are where it says, out of view with it (the last post of a feed, shown by a sliver at the box's edge).
      const own = await ownBox();
      aways = aways.map((away, i) => {
        const placed = placedExtents(asBox(boxes[i]));
        return own && placed && overlap(placed, own) ? away : undefined;
      });
    }
    // A child filling the view, placed out of it, may show what it holds there all the same (spillsIntoView).
    const parentBox = aways.some(Boolean) ? await ownBox() : undefined;
    aways = await Promise.all(aways.map(async (away, i) => (away && (await spillsIntoView(refs[i]!, asBox(boxes[i]), away, scrollView, parentBox, misplaced)) ? undefined : away)));
    const kept: { ref: ObjectRef; box?: Body; away?: ClipDirection }[] = [];
    refs.forEach((ref, i) => {
      const away = aways[i];
      if (!away || !options.visibleOnly) kept.push({ ref, box: boxes[i], ...(away ? { away } : {}) });
      else {
        node.offscreenChildren ??= { up: 0, down: 0, left: 0, right: 0 };
        node.offscreenChildren[away]++;
      }
    });
    return { children: kept, scrollView };
  }

  /**
   * Reads one object and, in parallel, its subtree. `parentView` is the part of the screen (in the
   * toolkit's coordinates) that the object's ancestors leave visible, `scrollView` what the panes that
   * scroll it leave visible (undefined outside any), and `box` its GetExtents answer when asked ahead.
   */
  function visit(node: AtspiRawNode, depth: number, parentView: Promise<Rect>, parent: ParentFacts | undefined, scrollView: Rect | undefined, box?: Body, owner?: AtspiRawNode): void {
    pendingNodes++;
    basicsUnread.set(node, owner);
    (async () => {
      const cached = facts.get(node);
      const early = cached?.hadChildren && depth < options.maxDepth ? call(node, atspiInterface('Accessible'), 'GetChildren') : undefined;
      // Awaited below; until then a rejection must not count as unhandled.
      early?.catch(() => {});
      const { known, alive } = await readBasics(node, cached);
      basicsUnread.delete(node);
      if (!alive && owner) {
        // Destroyed since its parent listed it (a list rebuilt while it was read): no element, and its parent's
        // children are asked again, so the rows that replaced it are read, not shown as disabled hidden generics.
        leaveOut(node, owner);
        const relister = relisters.get(owner);
        // Still destroyed after the last listing: what the walk holds of the parent is not what the app shows.
        // (A container read by its visible part is not listed again: what it holds is then only said to be partial.)
        if (!relister || !(await relister(node.path))) {
          const what = `${(ATSPI_ROLE_NAMES[owner.role] ?? 'ROLE_NODE').slice(5).toLowerCase().replace(/_/g, ' ')} ${JSON.stringify(owner.name)}`;
          failure ??= `the window changed faster than it could be read: children of ${what} were destroyed as they were read${relister ? `, ${maxRelists + 1} times over` : ''}`;
        }
        return;
      }
      const details = readDetails(node, known, parent, parentView, box && Promise.resolve(box));
      details.catch(() => {});
      detailsRead.set(node, details);
      const view = Promise.all([parentView, details]).then(([outer]) => viewInside(outer, node));
      view.catch(() => {});
      // Only a pane that scrolls needs its own box before its children are judged.
      const childScroll = geometric && scrollingRoles.has(node.role) ? await details.then(() => scrollViewInside(scrollView, node)) : scrollView;
      const refs = await childrenToRead(node, depth, early, view, owner);
      const listing = depth < options.maxDepth ? listingOf(refs) : cached?.listing;
      if (cached?.listing !== undefined && listing !== cached.listing) relistedParents.add(node);
      if (relistedParents.has(node) || (parent && relistedAbove.has(parent))) relistedAbove.add(node);
      // Its own box, asked ahead by its parent inside a scrolled pane, else read with its details.
      const ownBox = async () => (box ? placedExtents(asBox(box)) : details.then(() => (node.positionUnknown ? undefined : placedExtents(node.extents)), () => undefined));
      const misplaced = await misplacedContent(node, details, owner);
      const visiting = await childrenToVisit(node, ownBox, refs, childScroll, misplaced);
      // The child is put among `into` before it is visited: its first call may find the budget spent and end the walk
      // there and then, and the end leaves out the children not read (see basicsUnread), which it must find in place.
      const visitChild = ({ ref, box: childBox, away }: (typeof visiting.children)[number], scrolled: Rect | undefined, into: AtspiRawNode[]): AtspiRawNode | undefined => {
        // A walk already answered (its budget spent) adds nothing more to the tree it returned.
        if (finished) return undefined;
        if (nodeCount >= options.maxNodes) {
          truncated = true;
          return undefined;
        }
        const child = newNode(ref);
        if (away) child.scrolledAway = away;
        if (misplaced) misplacedBy.set(child, misplaced);
        into.push(child);
        visit(child, depth + 1, view, node, scrolled, childBox, node);
        return child;
      };
      for (const entry of visiting.children) if (!visitChild(entry, visiting.scrollView, node.children)) break;
      if (!readsVisiblePartOnly(containerOf(node))) {
        let relists = 0;
        let relisting: Promise<boolean> | undefined;
        // Asked again by a child found destroyed (its siblings found so meanwhile share the answer); a few times
        // at most, for an app that rebuilds its list without end.
        // A child found destroyed that a new listing still holds is an object the app lists and no longer has
        // (LibreOffice keeps such children under a sheet's filler): it is left out, not read again, and is no sign of
        // a list being rebuilt; every read of Calc's window had failed as changing faster than it could be read.
        const destroyed = new Set<string>();
        relisters.set(node, (path: string) => {
          destroyed.add(path);
          return (relisting ??= relist().finally(() => (relisting = undefined)));
        });
        const relist = async () => {
          if (relists++ >= maxRelists) return false;
          node.childCount = -1;
          const again = await childrenToVisit(node, ownBox, await childrenToRead(node, depth, undefined, view, owner), childScroll, misplaced);
          const had = new Map(node.children.map((child) => [`${child.bus}${child.path}`, child]));
          const children: AtspiRawNode[] = [];
          node.children = children;
          for (const entry of again.children) {
            if (destroyed.has(entry.ref.path)) continue;
            const kept = had.get(`${entry.ref.bus}${entry.ref.path}`);
            if (kept) children.push(kept);
            else if (!visitChild(entry, again.scrollView, children)) break;
          }
          return true;
        };
      }
      await details;
      facts.set(node, {
        role: node.role,
        interfaces: [...node.interfaces],
        // Not asked, or unanswered, is no empty list: asked again next time.
        actions: node.interfaces.includes('Action') && node.actions ? [...node.actions] : undefined,
        keyBinding: node.keyBinding,
        actionsReadUnder: actionStateKey(node.states),
        attributes: hasStructuralAttributes(node) && settled(node) ? (node.attributes ?? {}) : undefined,
        listing,
        cellPosition: node.cellPosition,
        // A container read by its visible part is never asked for all its children at once, also when this read
        // did not reach its children (a re-read of its own fields): LibreOffice asked for every cell of a sheet
        // computes them for minutes and answers nothing else meanwhile.
        // Nor is a closed menu whose items this read left unread, nor a hidden container: they are asked for once it opens or shows.
        hadChildren: node.childCount > 0 && !node.unreadChildren && node.closedMenuItems === undefined && node.hiddenContent === undefined && !readsVisiblePartOnly(containerOf(node)),
      });
    })()
      .catch((error: unknown) => {
        if (!(error instanceof WalkAborted)) abort(error instanceof Error ? error.message : String(error));
      })
      .finally(() => {
        pendingNodes--;
        if (pendingNodes === 0) complete();
      });
  }

  /**
   * Nodes whose children are not those the last walk listed (an item added to a list, one removed): the attributes kept
   * of their children are read again, as a browser's posinset and setsize count the siblings.
   */
  const relistedParents = new WeakSet<object>();
  /** Nodes with such a node above them or that are one: a cell's place kept is asked again below them. */
  const relistedAbove = new WeakSet<object>();
  /** Per node, its details being read (its box among them). */
  const detailsRead = new WeakMap<AtspiRawNode, Promise<void>>();
  /** Per page tab's content placed from its tab (placesTabContentFromTab), how far: its own GetExtents is moved back by it. */
  const misplacedBy = new WeakMap<AtspiRawNode, Offset>();

  /**
   * How far a page tab's children are misplaced where the toolkit places a tab's content from the tab instead of from
   * its tab bar (ToolkitQuirks.placesTabContentFromTab: Java), once the tab's and the tab bar's boxes are read.
   */
  async function misplacedContent(node: AtspiRawNode, details: Promise<void>, owner: AtspiRawNode | undefined): Promise<Offset | undefined> {
    if (!options.placesTabContentFromTab || node.role !== ATSPI_ROLE.PAGE_TAB || owner?.role !== ATSPI_ROLE.PAGE_TAB_LIST || node.childCount === 0) return undefined;
    const read = await Promise.all([details, detailsRead.get(owner)]).then(() => true, () => false);
    return read && !node.positionUnknown && !owner.positionUnknown ? tabContentOffset(node.extents, owner.extents) : undefined;
  }

  /** Per node whose children were listed, how to list them again (see visit). */
  const relisters = new Map<AtspiRawNode, (destroyedPath: string) => Promise<boolean>>();
  const root = newNode(start);
  visit(root, 0, Promise.resolve(options.view ?? everywhere), options.parent, options.scrollView);
  return done;
}
