// Scrolling a region: its scroll bar moved through accessibility (a web page: an object on it moved), or the
// real mouse wheel over it.
import { setTimeout as sleep } from 'node:timers/promises';
import { ATSPI_ROLE } from '../../../cup/atspi/constants.js';
import { isScrollBarOrWrapper, mayBeScrollArea, mayWrapScrollBar, maxScrollAreaChildren, scrollsItsContent, type RoleShape } from '../../../cup/atspi/scroll-areas.js';
import { overlap } from '../../../cup/rect.js';
import { ToolError } from '../../../errors.js';
import { actionOutcome, notDelivered, type ActionOutcome, RETRY_IN_FOREGROUND } from '../../action-outcome.js';
import type { ScrollRequest } from '../../desktop.js';
import type { PointTarget, SnapshotElement, SnapshotRef } from '../../targets.js';
import type { DesktopWindow } from '../../windows.js';
import type { ObjectRef } from '../atspi/object-ref.js';
import { childCount, children, extents, parentOf, readInterfaces, readRole, readValue, setValue } from '../atspi/operations.js';
import { atspiElement } from '../element-handle.js';
import { maxWheelNotches, syntheticWheel, wheel as pointerWheel, type Point } from '../input/index.js';
import type { X11Connection } from '../x11/index.js';
import { requirePointOnWindow, syntheticEventWindow } from './point-cover.js';
import type { LinuxDesktop } from '../linux-desktop.js';
import { contentMoveLine, contentShift, type ContentBox } from './content-move.js';
import { liveStates } from './live-states.js';
import { liveTarget } from './live-target.js';
import { scrollDocument } from './scroll-document.js';
import { scrollWebBox, webScrollBoxOf } from './web-scroll-box.js';
import { withForeground } from './real-input.js';
import { drawnSurfaceOf, withSurfacePixels } from './drawn-surface-pixels.js';
import { observePixels, syntheticEventsReach } from './synthetic-rung.js';
import { observe, valueProbe, type Probe } from './verification.js';

/** How long a region's content is given to start moving after the wheel's notches, in ms (see contentAtRest). */
const wheelStartMs = 600;
/** How long at most a region's content is waited for to come to rest after the wheel, in ms (see contentAtRest). */
const wheelRestMs = 3000;
/** How long the content's position must stay the same for it to be at rest, in ms (a loaded machine draws late). */
const restQuietMs = 250;
/** How often the content's position is read while it is waited for to come to rest, in ms. */
const restReadMs = 50;

/** Roles that scroll what they hold: a scroll pane, and a web page (Blink and Gecko wrap it in no pane with a scroll bar). */
const scrollingRoles = new Set([ATSPI_ROLE.SCROLL_PANE, ATSPI_ROLE.DOCUMENT_WEB]);

/**
 * The scroll bars an object holds beside what it scrolls (scroll-areas.ts): children that are scroll bars, and the one
 * child of a wrapper (Qt's scroll areas). An object with many children holds items, not bars, and is not searched.
 */
export async function heldScrollBars(desktop: LinuxDesktop, ref: ObjectRef): Promise<ObjectRef[]> {
  const client = await desktop.atspi();
  const [role, count] = await Promise.all([readRole(client, ref), childCount(client, ref)]);
  if (role !== ATSPI_ROLE.SCROLL_PANE && (!mayBeScrollArea(role) || count > maxScrollAreaChildren)) return [];
  const held = await Promise.all(
    (await children(client, ref)).map(async (child) => {
      const childRole = await readRole(client, child);
      const inner = mayWrapScrollBar(childRole) ? await children(client, child) : [];
      // Only a lone child can be a wrapped bar: the roles of others are not asked.
      const lone = inner.length === 1 ? inner[0] : undefined;
      const shape: RoleShape = { role: childRole, childCount: inner.length, children: lone ? [{ role: await readRole(client, lone), childCount: 0, children: [] }] : [] };
      return { shape, bar: shape.role === ATSPI_ROLE.SCROLL_BAR ? child : lone };
    }),
  );
  if (!scrollsItsContent({ role, childCount: count, children: held.map((child) => child.shape) })) return [];
  return held.filter((child) => isScrollBarOrWrapper(child.shape)).map((child) => child.bar!);
}

