// What get_window_state shows of a reading: the cut tree, the rendered text and the element records, made once
// per reading and way of showing it however many calls got that reading.
import { buildEnvelope, capCompactText, countClosedMenuItems, countOutsideClosedMenus, cutTree, filterTree, filterTreeText, isDrawnSurface, isInputOnly, platformCount, queryMatches, toCompact, toMarkdown, unreadCounts, unreadWhileHidden, type ClipCounts, type CupEnvelope, type TreeQuery } from '../../cup/index.js';
import { matchDesktop, type DesktopSelector } from './desktop-selector.js';
import type { CupAppInfo, CupNode, CupPlatform, CupScreen } from '../../cup/types.js';
import type { WindowReading } from '../../platform/desktop.js';
import { flattenNodes } from '../../tui/ui-node.js';
import { elementRecord } from './element-matches.js';
import { indexOf } from './window-snapshot.js';

/** Everything a view depends on besides the reading. */
export interface ViewRequest {
  platform: CupPlatform;
  screen: CupScreen;
  app: CupAppInfo;
  format: 'compact' | 'markdown' | 'json';
  detail: 'compact' | 'full';
  query: string | undefined;
  /** The query as a selector, when it is one (selectorQuery): the nodes it matches are kept, with their ancestors. */
  selector?: DesktopSelector;
  maxElements: number;
  maxDepth: number;
}

export interface WindowView {
  /** The text an agent reads. */
  text: string;
  /** The nodes shown after max_elements/max_depth, in document order. */
  nodeCount: number;
  /** How many nodes max_elements/max_depth left out. */
  cut: number;
  /** The records of the elements the text shows. */
  elements: ReturnType<typeof elementRecord>[];
  /** Children left unread under the nodes read that are not hidden, by where they lie. */
  unread: ClipCounts;
  /** Children left unread under hidden nodes (a closed side pane): in no direction, shown only with their container. */
  unreadHidden: number;
  /** The items of closed menus, which the compact view counts and does not list, read or not: no query searches them. */
  closedMenuItems: number;
  /**
   * The elements a query matched that the compact text leaves out, `hidden` (a closed popover's buttons, a collapsed
   * section's fields) or `offscreen`; not those pruned as saying nothing of their own (a label its field names).
   */
  unshownMatches: { hidden: number; offscreen: number };
  /** Whether any node has an action besides focus. */
  actionable: boolean;
  /** The surfaces the app draws itself (a game's board), whose content no element holds. */
  drawn: CupNode[];
  /** The shown, enabled controls that real input alone operates (the toolkit names no action for them). */
  inputOnly: number[];
}

/**
 * Views by reading, then by request. Calls answered with one reading (the ReadCoalescer hands it to every
 * call it was fresh for: begun after each of them came in) share what is made of it: a view is a pure
 * function of the reading and the request, so a shared one is exactly what the call would have made itself,
 * and no older than the reading. The per-session part (the snapshot, its id) is not in it and stays per call.
 * Held weakly: the views go with their reading. Shared views are not to be changed.
 */
const views = new WeakMap<WindowReading, Map<string, WindowView>>();

export function windowView(reading: WindowReading, request: ViewRequest): WindowView {
  let byRequest = views.get(reading);
  if (!byRequest) views.set(reading, (byRequest = new Map()));
  const key = JSON.stringify(request);
  let view = byRequest.get(key);
  if (!view) {
    view = makeView(reading, request);
    byRequest.set(key, view);
  }
  return view;
}

function makeView(reading: WindowReading, request: ViewRequest): WindowView {
  const readNodes = flattenNodes(reading.root ? [reading.root] : []);
  const shown = reading.root ? cutTree(reading.root, request.maxElements, request.maxDepth) : { cut: 0 };
  const nodes = shown.cut > 0 ? flattenNodes(shown.root ? [shown.root] : []) : readNodes;
  const envelope = buildEnvelope({ platform: request.platform, screen: request.screen, app: request.app, scope: 'full', tree: shown.root ? [shown.root] : [] });
  const { text, shownIds, matched } = render(envelope, request);
  const unshown = matched.filter((node) => !shownIds.has(indexOf(node)));
  const hidden = unshown.filter((node) => node.states?.includes('hidden')).length;
  const offscreen = unshown.filter((node) => !node.states?.includes('hidden') && node.states?.includes('offscreen')).length;
  return {
    text,
    // What is shown counts alike whether or not closed menus' items were read (see countOutsideClosedMenus).
    nodeCount: request.format !== 'json' && request.detail !== 'full' ? countOutsideClosedMenus(shown.root ? [shown.root] : []) : nodes.length,
    cut: shown.cut,
    elements: nodes.filter((node) => shownIds.has(indexOf(node))).map(elementRecord),
    unread: unreadTotals(readNodes.filter((node) => !unreadWhileHidden(node))),
    unreadHidden:
      Object.values(unreadTotals(readNodes.filter(unreadWhileHidden))).reduce((sum, count) => sum + count, 0) +
      readNodes.reduce((sum, node) => sum + platformCount(node, 'unreadHiddenChildren'), 0),
    unshownMatches: { hidden, offscreen },
    closedMenuItems: request.detail === 'compact' && request.format !== 'json' && reading.root ? countClosedMenuItems([reading.root]) : 0,
    // A control real input operates is something to act on, though it names no action.
    actionable: readNodes.some((node) => (node.actions ?? []).some((action) => action !== 'focus') || isInputOnly(node)),
    drawn: readNodes.filter(isDrawnSurface),
    inputOnly: nodes.filter((node) => isInputOnly(node) && shownIds.has(indexOf(node)) && !node.states?.some((state) => state === 'disabled' || state === 'hidden')).map(indexOf),
  };
}

/** The text an agent reads, and which element ids it shows. */
function render(envelope: CupEnvelope, { format, detail, query: asked, selector }: ViewRequest) {
  const query: TreeQuery | undefined = selector ? new Set(matchDesktop(envelope.tree, selector).map((node) => node.id)) : asked;
  if (format === 'json') {
    const tree = query ? filterTree(envelope.tree, query) : envelope.tree;
    const shown = { ...envelope, tree };
    return { text: JSON.stringify(shown, null, 1), shownIds: new Set(flattenNodes(tree).map(indexOf)), matched: [] };
  }
  // A query narrows the whole text, and the compact text's safety cap then applies to what it kept.
  let text = format === 'markdown' ? toMarkdown(envelope, { detail }) : toCompact(envelope, { detail, ...(query ? { maxChars: 0 } : {}) });
  if (query) text = format === 'markdown' ? filterTreeText(text, query) : capCompactText(filterTreeText(text, query));
  const pattern = format === 'markdown' ? /\[element_index (\d+)\]/g : /^\s*\[e(\d+)\]/gm;
  // What the query matched in the whole reading, shown or not: a query matching only hidden elements read "0 shown".
  const matched = query && detail === 'compact' ? queryMatches(envelope.tree, query) : [];
  return { text, shownIds: new Set([...text.matchAll(pattern)].map((match) => Number(match[1]))), matched };
}

/** The children left unread under every node of a reading, by where they lie. */
function unreadTotals(nodes: readonly CupNode[]): ClipCounts {
  const totals = { up: 0, down: 0, left: 0, right: 0 };
  for (const node of nodes) {
    const counts = unreadCounts(node);
    for (const direction of Object.keys(totals) as (keyof ClipCounts)[]) totals[direction] += counts[direction];
  }
  return totals;
}
