import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import type { CupNode } from '../../src/cup/types.js';
import { listClientWindows, type ClientWindow } from '../../src/platform/linux/windows.js';
import { pageSays, subtree, webDocument, webRig } from '../helpers/web-browser.js';

// Firefox answers for a page from a cache its content process fills only once a client first asks: its first
// attributes answer is empty and the next ones, for a moment, are places counted among siblings. The driver is here
// the browser's first client, as an agent that has just started it; the truth is the page's DOM.

describe("firefox-esr: a page read by the browser's first client", () => {
  const title = 'CUP Web First Client';
  const rig = webRig('firefox-esr', { page: 'first-client', title });

  test("the first read that holds the page places each list item at its aria-posinset of 500, on screen, gives the slider its value and the link its click; so does the next", async () => {
    const x = await rig.desktop.x11();
    let window: ClientWindow | undefined;
    for (const deadline = Date.now() + 30_000; !window; await sleep(100)) {
      window = (await listClientWindows(x)).find((candidate) => candidate.isOnScreen && candidate.title.startsWith(title));
      assert.ok(window || Date.now() < deadline, `no window titled "${title}"`);
    }
    // Reads until one holds the page's three items: the first such read is the first to ask the page's fields.
    let page: CupNode[] = [];
    for (const deadline = Date.now() + 30_000; page.filter((node) => node.role === 'listitem').length < 3; await sleep(100)) {
      const document = await webDocument(rig.context, window, title).catch(() => undefined);
      page = document ? subtree(document) : [];
      assert.ok(Date.now() < deadline, "the page's three list items never showed in a read");
    }
    const truth = await pageSays(rig.oracle, window, /^truth /);
    /** What a read says of the page, in the words of the page's truth line; each item's box as well. */
    const said = (nodes: CupNode[]) => {
      const items = nodes.filter((node) => node.role === 'listitem');
      const level = nodes.find((node) => node.role === 'slider');
      return `truth ${items.map((item) => `${item.name.replace(/^• /, '')}#${item.attributes?.posInSet}/${item.attributes?.setSize}`).join(' ')} level ${level?.value}`;
    };
    const boxed = (nodes: CupNode[]) => nodes.filter((node) => node.role === 'listitem' || node.role === 'slider' || node.role === 'link').every((node) => node.bounds && node.bounds.w > 0 && node.bounds.h > 0);
    const linkActions = (nodes: CupNode[]) => nodes.find((node) => node.role === 'link')?.actions ?? [];
    assert.equal(said(page), truth, 'the first read');
    assert.ok(boxed(page), 'the first read places the items, the slider and the link on screen');
    assert.ok(linkActions(page).includes('click'), `the first read's link can be clicked: ${JSON.stringify(linkActions(page))}`);
    const again = subtree(await webDocument(rig.context, window, title));
    assert.equal(said(again), truth, 'the next read');
    assert.ok(linkActions(again).includes('click'), 'the next read\'s link can be clicked');
  });
});
