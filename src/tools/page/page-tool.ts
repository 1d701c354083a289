import { setTimeout as sleep } from 'node:timers/promises';
import { statSync } from 'node:fs';
import { basename, isAbsolute } from 'node:path';
import { z } from 'zod';
import type { BrowserPage, PageChanges, PageElement, PageNavigation } from '../../platform/browser.js';
import type { DesktopWindow } from '../../platform/windows.js';
import type { ToolContext } from '../context.js';
import { observeAction } from '../input/action-diff.js';
import { actionOptions, actionResult, type ActionResult } from '../input/schemas.js';
import { windowOfCall } from '../perception/window-records.js';
import { roundRect, toScreenshot } from '../perception/screenshot-pixels.js';
import { boundsResult, pidArgument, windowIdArgument } from '../schemas.js';
import { defineTool, type ToolOutput } from '../tool.js';
import { ToolError } from '../../errors.js';
import { accessibleQuery, accessibleText } from './accessible-page.js';
import { withBrowserDialog } from './browser-dialog.js';
import { pageInTree } from './page-in-tree.js';

const ACTIONS = ['execute_javascript', 'get_text', 'query_dom', 'click_element', 'insert_text', 'upload_files', 'navigate'] as const;
type PageAction = (typeof ACTIONS)[number];

/** Text longer than this is cut in the result (the rest is rarely what an agent reads next). */
const MAX_TEXT_CHARS = 100_000;
/** How long the page's own handlers get after a click or insert before its changes are read. */
const SETTLE_MS = 150;
const NAVIGATION_TIMEOUT_MS = 30_000;
/** How long navigate waits for the loaded page's document in the window's accessibility tree. */
const PAGE_IN_TREE_MS = 5000;

const elementResult = z.object({
  tag: z.string(),
  attributes: z.record(z.string(), z.string().nullable()),
  text: z.string(),
  /** In the window's screenshot pixels (what get_window_state's screenshot shows; click x/y take them). */
  bounds: boundsResult.optional(),
  /** On the screen, in screen pixels (as CUP element bounds are). */
  screen_bounds: boundsResult.optional(),
  in_viewport: z.boolean(),
});
type ElementResult = z.infer<typeof elementResult>;

/** The window the call names: window_id, else pid's front-most window, else the front-most window of a browser with a debugging port. */
async function targetWindow(context: ToolContext, args: { pid?: number; window_id?: number }): Promise<DesktopWindow> {
  if (args.window_id !== undefined || args.pid !== undefined) return windowOfCall(context, args, 'page', 'front-most');
  const windows = (await context.desktop.windows()).filter((window) => window.isOnScreen).sort((a, b) => b.zIndex - a.zIndex);
  for (const window of windows) if (await context.desktop.debuggingEndpoint(window.pid)) return window;
  throw new ToolError('page needs pid or window_id (no on-screen browser window has a debugging port to default to); call list_windows', 'missing_target');
}

function required<T>(value: T | undefined, name: string, action: PageAction): T {
  if (value === undefined || value === '') throw new ToolError(`page ${action} needs ${name}`, 'invalid_arguments', { field: name });
  return value;
}

/** The selector of a call: `selector` or `css_selector` (the seed names it differently per action; both are taken). */
function selectorOf(args: { selector?: string; css_selector?: string }, action: PageAction): string {
  if (args.selector !== undefined && args.css_selector !== undefined && args.selector !== args.css_selector) {
    throw new ToolError(`give selector or css_selector, not two different ones ("${args.selector}", "${args.css_selector}")`, 'conflicting_target');
  }
  return required(args.selector ?? args.css_selector, 'selector (a CSS selector)', action);
}

function elementRecord(context: ToolContext, window: DesktopWindow, element: PageElement): ElementResult {
  return {
    tag: element.tag,
    attributes: element.attributes,
    text: element.text,
    ...(element.bounds ? { bounds: toScreenshot(context, window, element.bounds), screen_bounds: roundRect(element.bounds) } : {}),
    in_viewport: element.inViewport,
  };
}

