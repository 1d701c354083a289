import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { CupNode } from '../../src/cup/types.js';
import { desktopRig } from '../helpers/desktop-rig.js';
import { launchBrowser, stopBrowser, type Launched } from '../helpers/page-suite.js';
import { callOk } from '../helpers/tools.js';
import { subtree } from '../helpers/web-browser.js';

// The browsers' own settings pages, large web apps of their own, driven as a new user drives them through launch_app.

/** Whether the process is still running. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('firefox-esr on about:preferences: controls with access keys', () => {
  let browser: Launched | undefined;
  after(() => stopBrowser(browser));
  const rig = desktopRig();
  before(async () => {
    browser = await launchBrowser(rig.context, 'firefox-esr', { urls: ['about:preferences'] }, 'Settings');
  });

  test("the window is read whole and Firefox lives on: its check boxes' actions are read without the list that aborted it", async () => {
    const { pid, windowId, title } = browser!;
    // The judge of the shape: pyatspi reads the check box's access key as its key binding (Gecko's "<Alt><Shift>s;"),
    // which at-spi2-atk's GetActions sends beside a description Gecko has freed by then.
    const bindings = await rig.oracle.keyBindings(pid, title, ['check box']);
    const restore = bindings.find((node) => node.name === 'Open previous windows and tabs');
    assert.ok(restore?.binding, `pyatspi reads the check box's key binding: ${JSON.stringify(bindings.slice(0, 4))}`);
    for (const detail of ['compact', 'full'] as const) {
      const read = await callOk(rig.context, 'get_window_state', { window_id: windowId, include_screenshot: false, detail, format: 'json' });
      assert.ok(alive(pid), `Firefox (pid ${pid}) exited during the ${detail} read: ${read.summary}`);
      assert.ok(!read.structured.degraded, `the ${detail} read is whole: ${read.summary}`);
      const nodes = (JSON.parse(read.body!) as { tree: CupNode[] }).tree.flatMap(subtree);
      const box = nodes.find((node) => node.role === 'checkbox' && node.name === 'Open previous windows and tabs');
      assert.ok(box, `the ${detail} read holds the check box: ${read.summary}`);
      assert.ok(box.actions?.includes('toggle') && box.actions.includes('click'), `its actions: ${JSON.stringify(box.actions)}`);
    }
  });
});

describe('firefox-esr on about:preferences: a category chosen in its list', () => {
  let browser: Launched | undefined;
  after(() => stopBrowser(browser));
  const rig = desktopRig();
  before(async () => {
    browser = await launchBrowser(rig.context, 'firefox-esr', { urls: ['about:preferences'], electron_debugging_port: 0 }, 'Settings');
  });

  test('a background click on another category selects it alone and switches the pane, as a person\'s click does', async () => {
    const { pid, windowId, title } = browser!;
    assert.deepEqual(await rig.oracle.selected(pid, title, 'Categories'), ['General'], 'pyatspi reads General chosen at first');
    for (const [category, pane] of [['Privacy & Security', 'privacy'], ['Home', 'home']] as const) {
      const clicked = await callOk(rig.context, 'click', { window_id: windowId, selector: `role=option name="${category}"` });
      let selected: string[] = [];
      for (const deadline = Date.now() + 5000; Date.now() < deadline; await sleep(100)) {
        selected = await rig.oracle.selected(pid, title, 'Categories');
        if (selected.length === 1 && selected[0] === category) break;
      }
      // The judges: the list's selection as pyatspi reads it, and the pane the page shows, which its address names.
      assert.deepEqual(selected, [category], `pyatspi reads the categories selected after the click: ${clicked.summary}\n${clicked.body}`);
      const address = await rig.oracle.find(pid, title, 'entry', 'Search with Google or enter address');
      assert.equal(address.text, `about:preferences#${pane}`, 'the page switched its pane');
      assert.match(clicked.body ?? '', /states of \[e\d+\]: \+sel/, 'the evidence tells the option selected');
    }
  });
});

describe('firefox-esr: page navigate to its own pages', () => {
  let browser: Launched | undefined;
  after(() => stopBrowser(browser));
  const rig = desktopRig();
  before(async () => {
    browser = await launchBrowser(rig.context, 'firefox-esr', { urls: ['about:blank'], electron_debugging_port: 0 }, 'Mozilla Firefox');
  });

  test('navigate ends once about:preferences and about:config have loaded, as the pages say, not at the 30 s timeout', async () => {
    const { pid, windowId } = browser!;
    for (const [url, documentName] of [['about:preferences', 'Settings'], ['about:config', 'Advanced Preferences']] as const) {
      const started = Date.now();
      const navigated = await callOk(rig.context, 'page', { action: 'navigate', window_id: windowId, url });
      const took = Date.now() - started;
      assert.equal(navigated.structured.url, url, navigated.summary);
      assert.ok(took < 15_000, `navigate to ${url} took ${took} ms`);
      // The judge: pyatspi reads the window's web document by the page's name.
      const title = ((await callOk(rig.context, 'list_windows', { pid })).structured.windows as { window_id: number; title: string }[]).find((window) => window.window_id === windowId)?.title ?? '';
      const documents = await rig.oracle.attributes(pid, title, ['document web']);
      assert.ok(documents.some((document) => document.name === documentName && document.states.includes('showing')), `pyatspi's documents: ${JSON.stringify(documents.map((document) => [document.name, document.states]))}`);
    }
  });
});

describe("chromium on chrome://settings/appearance scrolled to its end: what shows of a box placed above the view", () => {
  let browser: Launched | undefined;
  after(() => stopBrowser(browser));
  const rig = desktopRig();
  before(async () => {
    // Chromium opens no chrome:// page named on its command line: launch_app opens it over the debugging port (the
    // window had stayed on the New Tab page, and the result said nothing). A window this low makes the Appearance page
    // some three times as tall as the view.
    browser = await launchBrowser(rig.context, 'chromium', { urls: ['chrome://settings/appearance'], electron_debugging_port: 0, additional_arguments: ['--window-size=1000,540'] }, 'Settings');
    assert.equal(browser.structured.urls_not_opened, undefined, JSON.stringify(browser.structured));
  });

  test("a button's words and ripple, clickable only through it, read as the button alone", async () => {
    const { pid, windowId } = browser!;
    const title = ((await callOk(rig.context, 'list_windows', { pid })).structured.windows as { window_id: number; title: string }[]).find((window) => window.window_id === windowId)?.title ?? '';
    // pyatspi: the page's "Use GTK" button holds an unnamed box (its ripple) and its words, the words clicking it only
    // as its ancestor (Blink's clickAncestor).
    let children: { role: string; name: string; actions?: string[] }[] = [];
    for (const deadline = Date.now() + 10_000; children.length === 0; await sleep(200)) {
      const found = await rig.oracle.find(pid, title, 'push button', 'Use GTK');
      if (found.found) children = (await rig.oracle.siblings(pid, title, 'static', 'Use GTK')).map((child) => ({ role: child.role, name: child.name }));
      assert.ok(Date.now() < deadline, 'pyatspi never read the "Use GTK" button');
    }
    assert.deepEqual(children.map((child) => child.role).sort(), ['section', 'static'], `pyatspi reads the button's children: ${JSON.stringify(children)}`);
    const body = (await callOk(rig.context, 'get_window_state', { window_id: windowId, include_screenshot: false })).body!;
    const lines = body.split('\n');
    const at = lines.findIndex((line) => / btn "Use GTK"/.test(line));
    assert.ok(at >= 0, body);
    const depth = (line: string) => line.length - line.trimStart().length;
    const next = lines.findIndex((line, i) => i > at && depth(line) <= depth(lines[at]!));
    const under = lines.slice(at + 1, next < 0 ? lines.length : next);
    assert.deepEqual(under, [], `lines under the button: ${JSON.stringify(under)}`);
  });

  test("every combo box and switch pyatspi reads shown in the page's scroller is in the reading, not counted as scrolled away with the main that holds it", async () => {
    const { pid, windowId } = browser!;
    const title = async () => ((await callOk(rig.context, 'list_windows', { pid })).structured.windows as { window_id: number; title: string }[]).find((window) => window.window_id === windowId)?.title ?? '';
    // The page's own scroller, in its shadow roots, scrolled to its end once every section is laid out (the page grows).
    const scroll = '(() => { const c = document.querySelector("settings-ui").shadowRoot.querySelector("#container"); c.scrollTop = c.scrollHeight; return [c.scrollTop, c.clientHeight]; })()';
    type Seen = { shown: string[]; main?: [number, number, number, number]; view?: [number, number, number, number] };
    let seen: Seen = { shown: [] };
    for (const deadline = Date.now() + 20_000; ; await sleep(300)) {
      const [top, height] = JSON.parse((await callOk(rig.context, 'page', { action: 'execute_javascript', window_id: windowId, javascript: scroll })).structured.result as string) as number[];
      const nodes = await rig.oracle.attributes(pid, await title(), ['landmark', 'combo box', 'toggle button', 'document web']);
      const main = nodes.find((node) => node.role === 'landmark' && node.attributes['xml-roles'] === 'main');
      const view = nodes.find((node) => node.role === 'document web')?.extents;
      // Controls wholly inside the document's box, below its toolbar (70 px), as pyatspi reads them shown.
      const inView = (e: [number, number, number, number]) => view !== undefined && e[1] >= view[1] + 70 && e[1] + e[3] <= view[1] + view[3];
      const shown = nodes.filter((node) => node.role !== 'landmark' && node.role !== 'document web' && node.name && node.states.includes('showing') && inView(node.extents)).map((node) => node.name.trim());
      seen = { shown, main: main?.extents, view };
      // The shape under test: the main's own box lies wholly above the view while controls it holds are shown.
      if (main && view && main.extents[1] + main.extents[3] <= view[1] && shown.length >= 2 && top! > height!) break;
      assert.ok(Date.now() < deadline, `the page never scrolled its main above the view: ${JSON.stringify(seen)}`);
    }
    const read = await callOk(rig.context, 'get_window_state', { window_id: windowId, include_screenshot: false });
    for (const name of seen.shown) assert.ok(read.body!.includes(`"${name}"`), `pyatspi reads "${name}" shown; the reading lacks it: ${read.body}`);
    const found = await callOk(rig.context, 'find_elements', { window_id: windowId, selector: 'role=combobox' });
    const onScreen = (found.structured.matches as { name: string; states?: string[] }[]).filter((match) => !match.states?.includes('offscreen')).map((match) => match.name.trim());
    for (const name of seen.shown.filter((shownName) => found.body?.includes(shownName))) assert.ok(onScreen.includes(name), `find_elements says "${name}" off screen: ${found.body}`);
  });
});
