// One browser page driven through puppeteer-core, the same code for the DevTools protocol (Chromium,
// Chrome, Brave, Edge, Electron) and WebDriver BiDi (Firefox): puppeteer hides which one is spoken.
import { randomBytes } from 'node:crypto';
import { Script } from 'node:vm';
import type { Dialog, KeyInput, Page } from 'puppeteer-core';
import type { BrowserPage, PageElement, PageEndpoint, PageNavigation, PageWatch } from '../../browser.js';
import type { CupRect } from '../../../cup/types.js';
import { ToolError } from '../../../errors.js';
import { focusThroughCdp, insertThroughCdp, type ElementFocus } from './cdp-field.js';
import type { DomCombination } from './dom-keys.js';
import * as scripts from './page-scripts.js';

/** A page script that has not answered by then (a busy page, an endless loop) is given up on. */
const SCRIPT_TIMEOUT_MS = 10_000;

/** Whether source text compiles as a script (compiled only, never run, in this process). */
function compiles(source: string): boolean {
  try {
    new Script(source);
    return true;
  } catch {
    return false;
  }
}

/**
 * The expression to evaluate for what the caller wrote: an expression or statements as they are (the last
 * statement's value is the result, as in a console), a body with `return` (or top-level await) as the body
 * of an async function.
 */
export function scriptExpression(source: string): string {
  if (compiles(source)) return source;
  const body = `(async () => {\n${source}\n})()`;
  if (compiles(body)) return body;
  try {
    new Script(source);
  } catch (error) {
    throw new ToolError(`the JavaScript does not parse: ${(error as Error).message}`, 'javascript_error', { phase: 'parse' });
  }
  return source;
}

/** The browser's message for an exception, without puppeteer's wrapping. */
function pageMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Errors of the connection itself (the browser went away, or a call timed out), not of the page's script. */
function isConnectionError(error: unknown): boolean {
  const name = error instanceof Error ? error.name : '';
  return name === 'ProtocolError' || name === 'TargetCloseError' || name === 'TimeoutError' || /Target closed|Session closed|Connection closed/i.test(pageMessage(error));
}

/** A text field as the accessibility tree has it, to be found in the page. */
export interface AccessibleField {
  /** Its box on the screen, in screen pixels (AT-SPI's extents). */
  bounds: CupRect;
  name: string;
  /** Its text now. */
  text: string;
  /** A single-line field, where a newline typed is a Return press. */
  singleLine?: boolean;
}

/** The text went into the page's node for the field (described as "input#name"), or why it was not found. */
/** `returned`: the field's value in the page right before the last Return press and right after it, when there was one. */
export type FieldInsertion = { inserted: true; node: string; value: string; returned?: { before: string; after: string } } | { inserted: false; reason: string };

/** Where the viewport lies on the screen and its size and scroll, as page-scripts' viewport reports them. */
type ViewportPlace = { x: number; y: number; scale: number; width: number; height: number; scrollX: number; scrollY: number };

/** A page's scroll box scrolled (its offset before and after, and its end, in CSS pixels, as "div#list"), or why not. */
export type BoxScroll = { scrolled: true; node: string; before: number; after: number; end: number } | { scrolled: false; reason: string };

export class PuppeteerPage implements BrowserPage {
  constructor(
    private readonly page: Page,
    readonly endpoint: PageEndpoint,
    readonly product: string,
    /** Device pixels per the browser's own window pixel (see page-scripts' viewportOrigin); 0 when unknown. */
    private readonly dip = 0,
  ) {}

  url(): string {
    return this.page.url();
  }

  title(): Promise<string> {
    return this.run('read the title', () => this.page.title());
  }

