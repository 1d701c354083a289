import { z } from 'zod';
import { ToolError } from '../../errors.js';
import type { ClipCounts } from '../../cup/index.js';
import { oneLine } from '../../cup/text.js';
import { encodePng } from '../../image/encode.js';
import { modalDialogOver, windowName, type DesktopWindow, type WindowRect } from '../../platform/windows.js';
import type { CupRect } from '../../cup/types.js';
import { selectorQuery } from './desktop-selector.js';
import { allFinished } from '../all-finished.js';
import type { ToolContext } from '../context.js';
import { resolveUserPath, writeFileAtomically } from '../files.js';
import { pidArgument, windowIdArgument, windowResult } from '../schemas.js';
import { defineTool, type ToolImage } from '../tool.js';
import { elementResult } from './element-matches.js';
import { windowOfCall, windowRecord } from './window-records.js';
import { indexOf, readNumbered, rememberReading } from './window-snapshot.js';
import { toScreenshot } from './screenshot-pixels.js';
import { windowView } from './window-view.js';
import { counted } from '../../cup/counted.js';

const walkBudgetMs = 10_000;
const defaultMaxElements = 5000;
const defaultMaxDepth = 1000;

interface Screenshot {
  image?: ToolImage;
  info?: { width: number; height: number; scale: number; path?: string };
  error?: string;
}

