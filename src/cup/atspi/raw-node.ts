import type { ValueRange } from './value-range.js';

/** GTK3 (and ATK) report this coordinate for objects with no on-screen position, e.g. rows scrolled out of a list. */
const UNKNOWN_COORDINATE = -2147483648;

/**
 * A coordinate that places nothing: -2^31, or that plus an offset. GTK3 places an icon view's items and a tree view's
 * cells at their widget's position plus their own offset, so in a widget with no place (a notebook page not shown)
 * they sit at -2147483636 and the like: no screen reaches a billion pixels left of or above its origin.
 */
export function unknownCoordinate(coordinate: number): boolean {
  return coordinate <= UNKNOWN_COORDINATE / 2;
}

/**
 * Roles whose unnamed objects take their name from their text content: controls and items whose label is
 * drawn text (an icon view's file icon, a cell, a link), and the blocks of a web page (paragraph, section,
 * status), whose words Gecko keeps in their own Text rather than in child objects. Other containers are left out:
 * their text is their children's, which are read as objects of their own.
 */
export const CONTENT_NAMED_ATSPI_ROLES: readonly string[] = [
  'ROLE_PARAGRAPH', 'ROLE_SECTION', 'ROLE_ICON', 'ROLE_LABEL', 'ROLE_STATIC', 'ROLE_LIST_ITEM', 'ROLE_TABLE_CELL', 'ROLE_TREE_ITEM', 'ROLE_PUSH_BUTTON',
  'ROLE_TOGGLE_BUTTON', 'ROLE_CHECK_BOX', 'ROLE_RADIO_BUTTON', 'ROLE_MENU_ITEM', 'ROLE_CHECK_MENU_ITEM',
  'ROLE_RADIO_MENU_ITEM', 'ROLE_PAGE_TAB', 'ROLE_LINK', 'ROLE_HEADING', 'ROLE_CAPTION', 'ROLE_TABLE_COLUMN_HEADER',
  'ROLE_TABLE_ROW_HEADER', 'ROLE_COLUMN_HEADER', 'ROLE_ROW_HEADER',
  // A live region's words (a web page's role=status or role=log output, a toast's role=alert): Gecko keeps them in
  // its own Text. Firefox's toast "Draft saved" read as a bare `alrt`, and wait_for name~="Draft saved" timed out.
  'ROLE_STATUS_BAR', 'ROLE_LOG', 'ROLE_ALERT', 'ROLE_NOTIFICATION',
  // A document viewer's page (Atril's, Evince's): its words are only in its own Text.
  'ROLE_PAGE',
];

/**
 * Roles of an object whose content the app draws with no objects for what it shows, when it holds no child:
 * AisleRiot's cards and Tetravex's tiles are painted on one drawing area, and GTK3's calendar draws its month with no
 * object for a day, nor a text or value saying which day is chosen (zenity --calendar).
 */
export const DRAWN_SURFACE_ATSPI_ROLES: readonly string[] = ['ROLE_DRAWING_AREA', 'ROLE_CANVAS', 'ROLE_CALENDAR'];

/**
 * Whether an object with no child is a surface the app draws itself: one of DRAWN_SURFACE_ATSPI_ROLES, or a plain
 * container (panel, filler) that takes the keyboard focus. A plain container holding nothing is a spacer, but one that
 * takes keys is what the user works in, drawn by the app: Gnumeric's sheet grid (a GocCanvas, a GtkLayout ATK calls a
 * panel) is a focusable empty panel, and the reading showed no grid at all, only the 55x21 corner button above the row
 * numbers as a drawn surface; Qt exposes a custom-painted widget as a focusable empty filler, and a QGraphicsView whose
 * scene fits lists no scroll bars beside its viewport (so it is no scroll area's view): lximage-qt's picture was
 * pruned away, the reading showing a menu bar and a status bar and nothing of where the picture is.
 */
export function isDrawnSurfaceShape(role: string, childCount: number, states: ReadonlySet<string>): boolean {
  if (childCount !== 0) return false;
  // GAIL gives a widget the app made itself, which it has no accessible for, no role at all: gpicview paints its picture
  // on one, focusable and empty, and the reading showed only the scroll pane around it.
  return DRAWN_SURFACE_ATSPI_ROLES.includes(role) || ((role === 'ROLE_PANEL' || role === 'ROLE_FILLER' || role === 'ROLE_UNKNOWN') && states.has('STATE_FOCUSABLE'));
}

/**
 * Blocks and live regions that may be named apart from their words (aria-label on a web page's output paragraph
 * or status): with no children, Gecko keeps the words in the block's own Text, so the reader reads it even when
 * the block has a name, and the words are shown as the block's value.
 */