  /** Runs a call into the page with a time limit; connection failures become page_unreachable. */
  private async run<T>(what: string, call: () => Promise<T>, timeoutMs = SCRIPT_TIMEOUT_MS): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ToolError(`the page did not ${what} within ${timeoutMs} ms (it may be busy, or waiting on a dialog)`, 'timeout')), timeoutMs);
    });
    try {
      return await Promise.race([call(), timeout]);
    } catch (error) {
      if (error instanceof ToolError) throw error;
      if (isConnectionError(error)) throw new ToolError(`the browser's debugging connection failed to ${what}: ${pageMessage(error)}`, 'page_unreachable');
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** A page script of ours; the selector errors it raises are the caller's (invalid_selector). */
  private async script<T>(what: string, expression: string): Promise<T> {
    try {
      return await this.run(what, () => this.page.evaluate(expression) as Promise<T>);
    } catch (error) {
      if (error instanceof ToolError) throw error;
      const message = pageMessage(error);
      if (/not a valid selector/i.test(message)) throw new ToolError(`the CSS selector does not parse: ${message}`, 'invalid_selector');
      throw new ToolError(`the page script to ${what} failed: ${message}`, 'internal_error');
    }
  }

  async evaluate(source: string): Promise<{ value: unknown; type: string }> {
    const expression = scriptExpression(source);
    let value: unknown;
    try {
      value = await this.run('finish the script', () => this.page.evaluate(expression));
    } catch (error) {
      if (error instanceof ToolError) throw error;
      throw new ToolError(`the page's JavaScript threw: ${pageMessage(error)}`, 'javascript_error');
    }
    return { value, type: value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value };
  }

  visibleText(): Promise<string> {
    return this.script('read its text', scripts.call(scripts.visibleText));
  }

  query(selector: string, attributes: readonly string[], limit: number): Promise<{ total: number; elements: PageElement[] }> {
    return this.script('query the DOM', scripts.call(scripts.query, selector, attributes, limit, this.dip));
  }

  async scrollIntoView(selector: string): Promise<PageElement> {
    const element = await this.script<PageElement | null>('scroll the element into view', scripts.call(scripts.scrollIntoView, selector, this.dip));
    if (!element) throw new ToolError(`no element of the page matches the CSS selector ${JSON.stringify(selector)}; query_dom lists what does`, 'page_element_not_found');
    return element;
  }

  async watchChanges(): Promise<PageWatch> {
    const key = `__cupDriverWatch${randomBytes(6).toString('hex')}`;
    await this.script<void>('watch for changes', scripts.call(scripts.startWatch, key));
    let before: { url: string; focus: string; controls: string } | undefined;
    return {
      begin: async () => {
        before = await this.script('watch for changes', scripts.call(scripts.beginWatch, key));
      },
      stop: async () => {
        const start = before ?? { url: this.page.url(), focus: 'unknown', controls: '' };
        // A navigation replaced the document (and the watch with it): what is known then is the new URL.
        const after = await this.script<{ mutations: number; background: number; url: string; focus: string; controls: string }>(
          'report its changes',
          scripts.call(scripts.stopWatch, key),
        ).catch(() => ({ mutations: 0, background: 0, url: this.page.url(), focus: 'unknown', controls: start.controls }));
        return {
          mutations: after.mutations,
          backgroundMutations: after.background,
          urlBefore: start.url,
          urlAfter: after.url,
          focusBefore: start.focus,
          focusAfter: after.focus,
          controlsChanged: after.controls !== start.controls,
        };
      },
    };
  }

  async click(selector: string): Promise<void> {
    await this.run('take the click', () => this.page.click(selector));
  }

  async coverOf(selector: string): Promise<string | undefined> {
    return (await this.script<string | null | undefined>('tell what lies over the element', scripts.call(scripts.coverAt, selector))) ?? undefined;
  }

  async insertText(selector: string, text: string): Promise<{ value: string }> {
    const result = await this.script<{ missing?: true; refused?: 'read_only' | 'not_settable'; tag?: string; value?: string }>(
      'insert the text',
      scripts.call(scripts.insertText, selector, text),
    );
    if (result.missing) throw new ToolError(`no element of the page matches the CSS selector ${JSON.stringify(selector)}; query_dom lists what does`, 'page_element_not_found');
    if (result.refused === 'read_only') throw new ToolError(`the <${result.tag}> that ${JSON.stringify(selector)} matches is read-only or disabled`, 'read_only');
    if (result.refused) throw new ToolError(`the <${result.tag}> that ${JSON.stringify(selector)} matches takes no text (not an input, textarea or contenteditable element)`, 'not_settable');
    return { value: result.value ?? '' };
  }

  async uploadFiles(selector: string, files: readonly string[]): Promise<{ files: string[] }> {
    const handle = await this.run('find the element', () => this.page.$(selector)).catch((error: unknown) => {
      if (error instanceof ToolError) throw error;
      throw new ToolError(`the CSS selector does not parse: ${pageMessage(error)}`, 'invalid_selector');
    });
    if (!handle) throw new ToolError(`no element of the page matches the CSS selector ${JSON.stringify(selector)}; query_dom lists what does`, 'page_element_not_found');
    try {
      type Input = { localName: string; type?: string; disabled?: boolean; files?: ArrayLike<{ name: string }> | null };
      const kind = await this.run('tell what the element is', () =>
        handle.evaluate((element: unknown) => ({ tag: (element as Input).localName, type: String((element as Input).type ?? ''), disabled: (element as Input).disabled === true })),
      );
      const described = `<${kind.tag}${kind.type ? ` type=${kind.type}` : ''}>`;
      if (kind.tag !== 'input' || kind.type !== 'file') {
        throw new ToolError(`the ${described} that ${JSON.stringify(selector)} matches is not a file input; upload_files sets the files of an <input type=file>`, 'not_settable');
      }
      if (kind.disabled) throw new ToolError(`the ${described} that ${JSON.stringify(selector)} matches is disabled`, 'read_only');
      // Puppeteer sets them as the browser's file picker would (CDP DOM.setFileInputFiles, BiDi input.setFiles).
      const input = handle as unknown as { uploadFile(...paths: string[]): Promise<void> };
      await this.run('take the files', () => input.uploadFile(...files));
      return { files: await this.run('read the files back', () => handle.evaluate((element: unknown) => Array.from((element as Input).files ?? [], (file) => file.name))) };
    } finally {
      await handle.dispose().catch(() => {});
    }
  }

  /** A box on the screen (AT-SPI's extents) in the viewport's CSS pixels, with its centre; `outside` says why the centre is off the visible part. */
  private async inViewport(bounds: CupRect): Promise<{ view: ViewportPlace; box: CupRect; point: { x: number; y: number }; outside?: string }> {
    const view = await this.script<ViewportPlace>('tell where its viewport is', scripts.call(scripts.viewport, this.dip));
    const box = { x: (bounds.x - view.x) / view.scale, y: (bounds.y - view.y) / view.scale, w: bounds.w / view.scale, h: bounds.h / view.scale };
    const point = { x: box.x + box.w / 2, y: box.y + box.h / 2 };
    const inside = point.x >= 0 && point.y >= 0 && point.x < view.width && point.y < view.height;
    return { view, box, point, ...(inside ? {} : { outside: `its centre lies outside the page's visible part (at ${Math.round(point.x)},${Math.round(point.y)} of ${view.width}x${view.height})` }) };
  }

  /**
   * Scrolls the page's own scroll box whose box on the screen is `bounds` (a box with overflow auto or scroll,
   * which neither browser marks scrollable to accessibility) by dx, dy screen pixels; its scroll offset before
   * and after, in CSS pixels, or why it was not found.
   */
  async scrollBox(bounds: CupRect, dx: number, dy: number): Promise<BoxScroll> {
    const { view, box, point, outside } = await this.inViewport(bounds);
    if (outside) return { scrolled: false, reason: outside };
    return this.script('scroll the box', scripts.call(scripts.scrollBoxAt, point, box, dx / view.scale, dy / view.scale));
  }

  /**
   * Types into the page's node that is the accessible field: the node at the field's centre, mapped from the
   * screen to the viewport as query_dom maps the other way, identified by Chromium's own accessibility node
   * (CDP) or by its box and label or text (BiDi, which has no accessibility tree), focused inside the page
   * only, and given the text as typing gives it (at the end, or over the whole text with replace).
   */
  async insertIntoField(field: AccessibleField, text: string, replace: boolean): Promise<FieldInsertion> {
    const { view, box, point, outside } = await this.inViewport(field.bounds);
    if (outside) return { inserted: false, reason: outside };
    // DOM.getNodeForLocation hit-tests at a point of the document, not of the viewport.
    const inDocument = { x: point.x + view.scrollX, y: point.y + view.scrollY };
    if (this.endpoint.protocol === 'cdp') return this.run('insert the text', () => insertThroughCdp(this.page, inDocument, field, text, replace));
    return this.script('insert the text', scripts.call(scripts.insertIntoFieldAt, point, { name: field.name, text: field.text, box }, text, replace));
  }

  /** Gives the page's focus to its node for the accessible element whose box on the screen is `bounds` (DevTools protocol only). */
  async focusElement(bounds: CupRect, name: string): Promise<ElementFocus> {
    const { view, point, outside } = await this.inViewport(bounds);
    if (outside) return { focused: false, reason: outside };
    return this.run('focus the element', () => focusThroughCdp(this.page, { x: point.x + view.scrollX, y: point.y + view.scrollY }, name));
  }

  /**
   * Presses the combination `repeat` times in the page, its modifiers held around its key: the DevTools protocol's key
   * events (Input.dispatchKeyEvent) reach the page's focused element whichever window has the X focus, where Blink
   * drops sent X key events outside its active window. DOM key names (see dom-keys.ts); the presses stop at an abort.
   */
  async pressKeys(combination: DomCombination, repeat: number, signal?: AbortSignal): Promise<void> {
    // Checked by the caller (see devtools-keys.ts): BiDi's key actions go to the focused window only.
    if (this.endpoint.protocol !== 'cdp') throw new ToolError('keys go into a page through the DevTools protocol only', 'page_unreachable');
    const { keyboard } = this.page;
    // Puppeteer checks key names against its layout at run time: the names dom-keys.ts gives are among them.
    const held = combination.modifiers as KeyInput[];
    await this.run('press the keys', async () => {
      for (let press = 0; press < repeat && !signal?.aborted; press++) {
        for (const modifier of held) await keyboard.down(modifier);
        try {
          await keyboard.press(combination.key as KeyInput);
        } finally {
          for (const modifier of [...held].reverse()) await keyboard.up(modifier);
        }
      }
    });
  }

  /** Types into the page's focused element as insertIntoField types into a named one (at its end): where a person's keys would go. */
  async insertIntoFocus(text: string): Promise<FieldInsertion> {
    return this.script('insert the text', scripts.call(scripts.insertIntoFocused, text));
  }

  /**
   * Loads the URL. A dialog the page opens meanwhile (its beforeunload handler asking whether to leave) holds the
   * navigation until someone answers it: that ends the wait at once, with the dialog's words, and the dialog is
   * left open for the agent to answer (the navigation goes on if it leaves).
   */
  async navigate(url: string, timeoutMs: number): Promise<PageNavigation> {
    let onDialog: ((dialog: Dialog) => void) | undefined;
    const asked = new Promise<never>((_, reject) => {
      onDialog = (dialog) => {
        const words = dialog.message() ? `: "${dialog.message()}"` : '';
        reject(new ToolError(`the page did not load ${url}: it first opened a ${dialog.type()} dialog${words}`, 'navigation_failed', { url, dialog: dialog.type() }));
      };
      this.page.on('dialog', onDialog);
    });
    const before = await this.documentState();
    const loading = this.page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
    // A navigation left waiting on the dialog ends later on its own; its outcome is no one's then.
    loading.catch(() => undefined);
    const watching = { on: true };
    const shown = this.untilLoadedAt(url, before?.origin, timeoutMs, watching);
    try {
      const response = await Promise.race([loading, asked, shown]);
      // Loaded as the page says (no response): its own address, which puppeteer has not heard of.
      if (typeof response === 'string') return { url: response, title: await this.title() };
      return { url: this.page.url(), title: await this.title(), ...(response && response.status() > 0 ? { status: response.status() } : {}) };
    } catch (error) {
      if (error instanceof ToolError) throw error;
      throw new ToolError(`the page could not load ${url}: ${pageMessage(error)}`, 'navigation_failed', { url });
    } finally {
      watching.on = false;
      if (onDialog) this.page.off('dialog', onDialog);
    }
  }

  /** The document's address, load state and the time it began (a new document has a new one), or undefined between documents. */
  private async documentState(): Promise<{ href: string; ready: string; origin: number } | undefined> {
    const state = await this.page.evaluate('[location.href, document.readyState, performance.timeOrigin]').catch(() => undefined);
    if (!Array.isArray(state) || state.length !== 3) return undefined;
    return { href: String(state[0]), ready: String(state[1]), origin: Number(state[2]) };
  }

  /**
   * Resolves (with the document's address) once a new document at the url has loaded, as the page itself says: Firefox's WebDriver
   * BiDi tells no load of its own privileged pages, and a navigate to about:config waited the whole 30 s and failed
   * with the page shown and working. The document must be another than the one before (a reload of the same address).
   */
  private async untilLoadedAt(url: string, beforeOrigin: number | undefined, timeoutMs: number, watching: { on: boolean }): Promise<string> {
    const target = normalisedUrl(url);
    for (const deadline = Date.now() + timeoutMs; watching.on && Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, LOAD_POLL_MS))) {
      const state = await this.documentState();
      if (state && state.ready === 'complete' && state.origin !== beforeOrigin && normalisedUrl(state.href) === target) return state.href;
    }
    return new Promise<string>(() => undefined);
  }
}

/** How often a navigation looks at the page's own document while it waits for the load the protocol tells. */
const LOAD_POLL_MS = 250;

/** A URL as a document's location spells it, for comparison. */
function normalisedUrl(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}
