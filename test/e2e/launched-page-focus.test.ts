import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import type { CupNode } from '../../src/cup/types.js';
import { desktopRig } from '../helpers/desktop-rig.js';
import { launchBrowser, pageUrl, stopBrowser, waitForText, type Launched } from '../helpers/page-suite.js';
import { callOk, type Element } from '../helpers/tools.js';
import { subtree } from '../helpers/web-browser.js';

// A new user's page opened the way an agent opens it: launch_app on a file of its own, in the profile launch_app makes
// (Firefox keeps its New Tab page loaded in a hidden document behind the page, with links of its own). The judges are
// the page's own line and pyatspi's states.

const pageTitle = 'CUP Web Name Field';

for (const name of ['firefox-esr', 'chromium'] as const) {
  describe(`${name} launched on a page of its own: the focused field and the page's links`, () => {
    let browser: Launched | undefined;
    after(() => stopBrowser(browser));
    const rig = desktopRig();
    before(async () => {
      browser = await launchBrowser(rig.context, name, { urls: [pageUrl('name-field.html')], ...(name === 'chromium' ? { additional_arguments: ['--disable-gpu'] } : {}) }, pageTitle);
    });

    test('typing with no element goes into the field the user clicked into, as the page echoes', async () => {
      const { windowId } = browser!;
      const found = await callOk(rig.context, 'find_elements', { window_id: windowId, selector: 'role=textbox name="Your name"' });
      const [field] = found.structured.matches as Element[];
      assert.ok(field, found.summary);
      // A person's click into the field: real input (Blink focuses no field for a click sent in the background).
      await callOk(rig.context, 'click', { window_id: windowId, element_index: field.index, delivery_mode: 'foreground' });
      let states: string[] = [];
      for (const deadline = Date.now() + 5000; !states.includes('focused') && Date.now() < deadline; await sleep(100)) {
        states = (await rig.oracle.find(browser!.pid, browser!.title, 'entry', 'Your name')).states ?? [];
      }
      assert.ok(states.includes('focused'), `pyatspi reads the field focused after the click: ${states.join(' ')}`);
      const typed = await callOk(rig.context, 'type_text', { window_id: windowId, text: 'Ada' });
      assert.equal(typed.structured.effect, 'confirmed', typed.summary);
      await waitForText(rig.oracle, browser!, 'name is Ada');
      // A newline in the one-line field is a Return press: the form is sent, with the text before it.
      const sent = await callOk(rig.context, 'type_text', { window_id: windowId, text: ' Lovelace\n' });
      assert.equal(sent.structured.effect, 'confirmed', sent.summary);
      await waitForText(rig.oracle, browser!, 'sent Ada Lovelace');
    });

    test('no other window comes with it: GNOME\'s keyring, on the machine as on a Debian desktop, asks nothing of a fresh profile', async () => {
      // After the form was sent (a page's data to keep): every window the window manager lists is the browser's, as xprop
      // reads them (the keyring's password prompt, over the page and holding the keyboard, has no name to search by).
      const xprop = async (...args: string[]) => (await promisify(execFile)('xprop', args, { env: rig.desktop.env(), timeout: 5000 })).stdout;
      const listed = (await xprop('-root', '_NET_CLIENT_LIST')).match(/0x[0-9a-f]+/gi) ?? [];
      const owners = await Promise.all(listed.map(async (id) => ({ id, pid: Number(/= (\d+)/.exec(await xprop('-id', id, '_NET_WM_PID'))?.[1] ?? 0), name: (await xprop('-id', id, 'WM_NAME', 'WM_CLASS')).trim() })));
      assert.ok(owners.some((window) => window.pid === browser!.pid), `xprop lists the browser's window: ${JSON.stringify(owners)}`);
      const others = owners.filter((window) => window.pid !== browser!.pid);
      assert.deepEqual(others, [], `windows of other programs: ${JSON.stringify(others)}`);
    });

    test("the page's links are matched, a hidden document's are not; the tree marks them hidden, and asking hidden finds them", async () => {
      const { windowId, pid, title } = browser!;
      const links = await rig.oracle.attributes(pid, title, ['link']);
      const shown = links.filter((link) => link.states.includes('showing')).map((link) => link.name);
      const unshown = links.filter((link) => !link.states.includes('showing')).map((link) => link.name);
      assert.deepEqual(shown, ['Help'], `pyatspi reads the page's one link shown: ${JSON.stringify(links.map((link) => [link.name, link.states]))}`);
      // The case under test: Firefox's New Tab page, loaded and not shown, holds links (Chromium keeps none).
      if (name === 'firefox-esr') assert.ok(unshown.length > 0, 'pyatspi reads links that are not shown');

      const found = await callOk(rig.context, 'find_elements', { window_id: windowId, selector: 'role=link' });
      assert.deepEqual((found.structured.matches as Element[]).map((match) => match.name), shown, found.summary);
      if (unshown.length > 0) assert.match(found.summary, /hidden/, 'the result says links of hidden documents were left out');

      const compact = (await callOk(rig.context, 'get_window_state', { window_id: windowId, include_screenshot: false })).body ?? '';
      for (const link of unshown) assert.ok(!compact.includes(`lnk "${link}"`), `the compact view shows the hidden link "${link}"`);
      const full = await callOk(rig.context, 'get_window_state', { window_id: windowId, include_screenshot: false, detail: 'full', format: 'json' });
      const nodes = (JSON.parse(full.body!) as { tree: CupNode[] }).tree.flatMap(subtree);
      for (const link of nodes.filter((node) => node.role === 'link' && unshown.includes(node.name))) {
        assert.ok(link.states?.includes('hidden'), `the full tree marks ${link.id} "${link.name}" hidden: ${JSON.stringify(link.states)}`);
      }

      const asked = await callOk(rig.context, 'find_elements', { window_id: windowId, selector: 'role=link hidden' });
      assert.deepEqual((asked.structured.matches as Element[]).map((match) => match.name).sort(), [...unshown].sort(), asked.summary);

      // A name that matches nothing is answered with the nearest names of what is shown, not of a hidden document's
      // links: a misspelt New Tab link's name had been answered with that link's name.
      for (const link of unshown.slice(0, 2)) {
        const missed = await callOk(rig.context, 'find_elements', { window_id: windowId, selector: `name="${link}zq"` });
        assert.equal((missed.structured.matches as Element[]).length, 0, missed.summary);
        assert.ok(!((missed.structured.nearest_names as string[] | undefined) ?? []).includes(link), `"${link}" of a hidden document is suggested: ${missed.summary}`);
      }
    });
  });
}