export const NAMED_BLOCK_ATSPI_ROLES: readonly string[] = ['ROLE_PARAGRAPH', 'ROLE_SECTION', 'ROLE_STATUS_BAR', 'ROLE_LOG', 'ROLE_ALERT', 'ROLE_NOTIFICATION'];

/**
 * Containers a web page writes words into between the objects they hold: a landmark's "Page 1 of 3" between its
 * Previous and Next buttons, a dialog's "This cannot be undone." under its heading, a tab panel's, toolbar's,
 * fieldset's or group's words. Gecko keeps such words (a <span>'s, or bare text) in the container's own Text only,
 * around the U+FFFC of each child, and they were in no node of the tree. Named, or of a role not named by its content,
 * such a container shows them as its value (see NAMED_BLOCK_ATSPI_ROLES for one with no children).
 */
export const WORDS_AROUND_CHILDREN_ATSPI_ROLES: readonly string[] = [
  ...NAMED_BLOCK_ATSPI_ROLES, 'ROLE_LANDMARK', 'ROLE_DIALOG', 'ROLE_SCROLL_PANE', 'ROLE_TOOL_BAR', 'ROLE_PANEL', 'ROLE_GROUPING', 'ROLE_FORM',
];

/**
 * One accessible object as the Linux platform layer read it from AT-SPI2, before any CUP mapping.
 * Plain data so the mapping stays pure and testable without a bus.
 */
export interface AtspiRawNode {
  /** Unique bus name of the application that owns the object. */
  bus: string;
  /** Object path on that bus; with `bus` this is the handle actions resolve, never a position in the walk. */
  path: string;
  role: number;
  name: string;
  description: string;
  /** The AT-SPI state set: two 32-bit words, bit n of the pair is AtspiStateType n. */
  states: readonly number[];
  /** Interface names without the org.a11y.atspi. prefix, e.g. "Action", "Component", "Text". */
  interfaces: readonly string[];
  /**
   * The object has no on-screen position: the toolkit reported the -2^31 sentinel, or it does not set
   * SHOWING on an object whose toolkit sets SHOWING reliably (its extents were then not asked).
   */
  positionUnknown?: boolean;
  /** Extents exactly as the toolkit reported them; see RawTreeContext.extentsOrigin for how to place them. */
  extents?: { x: number; y: number; w: number; h: number };
  /**
   * Drawn on a popup window of its own, found where that window is (GTK 4.8's popovers: popover-places.ts): what it
   * holds is seen within its box, wherever the window it pops up from ends.
   */
  ownSurface?: true;
  actions?: readonly string[];
  /** Action.GetKeyBinding of the first action, as the toolkit wrote it; read for menu items, and Qt's buttons (tree-reader's shortcutRoles). */
  keyBinding?: string;
  value?: ValueRange;
  /**
   * Text content: the value of editable and text-entry objects, and the content an unnamed object of one of
   * CONTENT_NAMED_ATSPI_ROLES is named by.
   */
  text?: string;
  /** Name of the selected child, for a combo box whose selection is not its text (GTK3 combo boxes). */
  selectedName?: string;
  /** A link's address (its Hyperlink's URI), read for a link its app names nothing: what it leads to then tells it. */
  uri?: string;
  /** Path of the tab a page tab list's Selection names: GTK 2's GAIL marks no page tab SELECTED, the current one included. */
  selectedTab?: string;
  attributes?: Readonly<Record<string, string>>;
  /** A table cell's zero-based row and column, as its TableCell or its table says (table-places.ts). */
  cellPosition?: CellPosition;
  /** A table's or grid's rows and columns, as its Table counts them. */
  tableSize?: TableSize;
  /**
   * The title of the Qt group box it lies in, which Qt named it by and the mapping took away (group-box-titles.ts): it
   * names the group's one value field that nothing else names.
   */
  groupTitle?: string;
  /** Why its value is rejected: the words of the objects its error-message relation names, read for an invalid field. */
  errorMessage?: string;
  /** Names of the objects that label this one (its labelled-by relation); read for unnamed controls, named combo boxes and named buttons that hold nothing. */
  labelledBy?: string;
  /** Names of the objects that label the list item holding an unnamed control that has no label of its own (its row's title). */
  rowLabel?: string;
  /** Child count the object reported; more than children.length when the walk was cut short. */
  childCount: number;
  children: AtspiRawNode[];
  /** Children left unread because only the visible part of a huge container was read, by where they lie. */
  unreadChildren?: UnreadChildren;
  /**
   * Children placed wholly outside the view of the pane that scrolls them (a web page below the fold), left
   * unread by a read of the visible part only, by where they lie.
   */
  offscreenChildren?: UnreadChildren;
  /**
   * Placed wholly outside the view of the pane that scrolls it, on this side: a read of the visible part leaves
   * it out (its parent counts it in offscreenChildren), and element numbering puts it and what it holds after
   * everything such a read holds, so both readings give a shown element the same number.
   */
  scrolledAway?: keyof UnreadChildren;
  /**
   * Drawn nowhere though the toolkit still places it and calls it visible (GTK 4.8's page of a stack switched away,
   * a list view's row scrolled out and not yet reused), as the window's hit test found (undrawn-places.ts): it and
   * what it holds are hidden.
   */
  undrawn?: boolean;
  /**
   * A box that clips what it holds though it is no scroll pane in the tree (a web page's CSS overflow box: a
   * feed, a chat log): its content is judged against its box as a scroll pane's is.
   */
  clipsContent?: boolean;
  /**
   * The object is a closed menu (closed-menus.ts) whose items a read of what is shown left unread: how many
   * there are. Its `children` are then empty.
   */
  closedMenuItems?: number;
  /**
   * The object hides what it holds (hidden-containers.ts) and a read of what is shown left its children unread: how
   * many there are. Its `children` are then empty.
   */
  hiddenContent?: number;
}

