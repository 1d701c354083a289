// Where a real pointer click on an element lands: a point inside the element's own visible box, or none.
import { setTimeout as sleep } from 'node:timers/promises';
import { selectionPlace, type SelectionPlace } from '../atspi/selection-place.js';
import { ATSPI_ROLE, ATSPI_ROLE_NAMES } from '../../../cup/atspi/constants.js';
import { intersectRect } from '../../../cup/rect.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { activateWindow, click } from '../input/index.js';
import type { X11Connection } from '../x11/index.js';
import { caretOffset, parentOf, readInterfaces, readName, readRole, readStates, selectTextRange, setCaretOffset } from '../atspi/operations.js';
import { quirksFor, showingMayBeStale } from '../atspi/toolkit.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { findWindow } from '../../windows.js';
import type { PointTarget } from '../../targets.js';
import { ToolError } from '../../../errors.js';
import { focusElement } from './accessible-actions.js';
import { liveStates } from './live-states.js';
import { actionable, type LiveElementTarget } from './live-target.js';
import { mayBeScrollArea } from '../../../cup/atspi/scroll-areas.js';
import { heldScrollBars } from './scroll.js';
import { scrollIntoViewQuietly, wheelIntoView } from './scroll-into-view.js';
import { roleAndNameNow } from './verification.js';
import { mayHaveOwnSurface, popoverShift, type Shift } from '../atspi/popover-places.js';
import { popupsOver } from '../popups.js';
import type { ClientWindow } from '../windows.js';

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Containers that show only part of their content (scrolled): what lies outside their box is not on screen. */
const clippingRoles = new Set(['ROLE_SCROLL_PANE', 'ROLE_VIEWPORT', 'ROLE_LIST', 'ROLE_LIST_BOX', 'ROLE_TABLE', 'ROLE_TREE', 'ROLE_TREE_TABLE', 'ROLE_DOCUMENT_WEB', 'ROLE_DOCUMENT_FRAME', 'ROLE_DOCUMENT_TEXT']);
/**
 * Ancestors whose descendants pop up in a surface of their own (a menu's items, a combo box's list): an
 * open popup lies outside its opener's box and the containers around it, so clipping stops there.
 */
const popupRoles = new Set(['ROLE_MENU', 'ROLE_COMBO_BOX', 'ROLE_WINDOW', 'ROLE_POPUP_MENU']);
/** Below this many pixels in either direction, a visible sliver is no place to aim a click. */
export const minimumSide = 3;
/** Accessibility trees are rarely deeper; the bound keeps a cyclic parent chain (a toolkit bug) finite. */
const maxDepth = 64;

/** Why a real click has nowhere to land on the element. */
type Unplaceable =
  | { why: 'hidden'; opener?: string }
  | { why: 'no_position' }
  | { why: 'clipped' }
  | { why: 'off_screen'; screen: { width: number; height: number } };

/**
 * The part of the element's own box that is on screen now, or why there is none. An element is on screen
 * only if it and every ancestor are VISIBLE (a closed menu's items, or a closed drop-down's options, keep
 * boxes that lie over their opener; Chromium even marks the chosen option SHOWING), SHOWING where the
 * toolkit sets that exactly, and its box survives clipping by the scrolled containers it lies in and by
 * the screen. Never an ancestor's box: a click there would land on the ancestor, and its effect would be
 * taken for the element's.
 */