/**
 * The scroll pane or web page that scrolls an element: the element itself or its nearest scrolling ancestor, which
 * may be an object holding a scroll bar rather than a scroll pane (scroll-areas.ts: Qt's scroll areas are fillers).
 */
export async function scrollPaneOf(desktop: LinuxDesktop, start: ObjectRef): Promise<ObjectRef | undefined> {
  const client = await desktop.atspi();
  let current: ObjectRef | undefined = start;
  for (let depth = 0; current && depth < 64; depth++) {
    const role = await readRole(client, current);
    if (scrollingRoles.has(role)) return current;
    // Only a plain container or pane may be a scroll area: other ancestors are not asked for their children.
    if (mayBeScrollArea(role) && (await heldScrollBars(desktop, current).catch(() => [])).length > 0) return current;
    current = await parentOf(client, current).catch(() => undefined);
  }
  return undefined;
}

/**
 * What moves a scroll bar through accessibility: its own Value (GTK3, Qt), or that of the range it holds (GTK 4.8's
 * scroll bar offers none itself, its one child, a filler named GtkRange, does).
 */
async function valuedBar(desktop: LinuxDesktop, bar: ObjectRef): Promise<ObjectRef | undefined> {
  const client = await desktop.atspi();
  if ((await readInterfaces(client, bar)).includes('Value')) return bar;
  const inner = await children(client, bar).catch(() => []);
  if (inner.length !== 1) return undefined;
  return (await readInterfaces(client, inner[0]!).catch((): string[] => [])).includes('Value') ? inner[0] : undefined;
}

/** The pane's scroll bar along an axis, as the object whose Value moves it (GTK and Qt expose them so). */
export async function scrollBarOf(desktop: LinuxDesktop, pane: ObjectRef, vertical: boolean): Promise<ObjectRef | undefined> {
  const client = await desktop.atspi();
  for (const held of await heldScrollBars(desktop, pane)) {
    const bar = await valuedBar(desktop, held);
    if (!bar) continue;
    const states = await liveStates(desktop, bar);
    if (states.has(vertical ? 'STATE_VERTICAL' : 'STATE_HORIZONTAL')) return bar;
    // Qt marks neither orientation: a shown bar taller than wide is vertical.
    if (states.has('STATE_VERTICAL') || states.has('STATE_HORIZONTAL')) continue;
    const box = await extents(client, bar).catch(() => undefined);
    if (box && box.w > 0 && box.h > 0 && box.h > box.w === vertical) return bar;
  }
  return undefined;
}

/**
 * Where the region's content sits: the boxes of what the pane holds, two levels down (pane, viewport,
 * content), each with its object's path. Scrolling moves them; it is the read-back when the scroll bar has no Value.
 * Its last children are read too: a region that adds content before its first (a chat loading older messages as
 * it is scrolled up) keeps none of its first objects across a scroll, and its last ones say how far it went.
 */
export function contentProbe(desktop: LinuxDesktop, pane: ObjectRef): Probe {
  return {
    label: 'the position of the region\'s content',
    read: async () => {
      const client = await desktop.atspi();
      const levelOne = await children(client, pane);
      const levelTwo = (await Promise.all(levelOne.slice(0, 3).map((child) => children(client, child).catch(() => [])))).flat();
      const last = levelOne.length > 6 ? levelOne.slice(-3) : [];
      const read = [...[...levelOne, ...levelTwo].slice(0, 6), ...last];
      const boxes: ContentBox[] = await Promise.all(read.map(async (ref) => {
        const box = await extents(client, ref).catch(() => undefined);
        return box ? { id: ref.path, ...box } : null;
      }));
      return JSON.stringify(boxes);
    },
    describe: contentMoveLine,
  };
}

