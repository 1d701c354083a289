// One debugging connection per browser, made on the first page call and kept: a browser that exits closes
// its socket, and the connection is forgotten with it. puppeteer-core is loaded only then (it takes half a
// second to load, which calls that never touch a page should not pay).
import type { Browser, Page } from 'puppeteer-core';
import type { BrowserPages, PageEndpoint } from '../../browser.js';
import type { DesktopWindow } from '../../windows.js';
import { ToolError } from '../../../errors.js';
import { findDebuggingEndpoint, isFirefoxProgram, processProgram } from './endpoint.js';
import * as scripts from './page-scripts.js';
import { PuppeteerPage } from './puppeteer-page.js';

const CONNECT_TIMEOUT_MS = 5000;
const PAGES_TIMEOUT_MS = 5000;
/** Each protocol call's limit inside puppeteer (page scripts have their own, shorter one). */
const PROTOCOL_TIMEOUT_MS = 20_000;

export interface PageFacts {
  title: string;
  visible: boolean;
  x: number;
  y: number;
  w: number;
  h: number;
  scale: number;
}

/**
 * How well a page fits a window: the window shows it (visibilityState; background tabs are hidden), the
 * browser puts the page's window where the X window is, and the window's title names the page.
 */
const VISIBLE = 4;
const PLACED = 2;
const TITLED = 1;

function fit(facts: PageFacts | undefined, window: DesktopWindow): number {
  if (!facts) return -1;
  const b = window.bounds;
  const placedAt = (perPixel: number) => [facts.x * perPixel - b.x, facts.y * perPixel - b.y, facts.w * perPixel - b.width, facts.h * perPixel - b.height].every((d) => Math.abs(d) <= 2);
  // Firefox's window pixels are CSS pixels of its zoom; Chromium's are its own (DIPs), which its zoom leaves alone.
  const placed = placedAt(facts.scale) || placedAt(windowPixelScale(facts, window));
  const titled = facts.title !== '' && window.title.includes(facts.title);
  return (facts.visible ? VISIBLE : 0) + (placed ? PLACED : 0) + (titled ? TITLED : 0);
}

/** Device pixels per pixel of the page's window, as the window's width on the X screen over the page's outerWidth. */
function windowPixelScale(facts: PageFacts, window: DesktopWindow): number {
  return facts.w > 0 ? window.bounds.width / facts.w : 0;
}

/**
 * Which page is the window's, given each page's facts (undefined for a page that did not answer): the index of
 * the best fit; undefined when no page answered. A page placed where the window is, is the window's own; when
 * none is and a page did not answer, the silent one is likely the window's (waiting on a dialog) and the best of
 * the others another window's page, never to be read or driven in its stead: 'silent'.
 */
export function windowPage(facts: readonly (PageFacts | undefined)[], window: DesktopWindow): number | 'silent' | undefined {
  let best = -1;
  let chosen: number | undefined;
  facts.forEach((candidate, i) => {
    const score = fit(candidate, window);
    if (score > best) [best, chosen] = [score, i];
  });
  if (chosen !== undefined && (best & PLACED) === 0 && facts.includes(undefined)) return 'silent';
  return chosen;
}

/** The launch_app call that starts the window's browser (or Electron app) again with a debugging port (0 picks a free one). */
export function relaunchCall(window: DesktopWindow): string {
  const program = processProgram(window.pid);
  return `launch_app {"name": "${program.split('/').pop() || window.appName}", "electron_debugging_port": 0, "creates_new_application_instance": true}`;
}

function refusal(window: DesktopWindow): ToolError {
  const firefox = isFirefoxProgram(processProgram(window.pid));
  const how = firefox
    ? 'Firefox answers page calls over WebDriver BiDi only when started with --remote-debugging-port'
    : 'a Chromium-based browser or Electron app answers page calls only when started with --remote-debugging-port (or with remote debugging allowed, which writes DevToolsActivePort in its user-data-dir)';
  return new ToolError(
    `window ${window.id} "${window.title}" (pid ${window.pid}) has no debugging endpoint: ${how}. Relaunch it with ${relaunchCall(window)} ` +
      '(0 picks a free port); get_text and query_dom still read the accessibility tree meanwhile',
    'no_debugging_endpoint',
    { pid: window.pid, window_id: window.id, browser: firefox ? 'firefox' : 'chromium' },
  );
}

export class PageConnections implements BrowserPages {
  private readonly browsers = new Map<string, Promise<Browser>>();

  async debuggingEndpoint(pid: number): Promise<PageEndpoint | undefined> {
    return findDebuggingEndpoint(pid);
  }

