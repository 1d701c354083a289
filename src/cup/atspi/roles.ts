import mappings from '../../../schema/mappings.json' with { type: 'json' };
import type { CupRole } from '../types.js';
import { ATSPI_ROLE_NAMES } from './constants.js';

/**
 * AT-SPI roles mappings.json does not mention. CUP has no exact counterpart for these, so each goes to the
 * nearest schema role; the raw role always stays under node.platform.linux.atspiRole.
 */
const unmappedRoles: Readonly<Record<string, CupRole>> = {
  ROLE_INVALID: 'generic',
  ROLE_ACCELERATOR_LABEL: 'text',
  ROLE_ANIMATION: 'img',
  ROLE_ARROW: 'img',
  ROLE_CALENDAR: 'grid',
  ROLE_CANVAS: 'generic',
  ROLE_COLOR_CHOOSER: 'group',
  ROLE_DATE_EDITOR: 'group',
  ROLE_DESKTOP_ICON: 'img',
  ROLE_DESKTOP_FRAME: 'window',
  ROLE_DIAL: 'slider',
  ROLE_DIRECTORY_PANE: 'group',
  ROLE_DRAWING_AREA: 'generic',
  ROLE_FILE_CHOOSER: 'group',
  ROLE_FILLER: 'generic',
  ROLE_FOCUS_TRAVERSABLE: 'generic',
  ROLE_FONT_CHOOSER: 'group',
  ROLE_GLASS_PANE: 'generic',
  ROLE_HTML_CONTAINER: 'document',
  ROLE_ICON: 'img',
  ROLE_INTERNAL_FRAME: 'window',
  ROLE_LAYERED_PANE: 'generic',
  ROLE_OPTION_PANE: 'group',
  ROLE_PASSWORD_TEXT: 'textbox',
  ROLE_POPUP_MENU: 'menu',
  ROLE_ROOT_PANE: 'generic',
  ROLE_SPLIT_PANE: 'group',
  ROLE_TABLE_COLUMN_HEADER: 'columnheader',
  ROLE_TABLE_ROW_HEADER: 'rowheader',
  ROLE_TEAROFF_MENU_ITEM: 'menuitem',
  ROLE_TERMINAL: 'document',
  ROLE_TREE_TABLE: 'tree',
  ROLE_UNKNOWN: 'generic',
  ROLE_VIEWPORT: 'generic',
  ROLE_WINDOW: 'window',
  ROLE_EXTENDED: 'generic',
  ROLE_HEADER: 'banner',
  ROLE_FOOTER: 'contentinfo',
  ROLE_PARAGRAPH: 'text',
  ROLE_RULER: 'generic',
  ROLE_AUTOCOMPLETE: 'combobox',
  ROLE_EDITBAR: 'textbox',
  ROLE_EMBEDDED: 'generic',
  ROLE_CHART: 'img',
  ROLE_CAPTION: 'text',
  ROLE_PAGE: 'group',
  ROLE_REDUNDANT_OBJECT: 'none',
  ROLE_INPUT_METHOD_WINDOW: 'window',
  ROLE_DOCUMENT_SPREADSHEET: 'document',
  ROLE_DOCUMENT_PRESENTATION: 'document',
  ROLE_DOCUMENT_TEXT: 'document',
  ROLE_DOCUMENT_WEB: 'document',
  ROLE_DOCUMENT_EMAIL: 'document',
  ROLE_COMMENT: 'group',
  ROLE_LIST_BOX: 'list',
  ROLE_GROUPING: 'group',
  ROLE_IMAGE_MAP: 'img',
  ROLE_NOTIFICATION: 'alert',
  // An info bar carries a message the user must read ("The file changed on disk") with buttons to answer it.
  ROLE_INFO_BAR: 'alert',
  ROLE_LEVEL_BAR: 'progressbar',
  // No window manager's frame is in an app's tree here: a title bar on the bus is the app's own header bar, holding its
  // controls (libhandy's, as ATK's title bar: Seahorse's Back, Search and main menu), which the compact view left out
  // with it as a caption's. It reads as GTK3's own header bar, a box of controls.
  ROLE_TITLE_BAR: 'generic',
  ROLE_BLOCK_QUOTE: 'group',
  ROLE_AUDIO: 'generic',
  ROLE_VIDEO: 'generic',
  ROLE_DEFINITION: 'text',
  ROLE_ARTICLE: 'region',
  ROLE_LANDMARK: 'region',
  ROLE_MATH: 'generic',
  ROLE_RATING: 'slider',
  ROLE_STATIC: 'text',
  ROLE_MATH_FRACTION: 'generic',
  ROLE_MATH_ROOT: 'generic',
  ROLE_SUBSCRIPT: 'text',
  ROLE_SUPERSCRIPT: 'text',
  ROLE_DESCRIPTION_LIST: 'list',
  ROLE_DESCRIPTION_TERM: 'listitem',
  ROLE_DESCRIPTION_VALUE: 'listitem',
  ROLE_FOOTNOTE: 'text',
  ROLE_CONTENT_DELETION: 'text',
  ROLE_CONTENT_INSERTION: 'text',
  ROLE_MARK: 'text',
  ROLE_SUGGESTION: 'text',
  ROLE_PUSH_BUTTON_MENU: 'button',
};