export async function visibleBox(desktop: LinuxDesktop, target: LiveElementTarget): Promise<Box | Unplaceable> {
  const client = await desktop.atspi();
  const [own, states, toolkit] = await Promise.all([
    desktop.elementBounds(target.window, target.ref),
    liveStates(desktop, target.ref),
    client.toolkitOf(target.ref.bus).catch(() => undefined),
  ]);
  const { showingIsReliable, webEngine, extentsRelativeToWindow } = quirksFor(toolkit);
  const shown = (present: Set<string>) => present.has('STATE_VISIBLE') && (!showingIsReliable || present.has('STATE_SHOWING'));
  const screen = await desktop.screen();
  let box = own;
  let clipping = true;
  // The element, or the outermost hidden ancestor seen so far: the first shown ancestor above it opens it.
  let hidden: ObjectRef | undefined = states.has('STATE_VISIBLE') ? undefined : target.ref;
  // Where SHOWING is exact, a widget that says it is drawn is, whatever its ancestors say: GTK3 keeps a popover the
  // accessible child of its menu button, and shows it from a button a folded pane hides (Seahorse's "Add new items"
  // pops up the hidden sidebar's menu), whose items were refused as in a closed menu while drawn over the window. Not a
  // tree view's cell, whose SHOWING GTK3 works out from the view's rows whether the view is drawn or not.
  const drawn = showingIsReliable && shown(states) && states.has('STATE_SHOWING') && target.live.role !== ATSPI_ROLE.TABLE_CELL;
  // The outermost object seen of the process the walk is in, with its states: the root of that process's part.
  let partRoot: { ref: ObjectRef; present: Set<string> } = { ref: target.ref, present: states };
  let ref = await parentOf(client, target.ref);
  for (let depth = 0; ref && depth < maxDepth; depth++) {
    const [role, present] = await Promise.all([readRole(client, ref), liveStates(desktop, ref)]);
    if (role === ATSPI_ROLE.APPLICATION) break;
    const roleName = ATSPI_ROLE_NAMES[role] ?? '';
    // An object holding another process's part (an ATK socket: WebKitGTK's web view) says no state at all, and a part
    // whose root sets neither VISIBLE nor SHOWING (WebKitGTK's) tells by neither what is drawn: its place decides, as
    // the tree reads it (a link in Devhelp's page was refused as hidden).
    const embeds = ref.bus !== partRoot.ref.bus;
    if (embeds && hidden?.bus === partRoot.ref.bus && !partRoot.present.has('STATE_VISIBLE') && !partRoot.present.has('STATE_SHOWING')) hidden = undefined;
    partRoot = { ref, present };
    // GTK3's viewport loses SHOWING (and its place) once its content is scrolled, though it shows: the
    // scroll pane around it decides.
    if (roleName === 'ROLE_VIEWPORT' || embeds) {
      // nothing: neither shown nor hidden by its own word
    } else if (!shown(present)) hidden = drawn ? undefined : ref;
    // Hidden below a scrolled container means scrolled away (GTK3 unmarks rows it scrolled out), not closed.
    else if (hidden && clippingRoles.has(roleName)) return { why: 'no_position' };
    else if (hidden) return { why: 'hidden', opener: await roleAndNameNow(desktop, ref).catch(() => undefined) };
    // A plain container holding a scroll bar beside what it scrolls clips it too (Qt's scroll areas, which still say
    // showing of rows scrolled out of their view; where showing is exact, such rows are not showing already).
    const scrollArea = !showingIsReliable && box !== undefined && clipping && mayBeScrollArea(role) && (await heldScrollBars(desktop, ref).catch(() => [])).length > 0;
    if (box && clipping && (clippingRoles.has(roleName) || scrollArea)) {
      const bounds = await desktop.elementBounds(target.window, ref);
      if (bounds) box = intersectRect(box, bounds);
    }
    // GTK 4.8 reports a popover, and all it holds, at the place of the widget it pops up from (popover-places.ts).
    const shift = box && extentsRelativeToWindow && mayHaveOwnSurface(role, await readName(client, ref).catch(() => '')) ? await popoverShiftNow(desktop, target.window, ref) : undefined;
    if (box && shift) box = { ...box, x: box.x + shift.dx, y: box.y + shift.dy };
    if (popupRoles.has(roleName) || shift) clipping = false;
    // An ancestor that vanished meanwhile ends the walk; the element itself was checked live just before.
    ref = await parentOf(client, ref).catch(() => undefined);
  }
  const inView = box;
  box = box && intersectRect(box, { x: 0, y: 0, w: screen.width, h: screen.height });
  if (hidden) return { why: 'hidden' };
  // Shown in its containers' views and yet not on the screen: its window lies partly off the screen (moved past an
  // edge, or larger than the screen), which no scroll of its list mends as a move of the window does.
  const sized = (each: Box | undefined) => each !== undefined && each.w >= minimumSide && each.h >= minimumSide;
  if (sized(inView) && !sized(box) && shown(states)) return { why: 'off_screen', screen: { width: screen.width, height: screen.height } };
  // Visible in a shown container, yet not showing or placed: scrolled out of its list (GTK3 says -2^31), unless
  // it is an item whose SHOWING the toolkit may not have revised (showingMayBeStale): its own box then decides.
  if (!box || !(shown(states) || (showingIsReliable && (await showingStale(desktop, target))))) return { why: 'no_position' };
  // A web engine clears SHOWING on what a box of the page clips (CSS overflow: a feed, a chat log), which is no
  // scroll pane in the tree: its box lies in the page's view, and a click there would land on what is drawn there.
  if (webEngine && !states.has('STATE_SHOWING')) return { why: 'no_position' };
  return box.w >= minimumSide && box.h >= minimumSide ? box : { why: 'clipped' };
}

