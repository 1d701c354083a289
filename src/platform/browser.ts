// Browser pages as the page tool sees them: the page a browser window shows, reached through the browser's
// debugging endpoint (the Chrome DevTools Protocol, or WebDriver BiDi for Firefox). A backend finds the
// endpoint and keeps the connection; the tool maps results to text and screenshot pixels.
import type { CupRect } from '../cup/types.js';
import type { DesktopWindow } from './windows.js';

export type PageProtocol = 'cdp' | 'webdriver-bidi';

/** Where a browser process answers its debugging protocol, and how that was found out. */
export interface PageEndpoint {
  protocol: PageProtocol;
  port: number;
  /** Where the port was read, e.g. "--remote-debugging-port in /proc/812/cmdline". */
  foundIn: string;
}

/** One element of the page, as query_dom reports it. */
export interface PageElement {
  /** Lower-case tag name. */
  tag: string;
  /** The requested attributes; null for an attribute the element lacks. */
  attributes: Record<string, string | null>;
  /** Its rendered text (innerText), cut to a few hundred characters. */
  text: string;
  /** Its box on the screen, in screen pixels; absent when it has no box (display: none). */
  bounds?: CupRect;
  /** Some of its box lies inside the page's visible part. */
  inViewport: boolean;
}

/** What the page did while an action ran: its own DOM changes, a navigation, the focus moving. */
export interface PageChanges {
  mutations: number;
  /** Changes to nodes the page was already changing before the action (a clock, a ticker): not the action's. */
  backgroundMutations: number;
  urlBefore: string;
  urlAfter: string;
  /** The focused element before and after, described as "tag#id" or "tag.class". */
  focusBefore: string;
  focusAfter: string;
  /** A form control's value or checked state differs (these are no DOM mutations). */
  controlsChanged: boolean;
}

export interface PageWatch {
  begin(): Promise<void>;
  stop(): Promise<PageChanges>;
}

export interface PageNavigation {
  url: string;
  title: string;
  /** The HTTP status of the main document, when the protocol reports one (file: URLs have none). */
  status?: number;
}

/** The page shown in one browser window; every call has a timeout, and page errors are ToolErrors with their codes. */
export interface BrowserPage {
  readonly endpoint: PageEndpoint;
  /** The browser's name and version as it reports it, e.g. "Chrome/150.0.7871.100" or "firefox 140.12.0esr". */
  readonly product: string;
  url(): string;
  title(): Promise<string>;
  /** Runs an expression, or a function body with return statements; throws javascript_error with the page's message. */
  evaluate(source: string): Promise<{ value: unknown; type: string }>;
  /** The visible text of the page (what innerText renders). */
  visibleText(): Promise<string>;
  /** The elements a CSS selector matches (at most limit of them) and how many matched; throws invalid_selector. */
  query(selector: string, attributes: readonly string[], limit: number): Promise<{ total: number; elements: PageElement[] }>;
  /** Scrolls the first match into the middle of the view and returns it as it then is; throws page_element_not_found. */
  scrollIntoView(selector: string): Promise<PageElement>;
  /**
   * Starts watching the page: until begin() the page's own activity is learnt (which nodes it keeps changing);
   * from begin() to stop() changes count as the action's, and stop() reports them. Every watch must be stopped.
   */
  watchChanges(): Promise<PageWatch>;
  /** Clicks the first match at its centre through the page's input (trusted events), without the window's focus. */
  click(selector: string): Promise<void>;
  /** The element over the first match's centre (as "div#veil"), when another element covers it there. */
  coverOf(selector: string): Promise<string | undefined>;
  /** Focuses the first match and inserts text at its end as typing would (input events fire); returns its value after. */
  insertText(selector: string, text: string): Promise<{ value: string }>;
  /** Sets the files of the file input the selector matches (as a user's file picker does: input and change fire); the names it then holds. */
  uploadFiles(selector: string, files: readonly string[]): Promise<{ files: string[] }>;
  navigate(url: string, timeoutMs: number): Promise<PageNavigation>;
}

export interface BrowserPages {
  /** The debugging endpoint of the browser that owns this process, if it was started with one. */
  debuggingEndpoint(pid: number): Promise<PageEndpoint | undefined>;
  /**
   * The page the window shows (its active tab), over one connection per browser that is closed when the
   * browser exits. Throws no_debugging_endpoint (with how to relaunch) or page_unreachable.
   */
  page(window: DesktopWindow): Promise<BrowserPage>;
}