function elementLine(element: ElementResult, i: number): string {
  const attributes = Object.entries(element.attributes).map(([name, value]) => (value === null ? '' : ` ${name}=${JSON.stringify(value)}`)).join('');
  const box = element.bounds ? ` ${element.bounds.x},${element.bounds.y} ${element.bounds.w}x${element.bounds.h}` : ' (no box)';
  return `${i + 1}. <${element.tag}${attributes}>${box}${element.in_viewport ? '' : ' (outside the view)'}${element.text ? ` ${JSON.stringify(element.text)}` : ''}`;
}

/** What the page did during an action, as evidence lines, and whether anything at all was seen. */
function pageEvidence(changes: PageChanges): { evidence: string[]; changed: boolean } {
  // Focus leaving for the page's body is what a click on anything that takes no focus does: it proves nothing.
  const focusMoved = changes.focusAfter !== changes.focusBefore && changes.focusAfter !== 'body';
  const evidence = [
    ...(changes.urlAfter !== changes.urlBefore ? [`the page navigated from ${changes.urlBefore} to ${changes.urlAfter}`] : []),
    ...(changes.mutations > 0 ? [`the page changed its DOM (${changes.mutations} mutation record${changes.mutations === 1 ? '' : 's'})`] : []),
    ...(changes.controlsChanged ? ['a form control\'s value or checked state changed'] : []),
    ...(focusMoved ? [`the focus moved from ${changes.focusBefore} to ${changes.focusAfter}`] : []),
  ];
  const background = changes.backgroundMutations > 0 ? [`not counted: ${changes.backgroundMutations} change${changes.backgroundMutations === 1 ? '' : 's'} to parts of the page it was already changing before the action`] : [];
  return { evidence: [...evidence, ...background], changed: evidence.length > 0 };
}