/**
 * The only scrollable region among the window's latest snapshot's elements, when the caller named none: the
 * page shown, in a browser (the largest web document that is showing: an iframe's lies inside it, a background
 * tab's is not showing), else the only scroll pane that shows now. A window's hidden panes (a closed side pane, a
 * notebook page behind the shown one, a stack's other page) are in its snapshot too: counted, a window showing one
 * list was refused as having three regions, and one whose shown page had changed since the read (System Monitor's
 * Resources page left for its Processes) scrolled the pane now hidden, "already at the end" at 0 of 0..0.
 */
async function onlyScrollPane(desktop: LinuxDesktop, windowId: number, snapshot: SnapshotRef | undefined): Promise<ObjectRef | undefined> {
  if (!snapshot) throw new ToolError(`no snapshot of window ${windowId}; call get_window_state, then pass the element_index of what to scroll`, 'no_snapshot');
  const elements = [...snapshot.elements.values()];
  const documents = elements.filter((element) => atspiElement(element.handle).atspiRole === ATSPI_ROLE.DOCUMENT_WEB);
  const showing = await Promise.all(documents.map(async (element) => (await liveStates(desktop, atspiElement(element.handle)).catch(() => new Set<string>())).has('STATE_SHOWING')));
  const area = (element: SnapshotElement) => (element.bounds ? element.bounds.w * element.bounds.h : 0);
  const page = documents.filter((_, i) => showing[i]).sort((a, b) => area(b) - area(a))[0];
  if (page) return atspiElement(page.handle);
  const panes = elements.filter((element) => element.scrolls === true && atspiElement(element.handle).atspiRole !== ATSPI_ROLE.DOCUMENT_WEB);
  const client = await desktop.atspi();
  const shows = await Promise.all(
    panes.map(async (pane) => {
      const ref = atspiElement(pane.handle);
      const states = await liveStates(desktop, ref).catch(() => new Set<string>());
      if (states.has('STATE_SHOWING')) return true;
      // GTK 4 sets no SHOWING at all: a visible pane shows where the snapshot read it shown, its hit test having told
      // the pages it stopped drawing (undrawn-places.ts). Every GTK 4 window's scroll with no element was refused as
      // "none of the scrollable regions shows now" (GNOME Fonts' one list, the fixture's).
      const placesOnly = (await client.quirksOf(ref.bus).catch(() => undefined))?.showsByPlaceOnly === true;
      return placesOnly && states.has('STATE_VISIBLE') && !pane.states?.some((state) => state === 'hidden' || state === 'offscreen');
    }),
  );
  const shown = panes.filter((_, i) => shows[i]);
  if (shown.length === 1) return atspiElement(shown[0]!.handle);
  // The wheel over the window's middle, where the app's main view usually is: real in the foreground, sent as X
  // events in the background to an app that takes them (see wheelInBackground).
  if (panes.length === 0) return undefined;
  const listed = (some: SnapshotElement[]) => some.map((pane) => `[e${pane.index}]`).join(', ');
  if (shown.length === 0) {
    throw new ToolError(`none of the scrollable regions of window ${windowId}'s latest snapshot (${listed(panes)}) shows now: the window changed since it was read; call get_window_state, then scroll again`, 'nothing_to_scroll');
  }
  throw new ToolError(`window ${windowId} shows ${shown.length} scrollable regions (${listed(shown)}); pass element_index`, 'ambiguous_scroll_target');
}

