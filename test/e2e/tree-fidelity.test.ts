// Real Debian apps outside the fixtures, each showing one way a tree went wrong for a new user; pyatspi
// (Debian's python3-pyatspi) says what is really there, and the compact view must show it.
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ToolContext } from '../../src/tools/context.js';
import { listClientWindows } from '../../src/platform/linux/windows.js';
import type { TestDesktop } from '../helpers/desktop.js';
import { startUserDesktop, stopUserDesktop, type UserDesktop } from '../helpers/user-desktop.js';
import { pdfOfPages } from '../helpers/pdf.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { accessibleWindowState, callOk, pyatspiWalk, type Element, type OracleNode } from '../helpers/tools.js';

const showing = (node: OracleNode) => node.states.includes('showing') && node.states.includes('visible');

/** The shown element (of the given role, when given) whose bounds are the oracle node's extents within 2 px. */
function shownAt(elements: readonly Element[], node: OracleNode, role?: string): Element | undefined {
  const [x, y, w, h] = node.extents ?? [];
  return elements.find(
    (element) =>
      element.bounds !== undefined &&
      (role === undefined || element.role === role) &&
      Math.abs(element.bounds.x - x!) <= 2 && Math.abs(element.bounds.y - y!) <= 2 &&
      Math.abs(element.bounds.w - w!) <= 2 && Math.abs(element.bounds.h - h!) <= 2,
  );
}

const strayWhitespace = (name: string) => name !== name.trim() || /\s{2,}/.test(name);