async function screenshotOf(context: ToolContext, window: DesktopWindow, outFile: string | undefined, overwrite: boolean): Promise<Screenshot> {
  try {
    const pixels = await context.desktop.captureWindow(window, context.calledAt);
    const encoded = await encodePng(pixels, context.state.config.get().max_image_dimension);
    context.state.images.rememberScreenshot({
      windowId: window.id,
      imageWidth: encoded.width,
      imageHeight: encoded.height,
      windowWidth: pixels.width,
      windowHeight: pixels.height,
      scale: encoded.scale,
    });
    const info = { width: encoded.width, height: encoded.height, scale: encoded.scale };
    if (outFile) {
      const path = resolveUserPath(outFile, context.cwd);
      writeFileAtomically(path, encoded.data, { field: 'screenshot_out_file', replace: overwrite ? 'any' : 'ours' });
      return { image: { data: encoded.data, mimeType: 'image/png', label: 'screenshot', writtenTo: path }, info: { ...info, path } };
    }
    return { image: { data: encoded.data, mimeType: 'image/png', label: 'screenshot' }, info };
  } catch (error) {
    // A destination the caller named that cannot be written fails the call: the caller asked for that file.
    if (error instanceof ToolError) throw error;
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

export const getWindowState = defineTool({
  name: 'get_window_state',
  capability: 'perception',
  title: 'Read a window',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description:
    "Read one window: its accessibility tree as CUP (compact text by default; markdown or a JSON envelope) and a PNG " +
    'screenshot. Every element is tagged [eN]; N is the element_index the action tools take. An element keeps its index in every ' +
    'later reading of this window in the session (an action returns the new snapshot_id, and in its diff what changed; added elements get new numbers), ' +
    'and an index whose element is gone is refused (stale_element), never passed to another. Call it once per turn before acting on elements. When the structured result ' +
    'says degraded, the app exposes no usable tree: act by pixels on the screenshot instead.',
  input: z.strictObject({
    pid: pidArgument.optional().describe('Target process ID. Alone, it reads the app\'s only window; an app with several is refused (missing_window_id), naming each.'),
    window_id: windowIdArgument.optional().describe('Target window ID (from list_windows). Needed when pid has more than one window; with it, pid may be left out.'),
    query: z
      .string()
      .min(1)
      .optional()
      .describe(
        'Filter, keeping the elements it matches with their ancestors (element indices are unchanged): text, case-insensitive, found in an element\'s name, value, role or state codes (or its id, e.g. "e12"); ' +
          'or a selector, as find_elements takes (read as one when it holds a field term such as role=button or name~="save", or >>).',
      ),
    include_screenshot: z.boolean().default(true).describe('Return a screenshot with the tree. Default true; false is cheaper when only re-indexing.'),
    screenshot_out_file: z.string().min(1).optional().describe('Write the PNG to this path (~ expanded) instead of embedding it. An existing file is replaced only when cup-driver wrote it (else destination_exists; see overwrite); a link there is never followed.'),
    overwrite: z.boolean().optional().describe('Replace whatever regular file or link is at screenshot_out_file (a link is replaced itself, not its target). Default false.'),
    format: z.enum(['compact', 'markdown', 'json']).default('compact').describe('compact (CUP compact text, fewest tokens), markdown, or json (the CUP envelope).'),
    detail: z
      .enum(['compact', 'full'])
      .default('compact')
      .describe(
        'compact prunes decorative and off-screen nodes, and with format compact or markdown does not even read what a scrolled pane (a web page below the fold) holds out of view: it is counted ("# N more items — scroll down to see"); full reads and keeps every node. Either way [eN] names the same element.',
      ),
    max_elements: z
      .number()
      .int()
      .min(1)
      .max(100_000)
      .default(defaultMaxElements)
      .describe(`Show at most this many nodes, the first in document order (then truncated is true). Default ${defaultMaxElements}. A smaller cap keeps the window's numbering: [eN] means the same element as in a full read.`),
    max_depth: z.number().int().min(0).max(10_000).default(defaultMaxDepth).describe('Show nothing deeper than this many levels below the window (the numbering stays the full one).'),
    capture_mode: z.string().optional().describe('Deprecated and ignored; accepted for compatibility.'),
  }),
  output: z.object({
    snapshot_id: z.string(),
    window: windowResult,
    format: z.string(),
    node_count: z.number(),
    shown_count: z.number(),
    truncated: z.boolean(),
    unread_children: z
      .object({ up: z.number(), down: z.number(), left: z.number(), right: z.number() })
      .optional()
      .describe('Children not read, by where they lie: scrolled out of view (read with detail "full") or outside the visible part of a huge list or table.'),
    unread_hidden_children: z.number().optional().describe('Children not read inside hidden containers (a closed side pane\'s huge list): scrolling brings none of them in; showing the container does.'),
    degraded: z.boolean(),
    degraded_reason: z.string().optional(),
    popups_beyond: z
      .array(z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() }))
      .optional()
      .describe('Popups (menus, drop-down lists) the app has open that reach past the window\'s edges, in window pixels (x or y may be negative): the screenshot cannot show those parts, nor can a click reach them.'),
    toolkit: z.string().optional(),
    drawn_surfaces: z
      .array(z.object({ element_index: z.number(), bounds: z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() }) }))
      .optional()
      .describe('Surfaces the app draws itself (a game board, a chart), in screenshot pixels: no element holds what they show; read it in the screenshot and act on it with x, y.'),
    blocked_by_dialog: z
      .object({ window_id: z.number(), title: z.string() })
      .optional()
      .describe('The modal dialog the window waits on: its controls take no input until that dialog is answered or closed, and actions on them are refused (blocked_by_modal_dialog).'),
    elements: z.array(elementResult),
    screenshot: z.object({ width: z.number(), height: z.number(), scale: z.number(), path: z.string().optional() }).optional(),
    screenshot_error: z.string().optional(),
  }),
  async handle(args, context) {
    // A malformed selector is refused before anything is read.
    const selector = args.query ? selectorQuery(args.query) : undefined;
    const window = await windowOfCall(context, args, 'get_window_state', 'refuse');
    // Caps below the defaults cut what is shown, not what is read: a read cut short numbers its nodes its own
    // way, and as the window's latest snapshot it would make indices the agent holds name other elements.
    const limits = {
      maxNodes: Math.max(args.max_elements, defaultMaxElements),
      maxDepth: Math.max(args.max_depth, defaultMaxDepth),
      budgetMs: walkBudgetMs,
      // A reading another client's call began after this call came in is as fresh as this call needs.
      ...(context.calledAt !== undefined ? { since: context.calledAt } : {}),
      // What compact text and markdown prune away is not read at all; JSON is the whole envelope.
      visibleOnly: args.detail === 'compact' && args.format !== 'json',
    };
    // Every part is waited for, even once one has failed (a screenshot_out_file that cannot be written): the call
    // answers when its work is over, not while the tree is still being read.
    const [reading, screen, screenshot, beyond, windows] = await allFinished([
      readNumbered(context, window, limits),
      context.desktop.screen(),
      args.include_screenshot ? screenshotOf(context, window, args.screenshot_out_file, args.overwrite ?? false) : Promise.resolve<Screenshot>({}),
      context.desktop.popupsBeyond(window),
      context.desktop.windows(),
    ]);
    // A window under its modal dialog shows controls that take no input (Ristretto's start-up warning over its
    // viewer): read without a word of it, the agent's next click on them was its first news of the dialog.
    const dialog = modalDialogOver(window, windows);

    const { snapshot } = rememberReading(context, window, reading);
    const view = windowView(reading, {
      platform: context.desktop.platform,
      screen: { w: screen.width, h: screen.height, scale: screen.scale },
      app: { name: window.appName, pid: window.pid },
      format: args.format,
      detail: args.detail,
      query: args.query,
      ...(selector ? { selector } : {}),
      maxElements: args.max_elements,
      maxDepth: args.max_depth,
    });
    const { elements, unread, unreadHidden } = view;
    let degradedReason = reading.missingReason;
    if (!degradedReason && !view.actionable) degradedReason = 'the accessibility tree has no actionable elements (the app may draw its own UI or not support accessibility)';
    const truncated = reading.truncated || view.cut > 0;
    const drawn = view.drawn.map((node) => ({ element_index: indexOf(node), bounds: toScreenshot(context, window, node.bounds!), ...(node.value ? { described: true as const } : {}) }));
    const unreadCount = unread.up + unread.down + unread.left + unread.right;
    const parts = [
      // Chosen for a call naming only pid: which window was read, so the agent passes its id from here on.
      args.window_id === undefined ? `read pid ${window.pid}'s only window, window_id ${window.id}` : '',
      `${counted(view.nodeCount, 'node')}, ${elements.length} shown`,
      unreadCount > 0 ? `${unreadCount} children out of view not read (${(Object.keys(unread) as (keyof ClipCounts)[]).filter((direction) => unread[direction] > 0).map((direction) => `${unread[direction]} ${direction}`).join(', ')})` : '',
      unreadHidden > 0 ? `${unreadHidden} children of hidden containers not read (shown with them)` : '',
      // A query looks through what the compact view shows, which counts closed menus' items and lists none
      // (Transmission's "Quit", asked for with the File menu closed, matched nothing and nothing said why).
      args.query && view.closedMenuItems > 0 ? `the query did not search the ${counted(view.closedMenuItems, 'item')} of closed menus and drop-down lists, which detail "compact" only counts: detail "full" or find_elements searches them` : '',
      unshownMatchesNote(view.unshownMatches),
      view.cut > 0 ? `${view.cut} more past max_elements/max_depth left out (indices are the whole window's, as in a full read)` : '',
      reading.truncated ? 'truncated' : '',
      degradedReason ? `degraded: ${degradedReason}` : '',
      dialog ? `waits on its modal dialog ${dialog.id} ${oneLine(windowName(dialog))}: these controls take no input until it is answered or closed; act in window_id ${dialog.id} first` : '',
      beyond.length > 0 ? popupsBeyondNote(beyond, itemsInPopups(elements, beyond, window)) : '',
      drawn.length > 0 ? drawnSurfacesNote(drawn) : '',
      view.inputOnly.length > 0 ? inputOnlyNote(view.inputOnly) : '',
      screenshot.info
        ? `screenshot ${screenshot.info.width}x${screenshot.info.height}${screenshot.info.path ? ` written to ${screenshot.info.path}` : ''}`
        : screenshot.error
          ? `no screenshot: ${screenshot.error}`
          : '',
    ].filter(Boolean);
    return {
      summary: `✅ ${oneLine(windowName(window))} (pid ${window.pid}, window ${window.id}, snapshot ${snapshot.id}): ${parts.join('; ')}`,
      body: view.text,
      images: screenshot.image ? [screenshot.image] : [],
      structured: {
        snapshot_id: snapshot.id,
        window: windowRecord(window),
        format: args.format,
        node_count: view.nodeCount,
        shown_count: elements.length,
        truncated,
        ...(unreadCount > 0 ? { unread_children: unread } : {}),
        ...(unreadHidden > 0 ? { unread_hidden_children: unreadHidden } : {}),
        degraded: degradedReason !== undefined,
        ...(degradedReason ? { degraded_reason: degradedReason } : {}),
        ...(dialog ? { blocked_by_dialog: { window_id: dialog.id, title: dialog.title } } : {}),
        ...(beyond.length > 0 ? { popups_beyond: beyond.map((popup) => ({ x: popup.x, y: popup.y, w: popup.width, h: popup.height })) } : {}),
        ...(reading.toolkit ? { toolkit: reading.toolkit } : {}),
        ...(drawn.length > 0 ? { drawn_surfaces: drawn.map(({ element_index, bounds }) => ({ element_index, bounds })) } : {}),
        elements,
        ...(screenshot.info ? { screenshot: screenshot.info } : {}),
        ...(screenshot.error ? { screenshot_error: screenshot.error } : {}),
      },
    };
  },
});