/** The move that puts a popover read live onto the popup window of its size the app shows now, if any. */
async function popoverShiftNow(desktop: LinuxDesktop, window: ClientWindow, ref: ObjectRef): Promise<Shift | undefined> {
  const [reported, popups] = await Promise.all([desktop.elementBounds(window, ref), desktop.x11().then((x) => popupsOver(x, window))]);
  return reported ? popoverShift(reported, popups) : undefined;
}

async function showingStale(desktop: LinuxDesktop, target: LiveElementTarget): Promise<boolean> {
  const client = await desktop.atspi();
  const parent = await parentOf(client, target.ref).catch(() => undefined);
  if (!parent) return false;
  try {
    const [states, interfaces] = await Promise.all([readStates(client, parent), readInterfaces(client, parent)]);
    return showingMayBeStale(target.live.role, target.live.states, { states, interfaces });
  } catch {
    return false;
  }
}

function refusal(target: LiveElementTarget, placement: Unplaceable): ToolError {
  const label = `element [e${target.element.index}] (${target.element.role}${target.element.name ? ` "${target.element.name}"` : ''})`;
  const background = ', or use delivery_mode "background" (it acts through accessibility, which needs no position)';
  const { x, y, width, height } = target.window.bounds;
  const why =
    placement.why === 'off_screen'
      ? `lies in the part of window ${target.window.id} that is off the screen (the window is at ${x},${y} ${width}x${height}, the screen ${placement.screen.width}x${placement.screen.height}), ` +
        `where no real click reaches; move the window onto the screen (set_window_frame with window_id ${target.window.id} and an x, y, width and height that fit), then call get_window_state again${background}`
      : placement.why === 'hidden'
      ? `is hidden: it lies in a closed menu or drop-down${placement.opener ? ` (opened by ${placement.opener})` : ''}, or a collapsed or hidden part of the window; open it first, then call get_window_state again${background}`
      : placement.why === 'no_position'
        ? `has no position on screen (the toolkit reports none: hidden or scrolled away) and could not be scrolled into view; scroll its list (scroll tool) or open the menu that holds it, then call get_window_state again${background}`
        : `lies outside the visible part of the list or page that holds it, and could not be scrolled into view; scroll it into view (scroll tool), then call get_window_state again${background}`;
  return new ToolError(`${label} ${why}. Nothing was sent: a real click needs a point on the element itself, never one of its containers.`, 'element_not_visible', { placement: placement.why });
}

/**
 * A point to click at, whether the element had to be scrolled into view to get it, and what of the page the hit test
 * still found over it there when nothing freed it (clearOfPageCover): that object takes a real click at the point.
 */
export type PlacedPoint = PointTarget & { scrolledIntoView?: boolean; coveredBy?: ObjectRef };

/**
 * Where a real click on the element lands: the centre of the part of its own box that is visible now.
 * An element scrolled out of its list or page is brought into view first (the toolkit's ScrollTo, else
 * the scroll bar through accessibility, else, given the X connection of a window already in front, up to
 * 30 wheel notches). Refused (element_not_visible, nothing clicked) when it still has no visible box of
 * its own.
 */
export async function elementScreenPoint(desktop: LinuxDesktop, target: LiveElementTarget, inFront?: X11Connection): Promise<PlacedPoint> {
  let placement = await visibleBox(desktop, target);
  let scrolledIntoView = false;
  if ('why' in placement && placement.why !== 'hidden') {
    const placed = async () => !('why' in (placement = await visibleBox(desktop, target)));
    scrolledIntoView =
      (await scrollIntoViewQuietly(desktop, target.ref, placed)) || (inFront !== undefined && (await wheelIntoView(desktop, inFront, target.window, target.ref, placed)));
  }
  if ('why' in placement) throw refusal(target, placement);
  if (scrolledIntoView) await sameItemAfterScroll(desktop, target);
  const screenX = Math.round(placement.x + placement.w / 2);
  const screenY = Math.round(placement.y + placement.h / 2);
  const point: PointTarget = { kind: 'point', window: target.window, screenX, screenY, windowX: screenX - target.window.bounds.x, windowY: screenY - target.window.bounds.y };
  return scrolledIntoView ? { ...point, scrolledIntoView } : point;
}

/** Pauses before each look at the name of an element scrolled into view; their sum bounds the wait for a page's refill. */
const recycledLookPausesMs = [0, 60, 80, 100];

