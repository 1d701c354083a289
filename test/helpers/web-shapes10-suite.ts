// Page shapes a new user met in a chat app, a data table's pager and a settings page in Chromium and Firefox (fixture
// shapes10.html, the browser's first page, one window for every test): a chat log that puts older messages before its
// first as it is scrolled up; containers that write words between the objects they hold. The page's own output lines
// (#out, #seen, #said, read by pyatspi) and pyatspi's texts are the judges. One browser per file.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { callOk } from './tools.js';
import { pageSays, webRig, type BrowserId } from './web-browser.js';

const page = 'shapes10';
const title = 'CUP Web Shapes Ten';

/** The messages the page says are wholly in its chat's view, by number. */
function seenMessages(line: string): number[] {
  return line.slice('seen: '.length).split(',').map(Number);
}

export function webShapes10Suite(browser: BrowserId): void {
  describe(`${browser}: page shapes: a chat that loads older messages, and words between a container's objects`, () => {
    const rig = webRig(browser, { page, title });

    test('a chat scrolled up to its top, where older messages come before the first: the evidence says it scrolled up, as the page\'s messages in view do', async () => {
      const window = await rig.open(page, title);
      const before = seenMessages(await pageSays(rig.oracle, window, /^seen: \d/));
      assert.equal(before.at(-1), 99, String(before));
      await callOk(rig.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
      const scrolled = await callOk(rig.context, 'scroll', { window_id: window.id, selector: 'name=Chat', direction: 'up', amount: 3, delivery_mode: 'foreground' });
      // The judge: the page loaded older messages, and those in view now come before those in view then.
      await pageSays(rig.oracle, window, 'out: loaded older to 80');
      const after = seenMessages(await pageSays(rig.oracle, window, /^seen: \d/));
      assert.ok(after[0]! < before[0]!, `seen ${String(before)}, then ${String(after)}`);
      const said = `${scrolled.summary}\n${scrolled.body ?? ''}`;
      // The new first message's box was read against the old first one's: "the region's content moved 106 px up
      // (scrolled down)" of a scroll up, where the messages in view went from 96-99 to 90-93.
      assert.doesNotMatch(said, /content moved \d+ px up \(scrolled down\)/, said);
      assert.match(said, /content moved \d+ px down \(scrolled up\)/, said);
    });

    test('words a container writes between the objects it holds are read: a pager\'s page, a dialog\'s sentence, a toolbar\'s count', async () => {
      const window = await rig.open(page, title);
      // The judge: the words each container holds outside its objects, as the page has them.
      const said = await pageSays(rig.oracle, window, /^said: ./);
      const sentences = said.slice('said: '.length).split(' | ');
      assert.equal(sentences.length, 5, said);
      const read = await callOk(rig.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
      const text = read.body ?? '';
      // Firefox's nav read `nav "Pagination"` over its two buttons, its dialog `dlg "Delete file?"` over its heading and
      // buttons: "Page 1 of 3" and "This cannot be undone." were in no node.
      for (const sentence of sentences) assert.ok(text.includes(`"${sentence}"`), `"${sentence}" not read:\n${text}`);
      // Sought where each browser puts them: Gecko's nav holds them (its value), Blink's a text of its own.
      const selector = browser === 'firefox-esr' ? 'role=navigation value="Page 1 of 3"' : 'role=navigation >> name="Page 1 of 3"';
      const found = await callOk(rig.context, 'find_elements', { window_id: window.id, selector });
      assert.equal((found.structured as { matches: unknown[] }).matches.length, 1, found.summary);
      const turned = await callOk(rig.context, 'click', { window_id: window.id, selector: 'role=button name=Next' });
      await pageSays(rig.oracle, window, 'out: page 2');
      // The page's new words are in the click's result, as the page's line says them.
      assert.match(`${turned.summary}\n${turned.body ?? ''}`, /"Page 2 of 3"/, turned.body);
      await callOk(rig.context, 'click', { window_id: window.id, selector: 'role=button name=Previous' });
      await pageSays(rig.oracle, window, 'out: page 1');
    });
  });
}
