import { ATSPI_ROLE, ATSPI_STATE } from '../../../cup/atspi/constants.js';
import { hasState } from '../../../cup/atspi/states.js';

/** What we know about how a toolkit's AT-SPI implementation deviates from the letter of the spec. */
export interface ToolkitQuirks {
  /** GTK4 answers GetExtents relative to its window even when screen coordinates are asked for. */
  extentsRelativeToWindow: boolean;
  /** GTK3 and ATK set SHOWING exactly when an object is on screen, so a non-showing object's position need not be asked. */
  showingIsReliable: boolean;
  /** GTK4 names unnamed widgets after their type ("GtkBox") and repeats button labels in names ("4 4"). */
  gtk4NameQuirks: boolean;
  /**
   * GTK 4.8 sets SELECTABLE on an item of a list with the Selection interface only once the item has been selected
   * (it sets both together), so an item never selected yet must be taken as selectable all the same.
   */
  selectableUnmarked: boolean;
  /**
   * Properties.GetAll on the Accessible interface answers name, description and child count in one
   * call. GTK answers it; Qt 5.15 crashes (segfault) on it, so every other toolkit is asked per property.
   */
  propertiesInOneCall: boolean;
  /**
   * A list's children are only the items it made widgets for (GTK 4.8's list view: 205 of a list of 1000), so an
   * item's place among them is not its place in the list.
   */
  listsSomeItemsOnly: boolean;
  /**
   * The toolkit announces its changes as events closely enough for a live tree mirror (with the checks in
   * window-mirror.ts): GTK3 and Blink (Chromium's web content and its own UI), which the randomized mirror
   * tests cover. Other toolkits' windows are walked (Gecko: see the README's known limits).
   */
  mirrorable: boolean;
  /** GTK3 packs children into boxes and grids without a children-changed event: a mirror checks child counts. */
  addsChildrenSilently: boolean;
  /**
   * A scroll moves content with no event a client can listen for without making every application on the bus
   * send bounds events (Blink's page scroll sends nothing): a mirror reads every box again on every read.
   */
  scrollsSilently: boolean;
  /**
   * A button is named by the label inside it, which the toolkit hides from the tree, and a change of that label's
   * text is announced by neither (GTK3: gtk_label_set_text on a button's label, as GNOME Mines turns Pause into
   * Resume): a mirror reads the names of named buttons that hold nothing on every read.
   */
  renamesButtonsSilently: boolean;
  /**
   * Outside its pages, the toolkit changes an object's description with no event: Chromium's own UI describes the
   * location bar's page-info icon by the page's address, which a history.pushState changes, and announces the
   * address bar's new text alone. A mirror reads the descriptions of the described objects outside documents on
   * every read (Chromium's window has about ten).
   */
  describesUiSilently: boolean;
  /**
   * GrabFocus on one of its objects activates (raises) its window: Blink's does, and GTK 2's and 3's (their widget
   * accessible presents its top level), so a covered window cannot be focused through accessibility without coming to
   * the front. Gecko's moves the page's focus only; Qt's and GTK 4's move the focus within the window.
   */
  focusActivatesWindow: boolean;
  /**
   * It shows web pages (Blink, which Electron apps are too, Gecko, and WebKitGTK's web process): a page's fields are
   * also reached through the browser's debugging connection when it was started with one.
   */
  webEngine: boolean;
  /**
   * Its browser answers a debugging connection (Blink's DevTools protocol, Gecko's WebDriver BiDi) when started with
   * one: WebKitGTK's web views answer neither, and a relaunch with a debugging port was advised for one all the same.
   */
  pageDebugging: boolean;
  /**
   * Its EditableText answers on a web page's fields and changes nothing (Gecko): the page's own node, through the
   * debugging connection, is tried first there.
   */
  editableTextIdleInPages: boolean;
  /**
   * Its Value sets a web page's number field without the input and change events the page listens for (Gecko; its
   * slider's Value fires them): the field showed the number and the page's script never heard of it.
   */
  valueUnheardInPageFields: boolean;
  /**
   * Its Selection selects a page's option without the input and change events the page listens for (Gecko; the
   * option's own "select" action fires them, as a click does): a <select multiple>'s option read selected and the
   * page's script never heard of it.
   */
  selectionUnheardInPages: boolean;
  /**
   * It leaves what it stopped drawing at its last place, still visible, with no event (GTK 4.8: a stack's page
   * switched away, a list view's row scrolled out): only its hit test tells (undrawn-places.ts).
   */
  keepsUndrawnPlaces: boolean;
  /**
   * It announces what it shows, hides or adds by the new bounds alone (GTK 4.8 sends no SHOWING and no child added for
   * a stack's page switched, a revealer opened, a list's new row): a bounds change is then an action's sign.
   */
  showsByPlaceOnly: boolean;
  /**
   * It says FOCUSED of every view's current item (a list's row, a tree's cell, a tab bar's tab), whether or not the
   * view has the keyboard focus (Qt): such an item has it only when its view says so too.
   */
  focusMarksCurrentItems: boolean;
  /**
   * It gives a new object the path of one it destroyed, announcing neither (Qt 5 takes the lowest id no live object
   * holds): what was known of a path may be another object's, so its role is asked on every read.
   */
  reusesObjectPaths: boolean;
  /**
   * A button's key binding is its shortcut (Qt's QAbstractButton: "Ctrl+L"), so buttons are asked for it. GTK
   * reports a button's mnemonic only ("<Alt>g"), and asking each of a big window's buttons made its read slower.
   */
  buttonsReportShortcuts: boolean;
  /**
   * Its Selection's DeselectSelectedChild(n) deselects the container's n-th child, not its n-th selected one
   * (Gecko's ATK remove_selection counts every option), and DeselectChild, which at-spi2-atk turns into the other,
   * is wrong the same way: a child is deselected by DeselectSelectedChild with its index in the container. Java's
   * bridge passes the index to Swing's AccessibleSelection.removeAccessibleSelection, which takes the child's index.
   */
  deselectsByChildIndex: boolean;
  /**
   * Its hit test (GetAccessibleAtPoint) first answers from the boxes of the tree it keeps, the last one in document
   * order that holds the point, and asks the page for the true answer, which it gives when asked again at that point
   * (Blink: a button scrolled under a sticky header, later in the page than the header, was answered at the header's
   * place; Gecko answered the button too, then the header).
   */
  hitTestLagsOneAsk: boolean;
  /**
   * It answers for a page from a cache its content process fills only once a client first asks (Gecko's cache
   * domains): the process's first attributes answer is empty, and the next ones are guesses for a moment
   * (filling-cache.ts).
   */
  fillsCacheLazily: boolean;
  /**
   * Its list of actions (Action.GetActions) can abort the application: Gecko hands ATK each action's description and
   * key binding in one buffer it reuses, so at-spi2-atk's GetActions holds a description freed by the key binding's
   * answer, sends it as text that is no UTF-8, and libdbus aborts the process. Firefox ESR 140 died so on about:preferences,
   * whose check boxes have access keys ("<Alt><Shift>s;"), at the first read of its window. The names are asked one by
   * one (NActions, then GetName), which hands back one string each.
   */
  listsActionsUnsafely: boolean;
  /**
   * A push button's PRESSED state is a toggle button's on state, never a press under way: GTK 4.8 gives its toggle
   * buttons the push button role, not CHECKABLE, and PRESSED while they are on, and sets PRESSED on nothing else.
   */
  pressedMarksToggles: boolean;
  /**
   * Its tree view's Selection selects a row without moving the view's cursor, the current row that keys move from
   * and that apps read as the current item (GTK 2 and 3: gtk_tree_selection_select_path). GrabFocus on a cell moves
   * both, as a click does, and presents its window (it is the active one already when that is used: item-selection.ts).
   */
  selectionLeavesCursor: boolean;
  /**
   * Its switch has the toggle-button role and one action, "toggle" (GTK 3's GtkSwitch; a toggle button's action is
   * "click"). Qt's checkable push button also has the role and one "Toggle" action, and is a toggle button.
   */
  switchesAreToggleButtons: boolean;
  /**
   * Its buttons' "click" action is a button press and release sent to the button (GAIL, GTK 2), and GTK 2's buttons
   * (push, toggle, check and radio) take the keyboard focus on a press: the click moves the window's focus to the
   * button even in a window that is not active, where GAIL says nothing of it (FOCUSED is only said in the active one).
   * GTK 3's click action emits the button's clicked signal and leaves the focus where it is.
   */
  clickActionTakesFocus: boolean;
  /**
   * A view's cells keep SHOWING and their boxes from when the view was last drawn, after it was hidden (GAIL, GTK 2:
   * a cell's SHOWING is its row's place in the view's scrolled area, whether or not the view is drawn). Pidgin's
   * Preferences, switched from its Sounds page to Interface, read the Sounds page's events table on screen over the
   * Interface page, where a click hit that page's widgets. What lies in an object placed nowhere and not showing is
   * then out of view too, whatever box it keeps (see RawTreeContext.viewsKeepHiddenCells).
   */
  viewsKeepHiddenCells: boolean;
  /**
   * Each read of a TRANSIENT child (a list's, table's or tree's cell, a combo box's choice) makes a new object with a
   * new path, and the one read before still answers, not defunct (Java's ATK bridge: Swing makes a new
   * AccessibleJListChild or AccessibleJTableCell whenever one is asked for). Such an object's path tells nothing of
   * which cell it is: one of an earlier reading is not "kept" (kept-objects.ts), so its cell is taken for the same
   * cell by its role, name and place, as a replaced object is.
   */
  remakesTransientObjects: boolean;
  /**
   * A label's new text is announced only as visible-data-changed, never as a name change (Java's ATK bridge:
   * JLabel.setText fires ACCESSIBLE_VISIBLE_DATA_PROPERTY): that event is listened for, and read back as a rename.
   */
  renamesAsVisibleData: boolean;
  /**
   * A tab bar's tabs say what their tab bar says of itself, FOCUSED included (Java: JTabbedPane's page copies its
   * pane's state set): every tab reads focused while the tab bar has the focus, which only its current tab shows.
   */
  tabsRepeatTabBarFocus: boolean;
  /**
   * A tab page's content, the page tab's child, is placed by its place in the tab bar counted from the page tab's
   * corner instead of the tab bar's (Java's ATK bridge: a component's place on screen is its accessible parent's plus
   * its own bounds, and a JTabbedPane's page component, laid out in the tabbed pane, has its page tab for accessible
   * parent). A JTree in a scroll pane on a third tab, at x=4, read its scroll pane at x=118, past the window's right
   * edge, and the tree as scrolled away to the left. Only that child is misplaced (its descendants are placed from
   * their own parents): its box is moved back by the tab's corner within its tab bar.
   */
  placesTabContentFromTab: boolean;
  /**
   * Objects it makes anew each time they are asked for, never destroying the old ones, which still answer (Qt 5: a
   * QTreeView's header and cells): one of an earlier reading whose parent now holds a look-alike at its index is that
   * look-alike's old copy (kept-objects.ts replacedInPlace), not an object kept out of the reading.
   */
  leavesReplacedObjects: boolean;
  /**
   * EditableText.InsertText's length counts the text's UTF-16 units, not its UTF-8 bytes as ATK's does: Qt cuts or
   * pads the text to that many (QString::resize), so a byte count pads text with a non-ASCII letter with NULs. Qt 6's
   * Linguist saved "Datei öffnen" typed into a translation as "Datei öffnen" and a NUL, which no AT-SPI read shows.
   */
  insertLengthInUtf16: boolean;
  /**
   * It names an editable combo box by the text it holds while it holds any, and by its accessible name or buddy label
   * only while empty (Qt's QAccessibleComboBox on Unix): the box's own name changes with every typing, so a label on
   * screen is the one name it keeps (RawTreeContext.namesEditableCombosByText).
   */
  namesEditableCombosByText: boolean;
  /**
   * It names a widget with no words of its own (a spin box, a line edit, a group box), when no label is its buddy, by
   * the title of the group box it lies in (Qt's buddyString), a group box inside another by the outer one's title
   * (RawTreeContext.namesByGroupBoxTitle).
   */
  namesByGroupBoxTitle: boolean;
  /**
   * Its Cache.GetItems answers, for each object a client was given a reference to, what that object's own Name,
   * Description, ChildCount, GetRole, GetInterfaces and GetState answer, worked out by the same functions when asked
   * (GTK 4.8's gtkatspicache.c): a walk asks it once and those five questions only of objects it lacks (cache-items.ts).
   * Its parent and index are not the walk's (a stack's page is a scroll pane's parent there, the stack in the children
   * listed), so children are still listed. Qt 5 answers no item; at-spi2-atk's answer costs more than a walk.
   */
  basicsInCache: boolean;
}