/** Scrolls the element's region (or the snapshot's only one) by lines or pages, and reads the position back. */
export async function scrollAction(desktop: LinuxDesktop, request: ScrollRequest): Promise<ActionOutcome> {
  const { window, mode, amount, by } = request;
  if (request.point) return mode === 'foreground' ? wheelWithoutPane(desktop, request, undefined, request.point) : wheelInBackground(desktop, request, request.point);
  const element = request.element && (await liveTarget(desktop, request.element));
  const start = element?.ref ?? (await onlyScrollPane(desktop, window.id, request.snapshot));
  const direction = request.direction;
  // A box of a web page that scrolls on its own (no pane or scroll bar in the tree): it, not the page, is scrolled.
  const box = element && (await webScrollBoxOf(desktop, element.ref, direction));
  if (box && mode !== 'foreground') {
    const scrolled = await scrollWebBox(desktop, box, { ...request, snapshot: element.snapshot ?? request.snapshot }, `[e${element.element.index}]`);
    if (scrolled) return scrolled;
  }
  const pane = box && mode === 'foreground' ? box : start && (await scrollPaneOf(desktop, start));
  const vertical = direction === 'up' || direction === 'down';
  if (!pane) {
    if (mode === 'foreground') return wheelWithoutPane(desktop, request, start);
    if (!element) return wheelInBackground(desktop, request, middleOf(window));
    throw new ToolError(`[e${element.element.index}] is not inside a scrollable region that accessibility can move; ${RETRY_IN_FOREGROUND} (the mouse wheel over it)`, 'nothing_to_scroll');
  }
  const client = await desktop.atspi();
  const bar = await scrollBarOf(desktop, pane, vertical);

  if (mode === 'foreground') {
    const box = await desktop.elementBounds(window, pane);
    if (!box) throw new ToolError('the scrollable region has no position on screen', 'element_not_visible');
    const notches = wheelNotches(by, amount);
    // Over the element given, where it shows in the region, as a person puts the pointer over what they scroll: a
    // canvas that zooms on the wheel (a map, a drawing) takes it there, and over the page's middle the page scrolled.
    const placed = element && element.ref !== pane ? await desktop.elementBounds(window, element.ref) : undefined;
    const shown = placed && overlap(placed, box);
    const over = shown ?? box;
    const centre = { x: Math.round(over.x + over.w / 2), y: Math.round(over.y + over.h / 2) };
    const probe = bar ? valueProbe(desktop, bar, 'the scroll position') : contentProbe(desktop, pane);
    // Such a surface shows the wheel's effect in its own pixels only.
    const surface = shown ? await drawnSurfaceOf(desktop, window, element!.ref) : undefined;
    // The snapshot names what the evidence tells: without it a list's recycled rows were each "renamed (its name
    // before is unknown)", where the snapshot held them with their names.
    const observation = await withForeground(desktop, window, (x) => {
      const tree = () =>
        observe(desktop, pane.bus, [probe], async () => {
          const before = surface ? undefined : await probe.read().catch(() => undefined);
          if (by === 'page' && !bar && !surface && before !== undefined) await wheelPages(x, probe, before, { centre, direction, amount, span: vertical ? box.h : box.w });
          else await pointerWheel(x, centre, direction, notches);
          if (!surface) await contentAtRest(probe, before);
        }, { snapshot: element?.snapshot ?? request.snapshot });
      return surface ? withSurfacePixels(desktop, window, surface, tree) : tree();
    });
    return actionOutcome({ path: 'x11_pixel_fg', mode, observation });
  }

  if (!bar && (await readRole(client, pane)) === ATSPI_ROLE.DOCUMENT_WEB) {
    return scrollDocument(desktop, pane, { direction, by, amount, snapshot: element?.snapshot ?? request.snapshot });
  }
  if (!bar) {
    return notDelivered(mode, `the region has no ${vertical ? 'vertical' : 'horizontal'} scroll bar that accessibility can move (its toolkit gives it no Value); nothing was sent: ${RETRY_IN_FOREGROUND} (mouse wheel)`);
  }
  const read = await readValue(client, bar);
  // A bound the bar does not give is where it stands: it cannot be moved past what is known.
  const range = { ...read, min: read.min ?? read.current, max: read.max ?? read.current };
  const paneBox = await extents(client, pane).catch(() => undefined);
  // A line is the toolkit's step; a page is what the region shows, less a line so context carries over.
  const line = range.step > 0 ? range.step : Math.max(1, (range.max - range.min) / 100);
  const page = paneBox ? Math.max(line, (vertical ? paneBox.h : paneBox.w) - line) : line * 10;
  const delta = (by === 'page' ? page : line) * amount * (direction === 'up' || direction === 'left' ? -1 : 1);
  const next = Math.min(range.max, Math.max(range.min, range.current + delta));
  if (next === range.current) {
    // Nothing can move: say so rather than claim a scroll.
    return {
      path: 'none',
      delivery_mode: mode,
      effect: 'suspected_noop',
      verified: true,
      evidence: [`already at the ${delta < 0 ? 'start' : 'end'}: scroll position ${range.current} of ${range.min}..${range.max}`],
    };
  }
  const observation = await observe(desktop, pane.bus, [valueProbe(desktop, bar, 'the scroll position')], () => setValue(client, bar, next), {
    snapshot: element?.snapshot,
    until: (values) => Number(values[0]) === next,
  });
  return actionOutcome({ path: 'x11_atspi', mode, observation });
}