export interface CellPosition {
  row: number;
  column: number;
}

export interface TableSize {
  rows: number;
  columns: number;
}

/** Counts of children by where they lie relative to the visible ones: above, below, left, right. */
export interface UnreadChildren {
  up: number;
  down: number;
  left: number;
  right: number;
}

/** How to interpret the raw extents of one window's tree. */
export interface RawTreeContext {
  /** Added to every reported extent: (0,0) when the toolkit reports screen coordinates, the window's content origin when it reports window-relative ones (GTK4). */
  extentsOrigin: { x: number; y: number };
  /**
   * Screen pixels per unit of the reported extents, applied before the origin is added: 1 unless the app is scaled
   * on its own and reports its logical pixels (GTK3 under GDK_SCALE, Qt under QT_SCALE_FACTOR; see extents-scale.ts).
   */
  extentsScale?: number;
  /** The part of the screen where the window's content can be seen; elements outside it are offscreen. */
  visibleArea: { x: number; y: number; w: number; h: number };
  /**
   * GTK 4.8's names: an unnamed widget carries its type name ("GtkMenuButton"), and a button's name
   * repeats its label ("4 4" for the label "4"). Neither is the accessible name a user would read.
   */
  gtk4NameQuirks: boolean;
  /** The window's title as the window manager shows it: the name of a window the toolkit left unnamed. */
  windowTitle?: string;
  /** Items of a list with Selection are selectable though they lack SELECTABLE until first selected (ToolkitQuirks.selectableUnmarked). */
  selectableUnmarked?: boolean;
  /** A list's children may be only some of its items (ToolkitQuirks.listsSomeItemsOnly): none is counted among them. */
  listsSomeItemsOnly?: boolean;
  /** The toolkit sets SHOWING exactly when an object is on screen (ToolkitQuirks.showingIsReliable); false when unknown. */
  showingReliable?: boolean;
  /**
   * A view's cells keep SHOWING and their boxes after the view was hidden (ToolkitQuirks.viewsKeepHiddenCells: GTK 2):
   * what lies in an object placed nowhere and not showing is out of view, whatever box it keeps.
   */
  viewsKeepHiddenCells?: boolean;
  /** The toolkit says FOCUSED of every view's current item, a tab bar's current tab included (ToolkitQuirks.focusMarksCurrentItems: Qt). */
  focusMarksCurrentItems?: boolean;
  /** A tab bar's tabs repeat its FOCUSED (ToolkitQuirks.tabsRepeatTabBarFocus: Java): only its current tab has the focus. */
  tabsRepeatTabBarFocus?: boolean;
  /** A toggle button whose one action is "toggle" is a switch (ToolkitQuirks.switchesAreToggleButtons: GTK 3). */
  switchesAreToggleButtons?: boolean;
  /** An editable combo box's own name is the text it holds while it holds any (ToolkitQuirks.namesEditableCombosByText: Qt). */
  namesEditableCombosByText?: boolean;
  /** A wordless widget's name may be the title of the group box it lies in (ToolkitQuirks.namesByGroupBoxTitle: Qt; group-box-titles.ts). */
  namesByGroupBoxTitle?: boolean;
  /**
   * The buses of the objects whose toolkit computes names as accname does (Blink, Gecko, WebKitGTK's web process:
   * ToolkitQuirks.webEngine), whose last step already took the tool tip (a page's `title`): an unnamed object's
   * description is then what describes it (`aria-describedby`), never a tool tip to name it by. Per bus, not per
   * window: a GTK app's web view holds a page whose objects are the web process's, on a bus of their own.
   */
  namesTakeToolTips?: ReadonlySet<string>;
}
