// Which objects scroll what they hold, from their children's roles: one rule for the tree's reading (a scrolling
// object clips what it shows, and says it scrolls) and for the scroll tool's live search of the pane and its bars.
import { ATSPI_ROLE, ATSPI_STATE } from './constants.js';
import { hasState } from './states.js';

/**
 * Plain containers: what a toolkit wraps a scroll bar in (Qt's QAbstractScrollArea puts each bar in a filler of its
 * own), and what a scroll area that is no scroll pane is. Other roles holding a bar are no scroll area (Gnumeric's
 * split panes hold a sheet's bar beside a label).
 */
const wrapperRoles: ReadonlySet<number> = new Set([ATSPI_ROLE.FILLER, ATSPI_ROLE.PANEL]);

/**
 * A scroll area holds its view, its bars and a corner: an object with more children holds items (a list, a table),
 * and is not searched for scroll bars, which would mean reading every item.
 */
export const maxScrollAreaChildren = 8;

/**
 * Panes that are plain containers of what they show: a directory pane is a file manager's view of a folder, and Thunar's
 * (a GTK3 scrolled window it calls so) holds its icon view, which exposes no item, beside its two scroll bars. Its view
 * read as an empty group, with no word of what it draws, and the scroll tool, finding no scroll area there, moved the
 * side pane's instead and said the files were scrolled to their end.
 */
const paneRoles: ReadonlySet<number> = new Set([...wrapperRoles, ATSPI_ROLE.DIRECTORY_PANE]);

/** Whether an object of this role may be a scroll bar's wrapper: then its one child is looked at. */
export function mayWrapScrollBar(role: number): boolean {
  return wrapperRoles.has(role);
}

/** Whether an object of this role may be a scroll area that is no scroll pane: then its children are looked at. */
export function mayBeScrollArea(role: number): boolean {
  return paneRoles.has(role);
}

/** An object's role and the roles of its children, as far as they were read. */
export interface RoleShape {
  role: number;
  /** How many children it has (the children below may be fewer, when a read left some out). */
  childCount: number;
  children: readonly RoleShape[];
  /** Its AT-SPI state set, where it was read (paintedPart asks whether it takes the focus). */
  states?: readonly number[];
}

/** A scroll bar, or a wrapper whose one child is a scroll bar. */
export function isScrollBarOrWrapper(child: RoleShape): boolean {
  if (child.role === ATSPI_ROLE.SCROLL_BAR) return true;
  return mayWrapScrollBar(child.role) && child.childCount === 1 && child.children[0]?.role === ATSPI_ROLE.SCROLL_BAR;
}

/**
 * Whether an object scrolls what it holds: a scroll pane does (GTK, Java, LibreOffice), and so does a plain container
 * with a handful of children that holds a scroll bar, directly or as the one child of a wrapper, beside what it scrolls. Qt names no scroll pane: it
 * exposes its scroll areas (a settings page in a QScrollArea, a document viewer's page view) as fillers, the viewport
 * beside a filler holding each bar, so what lay below a settings page's view read as shown, and the scroll tool found
 * nothing to move.
 */
export function scrollsItsContent(node: RoleShape): boolean {
  if (node.role === ATSPI_ROLE.SCROLL_PANE) return true;
  if (!paneRoles.has(node.role) || node.childCount > maxScrollAreaChildren) return false;
  // What it scrolls lies beside its bars: a wrapper holds its bar alone.
  const bars = node.children.filter(isScrollBarOrWrapper).length;
  return bars > 0 && bars < node.childCount;
}

/**
 * The view of a scroll area that shows what the app draws itself, not objects: a plain container that holds nothing, or
 * only one plain container that holds nothing (the widget it scrolls, painting itself). Qt exposes a QGraphicsView's
 * viewport (qpdfview's and Okular's pages) as an empty filler beside its bars' fillers, and a QScrollArea's widget that
 * paints itself (Okular's thumbnails) as an empty filler in the viewport: the reading showed an empty scrolled group. The
 * view, not that widget, is the surface: its box is the part shown (Okular's thumbnails run far below it).
 */
export function drawnViewOf(area: RoleShape): RoleShape | undefined {
  if (!scrollsItsContent(area)) return undefined;
  const views = area.children.filter((child) => !isScrollBarOrWrapper(child));
  const view = views.length === 1 ? views[0]! : undefined;
  if (!view || !mayWrapScrollBar(view.role)) return undefined;
  const inner = view.children[0];
  return view.childCount === 0 || (view.childCount === 1 && inner && mayWrapScrollBar(inner.role) && inner.childCount === 0) ? view : undefined;
}

/** A box's size, as extents read it. */
interface Sized {
  extents?: { w: number; h: number };
}

/**
 * A part a widget paints on: a plain container holding nothing that takes no focus of its own (one that does is a
 * surface itself, isDrawnSurfaceShape). GTK 4 calls a GtkDrawingArea a filler: GHex's hex view is a focusable
 * widget holding three of them (offsets, bytes, characters) beside its scroll bar.
 */
function isPaintedPart(child: RoleShape): boolean {
  return wrapperRoles.has(child.role) && child.childCount === 0 && hasState(child.states, ATSPI_STATE.FOCUSABLE) !== true;
}

/**
 * A widget that paints what it shows, on parts of its own and beside scroll bars of its own: a plain container that
 * takes the keyboard focus and holds nothing but empty parts it paints on and scroll bars (or their wrappers), far
 * larger than its bars, and is no scroll area whose one view is the surface (drawnViewOf). QTermWidget's display
 * (QTerminal's, Konsole's) is a focusable filler holding its bar alone, and the reading showed an empty scrolled group,
 * with no word that the terminal's screen is drawn there; GHex's hex view (three drawing areas and a bar) read as an
 * empty focused group, and qps's process list, once filtered to fit (its viewport alone, its bars gone), vanished from
 * the reading. An empty focusable one is a surface already (isDrawnSurfaceShape); a scroll area's bar wrapper takes no
 * focus.
 */
export function paintsBesideOwnBars(node: RoleShape & Sized, focusable: boolean): boolean {
  if (!focusable || !wrapperRoles.has(node.role) || node.childCount === 0 || node.children.length !== node.childCount) return false;
  if (!node.children.every((child) => isScrollBarOrWrapper(child) || isPaintedPart(child)) || drawnViewOf(node) !== undefined) return false;
  const area = (sized: Sized) => (sized.extents ? Math.max(0, sized.extents.w) * Math.max(0, sized.extents.h) : 0);
  const bars = (node.children as readonly (RoleShape & Sized)[]).filter(isScrollBarOrWrapper).reduce((sum, bar) => sum + area(bar), 0);
  return area(node) > 2 * bars;
}
