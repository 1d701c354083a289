// The live tree mirror on Chromium's web content: a page (test/fixtures/web/mirror.html) changed at random by its
// own script (list items inserted, removed, renamed and made links, a field's value and placeholder, a check box,
// a select, a button's label and disabled state, a status text, items hidden and shown, the heading, the page's
// title, the page scrolled), each change made through the page tool's execute_javascript over the DevTools connection launch_app
// opened. After every change the mirror's reading must equal a fresh walk of the window, both when the mirror
// holds the visible part only (what get_window_state's compact view reads) and when it holds the whole window.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { TreeLimits } from '../../src/platform/desktop.js';
import type { WindowTree } from '../../src/platform/linux/linux-desktop.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { LinuxToolContext } from '../../src/server/session.js';
import { flattenNodes } from '../../src/tui/ui-node.js';
import { TestDesktop } from '../helpers/desktop.js';
import { cup, firstDifference, generator } from '../helpers/mirror-compare.js';
import { launchBrowser, pageUrl, stopBrowser, type Launched } from '../helpers/page-suite.js';
import { callOk, testContext } from '../helpers/tools.js';

const MUTATIONS = Number(process.env.MIRROR_MUTATIONS ?? 40);
const kinds: [number, string][] = [
  [4, 'insert'], [3, 'remove'], [4, 'rename'], [2, 'link'], [3, 'value'], [1, 'placeholder'], [3, 'check'], [2, 'select'],
  [2, 'label'], [2, 'disable'], [2, 'status'], [2, 'hide'], [1, 'title'], [1, 'page-title'], [4, 'scroll'],
];