/** Drawn surfaces the summary names one by one; the structured drawn_surfaces lists them all. */
const LISTED_SURFACES = 6;

/**
 * Where the tree ends and the pixels begin: a drawn surface (AisleRiot's cards, Tetravex's tiles on one drawing area)
 * holds no element for what it shows, so the agent is told to read the screenshot there and click points in it.
 */
function drawnSurfacesNote(drawn: readonly { element_index: number; bounds: { x: number; y: number; w: number; h: number }; described?: true }[]): string {
  // The first few by name: GNOME Sudoku draws each of its 81 cells on a drawing area of its own, and the summary named
  // all 81 boxes, 3,000 characters ahead of the tree that shows each with its place.
  const listed = drawn.slice(0, LISTED_SURFACES).map(({ element_index, bounds }) => `[e${element_index}] ${bounds.w}x${bounds.h} at ${bounds.x},${bounds.y}`);
  const more = drawn.length - listed.length;
  const where = listed.join(', ') + (more > 0 ? `, and ${more} more (drawn_surfaces lists every one)` : '');
  // One whose app says in words what it draws (its value) is read there; its pixels may show more, so the route stays.
  const described = drawn.filter((surface) => surface.described).map(({ element_index }) => `[e${element_index}]`);
  const words = described.length > 0 ? ` but the words the app gives for it, the value of ${described.join(', ')}` : '';
  return (
    `${drawn.length === 1 ? 'a surface' : `${drawn.length} surfaces`} the app draws itself (${where} in screenshot pixels): no element holds what ` +
    `${drawn.length === 1 ? 'it shows' : 'they show'}${words}; read it in the screenshot and click x, y there (delivery_mode "foreground")`
  );
}

