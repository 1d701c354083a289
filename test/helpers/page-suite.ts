// The page tool end to end on one real browser, started by launch_app with a debugging port (0: the browser
// picks one) on a private desktop: every claim is judged by the page's own output as pyatspi reads it, by
// pyatspi's bounds of the same element, or by the port answering. Run once per browser (page-*.test.ts).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { after, before, describe, test } from 'node:test';
import type { ToolContext } from '../../src/tools/context.js';
import { cliPath, repositoryRoot, TestDesktop } from './desktop.js';
import { connectMcp } from './mcp.js';
import { PyatspiOracle } from './oracle.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { accessibleWindowState, callOk, failsWith, testContext } from './tools.js';

export const pageUrl = (name: string) => pathToFileURL(join(repositoryRoot, 'test', 'fixtures', 'web', name)).href;

export interface Launched {
  pid: number;
  windowId: number;
  title: string;
  structured: Record<string, unknown>;
}

/** Starts the browser through launch_app and waits (bounded) until its window's title names the page. */
export async function launchBrowser(context: ToolContext, name: string, args: Record<string, unknown>, pageTitle: string): Promise<Launched> {
  const launched = await callOk(context, 'launch_app', { name, ...args });
  const pid = launched.structured.pid as number;
  const windowId = (launched.structured.windows as { window_id: number }[])[0]!.window_id;
  for (const deadline = Date.now() + 20_000; ; await sleep(100)) {
    const windows = (await callOk(context, 'list_windows', { pid })).structured.windows as { window_id: number; title: string }[];
    const title = windows.find((window) => window.window_id === windowId)?.title ?? '';
    if (title.startsWith(pageTitle)) return { pid, windowId, title, structured: launched.structured };
    assert.ok(Date.now() < deadline, `the window's title is still "${title}"`);
  }
}

/** Kills the browser the test launched and waits (bounded) until launch_app's cleanup has removed its profile. */
export async function stopBrowser(browser: Launched | undefined): Promise<void> {
  if (!browser) return;
  process.kill(browser.pid, 'SIGKILL');
  const profile = browser.structured.user_data_dir as string | undefined;
  for (const deadline = Date.now() + 5000; profile && existsSync(profile) && Date.now() < deadline; ) await sleep(100);
}

/** Waits until pyatspi reads the text in the window (the page's own output), failing with what it read. */
export async function waitForText(oracle: PyatspiOracle, browser: Launched, expected: string | RegExp): Promise<string> {
  let texts: string[] = [];
  for (const deadline = Date.now() + 5000; Date.now() < deadline; await sleep(100)) {
    texts = await oracle.texts(browser.pid, browser.title);
    const hit = texts.find((text) => (typeof expected === 'string' ? text.includes(expected) : expected.test(text)));
    if (hit) return hit;
  }
  assert.fail(`pyatspi never read ${expected} in the page; it read ${JSON.stringify(texts.slice(-8))}`);
}

type Box = { x: number; y: number; w: number; h: number };

function assertNear(ours: Box, theirs: [number, number, number, number], what: string, slack = 3): void {
  const [x, y, w, h] = theirs;
  const close = [ours.x - x, ours.y - y, ours.w - w, ours.h - h].every((d) => Math.abs(d) <= slack);
  assert.ok(close, `${what}: ours ${JSON.stringify(ours)} vs pyatspi [${theirs}]`);
}