export interface ToolkitInfo {
  name: string;
  version: string;
}

/** The toolkit name given to WebKitGTK's web process, whose objects answer no application root (see client.ts). */
export const WEBKITGTK = 'webkitgtk';

/** The toolkit name Java's ATK bridge gives every Java (AWT, Swing) app, lower-cased. */
export const JAVA_TOOLKIT = 'j2se-access-bridge';

const unmirrored = { mirrorable: false, addsChildrenSilently: false, scrollsSilently: false, renamesButtonsSilently: false, describesUiSilently: false };

/** A toolkit the driver knows nothing particular of; those it does differ from it where said. */
const plainToolkit: ToolkitQuirks = {
  ...unmirrored,
  extentsRelativeToWindow: false,
  showingIsReliable: false,
  gtk4NameQuirks: false,
  selectableUnmarked: false,
  propertiesInOneCall: false,
  listsSomeItemsOnly: false,
  focusActivatesWindow: false,
  webEngine: false,
  pageDebugging: false,
  editableTextIdleInPages: false,
  valueUnheardInPageFields: false,
  selectionUnheardInPages: false,
  keepsUndrawnPlaces: false,
  showsByPlaceOnly: false,
  focusMarksCurrentItems: false,
  reusesObjectPaths: false,
  buttonsReportShortcuts: false,
  deselectsByChildIndex: false,
  hitTestLagsOneAsk: false,
  fillsCacheLazily: false,
  listsActionsUnsafely: false,
  pressedMarksToggles: false,
  selectionLeavesCursor: false,
  switchesAreToggleButtons: false,
  clickActionTakesFocus: false,
  viewsKeepHiddenCells: false,
  remakesTransientObjects: false,
  renamesAsVisibleData: false,
  tabsRepeatTabBarFocus: false,
  placesTabContentFromTab: false,
  leavesReplacedObjects: false,
  insertLengthInUtf16: false,
  namesEditableCombosByText: false,
  namesByGroupBoxTitle: false,
  basicsInCache: false,
};