export const pageTool = defineTool({
  name: 'page',
  capability: 'browser',
  title: 'Browser page',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description:
    'Work inside the web page a browser window shows (Chromium, Chrome, Brave, Edge and Electron apps over the DevTools protocol; Firefox over ' +
    'WebDriver BiDi), found from the browser\'s --remote-debugging-port (or DevToolsActivePort in its profile): start it with launch_app and ' +
    'electron_debugging_port (0 picks a port). Actions: execute_javascript (javascript: an expression, or a body with return; the value ' +
    'JSON-serialised in result), get_text (the visible text), query_dom (css_selector, attributes: matching elements with tag, attributes, ' +
    'text and bounds in the window\'s screenshot pixels), click_element (selector: scrolled into view and clicked through the page, in the ' +
    'background; the agent cursor moves to its centre; the result says what changed), insert_text (selector, text: typed at the end of a ' +
    'field), upload_files (selector, files: absolute paths of files on this machine, set on an <input type=file> as its file picker ' +
    'would; no dialog opens), navigate (url). Without a debugging port get_text and query_dom (tag selectors) read the accessibility tree, and the other ' +
    'actions are refused with no_debugging_endpoint. The page is the window\'s shown tab.',
  input: z.strictObject({
    action: z.enum(ACTIONS).describe('What to do (see the description).'),
    pid: pidArgument.optional(),
    window_id: windowIdArgument.optional(),
    javascript: z.string().optional().describe('execute_javascript: the script. Its value (awaited when a promise) must be JSON-serialisable to come back whole.'),
    css_selector: z.string().optional().describe('query_dom (and the other element actions): a CSS selector.'),
    attributes: z.array(z.string()).optional().describe('query_dom: the attributes to report for each element (e.g. ["href", "id"]).'),
    selector: z.string().optional().describe('click_element, insert_text (and query_dom): a CSS selector; the first match is acted on.'),
    text: z.string().optional().describe('insert_text: the text to insert.'),
    files: z.array(z.string()).max(100).optional().describe('upload_files: absolute paths of the files to set on the file input (several for <input multiple>).'),
    url: z.string().optional().describe('navigate: the URL to load in the page.'),
    max_results: z.number().int().min(1).max(1000).optional().describe('query_dom: at most this many elements (default 50); count is all matches.'),
    ...actionOptions,
  }),
  output: z
    .object({
      action: z.enum(ACTIONS),
      pid: z.number(),
      window_id: z.number(),
      via: z.enum(['cdp', 'webdriver-bidi', 'accessibility']).describe('How the page was reached: its debugging protocol, or the accessibility tree (no debugging port).'),
      debugging_port: z.number().optional(),
      url: z.string().optional(),
      result: z.string().optional().describe('execute_javascript: the value, JSON-serialised ("undefined" when there is none).'),
      result_type: z.string().optional().describe('execute_javascript: the value\'s type (typeof; "array" and "null" told apart).'),
      text: z.string().optional(),
      text_truncated: z.boolean().optional(),
      count: z.number().optional().describe('query_dom: how many elements matched (elements holds at most max_results).'),
      elements: z.array(elementResult).optional(),
      element: elementResult.optional().describe('click_element, insert_text: the element acted on, after it was scrolled into view.'),
      value: z.string().optional().describe('insert_text: the field\'s value after.'),
      files: z.array(z.string()).optional().describe('upload_files: the names of the files the input holds after.'),
      title: z.string().optional(),
      status: z.number().optional().describe('navigate: the HTTP status of the page loaded (absent for file: URLs).'),
    })
    .extend(actionResult.partial().shape),
  async handle(args, context) {
    const window = await targetWindow(context, args);
    // A dialog of the browser's holds the page: a call that failed for it says so, and how to answer it.
    try {
      const base = { action: args.action, pid: window.pid, window_id: window.id };
      if (args.action === 'execute_javascript') required(args.javascript, 'javascript', args.action);
      if (args.action === 'navigate') required(args.url, 'url', args.action);
      if (args.action === 'insert_text') required(args.text, 'text', args.action);
      if (args.action === 'upload_files') requireFiles(args.files);
      const selector = ['query_dom', 'click_element', 'insert_text', 'upload_files'].includes(args.action) ? selectorOf(args, args.action) : '';
      let page: BrowserPage;
      try {
        page = await context.desktop.page(window);
      } catch (error) {
        if (!(error instanceof ToolError) || error.code !== 'no_debugging_endpoint') throw error;
        if (args.action === 'get_text') {
          const text = await accessibleText(context, window, error);
          return {
            summary: `✅ page get_text: ${text.length} characters of "${window.title}" from the accessibility tree (no debugging port)`,
            body: text,
            structured: { ...base, via: 'accessibility' as const, text },
          };
        }
        if (args.action === 'query_dom') {
          const found = await accessibleQuery(context, window, selector, error);
          const elements = found.slice(0, args.max_results ?? 50).map(({ tag, node }) => ({
            tag,
            attributes: {},
            text: node.value ?? node.name,
            ...(node.bounds ? { bounds: toScreenshot(context, window, node.bounds), screen_bounds: roundRect(node.bounds) } : {}),
            in_viewport: node.bounds !== undefined && !(node.states ?? []).includes('offscreen'),
          }));
          return {
            summary: `✅ page query_dom: ${found.length} element${found.length === 1 ? '' : 's'} match ${JSON.stringify(selector)} in the accessibility tree (no debugging port: no attributes)`,
            body: elements.map(elementLine).join('\n') || undefined,
            structured: { ...base, via: 'accessibility' as const, count: found.length, elements },
          };
        }
        throw error;
      }
      const reached = { ...base, via: page.endpoint.protocol, debugging_port: page.endpoint.port };
      switch (args.action) {
        case 'execute_javascript': {
          const { value, type } = await page.evaluate(args.javascript!);
          const result = value === undefined ? 'undefined' : JSON.stringify(value);
          return {
            summary: `✅ page execute_javascript: ${type} in "${await page.title()}"`,
            body: result.length > 4000 ? `${result.slice(0, 4000)}… (${result.length} characters in structuredContent.result)` : result,
            structured: { ...reached, url: page.url(), result, result_type: type },
          };
        }
        case 'get_text': {
          const whole = await page.visibleText();
          const text = whole.length > MAX_TEXT_CHARS ? whole.slice(0, MAX_TEXT_CHARS) : whole;
          return {
            summary: `✅ page get_text: ${whole.length} characters of "${await page.title()}"${text.length < whole.length ? ` (the first ${MAX_TEXT_CHARS} shown)` : ''}`,
            body: text,
            structured: { ...reached, url: page.url(), text, ...(text.length < whole.length ? { text_truncated: true } : {}) },
          };
        }
        case 'query_dom': {
          const { total, elements } = await page.query(selector, args.attributes ?? [], args.max_results ?? 50);
          const records = elements.map((element) => elementRecord(context, window, element));
          return {
            summary: `✅ page query_dom: ${total} element${total === 1 ? '' : 's'} match ${JSON.stringify(selector)}${records.length < total ? ` (the first ${records.length} shown)` : ''}; bounds in window ${window.id}'s screenshot pixels`,
            body: records.map(elementLine).join('\n') || undefined,
            structured: { ...reached, url: page.url(), count: total, elements: records },
          };
        }
        case 'click_element':
        case 'insert_text':
          return elementAction(context, window, page, args.action, selector, args.text ?? '', args, reached);
        case 'upload_files':
          return uploadAction(context, window, page, selector, args.files!, args, reached);
        case 'navigate': {
          let loaded: PageNavigation | undefined;
          // A new page changes the whole tree: the diff is read only when asked for.
          const output = await observeAction(context, 'page navigate', { diff: args.diff ?? false, throughPage: true }, window, async () => {
            loaded = await page.navigate(args.url!, NAVIGATION_TIMEOUT_MS);
            const inTree = await pageInTree(context, window, Date.now() + PAGE_IN_TREE_MS, loaded.title);
            return {
              path: page.endpoint.protocol,
              delivery_mode: 'background',
              effect: 'confirmed',
              verified: true,
              evidence: [
                `the page loaded ${loaded.url}${loaded.status ? ` (HTTP ${loaded.status})` : ''}, titled "${loaded.title}"`,
                inTree ? 'the page is in the accessibility tree' : `the page had not reached the accessibility tree within ${PAGE_IN_TREE_MS / 1000} s: read the window again before acting on it`,
              ],
            };
          });
          const { url, title, status } = loaded!;
          return withPageFields(output, { ...reached, url, title, ...(status ? { status } : {}) });
        }
      }
    } catch (error) {
      throw await withBrowserDialog(context, window, error);
    }
  },
});