/**
 * Refuses the element when the scroll that brought it into view made it another item: a page's virtualised list keeps
 * a few row objects and gives them the items scrolled to, so the object of "Open ticket 495" read "Open ticket 482"
 * once scrolled, and a click there would act on that item. The name the object had when the action began is the
 * agent's; another name now is another item (an object the scroll does not recycle keeps its name).
 */
export async function sameItemAfterScroll(desktop: LinuxDesktop, target: LiveElementTarget): Promise<void> {
  const client = await desktop.atspi();
  let now: string | undefined;
  // The page refills its rows on its scroll event, a frame after the scroll, and the browser tells accessibility
  // later still: the name read at once was the old one, and the click went to the item the row held then.
  for (const pause of recycledLookPausesMs) {
    await sleep(pause);
    now = await readName(client, target.ref).catch(() => undefined);
    if (now !== undefined && now !== target.live.name) break;
  }
  if (now === undefined || now === target.live.name) return;
  throw new ToolError(
    `element [e${target.element.index}] (${target.element.role} ${JSON.stringify(target.live.name)}) was scrolled into view for the click, and its list then gave its object ` +
      `to another item: it reads ${JSON.stringify(now)} now (the list keeps a few row objects and refills them as it scrolls). Nothing was clicked; ` +
      'call get_window_state (or find_elements by its name) again and use the index it shows now.',
    'stale_element',
  );
}

/** True for a refusal that scrolling with the window in front (the wheel) might still overcome. */
export function mightScrollIntoView(error: unknown): boolean {
  return error instanceof ToolError && error.code === 'element_not_visible' && error.details.placement !== 'hidden';
}

/**
 * Where a real click on the target lands, with the window where it is now: called once the window is
 * active, it places targets of a window that was minimized (whose geometry meant nothing until the window
 * manager restored it).
 */
export async function screenPointNow(desktop: LinuxDesktop, target: LiveElementTarget | PointTarget, inFront?: X11Connection): Promise<PlacedPoint> {
  const window = findWindow(await desktop.windows(), target.window.id, target.window.pid);
  if (target.kind === 'element') return elementScreenPoint(desktop, { ...target, window }, inFront);
  return pointOnScreen(desktop, { ...target, window, screenX: Math.round(window.bounds.x + target.windowX), screenY: Math.round(window.bounds.y + target.windowY) });
}

/**
 * The point, refused when it lies off the screen: a point of the screenshot, which shows the whole window, can lie in
 * its part off the screen (a window moved past an edge, or larger than the screen), where no real input reaches.
 */
export async function pointOnScreen(desktop: LinuxDesktop, point: PointTarget): Promise<PointTarget> {
  const screen = await desktop.screen();
  if (point.screenX < 0 || point.screenY < 0 || point.screenX >= screen.width || point.screenY >= screen.height) {
    const { window } = point;
    const { x, y, width, height } = window.bounds;
    throw new ToolError(
      `the point lies in the part of window ${window.id} that is off the screen (at ${point.screenX},${point.screenY}; the window is at ${x},${y} ${width}x${height}, ` +
        `the screen ${screen.width}x${screen.height}), where no real input reaches; move the window onto the screen (set_window_frame with window_id ${window.id} and an x, y, ` +
        'width and height that fit), then call get_window_state again and use its new screenshot',
      'outside_window',
    );
  }
  return point;
}

/** Items of a view that a toolkit marks FOCUSED when they are its current item (see ToolkitQuirks.focusMarksCurrentItems). */
const viewItemRoles = new Set<number>([ATSPI_ROLE.LIST_ITEM, ATSPI_ROLE.TABLE_CELL, ATSPI_ROLE.TREE_ITEM, ATSPI_ROLE.PAGE_TAB]);

/**
 * Whether the element says FOCUSED only as its view's current item: Qt says it of a list's current row while the
 * focus is in a text editor beside the list, and F2 for that row went to the editor (pressed with the row as its
 * element, the row was taken as focused already). Its view says FOCUSED when the focus is there.
 */
async function currentItemOnly(desktop: LinuxDesktop, target: LiveElementTarget): Promise<boolean> {
  if (!viewItemRoles.has(target.live.role)) return false;
  const client = await desktop.atspi();
  if (!(await client.quirksOf(target.ref.bus).catch(() => undefined))?.focusMarksCurrentItems) return false;
  const view = await parentOf(client, target.ref).catch(() => undefined);
  return view !== undefined && !(await liveStates(desktop, view).catch(() => new Set<string>())).has('STATE_FOCUSED');
}