/**
 * Waits until a region's content has come to rest after the wheel: moved from where it was (`before`), then read alike
 * for restQuietMs; at most wheelRestMs, and wheelStartMs when it never moves (at the end already). Blink
 * scrolls smoothly, on after the last notch, and announces nothing while it does: the read-back of 10 pages down a
 * page's list read its rows with "Message 409" first where it came to rest at "Message 421", and the next scroll's
 * "before" was 300 px further down than that "after".
 */
async function contentAtRest(probe: Probe, before: string | undefined): Promise<void> {
  const start = Date.now();
  let last = await probe.read().catch(() => undefined);
  let lastMove = start;
  while (Date.now() - start < wheelRestMs) {
    await sleep(restReadMs);
    const now = await probe.read().catch(() => undefined);
    if (now !== last) lastMove = Date.now();
    last = now;
    if (Date.now() - lastMove >= restQuietMs && (now !== before || Date.now() - start >= wheelStartMs)) return;
  }
}

/**
 * Pages of a region turned by the wheel, where its content's place is read (no scroll bar): one notch, read back at
 * rest, tells how far a notch goes here, and the rest turn about a page each, the region's length less a tenth so
 * context carries over. A page as five notches of Blink's or Gecko's 100 px went 500 px in a box 183 px high, and
 * 15 rows of a page's list scrolled past unseen at every page. A notch longer than a page is turned once a page.
 */
async function wheelPages(x: X11Connection, probe: Probe, before: string, turn: { centre: Point; direction: ScrollRequest['direction']; amount: number; span: number }): Promise<void> {
  const { centre, direction, amount, span } = turn;
  await pointerWheel(x, centre, direction, 1);
  await contentAtRest(probe, before);
  const after = await probe.read().catch(() => undefined);
  const shift = after === undefined ? undefined : contentShift(before, after);
  // Nothing moved: the region is at its end that way, or takes no wheel; the read-back says which.
  if (!shift) return;
  const notch = Math.abs(direction === 'up' || direction === 'down' ? shift.dy : shift.dx);
  if (notch === 0) return;
  const page = Math.max(1, span - Math.round(span / 10));
  const rest = Math.min(maxWheelNotches - 1, Math.max(1, Math.floor((amount * page) / notch)) - 1);
  if (rest > 0) await pointerWheel(x, centre, direction, rest);
}

/**
 * The wheel over a region the tree shows no pane for (a spreadsheet's grid drawn by the app, with its scroll bars
 * beside it): over the element's middle, or the window's. Read back by the window's scroll bars that have a
 * Value, else by its pixels.
 */