/** ARIA landmark names browsers expose in the "xml-roles" attribute of sections and landmarks. */
const landmarkRoles = new Set<CupRole>(['banner', 'complementary', 'contentinfo', 'form', 'main', 'navigation', 'region', 'search']);

/**
 * Reverse of mappings.json's linux column: the first CUP role whose mapping names an AT-SPI role without
 * the "?" (context-dependent) mark wins; context-dependent ones are decided in cupRoleFor.
 */
function buildDirectTable(): Map<string, CupRole> {
  const table = new Map<string, CupRole>();
  for (const [cupRole, platforms] of Object.entries(mappings.roles)) {
    if (cupRole.startsWith('$')) continue;
    const linux = (platforms as Record<string, string | null>).linux;
    if (!linux) continue;
    for (const alternative of linux.split('|')) {
      if (alternative.endsWith('?')) continue;
      if (!table.has(alternative)) table.set(alternative, cupRole as CupRole);
    }
  }
  for (const [atspiRole, cupRole] of Object.entries(unmappedRoles)) {
    if (!table.has(atspiRole)) table.set(atspiRole, cupRole);
  }
  return table;
}

const directTable = buildDirectTable();

export function atspiRoleName(role: number): string {
  return ATSPI_ROLE_NAMES[role] ?? `ROLE_${role}`;
}

/** Facts about a node and its parent that decide roles the mapping marks context-dependent. */
export interface RoleContext {
  atspiRole: string;
  parentAtspiRole?: string;
  named: boolean;
  modal: boolean;
  /** The ARIA role a web engine exposed in the "xml-roles" attribute, when any. */
  xmlRole?: string;
  /** The HTML element a web engine says the object stands for (its "tag" attribute), when any. */
  tag?: string;
  /** The object is a window's top-level object (the root of its tree). */
  topLevel?: boolean;
  /** Its toolkit gives its switches the toggle-button role and one action, "toggle" (RawTreeContext.switchesAreToggleButtons). */
  switchesAreToggleButtons?: boolean;
  /** The names of its actions, as the toolkit reported them (GetActions: GTK's are capitalised there), when read. */
  actions?: readonly string[];
}

/** ATK's specialised dialogs: at a window's root they are its dialog; inside a window, the chooser widget a dialog holds. */
const chooserRoles: ReadonlySet<string> = new Set(['ROLE_FILE_CHOOSER', 'ROLE_COLOR_CHOOSER', 'ROLE_FONT_CHOOSER']);

/** Containers that lay out the widgets of a window, never a window of their own. */
const layoutRoles: ReadonlySet<string> = new Set(['ROLE_FILLER', 'ROLE_PANEL', 'ROLE_SCROLL_PANE', 'ROLE_SPLIT_PANE', 'ROLE_LAYERED_PANE', 'ROLE_PAGE_TAB', 'ROLE_VIEWPORT']);

function isToggleOnly(actions: readonly string[] | undefined): boolean {
  return actions?.length === 1 && actions[0]!.toLowerCase() === 'toggle';
}