describe('tree fidelity on real Debian apps outside the fixtures, judged by pyatspi', () => {
  let user: UserDesktop;
  let desktop: TestDesktop;
  let context: ToolContext;
  let home: string;

  before(async () => {
    user = await startUserDesktop('cup-fidelity-home-');
    ({ desktop, context, home } = user);
  });

  after(async () => {
    await stopUserDesktop(user);
  });

  /** An ordinary user's start: a fresh home and config, and the environment of a session with accessibility on. */
  const userEnv = (): NodeJS.ProcessEnv => user.env();

  async function launch(command: string, args: string[], title: string | RegExp): Promise<{ window: ClientWindow; stop: () => void }> {
    const { process, window } = await desktop.launch(command, args, title, 20_000, userEnv());
    return { window, stop: () => process.kill('SIGKILL') };
  }

  test('gedit: the text area in a notebook page that GTK3 places at -1,-1 -1x-1 is shown, and query finds it', async () => {
    writeFileSync(join(home, 'notes.txt'), 'hello world\nsecond line\n');
    const { window, stop } = await launch('gedit', ['--new-window', join(home, 'notes.txt')], /^notes\.txt .* - gedit$/);
    try {
      const { state } = await accessibleWindowState(context, window, { include_screenshot: false });
      const oracle = await pyatspiWalk(window.pid, window.title, desktop.env());
      assert.ok(
        oracle.some((node) => node.role === 'page tab' && node.extents?.join() === '-1,-1,-1,-1'),
        'the case is exercised: pyatspi sees a page tab at -1,-1 -1x-1',
      );
      const area = oracle.find((node) => node.role === 'text' && node.states.includes('editable') && showing(node));
      assert.ok(area, 'pyatspi sees the editable text area showing');
      const shown = shownAt(state.elements, area, 'textbox');
      assert.equal(shown?.role, 'textbox', `the text area is shown with its bounds ${area.extents}`);
      assert.match(shown.value ?? '', /^hello world/);
      const queried = await callOk(context, 'get_window_state', { pid: window.pid, window_id: window.id, include_screenshot: false, query: 'hello world' });
      assert.match(queried.body ?? '', /tbx .*val="hello world/, 'query searches the shown tree and finds the text area');
    } finally {
      stop();
    }
  });

  test('mousepad: menu item names that GTK3 pads with spaces arrive whitespace-normalised', async () => {
    const { window, stop } = await launch('mousepad', [], /Mousepad$/);
    try {
      // The menus are closed, so the compact view counts their items; detail full lists them.
      const { result } = await accessibleWindowState(context, window, { include_screenshot: false });
      assert.match(result.body ?? '', /mi "File" .*\n\s+# \d+ more items \u2014 open the menu to see/);
      const { state } = await accessibleWindowState(context, window, { include_screenshot: false, detail: 'full' });
      const oracle = await pyatspiWalk(window.pid, window.title, desktop.env());
      const padded = oracle.filter((node) => node.role === 'menu item' && strayWhitespace(node.name) && node.name.trim());
      assert.ok(padded.length > 0, 'the case is exercised: pyatspi reads menu items with padded names');
      for (const node of padded) {
        const normalised = node.name.replace(/\s+/g, ' ').trim();
        assert.ok(state.elements.some((element) => element.name === normalised), `"${node.name}" is shown as "${normalised}"`);
      }
      assert.deepEqual(state.elements.filter((element) => strayWhitespace(element.name)).map((element) => element.name), []);
    } finally {
      stop();
    }
  });

  test('geany: a toolbar button that holds its menu\'s items (GTK3\'s menu tool button), closed, counts them as a closed menu\'s', async () => {
    const { window, stop } = await launch('geany', ['--new-instance', '--no-session'], /^untitled - Geany/);
    try {
      const oracle = await pyatspiWalk(window.pid, window.title, desktop.env());
      // pyatspi: the first toolbar "Menu" toggle button, and its children (the nodes one level under it), none showing.
      const at = oracle.findIndex((node) => node.role === 'toggle button' && node.name === 'Menu' && showing(node));
      assert.ok(at >= 0, 'the case is exercised: pyatspi sees a toggle button named Menu');
      const items: OracleNode[] = [];
      for (let i = at + 1; i < oracle.length && oracle[i]!.depth > oracle[at]!.depth; i++) if (oracle[i]!.depth === oracle[at]!.depth + 1) items.push(oracle[i]!);
      assert.ok(items.length > 0 && items.every((node) => node.role === 'menu item' && !node.states.includes('showing')), JSON.stringify(items));
      const { result } = await accessibleWindowState(context, window, { include_screenshot: false });
      const hint = new RegExp(`btn "Menu" .*\\n\\s+# ${items.length} more items \u2014 open the menu to see`);
      assert.match(result.body ?? '', hint);
      assert.doesNotMatch(result.body ?? '', new RegExp(`mi "${items[0]!.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`), 'the closed menu\'s items are not listed');
    } finally {
      stop();
    }
  });

  test('atril: a PDF page, whose words are only in its own text, is named by them', async () => {
    const pdf = join(home, 'letter.pdf');
    writeFileSync(pdf, pdfOfPages(['Dear reader, this page holds the only copy of the words.']));
    const { window, stop } = await launch('atril', [pdf], /^letter\.pdf/);
    try {
      const oracle = new PyatspiOracle(desktop.env());
      let page: Awaited<ReturnType<PyatspiOracle['find']>> | undefined;
      try {
        for (const deadline = Date.now() + 15_000; !page?.text && Date.now() < deadline; await sleep(200)) page = await oracle.find(window.pid, window.title, 'page', '');
      } finally {
        oracle.close();
      }
      assert.match(page?.text ?? '', /^Dear reader, this page holds the only copy of the words\./, 'pyatspi reads the words in the page\'s text');
      const { result } = await accessibleWindowState(context, window, { include_screenshot: false });
      assert.match(result.body ?? '', /grp "Dear reader, this page holds the only copy of the words\."/, result.body);
    } finally {
      stop();
    }
  });

  test('featherpad (Qt 5): the status bar label is shown, and a rich-text tooltip names its button as plain text', async () => {
    writeFileSync(join(home, 'qt.txt'), 'one two three\n');
    const { window, stop } = await launch('featherpad', [join(home, 'qt.txt')], /qt\.txt/);
    try {
      const { state } = await accessibleWindowState(context, window, { include_screenshot: false });
      const oracle = await pyatspiWalk(window.pid, window.title, desktop.env());
      const statusBar = oracle.findIndex((node) => node.role === 'status bar' && showing(node));
      assert.ok(statusBar >= 0, 'pyatspi sees a status bar');
      const labels = oracle.slice(statusBar + 1).filter((node) => node.depth > oracle[statusBar]!.depth && node.role === 'label' && node.name && showing(node));
      assert.ok(labels.length > 0, 'the status bar holds a named label');
      // Each label's words are in the reading: as a text, or, where they are all the status bar says beside a button
      // named only by its tool tip, as the status bar's own name, once (an unnamed live region is named by its words;
      // the compact view does not repeat them as a text under it, see cup/prune-hoist-skip).
      for (const label of labels) {
        const words = label.name.replace(/\s+/g, ' ').trim();
        const shown = state.elements.filter((element) => element.name === words).map((element) => element.role);
        assert.ok(shown.includes('text') || shown.includes('status'), `status label "${label.name}" is shown: ${JSON.stringify(shown)}`);
      }
      assert.deepEqual(state.elements.filter((element) => /<\/?[a-z]+[^>]*>/i.test(element.name)).map((element) => element.name), [], 'no markup in names');
    } finally {
      stop();
    }
  });

  test('pcmanfm (GTK 2) started by launch_app is accessible as in a Debian session, and its file icons are named by their text', async () => {
    const folder = join(home, 'folder');
    mkdirSync(folder, { recursive: true });
    for (const name of ['alpha.txt', 'beta.txt', 'gamma.txt']) writeFileSync(join(folder, name), name);
    const launched = await callOk(context, 'launch_app', { name: 'pcmanfm', additional_arguments: [folder] });
    const pid = Number(launched.structured.pid);
    try {
      assert.match(String(launched.structured.name), /PCManFM/i, 'the name "pcmanfm" starts the file manager, not its desktop preferences');
      const x = await desktop.x11();
      const window = (await listClientWindows(x)).find((candidate) => candidate.pid === pid && candidate.title === 'folder');
      assert.ok(window, 'the file manager shows the folder');
      // The folder's icons come a moment after the window (later on a loaded machine): pyatspi is asked until it sees them.
      // GTK's icon view decides an item's SHOWING once, when it makes the item's accessible, which may be before it laid
      // the item out (then never showing, as the README's toolkit facts say): a visible item placed on screen counts too.
      const placed = (node: OracleNode) => node.extents !== null && node.extents[0] > -(2 ** 30) && node.extents[1] > -(2 ** 30) && node.extents[2] > 0 && node.extents[3] > 0;
      const iconsNow = async () => (await pyatspiWalk(pid, window.title, desktop.env())).filter((node) => node.role === 'icon' && (showing(node) || (node.states.includes('visible') && placed(node))) && node.actions.length > 0);
      let icons = await iconsNow();
      for (const deadline = Date.now() + 15_000; icons.length < 3 && Date.now() < deadline; await sleep(200)) icons = await iconsNow();
      assert.equal(icons.length, 3, 'pyatspi sees the three file icons');
      const { state } = await accessibleWindowState(context, window, { include_screenshot: false });
      assert.ok(icons.every((icon) => icon.name === ''), 'the case is exercised: GTK 2 leaves the icons unnamed');
      assert.deepEqual(icons.map((icon) => shownAt(state.elements, icon)?.name).sort(), ['alpha.txt', 'beta.txt', 'gamma.txt']);
    } finally {
      if (pid > 0) process.kill(pid, 'SIGKILL');
    }
  });

  test('gtk3-demo info bars: each message is shown, under an alert named by its kind', async () => {
    const { window, stop } = await launch('gtk3-demo', ['--run=infobar'], 'Info Bars');
    try {
      const { result, state } = await accessibleWindowState(context, window, { include_screenshot: false });
      const oracle = await pyatspiWalk(window.pid, window.title, desktop.env());
      const messages = oracle.filter((node) => node.role === 'label' && node.name.startsWith('This is an info bar') && showing(node));
      assert.ok(messages.length >= 4);
      for (const message of messages) assert.equal(shownAt(state.elements, message)?.name ?? state.elements.find((element) => element.name === message.name)?.name, message.name);
      assert.match(result.body ?? '', /alrt "Warning"\n\s+\[e\d+\] txt "This is an info bar with message type GTK_MESSAGE_WARNING"/);
    } finally {
      stop();
    }
  });
});