  async page(window: DesktopWindow): Promise<PuppeteerPage> {
    const endpoint = findDebuggingEndpoint(window.pid);
    if (!endpoint) throw refusal(window);
    const browser = await this.browser(endpoint);
    const pages = await this.pages(browser, endpoint);
    const facts = await Promise.all(pages.map((page) => this.facts(page)));
    const chosen = windowPage(facts, window);
    if (chosen === 'silent') {
      throw new ToolError(
        `the page of window ${window.id} does not answer on debugging port ${endpoint.port} (the pages that answer are other windows'); it may be waiting on a dialog`,
        'page_unreachable',
        { port: endpoint.port },
      );
    }
    if (chosen === undefined) {
      throw new ToolError(`the browser behind window ${window.id} (debugging port ${endpoint.port}) has no page that answers; it may still be starting, or a page may be waiting on a dialog`, 'page_unreachable', {
        port: endpoint.port,
      });
    }
    return new PuppeteerPage(pages[chosen]!, endpoint, await browser.version().catch(() => ''), windowPixelScale(facts[chosen]!, window));
  }

  /**
   * The browser's pages, within a time limit: puppeteer attaches to each page it has not seen, and a page whose
   * renderer waits on a dialog (alert, "leave site?") never answers that, for the whole protocol timeout.
   */
  private async pages(browser: Browser, endpoint: PageEndpoint): Promise<Page[]> {
    let timer: NodeJS.Timeout | undefined;
    const listing = browser.pages();
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ToolError(`the browser on debugging port ${endpoint.port} did not list its pages within ${PAGES_TIMEOUT_MS} ms (a page may be waiting on a dialog)`, 'page_unreachable', { port: endpoint.port })), PAGES_TIMEOUT_MS);
    });
    listing.catch(() => undefined);
    try {
      return await Promise.race([listing, late]);
    } catch (error) {
      if (error instanceof ToolError) throw error;
      throw new ToolError(`the browser on debugging port ${endpoint.port} did not list its pages: ${error instanceof Error ? error.message : String(error)}`, 'page_unreachable', { port: endpoint.port });
    } finally {
      clearTimeout(timer);
    }
  }

  /** The facts that pick a page, or undefined for a page that does not answer in time (a crashed or busy tab). */
  private async facts(page: Page): Promise<PageFacts | undefined> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), 3000)));
    try {
      return await Promise.race([page.evaluate(scripts.call(scripts.pageFacts)) as Promise<PageFacts>, late]);
    } catch {
      return undefined;
    } finally {
      clearTimeout(timer);
    }
  }

  private browser(endpoint: PageEndpoint): Promise<Browser> {
    const key = `${endpoint.protocol}:${endpoint.port}`;
    let connection = this.browsers.get(key);
    if (!connection) {
      connection = this.connect(endpoint);
      this.browsers.set(key, connection);
      connection.then(
        (browser) => browser.once('disconnected', () => this.browsers.get(key) === connection && this.browsers.delete(key)),
        () => this.browsers.delete(key),
      );
    }
    return connection;
  }

  private async connect(endpoint: PageEndpoint): Promise<Browser> {
    const { default: puppeteer } = await import('puppeteer-core');
    const options =
      endpoint.protocol === 'cdp'
        ? { browserURL: `http://127.0.0.1:${endpoint.port}` }
        : { browserWSEndpoint: `ws://127.0.0.1:${endpoint.port}/session`, protocol: 'webDriverBiDi' as const };
    const connecting = puppeteer.connect({ ...options, defaultViewport: null, protocolTimeout: PROTOCOL_TIMEOUT_MS });
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${CONNECT_TIMEOUT_MS} ms`)), CONNECT_TIMEOUT_MS);
    });
    try {
      return await Promise.race([connecting, late]);
    } catch (error) {
      // A connection that arrives after the deadline is closed, never left open.
      void connecting.then((browser) => browser.disconnect()).catch(() => {});
      const message = error instanceof Error ? error.message : String(error);
      const busy = /session|maximum/i.test(message) && endpoint.protocol === 'webdriver-bidi' ? ' (Firefox takes one WebDriver BiDi session at a time: another client may hold it)' : '';
      throw new ToolError(`the debugging endpoint on port ${endpoint.port} (${endpoint.foundIn}) did not answer: ${message}${busy}`, 'page_unreachable', { port: endpoint.port });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes every connection (the driver's context ends); the browsers keep running. */
  close(): void {
    for (const connection of this.browsers.values()) void connection.then((browser) => browser.disconnect()).catch(() => {});
    this.browsers.clear();
  }
}