export function cupRoleFor(context: RoleContext): CupRole {
  const { atspiRole, parentAtspiRole } = context;
  if (context.xmlRole && landmarkRoles.has(context.xmlRole as CupRole)) return context.xmlRole as CupRole;
  // GTK's file chooser dialog is a window whose top-level object says FILE_CHOOSER (Transmission's "Open a Torrent" read grp).
  if (context.topLevel && chooserRoles.has(atspiRole)) return 'dialog';
  switch (atspiRole) {
    // Both "generic" and "group" map to ROLE_PANEL: a named panel groups things, an unnamed one only lays them out.
    case 'ROLE_PANEL':
      return context.named ? 'group' : 'generic';
    case 'ROLE_ALERT':
      return context.modal ? 'alertdialog' : 'alert';
    // Items of a selectable list box or a combo box's popup are options (ARIA listbox semantics).
    case 'ROLE_LIST_ITEM':
      return parentAtspiRole === 'ROLE_LIST_BOX' || parentAtspiRole === 'ROLE_COMBO_BOX' ? 'option' : 'listitem';
    // GTK3 exposes the top-level entries of a menu bar, and submenu openers, as menus; to an agent they are menu items.
    // A page's role=menu is the menu itself wherever it lies: an ARIA menu bar holds its menus beside their openers,
    // and a menu bar's File menu, opened, read as a second menu item "File" holding the items.
    case 'ROLE_MENU':
      if (context.xmlRole === 'menu') return 'menu';
      return parentAtspiRole === 'ROLE_MENU_BAR' || parentAtspiRole === 'ROLE_MENU' ? 'menuitem' : 'menu';
    // Java's check box and radio button menu items (JCheckBoxMenuItem, JRadioButtonMenuItem) say CHECK_BOX and
    // RADIO_BUTTON; in a menu they are its items: File's "Word Wrap" read as a check box, which the compact view of the
    // open menu left out. A page's own check box is kept as the page says (its xml-roles).
    case 'ROLE_CHECK_BOX':
    case 'ROLE_RADIO_BUTTON':
      if (context.xmlRole === undefined && (parentAtspiRole === 'ROLE_MENU' || parentAtspiRole === 'ROLE_POPUP_MENU')) return atspiRole === 'ROLE_CHECK_BOX' ? 'menuitemcheckbox' : 'menuitemradio';
      return directTable.get(atspiRole)!;
    // Java's list and table cells take their renderer's role, a label: JList's rows read as text, and role=listitem
    // found none of them. A label that is a list's or table's own child is its item or cell.
    case 'ROLE_LABEL':
      if (parentAtspiRole === 'ROLE_LIST') return 'listitem';
      if (parentAtspiRole === 'ROLE_TABLE') return 'cell';
      return directTable.get(atspiRole) ?? 'text';
    // A scroll pane is kept (not hoisted) as a group so its bounds act as the viewport that clips its content. Blink and
    // Gecko make a page's role=tabpanel a scroll pane, which scrolls nothing: its xml-roles says it is a tab's panel.
    case 'ROLE_SCROLL_PANE':
      return context.xmlRole === 'tabpanel' ? 'tabpanel' : 'group';
    // ARIA has no toggle-button role: it is a button with a pressed state. A page's role=switch is one to Blink and
    // Gecko (xml-roles says switch): an on/off switch, whose on state is checked. GTK 3 gives its switch the
    // toggle-button role too, told apart by its one action, "toggle" (a toggle button's is "click"): an unnamed
    // switch read as a plain button, and a switch turned on as pressed.
    case 'ROLE_TOGGLE_BUTTON':
      return context.xmlRole === 'switch' || (context.switchesAreToggleButtons && isToggleOnly(context.actions)) ? 'switch' : 'button';
    case 'ROLE_ENTRY':
      return 'textbox';
    // A frame is a window at the root, and a bordered box inside one: Qt gives a QFrame the frame role, so KCalc's
    // result display read `win "84"` amid its buttons, and its settings' page header `win`, as windows in the window.
    case 'ROLE_FRAME':
      return !context.topLevel && parentAtspiRole !== undefined && layoutRoles.has(parentAtspiRole) ? (context.named ? 'group' : 'generic') : 'window';
    // An HTML <table> (or role=table) holds data to read; role=grid or treegrid is a grid an agent moves around
    // in. Toolkit tables (GTK's tree views, Qt's item views) are interactive grids.
    case 'ROLE_TABLE':
      return context.xmlRole === 'table' || (context.tag !== undefined && context.xmlRole === undefined) ? 'table' : 'grid';
    default:
      return directTable.get(atspiRole) ?? 'generic';
  }
}
