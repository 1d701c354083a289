// type_text and set_value into a web page's fields in the background, through the browser's debugging
// connection, while another window is the active one on top: a text field, a password, a textarea, a
// contenteditable, a field inside a same-origin iframe and one inside an open shadow root. The browser is
// started by launch_app with a debugging port on a private desktop; what the fields hold is judged by the
// page's own output and by pyatspi, the active window by xprop. Run once per browser (web-devtools-*.test.ts).
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { listClientWindows, type ClientWindow } from '../../src/platform/linux/windows.js';
import type { LinuxToolContext } from '../../src/server/session.js';
import { runTool } from '../../src/tools/run.js';
import { TestDesktop } from './desktop.js';
import { PyatspiOracle } from './oracle.js';
import { launchBrowser, pageUrl, stopBrowser, type Launched } from './page-suite.js';
import { callOk, testContext } from './tools.js';
import { act, element, elements, pageSays } from './web-browser.js';
import { XReaders } from './x-readers.js';

export function devtoolsTypingSuite(browser: 'chromium' | 'firefox'): void {
  describe(`${browser} behind another window: typing into a page's fields through its debugging connection`, () => {
    let desktop: TestDesktop;
    let context: LinuxToolContext;
    let oracle: PyatspiOracle;
    let readers: XReaders;
    let launched: Launched | undefined;
    let cover: ClientWindow;

    /** The browser's window as the X server lists it now (its title follows the page). */
    async function browserWindow(title: string): Promise<ClientWindow> {
      const x = await desktop.x11();
      for (const deadline = Date.now() + 15_000; ; await sleep(100)) {
        const window = (await listClientWindows(x)).find((candidate) => candidate.id === launched!.windowId);
        if (window?.title.startsWith(title)) return window;
        assert.ok(Date.now() < deadline, `the browser's window is titled "${window?.title}", not "${title}…"`);
      }
    }

    /** Loads a fixture page in the browser's window through the page tool, and waits for its document in the tree. */
    async function open(page: string, title: string): Promise<ClientWindow> {
      await callOk(context, 'page', { window_id: launched!.windowId, action: 'navigate', url: pageUrl(`${page}.html`) });
      const window = await browserWindow(title);
      for (const deadline = Date.now() + 15_000; !(await oracle.find(window.pid, window.title, 'document web', title)).found; await sleep(200)) {
        assert.ok(Date.now() < deadline, `pyatspi never found the document "${title}"`);
      }
      return window;
    }

    /** Runs the action on the field and checks it went through the page, in the background, with the cover still active. */
    /** How long each call through the page took (the snapshot that finds the element excluded), for the file's diagnostics. */
    const timings: string[] = [];

    async function throughPage(window: ClientWindow, tool: 'type_text' | 'set_value', role: string, name: string, text: string) {
      const target = await element(context, window, role, name);
      const started = Date.now();
      const result = await callOk(context, tool, { window_id: window.id, element_index: target.index, ...(tool === 'type_text' ? { text } : { value: text }) });
      timings.push(`${tool} ${name}: ${Date.now() - started} ms`);
      const done = { summary: result.summary, ...(result.structured as { effect: string; path: string }) };
      assert.equal(done.effect, 'confirmed', `${tool} "${text}" into ${role} "${name}": ${done.summary}`);
      assert.equal(done.path, 'devtools', done.summary);
      assert.match(done.summary, /via devtools/);
      assert.equal(await readers.activeWindow(), cover.id, `${tool} into "${name}" changed the active window`);
      return (result.structured as { evidence?: string[] }).evidence ?? [];
    }

    /** The field's text as pyatspi reads it, once it is the expected one. */
    async function pyatspiReads(window: ClientWindow, name: string, expected: string): Promise<void> {
      let text: string | undefined;
      for (const deadline = Date.now() + 5000; Date.now() < deadline; await sleep(100)) {
        text = (await oracle.find(window.pid, window.title, 'entry', name)).text;
        if (text === expected) return;
      }
      assert.fail(`pyatspi reads ${JSON.stringify(text)} in "${name}", not ${JSON.stringify(expected)}`);
    }

    before(async () => {
      desktop = await TestDesktop.start();
      context = testContext();
      oracle = new PyatspiOracle(desktop.env());
      readers = new XReaders(desktop.env());
      const extra = browser === 'chromium' ? { additional_arguments: ['--disable-gpu'] } : {};
      launched = await launchBrowser(context, browser === 'chromium' ? 'chromium' : 'firefox-esr', { urls: [pageUrl('fields.html')], electron_debugging_port: 0, ...extra }, 'CUP Web Fields');
      // Another app's window opens on top and is the active one from here on.
      cover = (await desktop.launchFixture('gtk3', { title: 'Cover' })).window;
      for (const deadline = Date.now() + 5000; (await readers.activeWindow()) !== cover.id; await sleep(50)) {
        assert.ok(Date.now() < deadline, 'the covering window never became the active one');
      }
      assert.equal(await readers.frontMost([cover.id, launched.windowId]), cover.id, 'the cover is in front of the browser');
    });

    after(async () => {
      if (timings.length > 0) console.log(`# ${browser}: ${timings.join('; ')}`);
      oracle?.close();
      context?.desktop.close();
      await stopBrowser(launched);
      await desktop?.stop();
    });

    test('a text field, a password, a textarea and a contenteditable take type_text and set_value; the page\'s input events report them', async () => {
      const window = await browserWindow('CUP Web Fields');
      await throughPage(window, 'type_text', 'textbox', 'User name', 'Ada');
      await throughPage(window, 'type_text', 'textbox', 'User name', ' Lovelace');
      await pyatspiReads(window, 'User name', 'Ada Lovelace');
      await throughPage(window, 'set_value', 'textbox', 'User name', 'Grace Hopper');
      await throughPage(window, 'type_text', 'textbox', 'Password', 'secret');
      await throughPage(window, 'type_text', 'textbox', 'Comments', 'Leave it');
      const twoLines = await throughPage(window, 'set_value', 'textbox', 'Comments', 'Ring twice\nthen wait');
      assert.ok(twoLines.some((line) => line.includes('"Ring twice\\nthen wait"')), `the evidence writes the line break: ${twoLines.join(' | ')}`);
      await throughPage(window, 'type_text', 'textbox', 'Notes', 'Fragile');
      await throughPage(window, 'set_value', 'textbox', 'Notes', 'Handle with care');
      // The log is written by the page's own input listeners: the text arrived as typing, not as a silent value change.
      await pageSays(
        oracle,
        window,
        'cause=input | user=Grace Hopper | password=6 chars | quantity=1 | guests=2 | floor=3 | volume=50 | colour=Red | toppings= | size= | subscribe=no | comments=Ring twice then wait | notes=Handle with care | arrival= | start=',
      );
      await pyatspiReads(window, 'User name', 'Grace Hopper');
      await pyatspiReads(window, 'Comments', 'Ring twice\nthen wait');
      await pyatspiReads(window, 'Notes', 'Handle with care');
      assert.equal((await oracle.find(window.pid, window.title, 'password text', 'Password')).text?.length, 6);
    });

    test('a date and a time field take set_value written as the page writes them; a date written otherwise is refused and the field keeps its date', async () => {
      const window = await open('fields', 'CUP Web Fields');
      // Before: the parts are empty, which the compact view shows without a value (Blink reports 0 against 1..12).
      const month = (await elements(context, window)).find((candidate) => candidate.role === 'spinbutton' && /^Month/.test(candidate.name));
      assert.ok(month, 'the date field shows its month part');
      if (browser === 'chromium') assert.equal(month.value, undefined, `an empty month part has no value: ${JSON.stringify(month)}`);
      // An empty minutes part reports 0 of 0..59 in Blink, inside its range: it read as holding 0 (val="0").
      const minutes = (await elements(context, window)).find((candidate) => candidate.role === 'spinbutton' && /^Minutes/.test(candidate.name));
      assert.ok(minutes, 'the time field shows its minutes part');
      if (browser === 'chromium') assert.equal(minutes.value, undefined, `an empty minutes part has no value: ${JSON.stringify(minutes)}`);
      const date = await throughPage(window, 'set_value', 'group', 'Arrival', '2024-05-01');
      assert.ok(date.some((line) => /parts went from .* to .*2024/.test(line)), `the parts read back: ${date.join(' | ')}`);
      // A part's value told in the evidence is the one the tree shows, the number the part shows: Gecko's parts announce a
      // Value of 0, and the evidence read 'spinbutton "Year": text is now "2024", value is now "0"'.
      const toldValues = date.flatMap((line) => [...line.matchAll(/spinbutton "([^"]*)".*?value is now "([^"]*)"/g)].map((match) => [match[1]!.replace(/ Arrival$/, ''), match[2]!]));
      const shown: Record<string, string> = { Year: '2024', Month: '5', Day: '1' };
      for (const [part, value] of toldValues) assert.equal(value, shown[part!], `the evidence's value of the ${part} part: ${date.join(' | ')}`);
      await throughPage(window, 'set_value', 'group', 'Start time', '14:30');
      await pageSays(oracle, window, /^cause=change \| .* \| arrival=2024-05-01 \| start=14:30$/);
      // A minutes part that holds 0 says so, as pyatspi reads the page's "00".
      await throughPage(window, 'set_value', 'group', 'Start time', '14:00');
      await pageSays(oracle, window, /^cause=change \| .* \| arrival=2024-05-01 \| start=14:00$/);
      const zero = (await elements(context, window)).find((candidate) => candidate.role === 'spinbutton' && /^Minutes/.test(candidate.name));
      assert.equal(zero?.value, '0', `minutes set to 0 hold 0: ${JSON.stringify(zero)}`);
      const year = await oracle.find(window.pid, window.title, 'spin button', browser === 'chromium' ? 'Year Arrival' : 'Year');
      assert.ok(year.value === 2024 || year.text === '2024', `pyatspi reads the year part: ${JSON.stringify(year)}`);
      // Our reading says what the part holds too (Gecko's parts report 0 as their value and show the number as text).
      const yearPart = (await elements(context, window)).find((candidate) => candidate.role === 'spinbutton' && /^Year/.test(candidate.name));
      assert.equal(yearPart?.value, '2024', JSON.stringify(yearPart));
      // A date as a user might write it is not the page's form: refused, naming the form, and nothing is lost.
      const target = await element(context, window, 'group', 'Arrival');
      const refused = await runTool('set_value', { window_id: window.id, element_index: target.index, value: '05/01/2024' }, context);
      assert.equal(refused.ok, false, refused.summary);
      assert.equal(refused.structured.error, 'invalid_value', refused.summary);
      assert.match(refused.summary, /YYYY-MM-DD/);
      // Written as the page writes a date, and no such day: the refusal says so, where it asked for the form it had.
      const noDay = await runTool('set_value', { window_id: window.id, element_index: target.index, value: '2024-02-30' }, context);
      assert.equal(noDay.structured.error, 'invalid_value', noDay.summary);
      assert.match(noDay.summary, /"2024-02-30" is written as the page writes a date, so it names no real date/, noDay.summary);
      assert.equal(await callOk(context, 'page', { window_id: window.id, action: 'execute_javascript', javascript: "document.getElementById('arrival').value" }).then((r) => r.structured.result), JSON.stringify('2024-05-01'));
    });

    test('a line typed with Return into a field the page empties on Return: the page adds it, behind the other window; a bare Return on the empty field is no effect', async () => {
      const window = await open('tasks', 'CUP Web Tasks');
      // Blink takes the Return through its debugging connection; Gecko takes key events behind other windows.
      const path = browser === 'chromium' ? 'devtools' : 'key_events';
      const typeInto = async (text: string) => {
        const target = await element(context, window, 'textbox', 'New task');
        const result = await callOk(context, 'type_text', { window_id: window.id, element_index: target.index, text });
        return { summary: result.summary, ...(result.structured as { effect: string; path: string }) };
      };
      const added = await typeInto('Buy milk\n');
      assert.deepEqual([added.effect, added.path], ['confirmed', path], added.summary);
      await pageSays(oracle, window, 'tasks: Buy milk');
      await pyatspiReads(window, 'New task', '');
      const bare = await typeInto('\n');
      assert.equal(bare.effect, 'suspected_noop', bare.summary);
      assert.deepEqual([(await typeInto('Walk dog')).effect, (await typeInto('\n')).effect], ['confirmed', 'confirmed']);
      const two = await typeInto('Feed cat\nWater plants\n');
      assert.deepEqual([two.effect, two.path], ['confirmed', path], two.summary);
      await pageSays(oracle, window, 'tasks: Buy milk, Walk dog, Feed cat, Water plants');
      assert.equal(await readers.activeWindow(), cover.id, 'the typing changed the active window');
    });

    test('a line typed with Return into a contenteditable box the page empties on Return: the result\'s diff shows the item the page added and the box emptied', async () => {
      const window = await open('todo', 'CUP Web Todo');
      const path = browser === 'chromium' ? 'devtools' : 'key_events';
      type Diff = { added: { role: string; name: string }[]; changed: { role: string; name: string; changes: { value?: { from?: string; to?: string } } }[] };
      for (const [line, said] of [['Call mum', 'Call mum'], ['Water plants', 'Call mum|Water plants']]) {
        const target = await element(context, window, 'textbox', 'New todo');
        // The diff is asked for: a window that read slowly under load (over 700 ms) has actions skip it for a while.
        const result = await callOk(context, 'type_text', { window_id: window.id, element_index: target.index, text: `${line}\n`, diff: true });
        const done = result.structured as { effect: string; path: string; diff?: Diff };
        // The whole result, evidence and escalation too: a failure under CI's load has to say what was seen.
        assert.deepEqual([done.effect, done.path], ['confirmed', path], `${line}: ${result.summary}\n${JSON.stringify({ ...done, diff: undefined })}`);
        await pageSays(oracle, window, `out: todos=${said} notes=Milk`);
        // Chromium tells the Return's effect a moment after the typed line: the diff had read the box holding the line
        // and no item added, while the page had emptied the box and listed the item.
        assert.ok(done.diff?.added.some((node) => node.role === 'checkbox' && node.name === line), `the item's check box is in the diff: ${JSON.stringify(done.diff)}`);
        assert.ok(!done.diff?.changed.some((node) => node.name === 'New todo' && node.changes.value?.to === line), `the box is not said to hold the line: ${JSON.stringify(done.diff)}`);
      }
    });

    test('a query typed with Return into a search box that keeps it: the page runs the search, and the result says the box shows the text', async () => {
      const window = await open('tasks', 'CUP Web Tasks');
      const target = await element(context, window, 'textbox', 'Find task');
      const result = await callOk(context, 'type_text', { window_id: window.id, element_index: target.index, text: 'milk\n' });
      assert.equal((result.structured as { effect: string }).effect, 'confirmed', result.summary);
      await pageSays(oracle, window, 'searched: milk');
      await pyatspiReads(window, 'Find task', 'milk');
      const evidence = ((result.structured as { evidence?: string[] }).evidence ?? []).join('\n');
      assert.match(evidence, /\[e\d+\] shows the typed text/);
      assert.doesNotMatch(evidence, /does not keep/);
      assert.equal(await readers.activeWindow(), cover.id);
    });

    test('keys pressed behind the other window go to the page\'s focused element (Blink\'s through the debugging connection, Gecko\'s as key events): the page hears them, and the cover stays active', async () => {
      const window = await open('keys', 'CUP Web Keys');
      // The page puts its focus on the Country field itself: no click, which would raise the window.
      await callOk(context, 'page', { window_id: window.id, action: 'execute_javascript', javascript: "document.getElementById('country').focus()" });
      const path = browser === 'chromium' ? 'devtools' : 'key_events';
      const press = async (args: Record<string, unknown>) => {
        const result = await callOk(context, 'press_key', { window_id: window.id, ...args });
        return { summary: result.summary, ...(result.structured as { effect: string; path: string; evidence?: string[] }) };
      };
      // No element: the page's focused field takes the Tab, which moves its focus to the Actions button.
      const tab = await press({ key: 'Tab' });
      await pageSays(oracle, window, 'key Tab on country');
      assert.deepEqual([tab.effect, tab.path], ['confirmed', path], tab.summary);
      // The button the Tab focused: Down opens its menu, as the page's own handler does for a person's key.
      const down = await press({ key: 'Down' });
      await pageSays(oracle, window, 'key ArrowDown on actions');
      await pageSays(oracle, window, 'menu open');
      assert.deepEqual([down.effect, down.path], ['confirmed', path], down.summary);
      // A named element without the page's focus (it is on the menu now) is given it first: "B" typed into Country
      // shows its suggestions, and Down picks the first.
      const country = await element(context, window, 'combobox', 'Country');
      const typed = await press({ element_index: country.index, key: 'b' });
      await pageSays(oracle, window, 'key b on country');
      assert.deepEqual([typed.effect, typed.path], ['confirmed', path], typed.summary);
      await callOk(context, 'press_key', { window_id: window.id, element_index: country.index, key: 'Down' });
      await pageSays(oracle, window, 'key ArrowDown on country');
      const picked = await press({ element_index: country.index, key: 'Return' });
      await pageSays(oracle, window, 'country=Belgium');
      assert.equal(picked.effect, 'confirmed', picked.summary);
      assert.equal(await readers.activeWindow(), cover.id, 'the keys changed the active window');
    });

    test('text typed with no element behind the other window goes to the field the page focused, as a person\'s typing would', async () => {
      // Focused by the page's own script right after it loads: Blink names only its document focused then.
      const window = await open('keys', 'CUP Web Keys');
      await callOk(context, 'page', { window_id: window.id, action: 'execute_javascript', javascript: "document.getElementById('country').focus()" });
      const result = await callOk(context, 'type_text', { window_id: window.id, text: 'Bel' });
      const done = { summary: result.summary, ...(result.structured as { effect: string; path: string; evidence?: string[] }) };
      assert.deepEqual([done.effect, done.path], ['confirmed', 'devtools'], `${done.summary} ${JSON.stringify(done.evidence)}`);
      // The page's own field, and its suggestions, which its input handler filled.
      const held = await callOk(context, 'page', { window_id: window.id, action: 'execute_javascript', javascript: "document.getElementById('country').value + ':' + document.getElementById('countries').textContent" });
      assert.equal(held.structured.result, JSON.stringify('Bel:Belgium'));
      assert.equal(await readers.activeWindow(), cover.id, 'the typing changed the active window');
    });

    test('a field inside a same-origin iframe takes set_value and type_text; the frame\'s page sees them', async () => {
      const window = await open('iframe', 'CUP Web Frame');
      await throughPage(window, 'set_value', 'textbox', 'Inner field', 'Grace');
      await throughPage(window, 'type_text', 'textbox', 'Inner field', ' Hopper');
      await pyatspiReads(window, 'Inner field', 'Grace Hopper');
      const clicked = await act(context, window, 'click', 'button', 'Inner button');
      assert.equal(clicked.effect, 'confirmed', clicked.summary);
      await pageSays(oracle, window, 'inner clicked: Grace Hopper / option off');
      assert.equal(await readers.activeWindow(), cover.id);
    });

    test('a field inside an open shadow root takes type_text and set_value; the widget sees them', async () => {
      const window = await open('shadow', 'CUP Web Shadow');
      await throughPage(window, 'type_text', 'textbox', 'Greeting name', 'Bob');
      await throughPage(window, 'set_value', 'textbox', 'Greeting name', 'Ada');
      await pyatspiReads(window, 'Greeting name', 'Ada');
      const greeted = await act(context, window, 'click', 'button', 'Greet');
      assert.equal(greeted.effect, 'confirmed', greeted.summary);
      await pageSays(oracle, window, 'hello Ada');
      assert.equal(await readers.activeWindow(), cover.id);
    });

    test('a field below the fold is scrolled into view through accessibility, then typed into through the page', async () => {
      const window = await open('long', 'CUP Web Long');
      assert.ok(!(await oracle.find(window.pid, window.title, 'entry', 'Bottom field')).states?.includes('showing'), 'the field starts out of view');
      await throughPage(window, 'type_text', 'textbox', 'Bottom field', 'Deep');
      await pyatspiReads(window, 'Bottom field', 'Deep');
      const clicked = await act(context, window, 'click', 'button', 'Bottom button');
      assert.equal(clicked.effect, 'confirmed', clicked.summary);
      await pageSays(oracle, window, 'bottom clicked: Deep / option off');
    });

    test('a field that another element of the page covers is not the node at its centre: the page is not typed into, and the result says why', async () => {
      const window = await browserWindow('CUP Web Long');
      // A plain box of the page's own over the field (it takes the pointer, as a cookie banner would).
      await callOk(context, 'page', {
        window_id: window.id,
        action: 'execute_javascript',
        javascript: `const box = document.getElementById('bottom-field').getBoundingClientRect();
          const veil = Object.assign(document.createElement('div'), { id: 'veil' });
          Object.assign(veil.style, { position: 'fixed', left: box.left - 4 + 'px', top: box.top - 4 + 'px', width: box.width + 8 + 'px', height: box.height + 8 + 'px', background: '#eee' });
          document.body.appendChild(veil);`,
      });
      const target = await element(context, window, 'textbox', 'Bottom field');
      const typed = await callOk(context, 'type_text', { window_id: window.id, element_index: target.index, text: ' more' });
      const result = typed.structured as { path: string; effect: string; escalation?: { reason: string } };
      if (browser === 'chromium') {
        // Blink's next rung, key events, would raise the covered window: nothing is typed, and the refusal says what the page rung found.
        assert.equal(result.path, 'none', typed.summary);
        assert.match(result.escalation?.reason ?? '', /debugging connection \(cdp on port \d+\) could not type into \[e\d+\] either: no editable node of the page lies at its centre/);
        await pyatspiReads(window, 'Bottom field', 'Deep');
      } else {
        // Gecko takes key events behind other windows: the field, not the veil, gets them.
        assert.equal(result.path, 'key_events', typed.summary);
        assert.equal(result.effect, 'confirmed', typed.summary);
        await pyatspiReads(window, 'Bottom field', 'Deep more');
      }
      assert.equal(await readers.activeWindow(), cover.id);
    });
  });
}