export function quirksFor(toolkit: ToolkitInfo | undefined): ToolkitQuirks {
  const name = toolkit?.name.toLowerCase() ?? '';
  const major = Number.parseInt(toolkit?.version ?? '', 10);
  if (name === 'gtk' && major >= 4) {
    return {
      ...plainToolkit,
      extentsRelativeToWindow: true,
      gtk4NameQuirks: true,
      selectableUnmarked: true,
      propertiesInOneCall: true,
      listsSomeItemsOnly: true,
      keepsUndrawnPlaces: true,
      showsByPlaceOnly: true,
      pressedMarksToggles: true,
      basicsInCache: true,
    };
  }
  if ((name === 'gtk' || name === 'gail') && major <= 3) {
    return {
      ...plainToolkit,
      showingIsReliable: true,
      propertiesInOneCall: true,
      mirrorable: true,
      addsChildrenSilently: true,
      renamesButtonsSilently: true,
      focusActivatesWindow: true,
      selectionLeavesCursor: true,
      switchesAreToggleButtons: name === 'gtk',
      clickActionTakesFocus: name === 'gail' || major === 2,
      viewsKeepHiddenCells: name === 'gail' || major === 2,
    };
  }
  const blink = name === 'chromium';
  const java = name === JAVA_TOOLKIT;
  const qt = name === 'qt';
  return {
    ...plainToolkit,
    ...(blink ? { mirrorable: true, scrollsSilently: true, describesUiSilently: true } : {}),
    focusActivatesWindow: blink,
    webEngine: blink || name === 'gecko' || name === WEBKITGTK,
    pageDebugging: blink || name === 'gecko',
    editableTextIdleInPages: name === 'gecko',
    valueUnheardInPageFields: name === 'gecko',
    selectionUnheardInPages: name === 'gecko',
    focusMarksCurrentItems: qt,
    reusesObjectPaths: qt,
    buttonsReportShortcuts: qt,
    deselectsByChildIndex: name === 'gecko' || java,
    hitTestLagsOneAsk: blink || name === 'gecko',
    fillsCacheLazily: name === 'gecko',
    listsActionsUnsafely: name === 'gecko',
    remakesTransientObjects: java,
    renamesAsVisibleData: java,
    tabsRepeatTabBarFocus: java,
    placesTabContentFromTab: java,
    leavesReplacedObjects: qt,
    insertLengthInUtf16: qt,
    namesEditableCombosByText: qt,
    namesByGroupBoxTitle: qt,
  };
}

