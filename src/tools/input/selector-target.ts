// An action's element named by a selector (the grammar of find_elements and wait_for) instead of an index: read
// the window when the call runs, match (waiting as wait_for does, when asked, for a match to appear), and name the
// one element matched by its element token. Done once, before the call's observer and handler run (run.ts), so the
// recording, the agent cursor and the action all see the same element and the handler needs no second path.
import type { CupNode } from '../../cup/types.js';
import { ToolError } from '../../errors.js';
import type { TreeLimits } from '../../platform/desktop.js';
import type { DesktopWindow } from '../../platform/windows.js';
import type { ToolContext } from '../context.js';
import { matchDesktop, parseDesktopSelector, type DesktopSelector } from '../perception/desktop-selector.js';
import { waitFor } from '../perception/wait-for.js';
import { insteadSentence, matchedInstead, nearestNames, unreadItemNotes } from '../perception/element-matches.js';
import { resolveWindow, windowsOfProcess } from '../perception/window-records.js';
import { elementToken, indexOf, readSnapshot, wholeWindowLimits } from '../perception/window-snapshot.js';
import type { WindowSnapshot } from '../state/snapshot-store.js';
import type { Selected } from './schemas.js';

/** Matches named in an ambiguous selector's error. */
const LISTED_MATCHES = 8;

interface SelectorArgs {
  selector?: unknown;
  pid?: unknown;
  window_id?: unknown;
  element_index?: unknown;
  element_token?: unknown;
  x?: unknown;
  y?: unknown;
  selector_timeout_ms?: unknown;
}

/** A match as an error lists it, with its states as find_elements prints them: what tells alike matches apart. */
function elementLine(window: DesktopWindow, node: CupNode): string {
  const states = node.states && node.states.length > 0 ? ` {${node.states.join(',')}}` : '';
  return `[e${indexOf(node)}] ${node.role} ${JSON.stringify(node.name)}${states} (window ${window.id})`;
}

function shown(node: CupNode): boolean {
  return !node.states?.includes('offscreen') && !node.states?.includes('hidden') && node.bounds !== undefined && node.bounds.w > 0 && node.bounds.h > 0;
}

/**
 * The arguments of an action that names its element by `selector`, with the element's token in its place (and the
 * window and pid it was found in), plus what was selected; undefined when the call gives no selector. Throws
 * conflicting_target beside another target, not_found when nothing matches (with the nearest names and the
 * windows read) once selector_timeout_ms has passed, ambiguous when several do (listing them, and how to pick one).
 * Nothing is sent in either case.
 */
