// One real browser for a whole test file, opening each fixture page of test/fixtures/web in a window of its
// own (a second invocation of the browser hands the page to the running one), on a private desktop, with the
// pyatspi oracle and an in-process tool session.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before } from 'node:test';
import type { CupNode } from '../../src/cup/types.js';
import { accessibleSessionEnvironment } from '../../src/platform/linux/desktop/accessible-session.js';
import { listClientWindows, type ClientWindow } from '../../src/platform/linux/windows.js';
import type { LinuxToolContext } from '../../src/server/session.js';
import type { ToolContext } from '../../src/tools/context.js';
import type { CorpusApp } from '../conformance/corpus.js';
import { launchApp, stopApp, type RunningApp } from '../conformance/launch.js';
import { homeEnvironment, repositoryRoot, TestDesktop } from './desktop.js';
import { serveFixtures, type FixtureServer } from './fixture-server.js';
import { PyatspiOracle } from './oracle.js';
import { removeProfile } from './profiles.js';
import { accessibleWindowState, callOk, testContext, type Element } from './tools.js';

export type BrowserId = 'chromium' | 'firefox-esr';

const pages = join(repositoryRoot, 'test', 'fixtures', 'web');

/** What a fresh Firefox profile would otherwise open besides the page: the welcome and privacy-notice tabs. */
const firefoxPreferences = [
  ['browser.shell.checkDefaultBrowser', false],
  ['browser.startup.homepage_override.mstone', '"ignore"'],
  ['browser.aboutwelcome.enabled', false],
  ['datareporting.policy.dataSubmissionEnabled', false],
  ['datareporting.policy.firstRunURL', '""'],
  ['toolkit.telemetry.reportingpolicy.firstRun', false],
  ['browser.newtabpage.enabled', false],
] as const;

/**
 * Chromium's flags for a test: its own profile, no first-run pages, no network of its own, renderer accessibility on
 * (what a screen reader switches on), and no sandbox as root (Chromium refuses to run as root inside it).
 */
export function chromiumFlags(profile: string): string[] {
  return [
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), '--force-renderer-accessibility', `--user-data-dir=${profile}`, '--password-store=basic',
    '--no-first-run', '--no-default-browser-check', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic',
  ];
}

/** Chromium showing one page on a desktop of its own, with a tool context and pyatspi, for a file that drives the browser. */
export interface ChromiumOnPage {
  desktop: TestDesktop;
  context: ToolContext;
  oracle: PyatspiOracle;
  browser: ClientWindow;
  /** Closes the context and pyatspi, stops the desktop and removes the browser's profile. */
  close(): Promise<void>;
}

