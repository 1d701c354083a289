// Page shapes a new user met in a Jupyter notebook and a Sphinx-built documentation site in Chromium and Firefox
// (fixture shapes9.html, the browser's first page, one window for every test): controls an icon font draws, named by
// the browser with the font's private-use character; a block's words around inline links and emphasis. The page's own
// output lines (#out, #said, read by pyatspi) and pyatspi's names and descriptions are the judges. One browser per file.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { callOk } from './tools.js';
import { pageSays, webRig, type BrowserId } from './web-browser.js';

const page = 'shapes9';
const title = 'CUP Web Shapes Nine';
/** The Unicode private use areas, where an icon font's pictures are. */
const iconGlyph = /[\uE000-\uF8FF\u{F0000}-\u{FFFFD}]/u;

export function webShapes9Suite(browser: BrowserId): void {
  describe(`${browser}: page shapes: icon fonts, and words around inline objects`, () => {
    const rig = webRig(browser, { page, title });

    test('a control an icon font draws is named by its title, and a name beside such a picture by its words alone', async () => {
      const window = await rig.open(page, title);
      // The shape: the browser names the buttons and the permalink by the font's character, their titles their descriptions.
      const named = await rig.oracle.attributes(window.pid, window.title, ['push button', 'link', 'heading']);
      const save = named.find((node) => node.description === 'Save and Checkpoint');
      assert.ok(save && iconGlyph.test(save.name) && !/\p{L}/u.test(save.name), JSON.stringify(named.map((node) => [node.role, node.name, node.description])));
      assert.ok(named.some((node) => node.role === 'heading' && iconGlyph.test(node.name) && node.name.startsWith('Widgets manual')), JSON.stringify(named.map((node) => node.name)));
      const read = await callOk(rig.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
      const text = read.body ?? '';
      // Jupyter's toolbar read twelve `btn ""`; the heading "Widgets manual \uf0c1", which name="Widgets manual" missed.
      for (const line of [/btn "Save and Checkpoint"/, /btn "cut selected cells"/, /btn "open the command palette"/, /btn "Run"/, /hdg "Widgets manual" /, /lnk "Permalink to this heading"/, /lnk "Widgets" /]) assert.match(text, line, text);
      assert.doesNotMatch(text, iconGlyph, text);
      assert.doesNotMatch(text, /(?:btn|lnk) "" /, text);
      // Blink's heading, its permalink named, read its words again under it: `txt "Widgets manual"`.
      assert.doesNotMatch(text, /hdg "Widgets manual"[^\n]*\n\s*\[e\d+\] txt "Widgets manual"/, text);
      const heading = await callOk(rig.context, 'find_elements', { window_id: window.id, selector: 'role=heading name="Widgets manual"' });
      assert.equal((heading.structured as { matches: unknown[] }).matches.length, 1, heading.summary);
      await callOk(rig.context, 'click', { window_id: window.id, selector: 'role=button name="Save and Checkpoint"' });
      await pageSays(rig.oracle, window, 'out: save');
      await callOk(rig.context, 'click', { window_id: window.id, selector: 'role=button name="open the command palette"' });
      await pageSays(rig.oracle, window, 'out: palette');
    });

    test('a click on a control whose icon font picture turns says no name or text change of it', async () => {
      const window = await rig.open(page, title);
      await callOk(rig.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
      const closed = await callOk(rig.context, 'click', { window_id: window.id, selector: 'role=button name="Open/close menu"' });
      // The judge: the page closed its list.
      await pageSays(rig.oracle, window, 'out: menu closed');
      const said = `${closed.summary}\n${closed.body ?? ''}`;
      // Its picture turned from a minus to a plus: the evidence read 'button "Open/close menu": name is now ""', then
      // 'text is now ""', of a button every reading names "Open/close menu".
      assert.doesNotMatch(said, /Open\/close menu"?: [^\n]*(?:name|text) is now/, said);
      assert.doesNotMatch(said, /btn "Open\/close menu" name:/, said);
      assert.match(said, /- (?:li|lnk) "Options"/, said);
      await callOk(rig.context, 'click', { window_id: window.id, selector: 'role=button name="Open/close menu"' });
      await pageSays(rig.oracle, window, 'out: menu opened');
    });

    test('an element named by its title whose words are an icon font\'s picture shows no value', async () => {
      const window = await rig.open(page, title);
      await callOk(rig.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
      const edited = await callOk(rig.context, 'click', { window_id: window.id, selector: 'role=button name="Edit cell"' });
      await pageSays(rig.oracle, window, 'out: edit mode');
      // The shape: the indicator's words are the pencil's character alone.
      const texts = await rig.oracle.texts(window.pid, window.title);
      assert.ok(texts.some((text) => iconGlyph.test(text) && !/\p{L}/u.test(text)), JSON.stringify(texts));
      const said = `${edited.summary}\n${edited.body ?? ''}`;
      // Jupyter's mode indicator read `rgn name: "Command Mode" → "Edit Mode"; value: "" → ""`, the pencil's U+F040 its value.
      assert.match(said, /"Command Mode" → "Edit Mode"/, said);
      assert.doesNotMatch(said, /Edit Mode"[^\n]*value/, said);
      // The box around the indicator, whose object Gecko made anew, read 'region: text is now " Edit cell"'.
      assert.doesNotMatch(said, /region: text is now/, said);
      const read = await callOk(rig.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
      assert.doesNotMatch(read.body ?? '', iconGlyph, read.body);
      assert.doesNotMatch(read.body ?? '', /"Edit Mode"[^\n]*val=/, read.body);
    });

    test('a web menu whose items each lie in a titled container says all its items opened, not only its submenu', async () => {
      const window = await rig.open(page, title);
      await callOk(rig.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
      const opened = await callOk(rig.context, 'click', { window_id: window.id, selector: 'role=button name=Cell' });
      // The judge: the menu items pyatspi finds under the menu, once it shows them.
      let items: string[] = [];
      for (const deadline = Date.now() + 5000; items.length === 0 && Date.now() < deadline; await sleep(100)) items = await rig.oracle.menuItems(window.pid, window.title, 'menu', 'Cell').catch(() => []);
      assert.ok(items.length >= 4, JSON.stringify(items));
      const said = `${opened.summary}\n${opened.body ?? ''}`;
      // Jupyter's Cell menu of nine items read "menu opened over the window ([e294] "Cell"): 2 items", its submenus.
      const line = /menu opened over the window \(\[e\d+\] "Cell"\): (\d+) items, ([^\n]*)/.exec(said);
      assert.ok(line, said);
      assert.equal(Number(line[1]), items.length, said);
      for (const item of items) assert.ok(line[2]!.includes(JSON.stringify(item)), `${item} not in: ${line[0]}`);
      // The box holding the menu, whose text took the menu's object, read 'region: text is now "Cell• \n• \n• \n\n• "'.
      assert.doesNotMatch(said, /text is now "Cell/, said);
      await callOk(rig.context, 'click', { window_id: window.id, selector: 'role=menuitem name="Run All"' });
      await pageSays(rig.oracle, window, 'out: run all');
    });

    test('a dialog the page names nothing is named by the heading it shows as its title', async () => {
      const window = await rig.open(page, title);
      await callOk(rig.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
      const asked = await callOk(rig.context, 'click', { window_id: window.id, selector: 'role=button name="Restart kernel"' });
      // The shape: the browser names the dialog nothing.
      let dialogs: string[] = [];
      for (const deadline = Date.now() + 5000; dialogs.length === 0 && Date.now() < deadline; await sleep(100)) dialogs = (await rig.oracle.attributes(window.pid, window.title, ['dialog'])).map((dialog) => dialog.name);
      assert.deepEqual(dialogs, [''], JSON.stringify(dialogs));
      const said = `${asked.summary}\n${asked.body ?? ''}`;
      // Jupyter's read 'dialog "" opened in the window ([e289])' and `+ [e289] dlg`.
      assert.match(said, /dialog "Restart kernel\?" opened in the window/, said);
      await callOk(rig.context, 'click', { window_id: window.id, selector: 'role=dialog name="Restart kernel?" >> role=button name=Restart' });
      await pageSays(rig.oracle, window, 'out: restart');
    });

    test('a block\'s words around links and emphasis read in order with their words, not with holes', async () => {
      const window = await rig.open(page, title);
      // The judge: the page's own words for the paragraph and the footer.
      const said = await pageSays(rig.oracle, window, /^said: /);
      const [cell, footer] = said.slice('said: '.length).split(' | ') as [string, string];
      const read = await callOk(rig.context, 'get_window_state', { window_id: window.id, include_screenshot: false });
      const text = read.body ?? '';
      // Gecko's paragraph read `txt "Some ."` over `txt "text"`, its footer `rgn "Built with using a provided by ."`.
      assert.doesNotMatch(text, /"Some \."|"Built with using a/, text);
      const lines = text.split('\n').filter((line) => !line.includes('said: '));
      // The words in reading order: one line naming the whole sentence (Gecko's block), or lines in turn (Blink's texts).
      const inOrder = (sentence: string) => {
        const quoted = lines.map((line) => /"((?:[^"\\]|\\.)*)"/.exec(line)?.[1] ?? '');
        if (quoted.includes(sentence)) return true;
        const start = quoted.findIndex((words) => words !== '' && sentence.startsWith(words));
        return start >= 0 && quoted.slice(start).filter((words) => words !== '').join(' ').replace(/ (?=[.,])/g, '').startsWith(sentence);
      };
      assert.ok(inOrder(cell), `"${cell}" not read in order:\n${text}`);
      assert.ok(inOrder(footer), `"${footer}" not read in order:\n${text}`);
      // A code editor's empty line, a zero-width space, read `rgn "\u200b"`, a line of nothing between its lines of code.
      assert.doesNotMatch(text, /\u200b/u, text);
      assert.match(text, /txt "x = 6 \* 7"\n\s*\[e\d+\] txt "print\(x\)"/, text);
      // Its links are still lines of their own, to click.
      for (const link of ['Sphinx', 'theme', 'Read the Docs']) assert.match(text, new RegExp(`lnk "${link}" `), text);
    });
  });
}