/** What the focusing reads of an element before it focuses it: its states, and its text's caret and selection. */
export interface FocusFacts {
  states: ReadonlySet<string>;
  /** -1 when it has no text or did not say. */
  caret: number;
  /** Where its text's selection lies: in an object it embeds when it is a rich-text box (see selectionPlace). */
  selected: SelectionPlace | undefined;
}

/**
 * The element's focus facts, in one round. Real input asks them while the window is being activated: the app answers
 * before it is busy with its focus-in, and its caret and selection stay as they were through the activation.
 */
export async function readFocusFacts(desktop: LinuxDesktop, target: LiveElementTarget): Promise<FocusFacts> {
  const client = await desktop.atspi();
  const hasText = target.live.interfaces.includes('Text');
  const [states, caret, selected] = await Promise.all([
    liveStates(desktop, target.ref),
    hasText ? caretOffset(client, target.ref).catch(() => -1) : -1,
    hasText ? selectionPlace(client, target.ref).catch(() => undefined) : undefined,
  ]);
  return { states, caret, selected };
}

/**
 * The element's focus facts asked now, for real input to await once the window is active (readFocusFacts): a failure
 * is the focusing's to report, not an unhandled rejection meanwhile.
 */
export function focusFactsAhead(desktop: LinuxDesktop, target: LiveElementTarget): Promise<FocusFacts> {
  const facts = readFocusFacts(desktop, target);
  facts.catch(() => undefined);
  return facts;
}

/**
 * Gives the element the keyboard focus through accessibility, leaving its text's selection and caret as they were:
 * `focused` when it has the focus (or reports it) or took it. Not reported focused does not mean not focused: GTK3
 * reports FOCUSED only from an idle callback after its window's focus-in, so right after an activation the field that
 * has the focus can still read unfocused. So whatever the focusing does to the text's selection and caret is undone:
 * a ctrl+c after a ctrl+a must find the text still selected. `facts` are the ones read before (readFocusFacts), else
 * read now; they come back with the answer (`before`), as real typing needs them too.
 */
export async function focusKeepingCaret(desktop: LinuxDesktop, target: LiveElementTarget, facts?: Promise<FocusFacts>): Promise<{ focused: boolean; before: FocusFacts }> {
  const before = await (facts ?? readFocusFacts(desktop, target));
  const { states, caret, selected } = before;
  if (states.has('STATE_FOCUSED') && !(await currentItemOnly(desktop, target))) return { focused: true, before };
  const client = await desktop.atspi();
  // A GTK3 entry selects all its text when focused this way (within GrabFocus), and the keys would replace it: the
  // selection, or else the caret, goes back to what it was, so the keys act there, as typing in the background inserts
  // at the caret. The app takes its calls in order, so the putting back goes out with the focusing, not a round after.
  // A rich-text box's selection goes back in the paragraph that holds it: the box's own offsets count each paragraph
  // as one character, and Gecko's box put back at "0..1" selected all its text, which a ctrl+b then made bold. One
  // that spans paragraphs has no such place, and is left as the focusing leaves it (Blink and Gecko keep it).
  const [focused] = await Promise.all([
    focusElement(desktop, actionable(target)),
    selected ? (selected.whole ? selectTextRange(client, selected.ref, selected.start, selected.end).catch(() => false) : undefined) : caret >= 0 ? setCaretOffset(client, target.ref, caret).catch(() => false) : undefined,
  ]);
  return { focused, before };
}

/**
 * Gives the element the keyboard focus before real keys, once the window is active: through accessibility where the
 * toolkit allows (`focusing`, focusKeepingCaret's answer, which may have been asked during the activation), else with
 * a real click on its own visible box, refused (nothing typed) when it has none. The point is looked for only when
 * the click is needed: a field scrolled out of view still takes the focus through accessibility. Answers the
 * element's focus facts as they were before the focusing.
 */
export async function focusForKeys(desktop: LinuxDesktop, x: X11Connection, target: LiveElementTarget, focusing: Promise<{ focused: boolean; before: FocusFacts }>): Promise<FocusFacts> {
  const { focused, before } = await focusing;
  if (focused || !target.live.interfaces.includes('Component')) return before;
  const point = await screenPointNow(desktop, target);
  // A click lands on whatever lies on top there: a window given the focus directly may not be raised yet.
  if (!(await activateWindow(x, target.window.id))) {
    throw new ToolError(`window ${target.window.id} did not become active for the click that gives [e${target.element.index}] the focus (the window manager refused or is slow); no key was sent`, 'activation_failed');
  }
  await click(x, { x: point.screenX, y: point.screenY });
  return before;
}