type Reached = { action: PageAction; pid: number; window_id: number; via: 'cdp' | 'webdriver-bidi'; debugging_port: number };

function withPageFields<T extends Record<string, unknown>>(output: ToolOutput<ActionResult>, fields: T): ToolOutput<ActionResult & T> {
  return { ...output, structured: { ...output.structured, ...fields } };
}

/** upload_files' paths: absolute, and files that exist (the browser would take a missing one silently, or fail without saying which). */
function requireFiles(files: readonly string[] | undefined): void {
  if (!files || files.length === 0) throw new ToolError('upload_files needs files: absolute paths of the files to set on the file input', 'invalid_arguments');
  for (const file of files) {
    if (!isAbsolute(file)) throw new ToolError(`upload_files takes absolute paths; "${file}" is relative`, 'invalid_arguments');
    if (!statSync(file, { throwIfNoEntry: false })?.isFile()) throw new ToolError(`upload_files: "${file}" is not a file on this machine`, 'invalid_arguments');
  }
}

/**
 * upload_files: the file input's files are set through the debugging connection, between two readings of the
 * window (the diff); the names the input then holds are the read-back, and the page's own changes the evidence.
 */
async function uploadAction(context: ToolContext, window: DesktopWindow, page: BrowserPage, selector: string, files: readonly string[], options: { diff?: boolean }, reached: Reached) {
  let held: string[] = [];
  const wanted = files.map((file) => basename(file));
  const watch = await page.watchChanges();
  let stopped: Promise<PageChanges> | undefined;
  const stop = () => (stopped ??= watch.stop());
  try {
    const output = await observeAction(context, 'page upload_files', { ...options, throughPage: true }, window, async () => {
      await watch.begin();
      held = (await page.uploadFiles(selector, files)).files;
      await sleep(SETTLE_MS);
      const seen = pageEvidence(await stop());
      const taken = held.length === wanted.length && held.every((name, i) => name === wanted[i]);
      return {
        path: page.endpoint.protocol,
        delivery_mode: 'background',
        effect: taken ? 'confirmed' : 'suspected_noop',
        verified: taken,
        evidence: [`the file input holds ${held.length === 0 ? 'no file' : held.map((name) => JSON.stringify(name)).join(', ')}`, ...seen.evidence],
      };
    });
    return withPageFields(output, { ...reached, url: page.url(), files: held });
  } finally {
    await stop().catch(() => undefined);
  }
}