/**
 * The controls the tree lists no verb for though a person clicks them: GTK 4.8's check and radio buttons name no
 * accessibility action, so a background click on them is refused; said here, the agent clicks them in the foreground
 * first time instead of learning it from a refusal.
 */
function inputOnlyNote(indices: readonly number[]): string {
  const listed = indices.slice(0, 6).map((index) => `[e${index}]`).join(', ') + (indices.length > 6 ? `, and ${indices.length - 6} more` : '');
  return `${listed} ${indices.length === 1 ? 'offers' : 'offer'} no accessibility action (no verbs listed): only real input operates ${indices.length === 1 ? 'it' : 'them'}, so click with delivery_mode "foreground"`;
}

/**
 * What to do about a popup the screenshot cannot show: a menu opened from a window low on the screen opens above it
 * (Motif's, NEdit's), wholly outside the window's pixels, where no click in window pixels reaches. Where the tree
 * holds its items (GTK's, Qt's menus and lists), they are clicked by index wherever they lie: MATE Calculator's menu
 * read "nor a click reach" while a click on its item by element_index chose it.
 */
function popupsBeyondNote(popups: readonly WindowRect[], itemsInTree: readonly number[]): string {
  const where = popups.map((popup) => `${popup.width}x${popup.height} at ${popup.x},${popup.y} in window pixels`).join(', ');
  const open = `the app has ${popups.length === 1 ? 'a popup (a menu or list)' : `${popups.length} popups (menus or lists)`} open reaching past the window's edges (${where}), `;
  if (itemsInTree.length > 0) {
    const shown = itemsInTree.slice(0, 3).map((index) => `[e${index}]`).join(', ');
    return `${open}which the screenshot cannot show nor a click at x, y reach; its items are in the tree (${shown}${itemsInTree.length > 3 ? ', ...' : ''}): act on them by element_index`;
  }
  return (
    `${open}which the screenshot cannot show nor a click reach: choose its item with keys (its underlined letter, or Down/Up then Return), or press ` +
    'Escape, give the window room with set_window_frame, and open it again'
  );
}

/** The elements that lie, by their middle, in a popup beyond the window (in window pixels). */
function itemsInPopups(elements: readonly { index: number; bounds?: CupRect }[], popups: readonly WindowRect[], window: DesktopWindow): number[] {
  return elements.flatMap(({ index, bounds }) => {
    if (!bounds) return [];
    const [x, y] = [bounds.x + bounds.w / 2 - window.bounds.x, bounds.y + bounds.h / 2 - window.bounds.y];
    return popups.some((popup) => x >= popup.x && x < popup.x + popup.width && y >= popup.y && y < popup.y + popup.height) ? [index] : [];
  });
}

/**
 * What a query matched that the compact text does not show, and how to see it: File Roller's "Test Integrity", asked
 * for with its menu's popover closed, read "0 shown" with no word that it was there, hidden.
 */
function unshownMatchesNote({ hidden, offscreen }: { hidden: number; offscreen: number }): string {
  const total = hidden + offscreen;
  if (total === 0) return '';
  const which = [hidden > 0 ? `${counted(hidden, 'hidden element')} (in a closed menu, popover or collapsed section)` : '', offscreen > 0 ? `${offscreen} off screen` : ''].filter(Boolean).join(' and ');
  return `the query also matched ${which}, not shown: detail "full" shows ${total === 1 ? 'it' : 'them'}, find_elements lists ${total === 1 ? 'it with its' : 'them with their'} states`;
}