export async function selectElement(context: ToolContext, tool: string, args: Record<string, unknown>): Promise<{ args: Record<string, unknown>; selected: Selected } | undefined> {
  const given = args as SelectorArgs;
  if (typeof given.selector !== 'string') return undefined;
  const source = given.selector;
  const other = (['element_index', 'element_token', 'x', 'y'] as const).filter((key) => given[key] !== undefined);
  if (other.length > 0) {
    throw new ToolError(`${tool}: give either selector or ${other.join(' + ')}, not both; nothing was sent`, 'conflicting_target');
  }
  const selector = parseDesktopSelector(source);
  const pid = typeof given.pid === 'number' ? given.pid : undefined;
  const windowId = typeof given.window_id === 'number' ? given.window_id : undefined;
  if (windowId === undefined && pid === undefined) {
    throw new ToolError(`${tool}: selector ${JSON.stringify(source)} needs window_id (the window to look in) or pid (every window of it); nothing was sent`, 'missing_window_id');
  }
  const timeoutMs = typeof given.selector_timeout_ms === 'number' ? given.selector_timeout_ms : 0;
  const started = Date.now();
  let search = await searchShownFirst(context, windowId, pid, selector);
  // Nothing matches yet: wait as wait_for does (on the app's events), then match again, until the time is up. Every
  // window of the pid is looked in anew each time, so a dialog that opened meanwhile is searched too.
  while (search.found.length === 0 && Date.now() - started < timeoutMs) {
    const waitPid = pid ?? search.windows[0]!.pid;
    try {
      await waitFor.handle({ pid: waitPid, window_id: windowId, selector: source, gone: false, timeout_ms: timeoutMs - (Date.now() - started) }, context);
    } catch (error) {
      if (!(error instanceof ToolError) || error.code !== 'timeout') throw error;
      break;
    }
    search = await searchShownFirst(context, windowId, pid, selector);
  }
  const { windows, roots, unread } = search;
  const found = candidates(search.found);
  const where = windows.map((window) => `${window.id} ${JSON.stringify(window.title)}`).join(', ');
  if (found.length === 0) {
    const nearest = nearestNames(roots, selector);
    // An element named by an identifier, its label in its description (or a cell holding the words as its value).
    const [byValue, byDescription] = [matchedInstead(roots, selector, 'value'), matchedInstead(roots, selector, 'description')];
    const waited = timeoutMs > 0 ? ` after waiting ${Date.now() - started} ms` : '';
    throw new ToolError(
      `${tool}: selector ${JSON.stringify(source)} matches no element in window${windows.length === 1 ? '' : 's'} ${where}${waited}` +
        `${nearest.length > 0 ? `; nearest names: ${nearest.map((name) => JSON.stringify(name)).join(', ')}` : ''}${insteadSentence(byValue, byDescription)}${unread.length > 0 ? `; unread: ${unread.join('; ')}` : ''}. ` +
        `Nothing was sent. ${timeoutMs > 0 ? '' : 'If the element is still to appear, give selector_timeout_ms to wait for it (or a wait_for step with this selector); '}find_elements lists what matches a looser one.`,
      'not_found',
      {
        selector: source,
        windows: windows.map((window) => window.id),
        nearest_names: nearest,
        ...(byValue.length > 0 ? { by_value: byValue } : {}),
        ...(byDescription.length > 0 ? { by_description: byDescription } : {}),
        ...(unread.length > 0 ? { unread } : {}),
        ...(timeoutMs > 0 ? { waited_ms: Date.now() - started } : {}),
      },
    );
  }
  if (found.length > 1) {
    const listed = found.slice(0, LISTED_MATCHES).map(({ window, node }) => elementLine(window, node));
    throw new ToolError(
      `${tool}: selector ${JSON.stringify(source)} matches ${found.length} elements, and one is needed: ${listed.join(', ')}${found.length > listed.length ? ', ...' : ''}. ` +
        `Nothing was sent. ${found.every(({ node }) => !shown(node)) ? 'None of them is shown (each is hidden, offscreen or of no size: in a closed menu or popover, or scrolled away): open what holds the one meant, then select it again. ' : ''}` +
        `${new Set(found.map(({ window }) => window.id)).size > 1 ? 'Give window_id to look in one window only; ' : ''}` +
        `Add terms that tell them apart (name=..., a state such as focused, "A >> B" for one inside another), or pick one by its place: "${source} [index=0]" is the first, [index=-1] the last.`,
      'ambiguous',
      { selector: source, count: found.length, matches: listed },
    );
  }
  const { window, snapshot, node } = found[0]!;
  const token = elementToken(snapshot, node);
  const resolved: Record<string, unknown> = { ...args, element_token: token, window_id: window.id, pid: window.pid };
  delete resolved.selector;
  delete resolved.selector_timeout_ms;
  return { args: resolved, selected: { selector: source, element_token: token, window_id: window.id, index: indexOf(node), role: node.role, name: node.name } };
}

type Found = { window: DesktopWindow; snapshot: WindowSnapshot; node: CupNode };

/**
 * The matches without the texts that name other matches: a field named by its label matches a name selector twice,
 * as the label and as the field (`name="Host:"` in FileZilla's Site Manager was ambiguous between the text "Host:"
 * and the text box it labels), and an action means the control, never the words beside it.
 */