async function wheelWithoutPane(desktop: LinuxDesktop, request: ScrollRequest, element: ObjectRef | undefined, point?: PointTarget): Promise<ActionOutcome> {
  const { window, direction, by, amount, mode } = request;
  const box = element ? await desktop.elementBounds(window, element) : undefined;
  if (element && !box) throw new ToolError('the element has no position on screen to turn the mouse wheel over', 'element_not_visible');
  const at = point ?? (box ? pointAt(window, Math.round(box.x + box.w / 2), Math.round(box.y + box.h / 2)) : middleOf(window));
  const centre = { x: at.screenX, y: at.screenY };
  const notches = wheelNotches(by, amount);
  const bars = await windowScrollBars(desktop, request.snapshot);
  // A window kept above the others over the middle would take the wheel, and the read-back look at this one.
  const turn = async (x: Parameters<typeof pointerWheel>[0]) => {
    await requirePointOnWindow(desktop, x, at);
    await pointerWheel(x, centre, direction, notches);
  };
  if (bars.length === 0) {
    const observation = await withForeground(desktop, window, (x) => observePixels(desktop, window, () => turn(x)));
    return actionOutcome({ path: 'x11_pixel_fg', mode, observation });
  }
  const probes = bars.map((bar) => valueProbe(desktop, bar.ref, `[e${bar.index}] scroll bar`));
  const observation = await withForeground(desktop, window, (x) => observe(desktop, bars[0]!.ref.bus, probes, () => turn(x), { snapshot: request.snapshot }));
  return actionOutcome({ path: 'x11_pixel_fg', mode, observation });
}

/** Notches of the wheel a scroll turns: one a line, five a page (so the scroll tool's 100 pages are 500 notches). */
function wheelNotches(by: ScrollRequest['by'], amount: number): number {
  return by === 'page' ? amount * 5 : amount;
}

/** A screen point of the window, as a point target. */
function pointAt(window: DesktopWindow, screenX: number, screenY: number): PointTarget {
  return { kind: 'point', window, screenX, screenY, windowX: screenX - window.bounds.x, windowY: screenY - window.bounds.y };
}

function middleOf(window: DesktopWindow): PointTarget {
  return pointAt(window, Math.round(window.bounds.x + window.bounds.width / 2), Math.round(window.bounds.y + window.bounds.height / 2));
}

/**
 * The wheel in the background where accessibility moves no scroll bar: X wheel events (buttons 4 to 7) sent to the
 * window's widget under the point, for an app that takes sent events (Tk, Xt/Xaw), read back by its pixels. A window
 * with no tree had been refused as having "no scrollable region in its accessibility tree" (a Tk list scrolled
 * only in the foreground), and the wheel could go only over its middle, never over a second list.
 */
async function wheelInBackground(desktop: LinuxDesktop, request: ScrollRequest, point: PointTarget): Promise<ActionOutcome> {
  const { window, direction, by, amount, mode } = request;
  const reach = await syntheticEventsReach(desktop, window, 'pointer');
  if (!reach.accepted) {
    const where = request.point ? `(${Math.round(point.windowX)},${Math.round(point.windowY)}) is scrolled by the mouse wheel` : `window ${window.id} has no scrollable region in its accessibility tree`;
    const retry = `${RETRY_IN_FOREGROUND} (the mouse wheel over ${request.point ? 'the point' : "the window's middle, or over the element given by element_index"})`;
    if (!request.point) throw new ToolError(`${where}; ${retry}`, 'nothing_to_scroll');
    return notDelivered(mode, `${where}, and ${reach.toolkit} ignores synthetic X events; nothing was sent: ${retry}, or pass the element_index of the region to scroll`);
  }
  const x = await desktop.x11();
  const notches = wheelNotches(by, amount);
  const top = await syntheticEventWindow(x, point);
  const observation = await observePixels(desktop, window, () => syntheticWheel(x, top, { x: point.screenX, y: point.screenY }, direction, notches));
  return actionOutcome({ path: 'x11_pixel', mode, observation });
}

/** The scroll bars with a Value among the snapshot's elements (at most 4): what a wheel turned over the window moves. */
async function windowScrollBars(desktop: LinuxDesktop, snapshot: SnapshotRef | undefined): Promise<{ ref: ObjectRef; index: number }[]> {
  const client = await desktop.atspi();
  const bars = [...(snapshot?.elements.values() ?? [])]
    .map((element) => ({ ref: atspiElement(element.handle), index: element.index }))
    .filter((bar) => bar.ref.atspiRole === ATSPI_ROLE.SCROLL_BAR);
  const withValue = await Promise.all(bars.map(async (bar) => (await readInterfaces(client, bar.ref).catch(() => [] as string[])).includes('Value')));
  return bars.filter((_, i) => withValue[i]).slice(0, 4);
}