/**
 * click_element and insert_text: the element is scrolled to the middle of the view, the agent cursor goes to
 * its centre, and the action runs between two readings of the window (the diff) while the page's own changes
 * are recorded: those are the evidence.
 */
async function elementAction(
  context: ToolContext,
  window: DesktopWindow,
  page: BrowserPage,
  action: 'click_element' | 'insert_text',
  selector: string,
  text: string,
  options: { diff?: boolean },
  reached: Reached,
) {
  const element = await page.scrollIntoView(selector);
  if (!element.bounds || element.bounds.w <= 0 || element.bounds.h <= 0) {
    throw new ToolError(`the <${element.tag}> that ${JSON.stringify(selector)} matches has no box on the page (hidden or empty)`, 'element_not_visible');
  }
  const box = element.bounds;
  // What the page changes by itself is learnt while the cursor moves and the window is read before the action.
  const watch = await page.watchChanges();
  const watching = Date.now();
  let stopped: Promise<PageChanges> | undefined;
  const stop = () => (stopped ??= watch.stop());
  let value: string | undefined;
  try {
    await context.desktop.moveAgentCursor(context.session, { x: Math.round(box.x + box.w / 2), y: Math.round(box.y + box.h / 2) });
    const output = await observeAction(context, `page ${action}`, { ...options, throughPage: true }, window, async () => {
      await sleep(Math.max(0, SETTLE_MS - (Date.now() - watching)));
      await watch.begin();
      if (action === 'click_element') await page.click(selector);
      else value = (await page.insertText(selector, text)).value;
      await sleep(SETTLE_MS);
      const seen = pageEvidence(await stop());
      const inserted = value !== undefined && value.endsWith(text);
      const evidence = [...(value !== undefined ? [`the field's value is now ${JSON.stringify(value.length > 200 ? `…${value.slice(-200)}` : value)}`] : []), ...seen.evidence];
      const confirmed = action === 'insert_text' ? inserted : seen.changed;
      // A click that changed nothing may have gone to what lies over the element: the page says what that is.
      const cover = action === 'click_element' && !confirmed ? await page.coverOf(selector).catch(() => undefined) : undefined;
      return {
        path: page.endpoint.protocol,
        delivery_mode: 'background',
        effect: confirmed ? 'confirmed' : 'suspected_noop',
        verified: confirmed,
        evidence: confirmed
          ? evidence
          : [
              ...evidence,
              action === 'click_element' ? 'the page did not change its DOM, a form control, its URL or the focus' : 'the field does not end with the text',
              ...(cover ? [`<${cover}> lies over the element's centre and took the click: close or dismiss it first (a banner, a dialog, an overlay), or act on the element through the accessibility tree`] : []),
            ],
      };
    });
    return withPageFields(output, { ...reached, url: page.url(), element: elementRecord(context, window, element), ...(value !== undefined ? { value } : {}) });
  } finally {
    // A call that failed before its report still takes its observer out of the page.
    await stop().catch(() => undefined);
  }
}