function withoutTheirLabels(found: readonly Found[]): Found[] {
  const names = (entry: Found) => entry.node.role === 'text' && found.some((other) => other !== entry && other.window.id === entry.window.id && other.node.role !== 'text' && other.node.name === entry.node.name);
  return found.filter((entry) => !names(entry));
}

/** Whether `inner` lies anywhere inside `outer`'s subtree. */
function holds(outer: CupNode, inner: CupNode): boolean {
  return (outer.children ?? []).some((child) => child === inner || holds(child, inner));
}

/**
 * The matches without those that only wrap another match of the same role and name: GTK 4.8 builds a menu button of
 * a button around a button, both named by the label (GNOME Calculator's mode switch "Basic"), so `role=button
 * name=Basic` was refused as ambiguous between one control's two parts. The inner one, which offers the click, is kept.
 */
function withoutWrappers(found: readonly Found[]): Found[] {
  const wraps = (entry: Found) =>
    found.some((other) => other !== entry && other.window.id === entry.window.id && other.node.role === entry.node.role && other.node.name === entry.node.name && holds(entry.node, other.node));
  return found.filter((entry) => !wraps(entry));
}

/**
 * Of several matches, those a person can see, when some are and some are not (offscreen, hidden, or with no size):
 * GTK 4.8's view switcher keeps hidden copies of its tabs, so `role=tab name=Timer` in GNOME Clocks matched three
 * elements, two of them drawn nowhere, and an action was refused as ambiguous.
 */
function shownFirst(found: readonly Found[]): readonly Found[] {
  if (found.length < 2) return found;
  const visible = found.filter(({ node }) => shown(node));
  return visible.length > 0 ? visible : found;
}

/** The matches an action may mean, in order: the controls (not their labels, nor wrappers of them), those shown first. */
function candidates(found: readonly Found[]): readonly Found[] {
  return shownFirst(withoutTheirLabels(withoutWrappers(found)));
}

/**
 * A reading that leaves hidden containers' content unread where the window is walked on every reading (see
 * TreeLimits.hiddenContentUnread): nothing in them is shown, so a match shown in it is the one a whole reading picks.
 */
const shownPartLimits = { ...wholeWindowLimits, hiddenContentUnread: true } as const;

/**
 * Searches the part of the windows that can show first, and the whole windows only when no match is shown there: an
 * action names what it acts on, which is shown. KeePassXC's window holds 2,000 objects, most in its stacked pages
 * behind the one shown; each step of a plan naming its field by selector read them all, 1.5 to 2 s a step where the
 * step itself took 0.3 s.
 */
async function searchShownFirst(context: ToolContext, windowId: number | undefined, pid: number | undefined, selector: DesktopSelector) {
  const shownPart = await searchWindows(context, windowId, pid, selector, shownPartLimits);
  if (candidates(shownPart.found).some(({ node }) => shown(node))) return shownPart;
  return searchWindows(context, windowId, pid, selector, wholeWindowLimits);
}

/** Reads the window (or every window of pid) and matches the selector in each; every window read is stored as its latest snapshot. */
async function searchWindows(context: ToolContext, windowId: number | undefined, pid: number | undefined, selector: DesktopSelector, limits: TreeLimits) {
  const windows = windowId !== undefined ? [await resolveWindow(context, windowId, pid)] : await windowsOfProcess(context, pid!);
  const found: Found[] = [];
  const roots: CupNode[] = [];
  const unread: string[] = [];
  for (const window of windows) {
    const { reading, snapshot, nodes } = await readSnapshot(context, window, limits);
    if (reading.root) roots.push(reading.root);
    if (reading.missingReason) unread.push(`window ${window.id}: ${reading.missingReason}`);
    unread.push(...unreadItemNotes(nodes));
    for (const node of matchDesktop(reading.root ? [reading.root] : [], selector)) found.push({ window, snapshot, node });
  }
  return { windows, found, roots, unread };
}