/** What the rule below needs to know of an object's parent. */
export interface ParentFacts {
  /** Its role, where known (a live mirror's re-read of a subtree gives it): a combo box's list is judged by it (closed-menus.ts). */
  role?: number;
  states: readonly number[];
  interfaces: readonly string[];
  /** Where it is, when known: a link in a label's text is read from the label. */
  bus?: string;
  path?: string;
}

/**
 * SHOWING that may be out of date although the toolkit otherwise sets it exactly. GTK's icon view (GTK 2's
 * GAIL and GTK3 alike) draws its items itself and gives each an accessible of role icon: it decides the
 * item's SHOWING once, when it makes that accessible, which after a re-filter is before the view has laid
 * the item out, and revises it only when the view scrolls; its extents it works out when asked (-2^31 when
 * the item lies outside the view). So a visible icon item of a shown view that offers Selection, not marked
 * showing, is placed by its extents rather than taken for scrolled away.
 */
export function showingMayBeStale(role: number, states: readonly number[], parent: ParentFacts | undefined): boolean {
  if (role !== ATSPI_ROLE.ICON || !parent || !parent.interfaces.includes('Selection')) return false;
  return hasState(states, ATSPI_STATE.VISIBLE) === true && hasState(states, ATSPI_STATE.SHOWING) === false && hasState(parent.states, ATSPI_STATE.SHOWING) === true;
}