/** Starts a desktop and Chromium on `page` (a file path or URL) in a profile of its own; `title` is the window's. */
export async function chromiumOnPage(page: string, title: string): Promise<ChromiumOnPage> {
  const desktop = await TestDesktop.start();
  const context = testContext();
  const oracle = new PyatspiOracle(desktop.env());
  const profile = mkdtempSync(join(tmpdir(), 'cup-chromium-'));
  const close = async () => {
    oracle.close();
    context.desktop.close();
    await desktop.stop();
    await removeProfile(profile);
  };
  try {
    const browser = (await desktop.launch('/usr/bin/chromium', [...chromiumFlags(profile), page], title, 60_000)).window;
    return { desktop, context, oracle, browser, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** The browser's command line for the first page, and for handing a page to the running browser. */
function browserArgs(browser: BrowserId, home: string, url: string, newWindow: boolean): string[] {
  if (browser === 'firefox-esr') return ['--profile', join(home, 'profile'), ...(newWindow ? ['--new-window'] : []), url];
  return [...chromiumFlags(join(home, 'chromium')), ...(newWindow ? ['--new-window'] : []), url];
}


export interface WebRig {
  desktop: TestDesktop;
  context: LinuxToolContext;
  oracle: PyatspiOracle;
  browser: BrowserId;
  /**
   * Opens a fixture page (file name without .html) in a new window and waits until its document is in the tree;
   * `served`: from the first of two loopback HTTP servers of the fixtures, told the second's origin as ?other=.
   */
  open(page: string, documentTitle: string, served?: 'http'): Promise<ClientWindow>;
}

/**
 * Starts the desktop, the browser (on `firstPage`, the structure page unless told) and the oracle before the file's
 * tests, and stops them after. The browser runs in a process group of its own, stopped whole. A first page of its
 * own lets a file read that page as the browser process's first client, as an agent that starts the browser does.
 */
export function webRig(browser: BrowserId, firstPage = { page: 'structure', title: 'CUP Web Structure' }): WebRig {
  const rig = { browser } as WebRig;
  let running: RunningApp | undefined;
  let servers: FixtureServer[] = [];
  before(async () => {
    rig.desktop = await TestDesktop.start();
    rig.context = testContext();
    rig.oracle = new PyatspiOracle(rig.desktop.env());
    const app: CorpusApp = {
      id: browser,
      toolkit: browser === 'chromium' ? 'Blink' : 'Gecko',
      family: 'web',
      command: browser,
      args: (home) => browserArgs(browser, home, `file://${join(pages, `${firstPage.page}.html`)}`, false),
      title: new RegExp(`^${firstPage.title}\\b`),
      accessible: true,
      launchTimeoutMs: 60_000,
      // What a desktop with accessibility switched on tells every app.
      env: { ...accessibleSessionEnvironment({}), GNOME_ACCESSIBILITY: '1' },
      prepare: (home) => {
        if (browser !== 'firefox-esr') return;
        mkdirSync(join(home, 'profile'), { recursive: true });
        writeFileSync(join(home, 'profile', 'user.js'), firefoxPreferences.map(([name, value]) => `user_pref("${name}", ${String(value)});\n`).join(''));
      },
    };
    const started = await launchApp(rig.desktop, app);
    running = started;
    rig.open = async (page, documentTitle, served) => {
      const title = new RegExp(`^${documentTitle}\\b`);
      if (served && servers.length === 0) servers = await Promise.all([serveFixtures(pages), serveFixtures(pages)]);
      const url = served ? `${servers[0]!.origin}/${page}.html?other=${encodeURIComponent(servers[1]!.origin)}` : `file://${join(pages, `${page}.html`)}`;
      const window = page === firstPage.page ? started.window : await handPage(rig.desktop, browser, started, url, title);
      await documentShown(rig.context, window, documentTitle);
      return window;
    };
  });
  after(async () => {
    if (running) stopApp(running);
    await Promise.all(servers.map((server) => server.close()));
    rig.oracle?.close();
    rig.context?.desktop.close();
    await rig.desktop?.stop();
  });
  return rig;
}

/** Runs the browser again with the page's URL: it hands the page to the running browser, which opens a window for it. */
async function handPage(desktop: TestDesktop, browser: BrowserId, running: RunningApp, url: string, title: RegExp): Promise<ClientWindow> {
  const child = spawn(browser, browserArgs(browser, running.home, url, true), {
    env: desktop.env({ ...homeEnvironment(running.home), ...accessibleSessionEnvironment({}), GNOME_ACCESSIBILITY: '1' }),
    stdio: 'ignore',
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    const x = await desktop.x11();
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await sleep(200)) {
      const window = (await listClientWindows(x)).find((candidate) => candidate.isOnScreen && title.test(candidate.title));
      if (window) return window;
    }
    throw new Error(`${browser} opened no window titled ${title} within 30 s`);
  } finally {
    // The hand-over exits at once; one that lingers is stopped (by its own pid).
    if (child.exitCode === null) child.kill('SIGKILL');
    await Promise.race([exited, sleep(2000)]);
  }
}

/** Waits (bounded) until the page's document, with content, is in the window's accessibility tree. */
async function documentShown(context: LinuxToolContext, window: ClientWindow, documentTitle: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; ; await sleep(250)) {
    const document = (await webDocument(context, window, documentTitle).catch(() => undefined));
    if (document && (document.children ?? []).length > 0) return;
    assert.ok(Date.now() < deadline, `the page "${documentTitle}" never appeared in the browser's accessibility tree`);
  }
}

/** A CUP node and all its descendants, in pre-order. */
export function subtree(node: CupNode): CupNode[] {
  return [node, ...(node.children ?? []).flatMap(subtree)];
}

/** The window's full CUP tree (the JSON envelope, with attributes and raw AT-SPI facts). */
export async function fullTree(context: LinuxToolContext, window: ClientWindow): Promise<CupNode[]> {
  const { result } = await accessibleWindowState(context, window, { detail: 'full', format: 'json', include_screenshot: false }, 30_000);
  return (JSON.parse(result.body!) as { tree: CupNode[] }).tree.flatMap(subtree);
}

/** The page's document node (the one named after the page's title), with everything in it. */
export async function webDocument(context: LinuxToolContext, window: ClientWindow, documentTitle: string): Promise<CupNode> {
  const document = (await fullTree(context, window)).find((node) => node.role === 'document' && node.name === documentTitle && !node.states?.includes('hidden'));
  assert.ok(document, `no document "${documentTitle}" in the tree of "${window.title}"`);
  return document;
}

/** The elements of the latest full snapshot (what element_index refers to). */
export async function elements(context: LinuxToolContext, window: ClientWindow): Promise<Element[]> {
  return (await accessibleWindowState(context, window, { detail: 'full', include_screenshot: false }, 30_000)).state.elements;
}

/** The one shown element of a role and name; fails with what there was of that role. */
export async function element(context: LinuxToolContext, window: ClientWindow, role: string, name: string): Promise<Element> {
  const all = await elements(context, window);
  const found = all.filter((candidate) => candidate.role === role && candidate.name === name && !candidate.states.includes('hidden'));
  assert.equal(found.length, 1, `${found.length} ${role} "${name}" in the tree; ${role}s: ${all.filter((candidate) => candidate.role === role).map((candidate) => JSON.stringify(candidate.name)).join(', ')}`);
  return found[0]!;
}

/** Runs an element action (by role and name, from a fresh snapshot) and returns the tool's structured result. */
export async function act(context: LinuxToolContext, window: ClientWindow, tool: string, role: string, name: string, args: Record<string, unknown> = {}) {
  const target = await element(context, window, role, name);
  const result = await callOk(context, tool, { window_id: window.id, element_index: target.index, ...args });
  return { summary: result.summary, ...(result.structured as { effect: string; path: string; escalation?: { recommended: string; reason: string } }) };
}

/** The page's own output as pyatspi reads it: the first text of the window that starts with the prefix, once it does. */
export async function pageSays(oracle: PyatspiOracle, window: ClientWindow, expected: string | RegExp, timeoutMs = 10_000): Promise<string> {
  const matches = (text: string) => (typeof expected === 'string' ? text === expected : expected.test(text));
  let texts: string[] = [];
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await sleep(150)) {
    // A walk of a page still refilling its rows after a scroll can lose the window for one look (pyatspi's
    // LookupError while Gecko's frame was listed): looked again, and the last error thrown when none succeeds.
    try {
      texts = await oracle.texts(window.pid, window.title);
    } catch (error) {
      if (Date.now() + 150 >= deadline) throw error;
      continue;
    }
    const found = texts.find(matches);
    if (found) return found;
  }
  // The page's own lines of the kind sought ("out=..."), else its last texts: what it said instead.
  const prefix = typeof expected === 'string' ? expected.slice(0, expected.indexOf('=') + 1) : /^\^(\w+=)/.exec(expected.source)?.[1];
  const alike = prefix ? texts.filter((text) => text.startsWith(prefix)) : [];
  assert.fail(`pyatspi never read ${String(expected)} in "${window.title}"; its texts: ${JSON.stringify(alike.length > 0 ? alike : texts.slice(-8))}`);
}