export function pageSuite(browser: 'chromium' | 'firefox'): void {
  const program = browser === 'chromium' ? 'chromium' : 'firefox-esr';
  describe(`page on ${browser}: launched with a debugging port, read and driven through ${browser === 'chromium' ? 'CDP' : 'WebDriver BiDi'}`, () => {
    let desktop: TestDesktop;
    let context: ToolContext;
    let oracle: PyatspiOracle;
    let page: Launched;

    before(async () => {
      desktop = await TestDesktop.start();
      context = testContext();
      oracle = new PyatspiOracle(desktop.env());
      const extra = browser === 'chromium' ? { additional_arguments: ['--disable-gpu'] } : {};
      page = await launchBrowser(context, program, { urls: [pageUrl('page-actions.html')], electron_debugging_port: 0, ...extra }, 'CUP Page Actions');
    });

    after(async () => {
      oracle?.close();
      context?.desktop.close();
      await stopBrowser(page);
      await desktop?.stop();
    });

    const call = (args: Record<string, unknown>) => callOk(context, 'page', { window_id: page.windowId, ...args });

    test('launch_app reports the port it picked, which answers; the profile is fresh and the page is in the tree', async () => {
      const port = page.structured.debugging_port as number;
      assert.ok(port > 0, JSON.stringify(page.structured));
      assert.equal(page.structured.debugging_protocol, browser === 'chromium' ? 'cdp' : 'webdriver-bidi');
      const response = await fetch(`http://127.0.0.1:${port}/json/version`, { signal: AbortSignal.timeout(5000) });
      if (browser === 'chromium') {
        assert.equal(response.status, 200);
        assert.match(((await response.json()) as { Browser: string }).Browser, /Chrome/);
      } else {
        // Firefox's remote agent answers HTTP on the port (it speaks BiDi over a WebSocket at /session).
        assert.ok(response.status > 0);
      }
      assert.equal(page.structured.no_sandbox, browser === 'chromium' && process.getuid?.() === 0);
      assert.ok(existsSync(page.structured.user_data_dir as string), 'the fresh profile is on disk');
      assert.ok(readFileSync(`/proc/${page.pid}/cmdline`, 'utf8').includes(browser === 'chromium' ? '--force-renderer-accessibility' : '--remote-debugging-port=0'));
      assert.equal(page.structured.page_ready, true);
      const document = await oracle.find(page.pid, page.title, 'document web', 'CUP Page Actions');
      assert.ok(document.found, 'pyatspi finds the page\'s document');
    });

    test('execute_javascript returns the value JSON-serialised, takes a body with return, and reports exceptions with their message', async () => {
      const count = await call({ action: 'execute_javascript', javascript: "document.querySelectorAll('button').length" });
      assert.equal(count.structured.result, '2');
      assert.equal(count.structured.result_type, 'number');
      const object = await call({ action: 'execute_javascript', javascript: "const kind = document.getElementById('count').dataset.kind;\nreturn { kind, list: [1, 'two'] };" });
      assert.deepEqual(JSON.parse(object.structured.result as string), { kind: 'counter', list: [1, 'two'] });
      const awaited = await call({ action: 'execute_javascript', javascript: 'new Promise((resolve) => setTimeout(() => resolve(location.protocol), 50))' });
      assert.equal(awaited.structured.result, '"file:"');
      const thrown = await failsWith(context, 'page', { window_id: page.windowId, action: 'execute_javascript', javascript: "throw new RangeError('out of cheese')" }, 'javascript_error');
      assert.match(thrown.summary, /out of cheese/);
      await failsWith(context, 'page', { window_id: page.windowId, action: 'execute_javascript', javascript: 'return (' }, 'javascript_error');
    });

    test('get_text is the page\'s visible text', async () => {
      const text = (await call({ action: 'get_text' })).structured.text as string;
      assert.match(text, /Everything this page does is written to the log below/);
      assert.match(text, /Count clicks/);
      assert.doesNotMatch(text, /Not shown/);
    });

    test('query_dom reports tag, attributes, text and bounds that match pyatspi\'s bounds of the same element', async () => {
      const result = await call({ action: 'query_dom', css_selector: 'input[type=text], button', attributes: ['id', 'data-kind'] });
      const elements = result.structured.elements as { tag: string; attributes: Record<string, string | null>; text: string; bounds: Box; screen_bounds: Box; in_viewport: boolean }[];
      assert.equal(result.structured.count, 4);
      assert.deepEqual(elements.map((element) => element.attributes.id), ['city', 'locked', 'count', 'far']);
      const counter = elements[2]!;
      assert.deepEqual([counter.tag, counter.attributes['data-kind'], counter.text, counter.in_viewport], ['button', 'counter', 'Count clicks', true]);
      assert.equal(elements[3]!.in_viewport, false, 'the far button lies below the fold');
      const windows = (await callOk(context, 'list_windows', { pid: page.pid })).structured.windows as { window_id: number; bounds: Box }[];
      const frame = windows.find((window) => window.window_id === page.windowId)!.bounds;
      const button = await oracle.find(page.pid, page.title, 'push button', 'Count clicks');
      assert.ok(button.extents, 'pyatspi finds the button');
      assertNear(counter.screen_bounds, button.extents, 'the button on screen');
      // Screenshot pixels are window-local (the screenshot of a window this size is not downscaled).
      assertNear(counter.bounds, [button.extents[0] - frame.x, button.extents[1] - frame.y, button.extents[2], button.extents[3]], 'the button in screenshot pixels');
      const field = await oracle.find(page.pid, page.title, 'entry', 'City');
      assert.ok(field.extents, 'pyatspi finds the City field');
      assertNear(elements[0]!.screen_bounds, field.extents, 'the City field on screen');
      await failsWith(context, 'page', { window_id: page.windowId, action: 'query_dom', css_selector: 'div[[' }, 'invalid_selector');
    });

    test('at the browser\'s zoom of 120-125% query_dom\'s bounds still match pyatspi\'s', async () => {
      // Chromium gives its window's place and outer size in its own pixels, which its zoom leaves alone, and its inner
      // size in CSS pixels, which it does not: the viewport was placed 130 px off at 125%.
      const zoom = (keys: string[]) => callOk(context, 'hotkey', { window_id: page.windowId, keys, delivery_mode: 'foreground' });
      try {
        for (const _ of [1, 2]) await zoom(['ctrl', 'plus']);
        const ratio = async () => Number((await call({ action: 'execute_javascript', javascript: 'window.devicePixelRatio' })).structured.result);
        for (const deadline = Date.now() + 5000; (await ratio()) < 1.2; await sleep(100)) assert.ok(Date.now() < deadline, 'the page never zoomed in');
        const windows = (await callOk(context, 'list_windows', { pid: page.pid })).structured.windows as { window_id: number; bounds: Box }[];
        const frame = windows.find((window) => window.window_id === page.windowId)!.bounds;
        const counter = ((await call({ action: 'query_dom', css_selector: '#count' })).structured.elements as { bounds: Box; screen_bounds: Box }[])[0]!;
        const button = await oracle.find(page.pid, page.title, 'push button', 'Count clicks');
        assert.ok(button.extents, 'pyatspi finds the button');
        assertNear(counter.screen_bounds, button.extents, 'the button on screen, zoomed');
        assertNear(counter.bounds, [button.extents[0] - frame.x, button.extents[1] - frame.y, button.extents[2], button.extents[3]], 'the button in screenshot pixels, zoomed');
      } finally {
        await zoom(['ctrl', '0']);
      }
    });

    test('click_element clicks through the page (a trusted click, in the background) and reports what changed', async () => {
      const clicked = await call({ action: 'click_element', selector: '#count' });
      assert.equal(clicked.structured.effect, 'confirmed', clicked.summary);
      assert.equal(clicked.structured.path, browser === 'chromium' ? 'cdp' : 'webdriver-bidi');
      assert.ok((clicked.structured.evidence as string[]).some((line) => /DOM/.test(line)), JSON.stringify(clicked.structured.evidence));
      await waitForText(oracle, page, 'clicks=1 trusted=true');
      // The window's tree changed with the page: the log's new text is in the diff.
      assert.match(clicked.body ?? '', /clicks=1/);
    });

    test('click_element scrolls an element below the fold into view before clicking it', async () => {
      const clicked = await call({ action: 'click_element', selector: '#far' });
      assert.equal(clicked.structured.effect, 'confirmed', clicked.summary);
      assert.equal((clicked.structured.element as { in_viewport: boolean }).in_viewport, true);
      const line = await waitForText(oracle, page, /far clicked at \d+ of \d+/);
      const [, at, of] = /at (\d+) of (\d+)/.exec(line)!;
      assert.ok(Number(at) > 0 && Number(at) < Number(of), line);
    });

    test('insert_text types at the end of the field; a read-only field and a selector that matches nothing are refused', async () => {
      const inserted = await call({ action: 'insert_text', selector: '#city', text: ' and Bergen' });
      assert.equal(inserted.structured.effect, 'confirmed', inserted.summary);
      assert.equal(inserted.structured.value, 'Oslo and Bergen');
      for (const deadline = Date.now() + 5000; (await oracle.find(page.pid, page.title, 'entry', 'City')).text !== 'Oslo and Bergen'; await sleep(100)) {
        assert.ok(Date.now() < deadline, 'pyatspi never read the inserted text in the field');
      }
      // A number field has no caret API: the text still goes at the end, not where focus left the caret.
      const counted = await call({ action: 'insert_text', selector: '#quantity', text: '5' });
      assert.equal(counted.structured.effect, 'confirmed', counted.summary);
      assert.equal(counted.structured.value, '25');
      for (const deadline = Date.now() + 5000; (await oracle.find(page.pid, page.title, 'spin button', 'Quantity')).text !== '25'; await sleep(100)) {
        assert.ok(Date.now() < deadline, 'pyatspi never read 25 in the number field');
      }
      await failsWith(context, 'page', { window_id: page.windowId, action: 'insert_text', selector: '#locked', text: 'x' }, 'read_only');
      await failsWith(context, 'page', { window_id: page.windowId, action: 'insert_text', selector: '#nowhere', text: 'x' }, 'page_element_not_found');
      await failsWith(context, 'page', { window_id: page.windowId, action: 'click_element', selector: '#secret' }, 'element_not_visible');
    });

    test('upload_files sets a file input\'s files (the page reads their contents); a missing file and an element that is no file input are refused', async () => {
      const folder = mkdtempSync(join(tmpdir(), 'cup-upload-'));
      try {
        const [first, second] = [join(folder, 'notes.txt'), join(folder, 'data.csv')];
        writeFileSync(first, 'twelve chars');
        writeFileSync(second, 'a,b\n1,2\n');
        const uploaded = await call({ action: 'upload_files', selector: '#upload', files: [first, second] });
        assert.equal(uploaded.structured.effect, 'confirmed', uploaded.summary);
        assert.deepEqual(uploaded.structured.files, ['notes.txt', 'data.csv']);
        await waitForText(oracle, page, 'uploaded notes.txt:12 data.csv:8');
        await failsWith(context, 'page', { window_id: page.windowId, action: 'upload_files', selector: '#upload', files: [join(folder, 'missing.txt')] }, 'invalid_arguments');
        await failsWith(context, 'page', { window_id: page.windowId, action: 'upload_files', selector: '#city', files: [first] }, 'not_settable');
      } finally {
        rmSync(folder, { recursive: true, force: true });
      }
    });

    if (browser === 'chromium') {
      test('through the MCP client and the CLI, as an agent calls it', async () => {
        const { client } = await connectMcp(desktop.env());
        try {
          const reply = (await client.callTool({ name: 'page', arguments: { action: 'execute_javascript', window_id: page.windowId, javascript: 'document.title' } })) as unknown as {
            structuredContent: { result: string };
            isError?: boolean;
          };
          assert.ok(!reply.isError, JSON.stringify(reply));
          assert.equal(reply.structuredContent.result, '"CUP Page Actions"');
        } finally {
          await client.close();
        }
        const { stdout } = await promisify(execFile)(
          process.execPath,
          [cliPath, 'call', 'page', JSON.stringify({ action: 'get_text', window_id: page.windowId }), '--no-daemon', '--json'],
          { env: desktop.env(), timeout: 30_000 },
        );
        assert.match((JSON.parse(stdout) as { structuredContent: { text: string } }).structuredContent.text, /Count clicks/);
      });
    }

    test('navigate loads another page in the window, which then shows it', async () => {
      const loaded = await call({ action: 'navigate', url: pageUrl('page-second.html') });
      assert.equal(loaded.structured.title, 'CUP Second Page');
      assert.equal(loaded.structured.effect, 'confirmed');
      // The very next read shows the new page: navigate returns once the page is in the accessibility tree.
      assert.ok((loaded.structured.evidence as string[]).includes('the page is in the accessibility tree'), JSON.stringify(loaded.structured.evidence));
      const state = await callOk(context, 'get_window_state', { pid: page.pid, window_id: page.windowId, include_screenshot: false });
      assert.match(state.body ?? "", /hdg[^\n]*"Second page"/, (state.body ?? "").split('\n').slice(0, 30).join('\n'));
      assert.doesNotMatch(state.body ?? "", /Count clicks/, 'the first page is gone from the tree');
      for (const deadline = Date.now() + 10_000; ; await sleep(100)) {
        const heading = await oracle.find(page.pid, '', 'heading', 'Second page').catch(() => ({ found: false }));
        if (heading.found) break;
        assert.ok(Date.now() < deadline, 'pyatspi never saw the second page');
      }
    });

    test('click_element on what does nothing is no effect, although the page ticks by itself and the focus leaves a field; a real change is still confirmed', async () => {
      const loaded = await call({ action: 'navigate', url: pageUrl('tasks.html') });
      assert.equal(loaded.structured.title, 'CUP Web Tasks');
      assert.ok((loaded.structured.evidence as string[]).includes('the page is in the accessibility tree'), JSON.stringify(loaded.structured.evidence));
      const focused = await call({ action: 'click_element', selector: '#task' });
      assert.equal(focused.structured.effect, 'confirmed', focused.summary);
      const idle = await call({ action: 'click_element', selector: '#title' });
      assert.equal(idle.structured.effect, 'suspected_noop', `${idle.summary}\n${(idle.structured.evidence as string[] | undefined)?.join('\n')}`);
      assert.ok((idle.structured.evidence as string[]).some((line) => /^not counted: \d+ change/.test(line)), JSON.stringify(idle.structured.evidence));
      const ticks = await call({ action: 'execute_javascript', javascript: "document.getElementById('clock').textContent" });
      assert.notEqual(ticks.structured.result, '"tick 0"', 'the page\'s clock ticks');
      const chosen = await call({ action: 'click_element', selector: 'input[value=large]' });
      assert.equal(chosen.structured.effect, 'confirmed', chosen.summary);
      for (const deadline = Date.now() + 5000; !(await oracle.find(page.pid, '', 'radio button', 'Large')).states?.includes('checked'); await sleep(100)) {
        assert.ok(Date.now() < deadline, 'pyatspi never read Large checked');
      }
    });

    test('click_element on an element that an overlay covers: no effect, and the result names the cover that took the click', async () => {
      await call({ action: 'navigate', url: pageUrl('tasks.html') });
      await call({
        action: 'execute_javascript',
        javascript: `const box = document.querySelector('input[value=large]').getBoundingClientRect();
          const veil = Object.assign(document.createElement('div'), { id: 'veil' });
          Object.assign(veil.style, { position: 'fixed', left: box.left - 20 + 'px', top: box.top - 20 + 'px', width: box.width + 40 + 'px', height: box.height + 40 + 'px', background: 'rgba(0,0,0,0.3)' });
          document.body.appendChild(veil);`,
      });
      const covered = await call({ action: 'click_element', selector: 'input[value=large]' });
      assert.equal(covered.structured.effect, 'suspected_noop', covered.summary);
      assert.ok((covered.structured.evidence as string[]).some((line) => line.startsWith('<div#veil> lies over the element')), JSON.stringify(covered.structured.evidence));
      const checked = await call({ action: 'execute_javascript', javascript: "document.querySelector('input[value=large]').checked" });
      assert.equal(checked.structured.result, 'false', 'the covered radio was not checked');
    });

    test('scroll on an element inside a box that scrolls on its own (overflow auto) scrolls that box, not the page; at the box\'s end the page scrolls', async () => {
      const loaded = await call({ action: 'navigate', url: pageUrl('scroll-box.html') });
      assert.equal(loaded.structured.title, 'CUP Web Scroll Box');
      const onPage = { ...page, title: '' };
      const state = await accessibleWindowState(context, { id: page.windowId, pid: page.pid } as ClientWindow, { detail: 'full', include_screenshot: false });
      const row = state.state.elements.find((each) => each.name === 'Row 1');
      assert.ok(row, 'Row 1 is in the tree');
      const scrolled = await callOk(context, 'scroll', { window_id: page.windowId, element_index: row.index, direction: 'down', by: 'line', amount: 2 });
      assert.equal(scrolled.structured.effect, 'confirmed', scrolled.summary);
      assert.match(((scrolled.structured.evidence as string[]) ?? []).join(' | '), /scroll box <div#box> .* scrolled from 0 to 80/);
      // The page's own account (pyatspi reads its log): the box moved by two lines, the page not at all.
      await waitForText(oracle, onPage, 'box=80 page=0');
      const inner = state.state.elements.find((each) => each.role === 'button' && each.name === 'Inner end');
      const toEnd = await callOk(context, 'scroll', { window_id: page.windowId, element_index: inner!.index, direction: 'down', by: 'page', amount: 10 });
      assert.equal(toEnd.structured.effect, 'confirmed', toEnd.summary);
      await waitForText(oracle, onPage, /^box=2\d\d page=0$/);
      // Nothing more of the box lies below it: the page around it scrolls, as a wheel's scroll would carry over.
      const page2 = await callOk(context, 'scroll', { window_id: page.windowId, element_index: inner!.index, direction: 'down', by: 'line', amount: 1 });
      assert.equal(page2.structured.effect, 'confirmed', page2.summary);
      await waitForText(oracle, onPage, /^box=2\d\d page=40$/);
    });

    test('the browser\'s own dialogs hold the page: navigate past a beforeunload guard ends at once naming the dialog and its buttons; a prompt is read and answered in the tree', async () => {
      await call({ action: 'navigate', url: pageUrl('prompts.html') });
      const window = { pid: page.pid, id: page.windowId, title: 'CUP Web Prompts' } as ClientWindow;
      const browserWindow = { ...page, title: '' }; // pyatspi: any window of the browser (the page's title is in the window's)
      /** The element of the window's latest full reading with this role and name (a dialog's button has no other way in). */
      const shown = async (role: string, name: RegExp) => {
        const found = (await accessibleWindowState(context, window, { detail: 'full', include_screenshot: false })).state.elements.find((each) => each.role === role && name.test(each.name));
        assert.ok(found, `no ${role} ${name} in the window's tree`);
        return found;
      };
      // A second window whose page answers while this one's waits on a dialog: it is never read in this one's stead.
      await call({ action: 'click_element', selector: '#helper' });
      await waitForText(oracle, browserWindow, 'helper open');
      // Blink dismisses at once (prompt() returns null) a dialog that a window other than the active one opens.
      await callOk(context, 'bring_to_front', { pid: page.pid, window_id: page.windowId });
      // A trusted click gives the page the user activation a beforeunload dialog needs.
      await call({ action: 'click_element', selector: '#guard' });
      await waitForText(oracle, browserWindow, 'guard on');
      const started = Date.now();
      const held = await failsWith(context, 'page', { window_id: page.windowId, action: 'navigate', url: pageUrl('page-second.html') }, 'navigation_failed');
      const heldAt = Date.now();
      // Without a word of the dialog the navigation waited out the whole protocol timeout (20 s) and named that.
      assert.ok(Date.now() - started < 10_000, `the navigation took ${Date.now() - started} ms to give up`);
      assert.match(held.summary, /opened a beforeunload dialog/, held.summary);
      const leave = browser === 'chromium' ? 'Leave' : 'Leave page';
      const stay = browser === 'chromium' ? 'Cancel' : 'Stay on page';
      assert.match(held.summary, new RegExp(`The browser shows the dialog "[^"]+" \\(.*buttons "${stay}", "${leave}"\\)`), held.summary);
      assert.ok((await oracle.find(page.pid, '', 'push button', leave)).found, 'pyatspi: the dialog is open');
      if (browser === 'chromium') {
        const waiting = await failsWith(context, 'page', { window_id: page.windowId, action: 'get_text' }, 'page_unreachable');
        assert.match(waiting.summary, /The browser shows the dialog "[^"]+" \(.*buttons "Cancel", "Leave"\)/, waiting.summary);
      } else {
        assert.match((await call({ action: 'get_text' })).structured.text as string, /Guard leaving/);
      }
      // Blink's dialogs ignore a press that comes sooner than a double click's interval after they appear (the press
      // still flashes the button's pressed state): a person would not be that quick either.
      await sleep(Math.max(0, 1000 - (Date.now() - heldAt)));
      const stayed = await callOk(context, 'click', { window_id: page.windowId, element_index: (await shown('button', new RegExp(`^${stay}$`))).index });
      assert.equal(stayed.structured.effect, 'confirmed', stayed.summary);
      for (const deadline = Date.now() + 5000; (await oracle.find(page.pid, '', 'push button', leave)).found; await sleep(100)) {
        assert.ok(Date.now() < deadline, `pyatspi: the dialog is still open after ${stayed.summary}\n${(stayed.structured.evidence as string[] | undefined)?.join('\n')}`);
      }
      assert.ok((await oracle.find(page.pid, '', 'document web', 'CUP Web Prompts')).found, 'pyatspi: the page stayed');
      await call({ action: 'execute_javascript', javascript: "document.getElementById('guard').checked = false" });

      // A prompt: Blink's page answers nothing while it is open, and the refusal says what holds it; Gecko's page still answers.
      const ask = await callOk(context, 'click', { window_id: page.windowId, element_index: (await shown('button', /^Ask name$/)).index });
      assert.equal(ask.structured.effect, 'confirmed', ask.summary);
      const field = await shown('textbox', /^Your name\?$/);
      if (browser === 'chromium') {
        const blocked = await failsWith(context, 'page', { window_id: page.windowId, action: 'get_text' }, 'page_unreachable');
        assert.match(blocked.summary, /The browser shows the dialog "[^"]+" \(a field "Your name\?" holding "Bob"; buttons "Cancel", "OK"\)/, blocked.summary);
      } else {
        assert.match((await call({ action: 'get_text' })).structured.text as string, /Ask name/);
      }
      assert.equal((await callOk(context, 'set_value', { window_id: page.windowId, element_index: field.index, value: 'Ada' })).structured.effect, 'confirmed');
      const ok = await callOk(context, 'click', { window_id: page.windowId, element_index: (await shown('button', /^OK$/)).index });
      assert.equal(ok.structured.effect, 'confirmed', ok.summary);
      await waitForText(oracle, browserWindow, 'name "Ada"');
      await call({ action: 'execute_javascript', javascript: 'helper.close()' });
    });
  });
}