describe('the live tree mirror on Chromium web content', () => {
  let desktop: TestDesktop;
  let context: LinuxToolContext;
  let browser: Launched | undefined;

  before(async () => {
    desktop = await TestDesktop.start();
    context = testContext();
    browser = await launchBrowser(context, 'chromium', { urls: [pageUrl('mirror.html')], electron_debugging_port: 0, additional_arguments: ['--disable-gpu'] }, 'CUP Web Mirror');
  });

  after(async () => {
    await stopBrowser(browser);
    context?.desktop.close();
    await desktop?.stop();
  });

  async function window(): Promise<ClientWindow> {
    const found = (await context.desktop.windows()).find((candidate) => candidate.id === browser!.windowId);
    assert.ok(found, 'the browser window is still there');
    return found;
  }

  /**
   * A mirror read between two fresh walks that agree (Blink applies a change to its tree a moment after the
   * page made it); the mirror must read what the walks read. Tried again while the page is still settling.
   */
  async function compareSettled(limits: TreeLimits): Promise<{ mirrored: WindowTree; difference?: string; identical: boolean }> {
    for (let attempt = 0; ; attempt++) {
      const now = await window();
      const firstWalk = await context.desktop.readWindowTree(now, { ...limits, fresh: true });
      const mirrored = await context.desktop.readWindowTree(now, limits);
      const secondWalk = await context.desktop.readWindowTree(await window(), { ...limits, fresh: true });
      const [first, second] = [cup(firstWalk), cup(secondWalk)];
      assert.ok(mirrored.read?.root && !mirrored.read.truncated, `the mirror read the window: ${mirrored.missingReason ?? ''}`);
      if (firstDifference(first.root, second.root) !== undefined && attempt < 10) continue;
      const mine = cup(mirrored);
      const sameAs = (walk: typeof first) => firstDifference(mine.root, walk.root) === undefined && JSON.stringify(mine.identities) === JSON.stringify(walk.identities);
      return {
        mirrored,
        difference: firstDifference(mine.root, second.root) ?? firstDifference(mine.root, first.root),
        identical: sameAs(second) || sameAs(first),
      };
    }
  }

  // A read that applies events alone re-reads what they name with its new box; when the page scrolled meanwhile,
  // what is in view must still be judged anew by the next read, though no box it then checks has moved since.
  it('shows what a scroll brought into view after an events-only read re-read the content that moved', async () => {
    const limits: TreeLimits = { maxNodes: 5000, maxDepth: 1000, budgetMs: 10_000, visibleOnly: true };
    const target = { pid: browser!.pid, window_id: browser!.windowId, diff: false };
    const run = async (javascript: string) => callOk(context, 'page', { ...target, action: 'execute_javascript', javascript });
    const settledWalk = async () => {
      for (let attempt = 0; ; attempt++) {
        const [first, second] = [await context.desktop.readWindowTree(await window(), { ...limits, fresh: true }), await context.desktop.readWindowTree(await window(), { ...limits, fresh: true })];
        if (firstDifference(cup(first).root, cup(second).root) === undefined || attempt >= 20) return second;
      }
    };
    // Only the list in view: it is made taller than the window, and its third row put at the window's top.
    await run("for (let i = 0; i < 8; i++) window.mutate('insert', 0, `extra${i}`); document.getElementById('items').children[2].scrollIntoView(); 0");
    await settledWalk();
    await context.desktop.readWindowTree(await window(), limits);
    // One change the list announces (a row added), and the page scrolled to its end in the same task.
    await run("window.mutate('insert', 3, 'moved'); window.scrollTo(0, document.body.scrollHeight); 0");
    const walked = await settledWalk();
    await context.desktop.readWindowTree(await window(), { ...limits, eventsOnly: true });
    const mirrored = await context.desktop.readWindowTree(await window(), limits);
    assert.ok(mirrored.mirror?.fromMirror, `the read came from the mirror (${mirrored.mirror?.walkedBecause})`);
    assert.equal(firstDifference(cup(mirrored).root, cup(walked).root), undefined);
  });

  // Blink announces a new document.title as the window's and the tab's new name, and says nothing of the document
  // it names: the mirror kept the page's first title.
  it('reads the page\'s new title as its document\'s name', async () => {
    const limits: TreeLimits = { maxNodes: 5000, maxDepth: 1000, budgetMs: 10_000, visibleOnly: true };
    const target = { pid: browser!.pid, window_id: browser!.windowId, diff: false };
    const documentName = (tree: WindowTree) => flattenNodes([cup(tree).root!]).find((node) => node.role === 'document')?.name;
    await context.desktop.readWindowTree(await window(), limits);
    for (const word of ['renamed', 'again']) {
      await callOk(context, 'page', { ...target, action: 'execute_javascript', javascript: `window.mutate('page-title', 0, ${JSON.stringify(word)})` });
      let walked: WindowTree;
      for (let attempt = 0; ; attempt++) {
        walked = await context.desktop.readWindowTree(await window(), { ...limits, fresh: true });
        if (documentName(walked) === `CUP Web Mirror ${word}` || attempt >= 20) break;
      }
      assert.equal(documentName(walked), `CUP Web Mirror ${word}`, 'a walk reads the new title');
      const mirrored = await context.desktop.readWindowTree(await window(), limits);
      assert.ok(mirrored.mirror?.fromMirror, `the read came from the mirror (${mirrored.mirror?.walkedBecause})`);
      assert.equal(documentName(mirrored), `CUP Web Mirror ${word}`);
    }
  });

  // Chromium describes its location bar's page-info icon by the page's address and announces only the address bar's
  // new text when a script changes the address (history.pushState): the mirror kept the first address.
  it('reads the browser\'s own UI anew after the page changed its address', async () => {
    const limits: TreeLimits = { maxNodes: 5000, maxDepth: 1000, budgetMs: 10_000 };
    const target = { pid: browser!.pid, window_id: browser!.windowId, diff: false };
    await context.desktop.readWindowTree(await window(), limits);
    for (const step of ['first', 'second']) {
      await callOk(context, 'page', { ...target, action: 'execute_javascript', javascript: `history.pushState({}, '', '#${step}'); 0` });
      const { mirrored, difference } = await compareSettled(limits);
      assert.ok(mirrored.mirror?.fromMirror, `the read came from the mirror (${mirrored.mirror?.walkedBecause})`);
      assert.equal(difference, undefined, `after the address changed to #${step}`);
    }
  });

  for (const visibleOnly of [true, false]) {
    it(`equals a fresh walk after each of ${MUTATIONS} random changes (${visibleOnly ? 'the visible part' : 'the whole window'})`, async (t) => {
      const limits: TreeLimits = { maxNodes: 5000, maxDepth: 1000, budgetMs: 10_000, visibleOnly };
      const seed = Number(process.env.MIRROR_SEED ?? Math.floor(Math.random() * 2 ** 31));
      t.diagnostic(`seed ${seed} (MIRROR_SEED=${seed} replays it)`);
      const random = generator(seed);
      const pick = (n: number) => Math.floor(random() * n);
      const total = kinds.reduce((sum, [weight]) => sum + weight, 0);
      const choose = () => {
        let at = random() * total;
        for (const [weight, kind] of kinds) {
          at -= weight;
          if (at < 0) return kind;
        }
        return kinds[0]![1];
      };
      const target = { pid: browser!.pid, window_id: browser!.windowId };
      await callOk(context, 'page', { ...target, action: 'execute_javascript', javascript: 'window.scrollTo(0, 0); 0' });
      await context.desktop.readWindowTree(await window(), limits);
      const done: string[] = [];
      let fromMirror = 0;
      const walkedBecause = new Map<string, number>();
      for (let i = 0; i < MUTATIONS; i++) {
        const change = [choose(), pick(4000), `w${pick(100_000)}`] as const;
        const answer = await callOk(context, 'page', { ...target, action: 'execute_javascript', javascript: `window.mutate(${change.map((part) => JSON.stringify(part)).join(', ')})` });
        assert.equal(answer.structured.result, JSON.stringify(change[0]), `the page made the change: ${answer.summary}`);
        done.push(change.join(' '));
        const { mirrored, difference, identical } = await compareSettled(limits);
        if (mirrored.mirror?.fromMirror) fromMirror++;
        else walkedBecause.set(mirrored.mirror?.walkedBecause ?? 'no mirror', (walkedBecause.get(mirrored.mirror?.walkedBecause ?? 'no mirror') ?? 0) + 1);
        assert.equal(difference, undefined, `seed ${seed}, change ${i + 1} (${done.at(-1)}), after ${done.slice(-6, -1).join(', ')}: ${difference}`);
        assert.ok(identical, `seed ${seed}, change ${i + 1} (${done.at(-1)}): the same objects in the same order`);
      }
      const walks = [...walkedBecause].map(([reason, count]) => `${count}x ${reason}`).join(', ');
      t.diagnostic(`${fromMirror} of ${MUTATIONS} reads came from the mirror; walked: ${walks || 'never'}`);
      console.log(`live-mirror-web (${visibleOnly ? 'visible part' : 'whole window'}): ${fromMirror} of ${MUTATIONS} reads from the mirror; walked: ${walks || 'never'}`);
      assert.ok(fromMirror >= MUTATIONS / 2, `most reads came from the mirror (${fromMirror}; walked: ${walks})`);
    });
  }
});
