// Web content read and driven through AT-SPI, the same tests for each browser (one browser per test file):
// the fixture pages of test/fixtures/web, every claim judged by pyatspi and by the page's own output.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, test } from 'node:test';
import type { CupNode } from '../../src/cup/types.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { LinuxToolContext } from '../../src/server/session.js';
import { accessibleWindowState, callOk, failsWith, type Element } from './tools.js';
import { runTool } from '../../src/tools/run.js';
import { moveTo } from '../../src/platform/linux/input/index.js';
import { XReaders } from './x-readers.js';
import { act, element, elements, fullTree, pageSays, subtree, webDocument, webRig, type BrowserId } from './web-browser.js';

const objectReplacement = '\uFFFC';
const landmarkRoles = ['banner', 'navigation', 'search', 'main', 'form', 'complementary', 'contentinfo'];

function find(nodes: readonly CupNode[], role: string, name: string): CupNode {
  const found = nodes.find((node) => node.role === role && node.name === name);
  assert.ok(found, `no ${role} "${name}" in the page's tree; ${role}s: ${nodes.filter((node) => node.role === role).map((node) => JSON.stringify(node.name)).join(', ')}`);
  return found;
}

/**
 * The compact view of a long page reads what is in view only: unless `allInView` (a modal dialog made the rest of
 * the page inert), it reads fewer nodes than a whole reading and says how many children it left below or above;
 * it shows `name` exactly when `inView` (pyatspi's place of it decides which, judged by the caller), and numbers
 * every element it shows as the whole reading (detail full, JSON) does. The compact view is read last, so its
 * snapshot is the window's latest. Returns its element named `name`.
 */
async function sameNumbersAsWholeReading(context: LinuxToolContext, window: ClientWindow, name: string, inView: boolean, allInView = false): Promise<Element | undefined> {
  const whole = (await accessibleWindowState(context, window, { include_screenshot: false, detail: 'full', format: 'json' })).state;
  const visible = (await accessibleWindowState(context, window, { include_screenshot: false })).state;
  assert.ok(!whole.unread_children, `the whole reading left children unread: ${JSON.stringify(whole.unread_children)}`);
  if (allInView) assert.equal(visible.node_count, whole.node_count, 'the compact view read all there is');
  else {
    assert.ok(visible.node_count < whole.node_count, `the compact view read ${visible.node_count} nodes, the whole reading ${whole.node_count}`);
    const unread = visible.unread_children;
    assert.ok(unread && unread.up + unread.down > 0, `the compact view says nothing of what it left unread: ${JSON.stringify(unread)}`);
  }
  const byIndex = new Map(whole.elements.map((each) => [each.index, each]));
  for (const each of visible.elements) {
    const same = byIndex.get(each.index);
    assert.deepEqual([same?.role, same?.name], [each.role, each.name], `[e${each.index}] is ${each.role} "${each.name}" in the compact view, ${same?.role} "${same?.name}" in the whole reading`);
  }
  const found = visible.elements.find((each) => each.role === 'button' && each.name === name);
  assert.equal(Boolean(found), inView, `the compact view ${found ? 'shows' : 'does not show'} "${name}"`);
  return found;
}

export function webContentSuite(browser: BrowserId): void {
  describe(`${browser}: web pages read and driven in the background through AT-SPI`, () => {
    const rig = webRig(browser);

    test('live regions say how a reader announces their changes, as the browser reports them (aria-live, or the politeness role=status, log or alert implies); a click that changes one is in the diff', async () => {
      const window = await rig.open('live', 'CUP Web Live');
      const page = await webDocument(rig.context, window, 'CUP Web Live');
      const regions = subtree(page).flatMap((node) => (node.attributes?.live ? [node.attributes.live] : []));
      // The browser's account: each object's own `live` (not its descendants' container-live), else its xml-roles'
      // implied politeness, as WAI-ARIA gives it (Gecko reports none for role=alert). Only the page's objects.
      const implied: Record<string, string> = { alert: 'assertive', status: 'polite', log: 'polite' };
      const [x, y, w, h] = [page.bounds!.x, page.bounds!.y, page.bounds!.w, page.bounds!.h];
      const seen = (await rig.oracle.attributes(window.pid, window.title, ['section', 'status bar', 'log', 'alert', 'notification']))
        .filter((node) => node.extents[0] >= x && node.extents[1] >= y && node.extents[0] < x + w && node.extents[1] < y + h)
        .flatMap((node) => node.attributes.live ?? implied[node.attributes['xml-roles'] ?? ''] ?? []);
      assert.deepEqual([...seen].sort(), ['assertive', 'assertive', 'off', 'polite', 'polite', 'polite'], `pyatspi reads the page's six live regions: ${JSON.stringify(seen)}`);
      assert.deepEqual([...regions].sort(), [...seen].sort(), 'the tree marks each live region as the browser reports it');

      const compact = (await accessibleWindowState(rig.context, window, { include_screenshot: false })).result.body!;
      // Each region keeps its marker in the compact view: Blink's unnamed aria-live section was hoisted, its words shown
      // without `(live=polite)`.
      assert.equal(compact.match(/\(live=(polite|assertive|off)\)/g)?.length, seen.length, compact);
      const saved = await callOk(rig.context, 'click', { window_id: window.id, element_index: (await element(rig.context, window, 'button', 'Save')).index });
      assert.equal(saved.structured.effect, 'confirmed', saved.summary);
      await pageSays(rig.oracle, window, 'Saved 1 times');
      assert.match(saved.body!, /Saved 1 times/, `the diff shows the live region's new words: ${saved.body}`);
    });

    test('landmarks, heading levels, lists and links, as pyatspi reads them; background clicks on links are followed', async () => {
      const window = await rig.open('structure', 'CUP Web Structure');
      const nodes = subtree(await webDocument(rig.context, window, 'CUP Web Structure'));
      const seen = await rig.oracle.attributes(window.pid, window.title, ['heading', 'landmark']);
      const headings = seen.filter((node) => node.role === 'heading' && node.name.startsWith('Heading level'));
      assert.deepEqual(headings.map((node) => node.attributes.level), ['1', '2', '3', '4', '5', '6'], 'pyatspi reads the six heading levels');
      for (const heading of headings) assert.equal(find(nodes, 'heading', heading.name).attributes?.level, Number(heading.attributes.level), heading.name);
      const landmarks = seen.filter((node) => node.role === 'landmark' && landmarkRoles.includes(node.attributes['xml-roles'] ?? ''));
      assert.deepEqual(landmarks.map((node) => node.attributes['xml-roles']).sort(), [...landmarkRoles].sort(), 'pyatspi reads the seven landmarks');
      for (const landmark of landmarks) find(nodes, landmark.attributes['xml-roles']!, landmark.name);
      const steps = find(nodes, 'list', 'Steps');
      assert.deepEqual(steps.children?.filter((node) => node.role === 'listitem').length, 3, 'the ordered list has its three items');
      for (const name of ['Home', 'Shop', 'Contact', 'frequently asked questions', 'gift cards']) assert.ok(find(nodes, 'link', name).actions?.includes('click'), name);

      const compact = (await accessibleWindowState(rig.context, window, { include_screenshot: false })).result.body!;
      for (const line of [/nav "Primary"/, /srch "Site search"/, /frm "Feedback"/, /cmp "Related"/, /hdg "Heading level three" \(L3\)/, /hdg "Heading level six" \(L6\)/]) {
        assert.match(compact, line);
      }

      const link = await act(rig.context, window, 'click', 'link', 'gift cards');
      assert.equal(link.effect, 'confirmed', link.summary);
      await pageSays(rig.oracle, window, 'link gift cards');
      const nav = await act(rig.context, window, 'click', 'link', 'Contact');
      assert.equal(nav.effect, 'confirmed', nav.summary);
      await pageSays(rig.oracle, window, 'link Contact');
    });

    test('icon buttons are named as the browser names them (pyatspi the judge), a description is no name, and a selector asks it', async () => {
      const window = await rig.open('icon-buttons', 'CUP Icon Buttons');
      const buttons = subtree(await webDocument(rig.context, window, 'CUP Icon Buttons')).filter((node) => node.role === 'button');
      // Gecko gives a new object its attributes (the tag) a moment after the object itself.
      let seen: Awaited<ReturnType<typeof rig.oracle.attributes>> = [];
      for (const deadline = Date.now() + 10_000; seen.length < 6 && Date.now() < deadline; await sleep(200)) {
        seen = (await rig.oracle.attributes(window.pid, window.title, ['push button'])).filter((node) => node.attributes.tag === 'button');
      }
      assert.equal(seen.length, 6, `pyatspi reads the page's six buttons: ${JSON.stringify(seen)}`);
      // The browser's own accessible-name computation decides the name (a <title> in the svg, a title attribute, a
      // hidden label pointed at); aria-describedby gives a description only: the button it describes was named by it.
      const described = seen.find((node) => node.attributes.id === 'described')!;
      assert.deepEqual([described.name, described.description], ['', 'Removes the item forever'], 'the browser names the described button nothing');
      assert.deepEqual(
        buttons.map((node) => [node.name, node.description ?? '']),
        seen.map((node) => [node.name, node.description]),
        'each button\'s name and description as pyatspi reads them',
      );
      const found = await callOk(rig.context, 'find_elements', { window_id: window.id, selector: 'role=button description~="removes the item"' });
      const matches = (found.structured as { matches: Element[] }).matches;
      assert.deepEqual(matches.map((match) => match.name), [''], found.summary);
      const clicked = await callOk(rig.context, 'click', { window_id: window.id, element_index: matches[0]!.index });
      assert.equal((clicked.structured as { effect: string }).effect, 'confirmed', clicked.summary);
      // The result tells the unnamed button by its description, as a screen reader does.
      assert.equal((clicked.structured as { target?: { description?: string } }).target?.description, described.description, clicked.summary);
      assert.ok(clicked.summary.includes(`button described ${JSON.stringify(described.description)}`), clicked.summary);
      await pageSays(rig.oracle, window, 'used described');
    });

    test('a link the page names nothing (an icon) is told by its address, its value, as the page\'s href says; a selector finds it by it', async () => {
      const window = await rig.open('icon-buttons', 'CUP Icon Buttons');
      const href = (await pageSays(rig.oracle, window, /^gear /)).replace(/^gear /, '');
      const links = subtree(await webDocument(rig.context, window, 'CUP Icon Buttons')).filter((node) => node.role === 'link');
      assert.deepEqual(links.map((node) => [node.name, node.value]), [['', href]], JSON.stringify(links));
      const found = await callOk(rig.context, 'find_elements', { window_id: window.id, selector: 'role=link value~="settings/profile"' });
      assert.deepEqual((found.structured as { matches: Element[] }).matches.map((match) => match.value), [href], found.summary);
    });

    test('a click that retitles the page tells the window\'s new title once, and names no object outside the window\'s tree (pyatspi walks it)', async () => {
      const window = await rig.open('retitle', 'CUP Web Retitle');
      for (const count of [1, 2]) {
        const fetched = await act(rig.context, window, 'click', 'button', 'Fetch');
        const evidence = (fetched as { evidence?: string[] }).evidence ?? [];
        assert.equal(fetched.effect, 'confirmed', fetched.summary);
        const top = (await rig.oracle.topLevels(window.pid)).find((each) => each.name.startsWith(`Inbox (${count})`));
        assert.ok(top, `pyatspi reads no window titled "Inbox (${count})…"`);
        await pageSays(rig.oracle, { ...window, title: top.name }, `out=${count}`);
        // Chromium renames its tab's title label, which its tab does not list, and Firefox the frame its GTK layer
        // keeps for the window: each read as a line of its own, '(not in the snapshot) static "Inbox (1)": renamed'.
        for (const line of evidence) {
          const outside = /^\(not in the snapshot\) (.+?) "(.*)":/.exec(line);
          if (outside) assert.ok((await rig.oracle.find(window.pid, top.name, outside[1]!, outside[2]!)).found, `pyatspi finds no ${outside[1]} "${outside[2]}" in the window, which the evidence names: ${evidence.join(' | ')}`);
        }
        const naming = evidence.filter((line) => line.includes(top.name));
        assert.ok(naming.length <= 1, `the window's new title "${top.name}" is told once: ${evidence.join(' | ')}`);
        assert.ok(evidence.some((line) => line.includes(`Inbox (${count})`)), `the evidence tells the new title: ${evidence.join(' | ')}`);
      }
    });

    test('a click whose page answers late, while the browser\'s own Back button changes at once, is told by the page\'s answer', async () => {
      const window = await rig.open('late', 'CUP Web Late');
      const asked = await act(rig.context, window, 'click', 'button', 'Ask the server');
      const evidence = ((asked as { evidence?: string[] }).evidence ?? []).join(' | ');
      assert.equal(asked.effect, 'confirmed', asked.summary);
      await pageSays(rig.oracle, window, 'answer 1');
      // The page's answer, 400 ms after the click, is in the evidence (its text, or its paragraph's new text node, as
      // Blink tells it): the address bar and Back button changing at once did not end the wait.
      const holders = (await fullTree(rig.context, window)).filter((node) => node.name === 'answer 1' || (node.children ?? []).some((child) => child.name === 'answer 1'));
      assert.ok(holders.length > 0, 'the driver reads the answer');
      assert.ok(evidence.includes('answer 1') || holders.some((node) => evidence.includes(`[${node.id}]`)), `the page's answer (${holders.map((node) => node.id).join(', ')}) is in the evidence: ${evidence}`);
    });

    test('a click that opens the page\'s alert() names the dialog in its evidence; a click on a dialog\'s button that does nothing is no effect, though the button takes the focus', async (t) => {
      const window = await rig.open('alert', 'CUP Web Alert');
      const hello = await act(rig.context, window, 'click', 'button', 'Say hello');
      const said = ((hello as { evidence?: string[] }).evidence ?? []).join(' | ');
      assert.equal(hello.effect, 'confirmed', hello.summary);
      assert.match(said, /^dialog "[^"]+" opened in the window \(\[e\d+\]\): "[^"]*Hello from the page/, said);
      assert.ok((await rig.oracle.texts(window.pid, window.title)).some((text) => text.includes('Hello from the page')), 'pyatspi reads the alert\'s words');
      // Chromium's alert may ignore a click on its OK (the press shows: OK turns checked), in the background and at
      // times for real input too: whatever happens, a click is confirmed exactly when it answered the alert (pyatspi no
      // longer finds OK). Real input follows a click it ignored, then Return, until one answers it.
      const answered = async () => !(await rig.oracle.find(window.pid, window.title, 'push button', 'OK')).found;
      const attempts = [
        () => act(rig.context, window, 'click', 'button', 'OK'),
        () => act(rig.context, window, 'click', 'button', 'OK', { delivery_mode: 'foreground' }),
        () => callOk(rig.context, 'press_key', { pid: window.pid, window_id: window.id, key: 'return', delivery_mode: 'foreground' }).then((called) => ({ ...(called.structured as { effect: string; evidence?: string[] }), summary: called.summary })),
      ];
      for (const attempt of attempts) {
        const result = await attempt();
        const told = `${result.summary} ${JSON.stringify((result as { evidence?: string[] }).evidence)}`;
        t.diagnostic(`on the alert: ${told}`);
        const gone = await answered();
        assert.equal(result.effect === 'confirmed', gone, `confirmed exactly when the alert was answered (pyatspi finds OK: ${!gone}): ${told}`);
        if (gone) break;
      }
      await pageSays(rig.oracle, window, 'alert answered');

      // The page behind the modal dialog (its log too) is out of the tree until the dialog closes.
      assert.equal((await act(rig.context, window, 'click', 'button', 'Open dialog')).effect, 'confirmed');
      // The browser focuses the button it clicks (the dialog's first button loses the focus): that alone is no effect.
      const idle = await act(rig.context, window, 'click', 'button', 'Not yet');
      assert.equal(idle.effect, 'suspected_noop', `${idle.summary} ${JSON.stringify((idle as { evidence?: string[] }).evidence)}`);
      assert.ok((await rig.oracle.find(window.pid, window.title, 'dialog', 'Ask')).found, 'pyatspi: the dialog is still open');
      assert.equal((await act(rig.context, window, 'click', 'button', 'Done')).effect, 'confirmed');
      await pageSays(rig.oracle, window, 'dialog closed');
    });

    test('every kind of form field with its value; each set in the background, and the page\'s own output has them all', async (t) => {
      const window = await rig.open('fields', 'CUP Web Fields');
      const before = subtree(await webDocument(rig.context, window, 'CUP Web Fields'));
      find(before, 'form', 'Account');
      for (const name of ['User name', 'Password', 'Comments', 'Notes']) assert.ok(find(before, 'textbox', name).states?.includes('editable'), name);
      assert.equal(find(before, 'spinbutton', 'Quantity').value, '1');
      // A bound the page does not give is none: the browsers fail the minimum's read and answer 0 for the maximum.
      const guests = find(before, 'spinbutton', 'Guests');
      assert.deepEqual([guests.value, guests.attributes?.valueMin, guests.attributes?.valueMax], ['2', 1, undefined]);
      const floor = find(before, 'spinbutton', 'Floor');
      assert.deepEqual([floor.value, floor.attributes?.valueMin, floor.attributes?.valueMax], ['3', undefined, undefined]);
      assert.equal((await rig.oracle.find(window.pid, window.title, 'spin button', 'Nights')).value, 4);
      assert.equal(find(before, 'spinbutton', 'Nights').value, '4');
      const slider = find(before, 'slider', 'Volume');
      assert.deepEqual([slider.value, slider.attributes?.valueMin, slider.attributes?.valueMax], ['50', 0, 100]);
      assert.equal((await rig.oracle.find(window.pid, window.title, 'slider', 'Volume')).value, 50);
      assert.equal(find(before, 'combobox', 'Colour').value, 'Red');
      // The closed drop-down's options are counted, not listed: Gecko keeps them in a menu the drop-down's size, the
      // chosen one marked showing, and pyatspi finds Green neither showing nor placed.
      const green = await rig.oracle.find(window.pid, window.title, 'menu item', 'Green');
      assert.ok(green.found && !green.states?.includes('showing'), `pyatspi: ${JSON.stringify(green)}`);
      const view = (await accessibleWindowState(rig.context, window, { include_screenshot: false })).result.body!;
      assert.match(view, /cmb "Colour"[^\n]*\n\s*# 3 more items — open the list to see, or set_value with a choice's text/, view);
      assert.doesNotMatch(view, /"Green"/);
      const toppings = find(before, 'list', 'Toppings');
      assert.ok(toppings.states?.includes('multiselectable'));
      assert.deepEqual(toppings.children?.filter((node) => node.role === 'option').map((node) => node.name), ['Cheese', 'Ham', 'Olives', 'Peppers']);
      for (const size of ['Small', 'Medium', 'Large']) assert.ok(find(before, 'radio', size).actions?.includes('click'), size);
      assert.ok(find(before, 'checkbox', 'Subscribe to news').actions?.includes('toggle'));

      const steps: [string, string, string, Record<string, unknown>][] = [
        ['set_value', 'textbox', 'User name', { value: 'Ada Lovelace' }],
        ['type_text', 'textbox', 'Password', { text: 'secret' }],
        ['set_value', 'spinbutton', 'Quantity', { value: '7' }],
        ['set_value', 'spinbutton', 'Guests', { value: '12' }],
        ['set_value', 'spinbutton', 'Floor', { value: '-2' }],
        ['set_value', 'slider', 'Volume', { value: '75' }],
        ['set_value', 'combobox', 'Colour', { value: 'Blue' }],
        ['set_value', 'list', 'Toppings', { value: 'Ham, Peppers' }],
        ['click', 'radio', 'Medium', {}],
        ['set_value', 'checkbox', 'Subscribe to news', { value: 'true' }],
        ['type_text', 'textbox', 'Comments', { text: 'Leave at the door' }],
        ['set_value', 'textbox', 'Notes', { value: 'Ring twice' }],
      ];
      const paths: string[] = [];
      // What the page's own input and change listeners heard once a number was set (Gecko's Value set the field unheard).
      const heard: Record<string, RegExp> = { Quantity: /^cause=(input|change) \|.* quantity=7 \|/, Guests: /^cause=(input|change) \|.* guests=12 \|/, Floor: /^cause=(input|change) \|.* floor=-2 \|/ };
      for (const [tool, role, name, args] of steps) {
        const done = await act(rig.context, window, tool, role, name, args);
        assert.equal(done.effect, 'confirmed', `${tool} on ${role} "${name}": ${done.summary}`);
        paths.push(`${tool} ${name}: ${done.path}`);
        if (heard[name]) await pageSays(rig.oracle, window, heard[name], 3000);
      }
      t.diagnostic(paths.join('; '));
      const save = await act(rig.context, window, 'click', 'button', 'Save settings');
      assert.equal(save.effect, 'confirmed', save.summary);
      await pageSays(
        rig.oracle,
        window,
        'cause=save | user=Ada Lovelace | password=6 chars | quantity=7 | guests=12 | floor=-2 | volume=75 | colour=Blue | toppings=Ham+Peppers | size=Medium | subscribe=yes | comments=Leave at the door | notes=Ring twice | arrival= | start=',
      );
      assert.ok((await rig.oracle.find(window.pid, window.title, 'radio button', 'Medium')).states?.includes('checked'));
      for (const topping of ['Cheese', 'Ham', 'Olives', 'Peppers']) {
        const selected = (await rig.oracle.find(window.pid, window.title, 'list item', topping)).states?.includes('selected');
        assert.equal(selected, topping === 'Ham' || topping === 'Peppers', `pyatspi: ${topping} selected ${selected}`);
      }

      const after = subtree(await webDocument(rig.context, window, 'CUP Web Fields'));
      assert.equal(find(after, 'combobox', 'Colour').value, 'Blue');
      assert.equal(find(after, 'slider', 'Volume').value, '75');
      assert.equal(find(after, 'textbox', 'User name').value, 'Ada Lovelace');
      assert.ok(find(after, 'radio', 'Medium').states?.includes('checked'));
      assert.deepEqual(find(after, 'list', 'Toppings').children?.filter((node) => node.states?.includes('selected')).map((node) => node.name), ['Ham', 'Peppers']);
      for (const node of after) assert.ok(!`${node.name}${node.value ?? ''}`.includes(objectReplacement), `${node.role} "${node.name}" carries U+FFFC`);
    });

    test('a data table with its column and row headers (pyatspi\'s Table agrees); a row\'s button clicked in the background', async () => {
      const window = await rig.open('table', 'CUP Web Table');
      const nodes = subtree(await webDocument(rig.context, window, 'CUP Web Table'));
      const table = subtree(find(nodes, 'table', 'Inner planets'));
      assert.equal(table.filter((node) => node.role === 'row').length, 5);
      assert.deepEqual(table.filter((node) => node.role === 'columnheader').map((node) => node.name), ['Planet', 'Moons', 'Visit']);
      const cells = await rig.oracle.cells(window.pid, window.title, 'table', 'Inner planets', [1, 4], [0, 1]);
      assert.deepEqual([cells.rows, cells.columns], [5, 3]);
      const rowHeaders = cells.cells.filter((cell) => cell.column === 0).map((cell) => cell.name);
      assert.deepEqual(table.filter((node) => node.role === 'rowheader').map((node) => node.name), rowHeaders);
      assert.deepEqual(table.filter((node) => node.role === 'cell' && /^\d$/.test(node.name)).map((node) => node.name), ['0', '0', '1', '2']);
      const visit = await act(rig.context, window, 'click', 'button', 'Visit Mars');
      assert.equal(visit.effect, 'confirmed', visit.summary);
      await pageSays(rig.oracle, window, 'visited Mars');
    });

    test('a same-origin iframe\'s page is in the tree and acts: its field set, its check box and button clicked', async () => {
      const window = await rig.open('iframe', 'CUP Web Frame');
      const outer = await webDocument(rig.context, window, 'CUP Web Frame');
      const inner = subtree(outer).find((node) => node !== outer && node.role === 'document');
      assert.ok(inner, 'no document inside the outer page');
      find(subtree(inner), 'textbox', 'Inner field');
      const typed = await act(rig.context, window, 'set_value', 'textbox', 'Inner field', { value: 'Grace' });
      assert.equal(typed.effect, 'confirmed', typed.summary);
      const option = await act(rig.context, window, 'click', 'checkbox', 'Inner option');
      assert.equal(option.effect, 'confirmed', option.summary);
      assert.ok((await rig.oracle.find(window.pid, window.title, 'check box', 'Inner option')).states?.includes('checked'));
      const button = await act(rig.context, window, 'click', 'button', 'Inner button');
      assert.equal(button.effect, 'confirmed', button.summary);
      await pageSays(rig.oracle, window, 'inner clicked: Grace / option on');
    });

    test('typing into a rich-text box\'s paragraph and into a rich-text note of a frame of another origin, another window active for Gecko: each takes the text', async () => {
      const window = await rig.open('frames', 'CUP Web Frames', 'http');
      for (const deadline = Date.now() + 15_000; !(await rig.oracle.find(window.pid, window.title, 'entry', 'Card holder')).found; await sleep(200)) {
        assert.ok(Date.now() < deadline, 'pyatspi never found the payment frame\'s field');
      }
      // Gecko takes key events behind another app's window (the case that lost them); Blink only in the active window.
      const cover = rig.browser === 'firefox-esr' ? await rig.desktop.launchFixture('gtk3', { title: 'Cover' }) : undefined;
      if (!cover) await callOk(rig.context, 'bring_to_front', { window_id: window.id });
      try {
        await typeIntoFrames(window);
      } finally {
        cover?.process.kill('SIGKILL');
      }
    });

    async function typeIntoFrames(window: ClientWindow): Promise<void> {
      const holder = await act(rig.context, window, 'type_text', 'textbox', 'Card holder', { text: 'Ada' });
      assert.equal(holder.effect, 'confirmed', holder.summary);
      // Gecko's GrabFocus on the frame's rich-text note answered true and moved nothing: the keys were lost.
      const note = await act(rig.context, window, 'type_text', 'textbox', 'Note to seller', { text: 'leave it' });
      assert.equal(note.effect, 'confirmed', note.summary);
      await pageSays(rig.oracle, window, 'from the payment frame: holder=Ada note=leave it');
      // The paragraph (Gecko: an editable block, Blink: editable text) takes no focus itself; its rich-text box does.
      const paragraph = (await elements(rig.context, window)).find((each) => each.name === 'Deliver after noon' && each.states.includes('editable'));
      assert.ok(paragraph, 'the driver reads the notes\' paragraph');
      const typed = await callOk(rig.context, 'type_text', { window_id: window.id, element_index: paragraph.index, text: ' at the back door' });
      assert.equal(typed.structured.effect, 'confirmed', typed.summary);
      await pageSays(rig.oracle, window, 'notes: Deliver after noon at the back door');
    }

    test('a file input\'s click opens the browser\'s own file chooser (a GTK dialog of its process): its tree is read, a path typed into it and its Open clicked, and the page gets the file', async () => {
      const window = await rig.open('upload', 'CUP Web Upload');
      const folder = mkdtempSync(join(tmpdir(), 'cup-upload-'));
      const file = join(folder, 'cv.txt');
      writeFileSync(file, 'Ada Lovelace, analyst\n');
      const chooser = async () => ((await callOk(rig.context, 'list_windows', { pid: window.pid })).structured.windows as { window_id: number; dialog_of?: number }[]).find((each) => each.dialog_of === window.id);
      try {
        const input = (await elements(rig.context, window)).find((each) => each.role === 'button' && each.name.startsWith('Curriculum vitae'));
        assert.ok(input, 'the driver reads the file input as a button');
        const clicked = await callOk(rig.context, 'click', { window_id: window.id, element_index: input.index });
        assert.equal(clicked.structured.effect, 'confirmed', clicked.summary);
        let dialog: { window_id: number } | undefined;
        for (const deadline = Date.now() + 10_000; !(dialog = await chooser()); await sleep(100)) assert.ok(Date.now() < deadline, 'no file chooser opened');
        // Chromium's GTK dialogs hang under GTK's own application object, which neither the registry nor Chromium's root lists.
        const open = await callOk(rig.context, 'find_elements', { window_id: dialog.window_id, selector: 'role=button name=Open' });
        assert.equal((open.structured.matches as unknown[]).length, 1, open.summary);
        // GTK reads no key events sent to it: the path is typed with real keys (its file list opens a location field).
        const typed = await callOk(rig.context, 'type_text', { window_id: dialog.window_id, text: file, delivery_mode: 'foreground' });
        assert.equal(typed.structured.effect, 'confirmed', typed.summary);
        const chosen = await callOk(rig.context, 'click', { window_id: dialog.window_id, selector: 'role=button name=Open' });
        assert.equal(chosen.structured.effect, 'confirmed', chosen.summary);
        await pageSays(rig.oracle, window, 'chose cv.txt: Ada Lovelace, analyst');
        assert.equal(await chooser(), undefined, 'the X server still lists the chooser');
      } finally {
        const left = await chooser();
        if (left) await callOk(rig.context, 'press_key', { window_id: left.window_id, key: 'Escape', delivery_mode: 'foreground' });
        rmSync(folder, { recursive: true, force: true });
      }
    });

    test('a shadow DOM widget\'s field and button are in the tree and act', async () => {
      const window = await rig.open('shadow', 'CUP Web Shadow');
      const nodes = subtree(await webDocument(rig.context, window, 'CUP Web Shadow'));
      find(nodes, 'textbox', 'Greeting name');
      find(nodes, 'button', 'Greet');
      const typed = await act(rig.context, window, 'type_text', 'textbox', 'Greeting name', { text: 'Ada' });
      assert.equal(typed.effect, 'confirmed', typed.summary);
      const greet = await act(rig.context, window, 'click', 'button', 'Greet');
      assert.equal(greet.effect, 'confirmed', greet.summary);
      await pageSays(rig.oracle, window, 'hello Ada');
    });

    test('a drop-down wrapped in its label in a shadow root: the view counts its options and nothing unread beside it, as pyatspi lists the label\'s children all shown; set_value chooses', async () => {
      const window = await rig.open('shadow', 'CUP Web Shadow');
      const chosen = await act(rig.context, window, 'set_value', 'combobox', 'Flavour', { value: 'Lemon' });
      assert.equal(chosen.effect, 'confirmed', chosen.summary);
      await pageSays(rig.oracle, window, 'chosen=Lemon');
      const beside = await rig.oracle.siblings(window.pid, window.title, 'combo box', 'Flavour');
      assert.ok(beside.every((each) => each.showing), `pyatspi: every child of the drop-down's parent is shown: ${JSON.stringify(beside)}`);
      // Blink gives a <select> its chosen option's posinset (3 of 3): its label read '# 2 more items — scroll up to see'.
      const whole = (await accessibleWindowState(rig.context, window, { include_screenshot: false })).result.body!;
      // The page's part of the view (the browser's own toolbars may count what they scroll away).
      const view = whole.slice(whole.indexOf('doc "CUP Web Shadow"'));
      assert.match(view, /cmb "Flavour"[^\n]*val="Lemon"\n\s*# 3 more items \u2014 open the list/, whole);
      assert.doesNotMatch(view, /more items? \u2014 scroll/, `pyatspi lists the drop-down's parent's children, all shown (${beside.map((each) => `${each.role} "${each.name}"`).join(', ')}): ${view}`);
    });

    test('a modal <dialog> and an ARIA dialog: opened, read with their controls, used and closed in the background', async () => {
      const window = await rig.open('dialog', 'CUP Web Dialog');
      assert.equal((await act(rig.context, window, 'click', 'button', 'Open dialog')).effect, 'confirmed');
      // The page behind a modal dialog is inert: out of the tree (its output too) until the dialog closes.
      const dialog = subtree(find(subtree(await webDocument(rig.context, window, 'CUP Web Dialog')), 'dialog', 'Confirm order'));
      assert.ok((await rig.oracle.find(window.pid, window.title, 'dialog', 'Confirm order')).found);
      find(dialog, 'heading', 'Confirm order');
      find(dialog, 'textbox', 'Reference');
      find(dialog, 'button', 'Confirm');
      const typed = await act(rig.context, window, 'set_value', 'textbox', 'Reference', { value: 'R-42' });
      assert.equal(typed.effect, 'confirmed', typed.summary);
      assert.equal((await act(rig.context, window, 'click', 'button', 'Confirm')).effect, 'confirmed');
      await pageSays(rig.oracle, window, 'confirmed R-42');

      assert.equal((await act(rig.context, window, 'click', 'button', 'Show panel')).effect, 'confirmed');
      await pageSays(rig.oracle, window, 'panel shown');
      const panel = subtree(find(subtree(await webDocument(rig.context, window, 'CUP Web Dialog')), 'dialog', 'Help panel'));
      find(panel, 'button', 'Close panel');
      assert.equal((await act(rig.context, window, 'click', 'button', 'Close panel')).effect, 'confirmed');
      await pageSays(rig.oracle, window, 'panel closed');
    });

    test('a real click on a button that a banner\'s overlay covers lands on the overlay: the focus leaving the button does not confirm it, and the result says so', async () => {
      const window = await rig.open('dialog', 'CUP Web Dialog');
      assert.equal((await act(rig.context, window, 'click', 'button', 'Show banner')).effect, 'confirmed');
      await pageSays(rig.oracle, window, 'banner shown 1');
      // The background click left the focus on the button: the real click on it takes the focus away to the page.
      assert.ok((await rig.oracle.find(window.pid, window.title, 'push button', 'Show banner')).states?.includes('focused'), 'pyatspi: the button has the focus');
      const covered = await act(rig.context, window, 'click', 'button', 'Show banner', { delivery_mode: 'foreground' });
      assert.equal(covered.effect, 'suspected_noop', covered.summary);
      assert.match(covered.escalation?.reason ?? '', /landed on something else .* did not take it/, covered.summary);
      assert.ok(!(await rig.oracle.find(window.pid, window.title, 'push button', 'Show banner')).states?.includes('focused'), 'pyatspi: the focus left the button');
      await pageSays(rig.oracle, window, 'banner shown 1');
      // A button without the focus: what the page's hit test finds at its centre, the overlay, is named as what took the click.
      const unfocused = await act(rig.context, window, 'click', 'button', 'Show panel', { delivery_mode: 'foreground' });
      assert.equal(unfocused.effect, 'suspected_noop', unfocused.summary);
      assert.match(unfocused.escalation?.reason ?? '', /lies over \[e\d+\] where it was clicked and took the click: close or dismiss it first/, unfocused.summary);
      assert.doesNotMatch(unfocused.escalation?.reason ?? '', /"Show panel" lies over/, 'the cover is not the button itself');
      await pageSays(rig.oracle, window, 'banner shown 1');
      assert.equal((await act(rig.context, window, 'click', 'button', 'Accept cookies')).effect, 'confirmed');
      await pageSays(rig.oracle, window, 'cookies accepted');
    });

    test('a real click on a button under a sticky header reaches the button: on the part the header leaves free, or with the page scrolled to bring it clear', async () => {
      const window = await rig.open('sticky', 'CUP Web Sticky');
      await pageSays(rig.oracle, window, 'ready');
      // Its middle is under the 80 px header, its lower part free: clicked there, with no scrolling.
      const half = await act(rig.context, window, 'click', 'button', 'Half under the header', { delivery_mode: 'foreground' });
      assert.equal(half.effect, 'confirmed', half.summary);
      await pageSays(rig.oracle, window, 'click 1 Half under the header');
      assert.ok(!(half as { scrolled_into_view?: boolean }).scrolled_into_view, 'the page was not scrolled for a button with a free part');
      // Wholly under the header: the page is scrolled to bring it clear, then it is clicked.
      const whole = await act(rig.context, window, 'click', 'button', 'Under the header', { delivery_mode: 'foreground' });
      assert.equal(whole.effect, 'confirmed', whole.summary);
      await pageSays(rig.oracle, window, 'click 2 Under the header');
      assert.equal((whole as { scrolled_into_view?: boolean }).scrolled_into_view, true, whole.summary);
    });

    test('ARIA widgets, a modal dialog and a sticky header: what the page\'s script keeps is clicked, gone objects and an inert page are said, a blank stretch scrolls', async () => {
      const window = await rig.open('widgets', 'CUP Web Widgets');
      const compact = async () => (await accessibleWindowState(rig.context, window, { include_screenshot: false })).result.body!;
      // The log's words: Gecko keeps them in the aria-labelled block itself, Blink in a text child; both are read.
      assert.ok((await rig.oracle.texts(window.pid, window.title)).includes('ready'), 'pyatspi reads the log\'s words');
      assert.match(await compact(), /"ready"/, 'the reading shows the log\'s words');

      // Tabs and a tree whose selection the page's script keeps: Blink refuses SelectChild on them, the click goes through.
      const tab = await act(rig.context, window, 'click', 'tab', 'Beta');
      assert.equal(tab.effect, 'confirmed', tab.summary);
      await pageSays(rig.oracle, window, 'tab=Beta');
      assert.ok((await rig.oracle.find(window.pid, window.title, 'page tab', 'Beta')).states?.includes('selected'), 'pyatspi: Beta is the selected tab');
      const tree = await act(rig.context, window, 'click', 'treeitem', 'src');
      assert.equal(tree.effect, 'confirmed', tree.summary);
      await pageSays(rig.oracle, window, 'tree src expanded=true');

      // A suggestion picked is removed with its list: the evidence says it is gone, not that it was renamed "".
      assert.equal((await act(rig.context, window, 'set_value', 'combobox', 'City', { value: 'Pa' })).effect, 'confirmed');
      const picked = await act(rig.context, window, 'click', 'option', 'Parma');
      assert.equal(picked.effect, 'confirmed', picked.summary);
      await pageSays(rig.oracle, window, 'city=Parma');
      assert.equal((await rig.oracle.find(window.pid, window.title, 'list item', 'Parma')).found, false, 'pyatspi: the suggestion is gone');
      const evidence = ((picked as { evidence?: string[] }).evidence ?? []).join(' | ');
      assert.match(evidence, /\[e\d+\] is gone/, evidence);
      assert.doesNotMatch(evidence, /name of \[e\d+\]: "Parma" → ""/, evidence);

      // A file input is a button to accessibility: neither a value nor typing reaches it, and the refusal names what does.
      const attachment = (await elements(rig.context, window)).find((each) => each.role === 'button' && each.name.startsWith('Attachment'));
      assert.ok(attachment, 'the file input is a button named by its label');
      for (const [tool, args] of [['set_value', { value: '/etc/hostname' }], ['type_text', { text: '/etc/hostname' }]] as const) {
        const refused = await runTool(tool, { window_id: window.id, element_index: attachment.index, ...args }, rig.context);
        assert.equal(refused.ok, false, refused.summary);
        assert.match(refused.summary, /a file input takes files through page upload_files/, refused.summary);
      }

      // A modal dialog: the page behind it is out of the tree (pyatspi: the dialog is all the document holds), and the reading says why.
      assert.equal((await act(rig.context, window, 'click', 'button', 'Open dialog')).effect, 'confirmed');
      assert.ok((await rig.oracle.find(window.pid, window.title, 'dialog', 'Confirm')).found, 'pyatspi: the dialog is open');
      assert.equal((await rig.oracle.find(window.pid, window.title, 'push button', 'Open dialog')).found, false, 'pyatspi: the page behind is out of the tree');
      assert.match(await compact(), /^# \[e\d+\] dialog "Confirm" is all its page shows to accessibility: a modal dialog makes the page behind it inert/m);
      assert.equal((await act(rig.context, window, 'click', 'button', 'OK')).effect, 'confirmed');
      await pageSays(rig.oracle, window, 'dialog ok');
      assert.doesNotMatch(await compact(), /inert/, 'the dialog closed: no note');

      // The view on a blank stretch of the page under a sticky header (the page's first child, which never moves).
      assert.equal((await act(rig.context, window, 'click', 'button', 'Jump into the gap')).effect, 'confirmed');
      const jumped = Number(/^scrolled=(\d+)$/.exec(await pageSays(rig.oracle, window, /^scrolled=\d+$/))![1]);
      const scrolled = await callOk(rig.context, 'scroll', { window_id: window.id, direction: 'down', by: 'line', amount: 3 });
      assert.equal(scrolled.structured.effect, 'confirmed', scrolled.summary);
      const moved = ((scrolled.structured.evidence as string[] | undefined) ?? []).join(' | ');
      assert.match(moved, /how far the page scrolled down \(pixels\): "0" → "120"/, moved);
      await pageSays(rig.oracle, window, `scrolled=${jumped + 120}`);
    });

    test('a tree grid\'s rows say their level (aria-level) as pyatspi reads it, as a tree\'s items say theirs', async () => {
      const window = await rig.open('widgets', 'CUP Web Widgets');
      const seen = (await rig.oracle.attributes(window.pid, window.title, ['table row'])).filter((node) => node.attributes.level !== undefined);
      assert.deepEqual(seen.map((node) => [node.name, node.attributes.level]), [['Inbox 3', '1'], ['Work 1', '2'], ['Home 2', '2'], ['Sent 0', '1']], 'pyatspi reads the rows\' levels');
      const rows = (await fullTree(rig.context, window)).filter((node) => node.role === 'row' && seen.some((each) => each.name === node.name));
      assert.deepEqual(rows.map((node) => [node.name, String(node.attributes?.level)]), seen.map((node) => [node.name, node.attributes.level]));
      // Read whole: the page may be scrolled down where an earlier test left it.
      const view = (await accessibleWindowState(rig.context, window, { include_screenshot: false, detail: 'full' })).result.body!;
      // They had read `row "Work 1"`, while the tree's items read `ti "src" (L1)`.
      assert.match(view, /row "Inbox 3"[^\n]* \(L1\)\n[\s\S]*row "Work 1"[^\n]* \(L2\)\n/, view);
    });

    test('a virtualised list, only its rows in view in the page: the reading counts the rest of its set, as its items say it; a jump far down is counted both ways, and the row there clicked', async () => {
      const window = await rig.open('virtual-list', 'CUP Web Virtual List');
      // Shown rows and the hint under the list add up to the set's size its items give pyatspi, wherever the list is.
      const countsTheSet = async (firstShown: string, directions: string): Promise<void> => {
        const rows = (await rig.oracle.attributes(window.pid, window.title, ['list item'])).filter((node) => node.name.startsWith('Contact '));
        assert.ok(rows.some((row) => row.name === firstShown), `pyatspi: ${firstShown} is in the page; rows: ${rows.map((row) => row.name).join(', ')}`);
        const sizes = new Set(rows.map((row) => row.attributes.setsize));
        assert.deepEqual([...sizes], ['1000'], 'pyatspi: every row says its set has 1000 items');
        assert.ok(rows.length < 20, `pyatspi: only the rows in view are in the page (${rows.length})`);
        const view = (await accessibleWindowState(rig.context, window, { include_screenshot: false })).result.body!;
        const list = /lst "Contacts"[^\n]*\n((?:\s+\[e\d+\] opt "Contact \d+"[^\n]*\n)+)\s+# (\d+) more items — scroll ([a-z/]+) to see/.exec(view);
        assert.ok(list, view);
        const shown = list[1]!.trim().split('\n');
        assert.match(shown[0]!, new RegExp(`"${firstShown}"`), view);
        assert.equal(shown.length + Number(list[2]), 1000, `${shown.length} rows shown and ${list[2]} more: ${view}`);
        assert.equal(list[3], directions, view);
      };
      await countsTheSet('Contact 1', 'down');
      // A row not in the page: the selector's refusal and find_elements name the list that holds it and where to scroll.
      const notInPage = /\[e\d+\] list "Contacts" holds 99\d more items not in the tree: scroll it down to bring them in/;
      const refused = await failsWith(rig.context, 'click', { window_id: window.id, selector: 'role=option name="Contact 500"' }, 'not_found');
      assert.match(refused.summary, notInPage, refused.summary);
      const looked = await callOk(rig.context, 'find_elements', { window_id: window.id, selector: 'name="Contact 500"' });
      assert.match(((looked.structured.unread as string[] | undefined) ?? []).join(' | '), notInPage, looked.summary);
      assert.equal((await act(rig.context, window, 'click', 'button', 'Jump to 500')).effect, 'confirmed');
      for (const deadline = Date.now() + 10_000; !(await rig.oracle.find(window.pid, window.title, 'list item', 'Contact 500')).found; await sleep(200)) {
        assert.ok(Date.now() < deadline, 'pyatspi never found Contact 500');
      }
      await countsTheSet('Contact 500', 'up/down');
      const picked = await act(rig.context, window, 'click', 'option', 'Contact 500');
      assert.equal(picked.effect, 'confirmed', picked.summary);
      await pageSays(rig.oracle, window, 'picked Contact 500');
    });

    test('a foreground scroll of a list whose rows are recycled is read back once the box stops moving: the rows the diff names are those the page shows at rest', async () => {
      const window = await rig.open('recycled-list', 'CUP Web Recycled List');
      const list = await element(rig.context, window, 'list', 'Messages');
      const shownInDiff = (structured: Record<string, unknown>) => {
        const changed = ((structured.diff as { changed?: { name?: string }[] } | undefined)?.changed ?? []).map((each) => /^Message (\d+)$/.exec(each.name ?? '')?.[1]);
        return changed.filter((n) => n !== undefined).map(Number);
      };
      for (const amount of [4, 10]) {
        const scrolled = await callOk(rig.context, 'scroll', { window_id: window.id, element_index: list.index, direction: 'down', by: 'page', amount, delivery_mode: 'foreground' });
        assert.equal((scrolled.structured as { effect: string }).effect, 'confirmed', scrolled.summary);
        // The page says its first row once its box has been still for 300 ms.
        await sleep(1500);
        const top = Number(/^top=(\d+)$/.exec(await pageSays(rig.oracle, window, /^top=\d+$/))![1]);
        // Blink's smooth scrolling went on after the read-back: 10 pages read "Message 409" first where the page came to
        // rest at 421, and the next scroll's "before" was 300 px further down than the last one's "after".
        const named = shownInDiff(scrolled.structured);
        assert.equal(Math.min(...named), top, `the page rests with Message ${top} first; the diff named ${JSON.stringify(named)}: ${scrolled.summary}`);
        // The rows are told by the names the snapshot had for them (they were "renamed (its name before is unknown)").
        const evidence = ((scrolled.structured as { evidence?: string[] }).evidence ?? []).join(' | ');
        assert.match(evidence, /button "Message \d+": name is now "Message \d+"/, evidence);
        assert.doesNotMatch(evidence, /name before is unknown/, evidence);
        // Where the list's content went, in words: not its boxes' raw JSON.
        assert.doesNotMatch(evidence, /\[\{|\{"x"/, evidence);
        assert.match(evidence, /the region's content moved \d+ px up \(scrolled down\)/, evidence);
      }
    });

    test('a long page: content below the fold is offscreen; scroll brings it into view (pyatspi sees it move) and it is clicked', async () => {
      const window = await rig.open('long', 'CUP Web Long');
      const page = await rig.oracle.find(window.pid, window.title, 'document web', 'CUP Web Long');
      assert.ok(page.extents);
      const viewBottom = page.extents[1] + page.extents[3];
      const below = await rig.oracle.find(window.pid, window.title, 'push button', 'Bottom button');
      assert.ok(below.extents && below.extents[1] > viewBottom, `pyatspi places the button at ${below.extents} under a page ending at y=${viewBottom}`);
      assert.ok((await element(rig.context, window, 'button', 'Bottom button')).states.includes('offscreen'));
      assert.match((await accessibleWindowState(rig.context, window, { include_screenshot: false })).result.body!, /more items — scroll down to see/);
      await sameNumbersAsWholeReading(rig.context, window, 'Bottom button', false);

      // A modal dialog shown in the middle of the view by a section far below it is read although its section is not
      // in view (pyatspi places both); dismissed by its index from the compact view.
      assert.equal((await act(rig.context, window, 'click', 'button', 'Show notice')).effect, 'confirmed');
      const notice = await rig.oracle.find(window.pid, window.title, 'push button', 'Dismiss notice');
      assert.ok(notice.extents && notice.extents[1] >= page.extents[1] && notice.extents[1] < viewBottom, `pyatspi places the notice's button at ${notice.extents}`);
      const dismiss = await sameNumbersAsWholeReading(rig.context, window, 'Dismiss notice', true, true);
      const dismissed = (await callOk(rig.context, 'click', { window_id: window.id, element_index: dismiss!.index })).structured as { effect: string };
      assert.equal(dismissed.effect, 'confirmed', JSON.stringify(dismissed));
      await pageSays(rig.oracle, window, 'notice dismissed');
      await sameNumbersAsWholeReading(rig.context, window, 'Dismiss notice', false);

      const scrolled = await callOk(rig.context, 'scroll', { window_id: window.id, direction: 'down', by: 'page', amount: 20 });
      assert.equal(scrolled.structured.effect, 'confirmed', scrolled.summary);
      const now = await rig.oracle.find(window.pid, window.title, 'push button', 'Bottom button');
      assert.ok(now.extents && now.extents[1] >= page.extents[1] && now.extents[1] + now.extents[3] <= viewBottom, `after scrolling, pyatspi places the button at ${now.extents}`);
      assert.ok(!(await element(rig.context, window, 'button', 'Bottom button')).states.includes('offscreen'));
      const shown = await sameNumbersAsWholeReading(rig.context, window, 'Bottom button', true);
      const again = await callOk(rig.context, 'scroll', { window_id: window.id, direction: 'down', by: 'page', amount: 1 });
      assert.equal(again.structured.effect, 'suspected_noop', `at the end of the page: ${again.summary}`);

      // By the index the compact view gave (the latest snapshot is that view's).
      const clicked = (await callOk(rig.context, 'click', { window_id: window.id, element_index: shown!.index })).structured as { effect: string };
      assert.equal(clicked.effect, 'confirmed', JSON.stringify(clicked));
      await pageSays(rig.oracle, window, 'bottom clicked: / option off');
      const back = await callOk(rig.context, 'scroll', { window_id: window.id, direction: 'up', by: 'line', amount: 3 });
      assert.equal(back.structured.effect, 'confirmed', back.summary);
      const moved = await rig.oracle.find(window.pid, window.title, 'push button', 'Bottom button');
      assert.ok(moved.extents && moved.extents[1] > now.extents[1], `three lines up moves the button down: ${now.extents} -> ${moved.extents}`);
    });

    test('scroll on an element inside a box that scrolls on its own: without a debugging port nothing is sent and the result says what works; the wheel over the box scrolls the box, not the page', async () => {
      const window = await rig.open('scroll-box', 'CUP Web Scroll Box');
      const row = await element(rig.context, window, 'text', 'Row 1');
      const refused = await callOk(rig.context, 'scroll', { window_id: window.id, element_index: row.index, direction: 'down', by: 'line', amount: 2 });
      const escalation = (refused.structured as { escalation?: { reason: string } }).escalation?.reason ?? '';
      assert.equal(refused.structured.path, 'none', refused.summary);
      assert.match(escalation, /lies in a box of the page that scrolls on its own .*delivery_mode "foreground" .*launch_app/, escalation);
      await pageSays(rig.oracle, window, 'box=0 page=0');
      const wheeled = await callOk(rig.context, 'scroll', { window_id: window.id, element_index: row.index, direction: 'down', by: 'line', amount: 2, delivery_mode: 'foreground' });
      assert.equal(wheeled.structured.effect, 'confirmed', wheeled.summary);
      // The page's own account: the box moved, the page did not.
      await pageSays(rig.oracle, window, /^box=[1-9]\d* page=0$/);
    });

    test('a feed that scrolls in a box of its own: the compact view shows the posts the box shows (pyatspi marks them showing) and counts the rest; a real click on a post the box clips scrolls it into view first', async () => {
      const window = await rig.open('feed', 'CUP Web Feed');
      const page = await rig.oracle.find(window.pid, window.title, 'document web', 'CUP Web Feed');
      assert.ok(page.extents);
      const viewBottom = page.extents[1] + page.extents[3];
      const names = Array.from({ length: 8 }, (_, i) => `Like post ${i + 1}`);
      const posts = await Promise.all(names.map((name) => rig.oracle.find(window.pid, window.title, 'push button', name)));
      const showing = posts.map((post) => post.states?.includes('showing') === true);
      // Clipped by the feed's box, though the page's view holds its place.
      const clipped = posts.findIndex((post, i) => !showing[i] && post.extents !== undefined && post.extents[1] + post.extents[3] <= viewBottom);
      assert.ok(showing[0] && clipped > 0, `pyatspi: the first post shows and a later one in the page's view does not: ${JSON.stringify(posts.map((post) => [post.extents, post.states?.includes('showing')]))}`);
      const visible = (await accessibleWindowState(rig.context, window, { include_screenshot: false })).state;
      const shown = new Set(visible.elements.filter((each) => each.role === 'button').map((each) => each.name));
      names.forEach((name, i) => assert.equal(shown.has(name), showing[i], `the compact view ${shown.has(name) ? 'shows' : 'leaves out'} "${name}", which pyatspi marks ${showing[i] ? '' : 'not '}showing`));
      assert.ok((visible.unread_children?.down ?? 0) > 0, `the compact view counts the posts below the box: ${JSON.stringify(visible.unread_children)}`);
      const name = names[clipped]!;
      assert.ok((await element(rig.context, window, 'button', name)).states.includes('offscreen'), `a whole reading marks "${name}" offscreen`);

      const liked = await act(rig.context, window, 'click', 'button', name, { delivery_mode: 'foreground' });
      assert.equal(liked.effect, 'confirmed', liked.summary);
      await pageSays(rig.oracle, window, `liked post ${clipped + 1}`);
      assert.ok((await rig.oracle.find(window.pid, window.title, 'push button', name)).states?.includes('showing'), 'pyatspi: the post was scrolled into the box\'s view');
    });

    test('a card dragged between two lists of the page (HTML5 drag and drop) with real input: the page moves it, and the evidence names its output by its index; a drag over blank page is no effect, though the press moved the focus', async () => {
      const window = await rig.open('feed', 'CUP Web Feed');
      // A button has the focus, which a press on the blank page takes away: that alone is no effect.
      assert.equal((await act(rig.context, window, 'click', 'button', 'Like post 1')).effect, 'confirmed');
      await pageSays(rig.oracle, window, 'liked post 1');
      const blank = { x: window.bounds.width - 40, y: Math.round(window.bounds.height / 2) };
      const idle = await callOk(rig.context, 'drag', { window_id: window.id, from_x: blank.x, from_y: blank.y, to_x: blank.x, to_y: blank.y + 80, delivery_mode: 'foreground' });
      assert.equal(idle.structured.effect, 'suspected_noop', `${idle.summary} ${JSON.stringify(idle.structured.evidence)}`);
      await pageSays(rig.oracle, window, 'liked post 1');
      const [todo, done] = await Promise.all([rig.oracle.children(window.pid, window.title, 'list', 'To do', [0]), rig.oracle.find(window.pid, window.title, 'list', 'Done')]);
      const card = todo.children[0];
      assert.ok(`${card?.name} ${card?.content}`.includes('Draft') && card?.extents && done.extents, `pyatspi places the card (${JSON.stringify(card)}) and the list`);
      // The latest snapshot holds the page's output: the evidence names it by its index. The drag names its ends by
      // the snapshot's elements, the card and the list, where pyatspi places them.
      const { state } = await accessibleWindowState(rig.context, window, { include_screenshot: false });
      const cardElement = state.elements.find((each) => each.role === 'listitem' && each.name.includes('Draft'));
      const doneElement = state.elements.find((each) => each.role === 'list' && each.name === 'Done');
      assert.ok(cardElement && doneElement, `the snapshot holds the card and the Done list: ${JSON.stringify(state.elements.filter((each) => each.role.startsWith('list')).map((each) => [each.role, each.name]))}`);
      const [x, y, w, h] = card.extents;
      assert.deepEqual(cardElement.bounds, { x, y, w, h }, 'the card element is where pyatspi places it');
      // A quick fling: the page's drag and drop begins only once its process has run the dragstart, after the motion is
      // over, and the button is held for it (released at once, the card stayed where it was).
      const dragged = await callOk(rig.context, 'drag', { window_id: window.id, from_element_index: cardElement.index, to_element_index: doneElement.index, duration_ms: 0, steps: 2, delivery_mode: 'foreground' });
      const evidence = ((dragged.structured.evidence as string[] | undefined) ?? []).join(' | ');
      // The page's own account first: a failure then says whether the drop happened or only went unseen.
      await pageSays(rig.oracle, window, 'moved Draft to Done');
      assert.equal(dragged.structured.effect, 'confirmed', `${dragged.summary} ${evidence}`);
      assert.ok(evidence.split(' | ').some((line) => /^\[e\d+\] /.test(line)), `the evidence names what the snapshot holds by its index: ${evidence}`);
      // Nor what no reading of the app reaches: Firefox's GTK layer keeps a window of its own for the drag's image.
      assert.doesNotMatch(evidence, /\(not in the snapshot\) window/, evidence);
    });

    test('a triple click (click count 3) with real input is three clicks in a row, as the page counts them; in the background, where no accessibility action or sent X event makes one, nothing is sent and the result says so', async () => {
      const window = await rig.open('feed', 'CUP Web Feed');
      // The page's log starts from a known line, whatever the tests before left in it.
      assert.equal((await act(rig.context, window, 'click', 'button', 'Like post 1')).effect, 'confirmed');
      await pageSays(rig.oracle, window, 'liked post 1');
      const note = (await elements(rig.context, window)).find((each) => each.name.startsWith('A note'));
      assert.ok(note?.bounds, 'the note is in the tree, placed');
      // By its element and by a point on it: the page reads the pointer through XInput2 and takes no sent clicks.
      const point = { x: note.bounds.x - window.bounds.x + 10, y: note.bounds.y - window.bounds.y + Math.round(note.bounds.h / 2) };
      for (const at of [{ element_index: note.index }, point]) {
        const background = await callOk(rig.context, 'click', { window_id: window.id, ...at, count: 3 });
        assert.equal(background.structured.path, 'none', `${JSON.stringify(at)}: ${background.summary}`);
        assert.match(String((background.structured.escalation as { reason: string }).reason), /triple click.*nothing was sent.*foreground/);
      }
      await pageSays(rig.oracle, window, 'liked post 1');
      const real = await callOk(rig.context, 'click', { window_id: window.id, element_index: note.index, count: 3, delivery_mode: 'foreground' });
      await pageSays(rig.oracle, window, 'note clicked 3');
      assert.equal(real.structured.effect, 'confirmed', real.summary);
    });

    test('a slider\'s thumb dragged with real input is confirmed, by its value or, where the browser reports no value the pointer set (Chromium), by the slider drawn anew; the page says where it went, one way only', async () => {
      const window = await rig.open('feed', 'CUP Web Feed');
      const slider = await element(rig.context, window, 'slider', 'Zoom');
      assert.ok(slider.bounds, 'the slider is placed');
      // From its middle, where its thumb is at 50, to near its right end.
      const end = { x: slider.bounds.x - window.bounds.x + slider.bounds.w - 4, y: slider.bounds.y - window.bounds.y + Math.round(slider.bounds.h / 2) };
      const dragged = await callOk(rig.context, 'drag', { window_id: window.id, from_element_index: slider.index, to_x: end.x, to_y: end.y, delivery_mode: 'foreground' });
      const evidence = ((dragged.structured.evidence as string[] | undefined) ?? []).join(' | ');
      // The page's own account first: a failure then says whether the thumb moved or only went unseen.
      const said = await pageSays(rig.oracle, window, /^zoom \d+ back \d+$/);
      assert.ok(Number(said.split(' ')[1]) >= 90, `the thumb went to the right end: ${said}`);
      // No drag and drop starts from a slider's thumb: the drag does not hold and jiggle the thumb at the drop point for
      // one to begin, which cost a second and set the value back and forth (71, 72, 71, 72 in the page's log).
      assert.match(said, / back 0$/, 'the pointer went one way only');
      assert.equal(dragged.structured.effect, 'confirmed', `${dragged.summary} ${evidence}`);
    });

    test('a foreground scroll on a canvas turns the wheel over the canvas, which takes it (a map zooms in), not over the page\'s middle', async () => {
      const window = await rig.open('feed', 'CUP Web Feed');
      assert.equal((await act(rig.context, window, 'click', 'button', 'Like post 1')).effect, 'confirmed');
      await pageSays(rig.oracle, window, 'liked post 1');
      const map = (await elements(rig.context, window)).find((each) => each.name === 'Map');
      assert.ok(map, 'the map is in the tree');
      const scrolled = await callOk(rig.context, 'scroll', { window_id: window.id, element_index: map.index, direction: 'up', amount: 2, delivery_mode: 'foreground' });
      await pageSays(rig.oracle, window, 'map zoomed in');
      assert.equal(scrolled.structured.effect, 'confirmed', scrolled.summary);
    });

    test('typing at the end of a text far longer than a reading holds is seen there; text typed into a field that held it already is typed, not taken as there', async () => {
      const window = await rig.open('editor', 'CUP Web Editor');
      const appended = await act(rig.context, window, 'type_text', 'textbox', 'Log file', { text: '\nline 5001: appended' });
      assert.equal(appended.effect, 'confirmed', `${appended.summary}: ${appended.escalation?.reason}`);
      await pageSays(rig.oracle, window, 'lines=5001 last=line 5001: appended motto=carpe diem');
      const file = await rig.oracle.find(window.pid, window.title, 'entry', 'Log file');
      assert.ok(file.text && file.text.length > 100_000 && file.text.endsWith('the quick brown fox\nline 5001: appended'), `pyatspi: ${file.text?.length} characters, ending ${JSON.stringify(file.text?.slice(-40))}`);
      const motto = await act(rig.context, window, 'type_text', 'textbox', 'Motto', { text: 'diem' });
      assert.equal(motto.effect, 'confirmed', motto.summary);
      assert.equal((await rig.oracle.find(window.pid, window.title, 'entry', 'Motto')).text, 'carpe diemdiem', 'pyatspi: the motto has the word twice');
    });

    test('emoji typed with real keys (a skin tone, a family joined by ZWJ, a flag) go at the end of the unfocused field, are confirmed, and read as the page holds them', async () => {
      // The page as earlier tests left it (the file's windows of a page are one): its status ends with the motto.
      const window = await rig.open('editor', 'CUP Web Editor');
      const before = await pageSays(rig.oracle, window, /^lines=\d+ .* motto=/);
      const motto = (await element(rig.context, window, 'textbox', 'Motto')).value;
      const emoji = ' 👍🏽 👩\u200d👩\u200d👧 🇩🇪';
      const typed = await act(rig.context, window, 'type_text', 'textbox', 'Motto', { text: emoji, delivery_mode: 'foreground' });
      assert.equal(typed.effect, 'confirmed', typed.summary);
      // Gecko's accessible text has U+FEFF after each character beyond the BMP (its offsets count UTF-16 units); the
      // page's own status, read by pyatspi, says what the field holds once that is dropped.
      const said = `${before}${emoji}`;
      const padded = [...said].map((character) => character.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + ((character.codePointAt(0) ?? 0) > 0xffff ? '\uFEFF?' : '')).join('');
      await pageSays(rig.oracle, window, new RegExp(`^${padded}$`, 'u'));
      assert.equal((await element(rig.context, window, 'textbox', 'Motto')).value, `${motto}${emoji}`, 'the driver reads the text as the page holds it');
    });

    test('a field typed into while its page is busy (the page\'s processes held for 1.5 s) takes the text once the page gets to it: confirmed, where the focus not arriving within a second had been refused as "not delivered"', async () => {
      const window = await rig.open('editor', 'CUP Web Editor');
      // The window is the active one, where the field's focus is waited for before the keys (behind others it is not).
      await callOk(rig.context, 'bring_to_front', { window_id: window.id });
      const motto = await element(rig.context, window, 'textbox', 'Motto');
      const before = (await rig.oracle.find(window.pid, window.title, 'entry', 'Motto')).text;
      const pages = pageProcesses(window.pid);
      assert.ok(pages.length > 0, `the browser (pid ${window.pid}) has page processes`);
      // Held as a page busy laying out is (SIGSTOP), and let go 1.5 s later whatever happens.
      for (const pid of pages) process.kill(pid, 'SIGSTOP');
      const resume = () => pages.forEach((pid) => process.kill(pid, 'SIGCONT'));
      const resumed = sleep(1500).then(resume);
      try {
        const typed = await callOk(rig.context, 'type_text', { window_id: window.id, element_index: motto.index, text: ' zz' });
        const { effect, escalation } = typed.structured as { effect: string; escalation?: { reason: string } };
        assert.equal(effect, 'confirmed', `${typed.summary}: ${escalation?.reason}`);
      } finally {
        await resumed;
      }
      assert.equal((await rig.oracle.find(window.pid, window.title, 'entry', 'Motto')).text, `${before} zz`, 'pyatspi: the field holds the text once');
    });

    test('a field the page renders anew on every key, upper-casing it: typing is confirmed in its replacement and said rewritten, in the background and with real keys', async () => {
      const window = await rig.open('controlled', 'CUP Web Controlled');
      const typed = await act(rig.context, window, 'type_text', 'textbox', 'Voucher code', { text: 'ab' });
      assert.equal(typed.effect, 'confirmed', typed.summary);
      await pageSays(rig.oracle, window, 'code=AB');
      const real = await callOk(rig.context, 'type_text', { window_id: window.id, element_index: (await element(rig.context, window, 'textbox', 'Voucher code')).index, text: 'c-d', delivery_mode: 'foreground' });
      const { effect, evidence } = real.structured as { effect: string; evidence?: string[] };
      assert.equal(effect, 'confirmed', real.summary);
      await pageSays(rig.oracle, window, 'code=ABC-D');
      assert.ok(evidence?.some((line) => line.includes('"ABC-D" where "c-d" was typed')), `the evidence says the page rewrote the text: ${evidence?.join(' | ')}`);
      assert.equal((await rig.oracle.find(window.pid, window.title, 'entry', 'Voucher code')).text, 'ABC-D', 'pyatspi reads the field the page made');
    });

    test('an ARIA menu bar\'s menu, lying in the bar beside its opener, reads as a menu holding its items (pyatspi: a menu), not as a second menu item; its item is chosen', async () => {
      const window = await rig.open('menubar', 'CUP Web Menubar');
      const opened = await act(rig.context, window, 'click', 'menuitem', 'Document');
      assert.equal(opened.effect, 'confirmed', opened.summary);
      const bar = find(subtree(await webDocument(rig.context, window, 'CUP Web Menubar')), 'menubar', 'Editor menu');
      const held = subtree(bar).slice(1).map((node) => `${node.role} ${node.name}`);
      assert.deepEqual(held.filter((each) => !each.startsWith('text ')), ['menuitem Document', 'menu Document', 'menuitem New', 'menuitem Open'], `the menu bar holds: ${held.join(', ')}`);
      const menus = await rig.oracle.attributes(window.pid, window.title, ['menu']);
      assert.ok(menus.some((menu) => menu.name === 'Document'), `pyatspi reads the page's menu as a menu: ${JSON.stringify(menus.map((menu) => menu.name))}`);
      const chosen = await act(rig.context, window, 'click', 'menuitem', 'Open');
      assert.equal(chosen.effect, 'confirmed', chosen.summary);
      await pageSays(rig.oracle, window, 'chose Open');
    });

    test('a <summary> clicked in the background opens and closes its details, and keeps its name', async () => {
      const window = await rig.open('editor', 'CUP Web Editor');
      for (const state of ['open', 'closed', 'open']) {
        const toggled = await act(rig.context, window, 'click', 'button', 'Formatting help');
        assert.equal(toggled.effect, 'confirmed', toggled.summary);
        await pageSays(rig.oracle, window, `help ${state}`);
      }
    });

    test('a click on an option of a list box that selects several selects it alone, as a plain click does, whatever was selected before', async () => {
      const window = await rig.open('choices', 'CUP Web Choices');
      await pageSays(rig.oracle, window, 'toppings: Ham+Peppers');
      // Olives lies between the two selected, Cheese before both: Gecko deselected by the option's place among all of
      // them. Blink's tree shows the new selection a moment late, and the others stayed selected after some clicks.
      for (const option of ['Olives', 'Cheese', 'Peppers', 'Ham', 'Olives', 'Cheese', 'Peppers']) {
        const clicked = await act(rig.context, window, 'click', 'option', option);
        assert.equal(clicked.effect, 'confirmed', clicked.summary);
        await pageSays(rig.oracle, window, `toppings: ${option}`);
        assert.deepEqual(await rig.oracle.selected(window.pid, window.title, 'Pizza toppings'), [option], 'pyatspi: the option alone is selected');
      }
    });

    test('a click that submits a form loads the next page: the result is read once the page has loaded, its title and content in the diff', async () => {
      const window = await rig.open('navigation', 'CUP Web Navigation', 'http');
      const submit = await element(rig.context, window, 'button', 'Search now');
      const called = await callOk(rig.context, 'click', { window_id: window.id, element_index: submit.index });
      const text = `${called.summary}\n${called.body ?? ''}`;
      assert.equal((called.structured as { effect: string }).effect, 'confirmed', text);
      // Gecko's document stays busy while the next page loads (the server sends it 1 s late), and the result was read
      // half way: the window untitled, the browser's Stop button added, nothing of the page's words.
      assert.match(text, /~ \[e0\] win name: .*→ "CUP Web Navigated/, `the diff says the window shows the next page: ${text}`);
      assert.match(text, /\+ \[e\d+\] hdg "Results"/, `the diff adds the next page's heading: ${text}`);
      assert.doesNotMatch(text, /\+ \[e\d+\] btn "Stop"/, `the page is loaded when the result is read: ${text}`);
      // The page's own words, as pyatspi reads them in the window now titled after the next page.
      const next = { ...window, title: window.title.replace('CUP Web Navigation', 'CUP Web Navigated') };
      await pageSays(rig.oracle, next, 'results for pears');
    });

    test('a rich-text box\'s toolbar: ctrl+a selects all its text in the background, seen by its selection (pyatspi agrees), a second is no change, and Bold formats it', async () => {
      const window = await rig.open('editor', 'CUP Web Editor');
      assert.deepEqual((await rig.oracle.selection(window.pid, window.title, 'entry', 'Message')).filter(([start, end]) => end! > start!), [], 'pyatspi: nothing is selected yet');
      const all = await act(rig.context, window, 'press_key', 'textbox', 'Message', { key: 'ctrl+a' });
      assert.equal(all.effect, 'confirmed', `${all.summary} ${JSON.stringify((all as { evidence?: string[] }).evidence)}`);
      assert.deepEqual(await rig.oracle.selection(window.pid, window.title, 'entry', 'Message'), [[0, 11]], 'pyatspi: the whole text is selected');
      // With the focus in the box already, the selection is all that changes: the evidence says so.
      // Gecko does not always collapse the selection as asked (in a whole run of this file it kept "0..5"): the
      // evidence is judged against what pyatspi reads selected before the keys.
      // The browser takes the collapse a moment after pyatspi asks (CI read the whole text still selected at once):
      // its selection is read again for up to 2 s.
      await rig.oracle.selectText(window.pid, window.title, 'entry', 'Message', 5, 5);
      let left: (number | undefined)[][] = [];
      for (const deadline = Date.now() + 2000; ; await sleep(100)) {
        left = (await rig.oracle.selection(window.pid, window.title, 'entry', 'Message')).filter(([start, end]) => end! > start!);
        if (!(left.length === 1 && left[0]![0] === 0 && left[0]![1] === 11) || Date.now() > deadline) break;
      }
      const was = left.length === 0 ? 'none' : `${left[0]![0]}..${left[0]![1]}`;
      assert.notEqual(was, '0..11', 'pyatspi: the whole text is no longer selected');
      const selected = await act(rig.context, window, 'press_key', 'textbox', 'Message', { key: 'ctrl+a' });
      const evidence = ((selected as { evidence?: string[] }).evidence ?? []).join(' | ');
      assert.equal(selected.effect, 'confirmed', `${selected.summary} ${evidence}`);
      assert.ok(new RegExp(`text selected in \\[e\\d+\\]: "${was.replace(/\./g, '\\.')}" → "0\\.\\.11"`).test(evidence), `${was}: ${evidence}`);
      assert.deepEqual(await rig.oracle.selection(window.pid, window.title, 'entry', 'Message'), [[0, 11]], 'pyatspi: the whole text is selected again');
      const again = await act(rig.context, window, 'press_key', 'textbox', 'Message', { key: 'ctrl+a' });
      assert.deepEqual([again.effect, again.path], ['confirmed', 'none'], again.summary);
      const bold = await act(rig.context, window, 'click', 'button', 'Bold');
      assert.equal(bold.effect, 'confirmed', bold.summary);
      await pageSays(rig.oracle, window, 'html=<b>Hello world</b>');
    });

    test('a rich-text box\'s paragraphs are lines of its value, a Return typed into it is read back as the new paragraph the page made, and a ctrl+b or an Italic toolbar button by the formatting of the text selected', async () => {
      const window = await rig.open('richtext', 'CUP Web Rich Text');
      // The page's own output: the box holds two paragraphs, the second with a link inside.
      await pageSays(rig.oracle, window, 'out=<p>First paragraph with <b>bold</b> words.</p><p>Second has a <a href="#x">link here</a> inside.</p>');
      const compose = async () => find(subtree(await webDocument(rig.context, window, 'CUP Web Rich Text')), 'textbox', 'Compose');
      // Blink and Gecko embed each paragraph as an object with no line break between them: the value ran them together.
      assert.equal((await compose()).value, 'First paragraph with bold words.\nSecond has a link here inside.');
      // A labelled contenteditable with no role of its own is a named section, which Gecko read as a region whose own
      // words (in its Text) were in no node of the tree.
      await pageSays(rig.oracle, window, /^notes=Alpha <i>beta<\/i> gamma<ul>.*<\/a> end$/);
      // It is a text box (Blink gives it no EditableText, and read it as a region of static texts) whose value is its text.
      const notes = find(subtree(await webDocument(rig.context, window, 'CUP Web Rich Text')), 'textbox', 'Notes');
      assert.equal(notes.value, 'Alpha beta gamma\n• one\n• two\ndelta end');
      // "with" in the box's first paragraph, selected through its Text (the box holds its paragraphs as embedded objects).
      await rig.oracle.selectText(window.pid, window.title, 'paragraph', '', 16, 20);
      // Blink says the selection a moment after it takes it.
      const selected = async () => JSON.stringify(await rig.oracle.selection(window.pid, window.title, 'paragraph', ''));
      for (const deadline = Date.now() + 5000; (await selected()) !== '[[16,20]]' && Date.now() < deadline; ) await sleep(100);
      assert.equal(await selected(), '[[16,20]]', 'pyatspi: "with" is selected');
      const run = async () => (await rig.oracle.attributeRun(window.pid, window.title, 'paragraph', '', 16)).attributes;
      assert.equal((await run()).weight ?? '400', '400', 'pyatspi: "with" starts plain');
      if (rig.browser === 'chromium') await callOk(rig.context, 'bring_to_front', { window_id: window.id });
      // The page's ctrl+b changes no text, name or state: only the words' child objects were said to be replaced. The
      // focusing before the keys keeps the selection (Gecko's box, which had no focus, its selection put back at its own
      // "0..1", had all its text selected, and made bold).
      const bold = await act(rig.context, window, 'press_key', 'textbox', 'Compose', { key: 'ctrl+b', delivery_mode: 'foreground' });
      await pageSays(rig.oracle, window, /^out=<p>First paragraph <b>with<\/b> <b>bold<\/b>/);
      assert.equal((await run()).weight, '700', 'pyatspi: "with" is bold');
      const boldEvidence = ((bold as { evidence?: string[] }).evidence ?? []).join(' | ');
      assert.equal(bold.effect, 'confirmed', `${bold.summary} ${boldEvidence}`);
      assert.match(boldEvidence, /\[e\d+\] text \("with"\): weight 400 → 700/, boldEvidence);
      // The toolbar's button takes no focus from the box, and formats what is selected there.
      const italic = await act(rig.context, window, 'click', 'button', 'Italic');
      await pageSays(rig.oracle, window, /^out=<p>First paragraph <b><i>with<\/i><\/b>/);
      // Gecko names the paragraph's attributes in CSS's words.
      const style = await run();
      assert.equal(style.style ?? style['font-style'], 'italic', `pyatspi: "with" is italic (${JSON.stringify(style)})`);
      const italicEvidence = ((italic as { evidence?: string[] }).evidence ?? []).join(' | ');
      assert.equal(italic.effect, 'confirmed', `${italic.summary} ${italicEvidence}`);
      assert.match(italicEvidence, /\[e\d+\] text \("with"\): style normal → italic/, italicEvidence);
      // Gecko takes key events behind another app's window (where its caret at the end was not), Blink only in the active window.
      const cover = rig.browser === 'firefox-esr' ? await rig.desktop.launchFixture('gtk3', { title: 'Cover' }) : undefined;
      if (!cover) await callOk(rig.context, 'bring_to_front', { window_id: window.id });
      const typed = await act(rig.context, window, 'type_text', 'textbox', 'Compose', { text: 'One\nTwo' }).finally(() => cover?.process.kill('SIGKILL'));
      const evidence = ((typed as { evidence?: string[] }).evidence ?? []).join(' | ');
      assert.equal(typed.effect, 'confirmed', `${typed.summary} ${evidence}`);
      // The text went in at the box's end (Gecko had put the caret at the start of the last paragraph, and "One" went in
      // ahead of its words), and the page's Enter handler made a new paragraph, which the read-back had said "made no
      // line break".
      await pageSays(rig.oracle, window, /^out=.*inside\.One<\/p><p>Two<\/p>$/);
      assert.doesNotMatch(evidence, /no line break/, evidence);
      assert.match(evidence, /One\\nTwo/, `the evidence shows the text arrived on two lines: ${evidence}`);
      assert.equal((await compose()).value, 'First paragraph with bold words.\nSecond has a link here inside.One\nTwo');
      // set_value replaces the paragraphs, all selected: Gecko lost the first key that replaced them ("ello").
      const set = await act(rig.context, window, 'set_value', 'textbox', 'Compose', { value: 'Hello\nWorld' });
      assert.equal(set.effect, 'confirmed', set.summary);
      await pageSays(rig.oracle, window, 'out=<p>Hello</p><p>World</p>');
      assert.equal((await compose()).value, 'Hello\nWorld');
    });

    test('set_value on a busy page\'s rich-text box replaces its paragraphs: the keys wait until the box says its text is selected', async () => {
      // The page's main thread is busy 150 ms of every 200: the selection set through accessibility reached the page
      // after the Delete and the text typed to replace it (the browser's input goes first), which went in at the caret
      // and were then partly replaced: the page held "<p>Hello</p><p>WorldHowdy</p><p>World</p>" (Chromium) or
      // "<p>orldHello</p><p>W</p>" (Firefox), each set_value said confirmed.
      // The same value set again: the box showed it before its keys were handled, and its read-back met the wait at once
      // and then caught the keys half-way ("holds \"Hi\\nWo\"", 1 in 6 such set_values in Chromium).
      const window = await rig.open('busy-editor', 'CUP Web Busy Editor');
      await pageSays(rig.oracle, window, 'out=<p>First line</p><p>Second line</p>');
      try {
        for (const word of ['Hello', 'Howdy', 'Howdy', 'Hi', 'Hi']) {
          const set = await act(rig.context, window, 'set_value', 'textbox', 'Compose', { value: `${word}\nWorld` });
          assert.equal(set.effect, 'confirmed', set.summary);
          await pageSays(rig.oracle, window, `out=<p>${word}</p><p>World</p>`);
        }
      } finally {
        // Its work would slow the pages after it, in the same process.
        await act(rig.context, window, 'click', 'button', 'Stop working');
      }
    });

    test('set_value by keys on a rich-text box that keeps its heading: the box holds more than the value, and the result says so instead of confirmed', async () => {
      // Its Return goes in as a line break: set_value "Hello\nWorld" over a busy page's box that took the keys at its
      // caret ("<p>First line</p><p>Second lineHello</p><p>World</p>") was taken for a Return that acted on the text,
      // and confirmed. The keys here all reach the box; the page keeps its first line.
      const window = await rig.open('titled-editor', 'CUP Web Titled Editor');
      await pageSays(rig.oracle, window, 'out=<p>Notes</p><p>First line</p>');
      const set = await act(rig.context, window, 'set_value', 'textbox', 'Compose', { value: 'Hello\nWorld' });
      await pageSays(rig.oracle, window, 'out=<p>Notes</p><p>Hello</p><p>World</p>');
      assert.notEqual(set.effect, 'confirmed', `${set.summary} ${JSON.stringify(set)}`);
      assert.match(set.escalation?.reason ?? '', /holds "Notes\\nHello\\nWorld", not the value/, JSON.stringify(set));
    });

    test('keys aimed at an element go to it, not to the control that has the focus; Return in a page\'s combobox is a key its page hears', async () => {
      const window = await rig.open('keys', 'CUP Web Keys');
      assert.equal((await act(rig.context, window, 'type_text', 'combobox', 'Country', { text: 'B' })).effect, 'confirmed');
      const down = await act(rig.context, window, 'press_key', 'combobox', 'Country', { key: 'Down' });
      assert.equal(down.effect, 'confirmed', down.summary);
      await pageSays(rig.oracle, window, 'key ArrowDown on country');
      // The page made Belgium its active option (aria-activedescendant), which pyatspi reads selected: the evidence
      // says so as the tree shows it (Gecko's sent key had read only 'the window's pixels changed').
      // (Gecko names it by its list bullet too, "• Belgium", which the tree leaves out: the page's words.)
      const active = await rig.oracle.findWithState(window.pid, window.title, 'list item', 'selected');
      assert.ok(active.found && active.name?.endsWith('Belgium'), `pyatspi: Belgium is the active option: ${JSON.stringify(active)}`);
      const option = active.name!.replace(/^\u2022 /u, '');
      const evidence = (down as { evidence?: string[] }).evidence ?? [];
      assert.ok(evidence.some((line) => /^\[e\d+\] /.test(line)), `the evidence tells what the tree shows: ${evidence.join(' | ')}`);
      // The option is named in the evidence, or in the diff read after it where Blink's selection came after the wait.
      const changed = (down as { diff?: { changed?: { name: string }[] } }).diff?.changed ?? [];
      assert.ok(evidence.some((line) => line.includes(`"${option}"`)) || changed.some((entry) => entry.name === option), `the active option is told: ${evidence.join(' | ')}`);
      const picked = await act(rig.context, window, 'press_key', 'combobox', 'Country', { key: 'Return' });
      assert.equal(picked.effect, 'confirmed', picked.summary);
      await pageSays(rig.oracle, window, 'country=Belgium');
      // The field keeps the focus; the key meant for the menu button goes to the button, which opens its menu.
      const opened = await act(rig.context, window, 'press_key', 'button', 'Actions', { key: 'Down' });
      await pageSays(rig.oracle, window, 'key ArrowDown on actions');
      await pageSays(rig.oracle, window, 'menu open');
      assert.equal(opened.effect, 'confirmed', opened.summary);
    });

    test('a key sent behind another app\'s window, with no element: Gecko\'s page hears it; Blink, which drops such keys, is sent none and the result says so', async () => {
      const window = await rig.open('keys', 'CUP Web Keys');
      await callOk(rig.context, 'bring_to_front', { window_id: window.id });
      // The page's log of the key that reached it, as pyatspi reads it, moved from the Country field to the button.
      assert.equal((await act(rig.context, window, 'click', 'combobox', 'Country')).effect, 'confirmed');
      await callOk(rig.context, 'press_key', { window_id: window.id, key: 'Escape' });
      await pageSays(rig.oracle, window, 'key Escape on country');
      const cover = await rig.desktop.launchFixture('gtk3', { title: 'Cover' });
      try {
        await callOk(rig.context, 'bring_to_front', { window_id: cover.window.id });
        const tab = (await callOk(rig.context, 'press_key', { window_id: window.id, key: 'Tab' })).structured as { path: string; effect: string; escalation?: { reason: string } };
        if (rig.browser === 'firefox-esr') {
          assert.deepEqual([tab.path, tab.effect], ['key_events', 'confirmed'], JSON.stringify(tab));
          await pageSays(rig.oracle, window, 'key Tab on country');
        } else {
          // The Tab had gone as sent key events and read "delivered, no effect seen": the page logged nothing.
          assert.equal(tab.path, 'none', JSON.stringify(tab));
          assert.match(tab.escalation?.reason ?? '', /reads key events only in the active window, which window \d+ is not .*nothing was sent: retry with delivery_mode "foreground"/);
          await sleep(500);
          await pageSays(rig.oracle, window, 'key Escape on country', 1000);
        }
      } finally {
        cover.process.kill('SIGKILL');
      }
    });

    test('a line typed with Return into a field that the page empties on Return: confirmed, and the page has the task; a bare Return on the empty field is no effect', async () => {
      const window = await rig.open('tasks', 'CUP Web Tasks');
      const added = await act(rig.context, window, 'type_text', 'textbox', 'New task', { text: 'Buy milk\n' });
      assert.equal(added.effect, 'confirmed', added.summary);
      await pageSays(rig.oracle, window, 'tasks: Buy milk');
      assert.equal((await rig.oracle.find(window.pid, window.title, 'entry', 'New task')).text, '', 'the page emptied the field');
      // Return alone on an empty field: the page adds nothing, and its clock ticking meanwhile is not the Return's effect.
      const bare = await act(rig.context, window, 'type_text', 'textbox', 'New task', { text: '\n' });
      assert.equal(bare.effect, 'suspected_noop', bare.summary);
      const second = await act(rig.context, window, 'type_text', 'textbox', 'New task', { text: 'Walk dog' });
      assert.equal(second.effect, 'confirmed', second.summary);
      const pressed = await act(rig.context, window, 'type_text', 'textbox', 'New task', { text: '\n' });
      assert.equal(pressed.effect, 'confirmed', pressed.summary);
      await pageSays(rig.oracle, window, 'tasks: Buy milk, Walk dog');
    });

    test('lines holding a character no key of the layout types are not typed in the background at all: no line is added, and the foreground is offered', async () => {
      // The page as earlier tests left it (the file's windows of a page are one): its task list is compared.
      const window = await rig.open('tasks', 'CUP Web Tasks');
      const tasks = await pageSays(rig.oracle, window, /^tasks: /);
      const refused = await act(rig.context, window, 'type_text', 'textbox', 'New task', { text: 'Buy milk\nKaffee für 2 ☕\n' });
      assert.deepEqual([refused.path, refused.effect, refused.escalation?.recommended], ['none', 'suspected_noop', 'foreground'], refused.summary);
      assert.match(refused.escalation?.reason ?? '', /no key of the keyboard layout types "ü", "☕".*nothing was typed: retry with delivery_mode "foreground"/);
      // The page's own log: the first line was not added (it had been, with its Return, before the refusal came).
      await sleep(500);
      await pageSays(rig.oracle, window, tasks);
      assert.equal((await rig.oracle.find(window.pid, window.title, 'entry', 'New task')).text, '', 'pyatspi: the field is as it was');
    });

    test('a page busy when keys or a click come: the effect is waited for, and confirmed', async () => {
      const window = await rig.open('tasks', 'CUP Web Tasks');
      const saved = await act(rig.context, window, 'click', 'button', 'Slow save');
      assert.equal(saved.effect, 'confirmed', saved.summary);
      await pageSays(rig.oracle, window, 'save: done');
      const typed = await act(rig.context, window, 'type_text', 'textbox', 'Busy note', { text: 'Slow start' });
      assert.equal(typed.effect, 'confirmed', typed.summary);
      assert.equal((await rig.oracle.find(window.pid, window.title, 'entry', 'Busy note')).text, 'Slow start');
    });

    test('text a field holds already: set_value of it sends nothing and says so; typing is confirmed by the field changing by the typed text, not by its holding that text', async () => {
      const window = await rig.open('held-text', 'CUP Web Held Text');
      await pageSays(rig.oracle, window, 'out=code:abc nick:Ada memo:<p>Hello</p><p>World</p> inputs:0');
      // Blink keys only its active window.
      if (rig.browser === 'chromium') await callOk(rig.context, 'bring_to_front', { window_id: window.id });
      // Chromium's field and rich-text box took the value again by keys (the page heard them), said confirmed by key events.
      for (const [name, value] of [['Nickname', 'Ada'], ['Memo', 'Hello\nWorld']] as const) {
        const set = await act(rig.context, window, 'set_value', 'textbox', name, { value });
        assert.deepEqual([set.effect, set.path], ['confirmed', 'none'], `${name}: ${JSON.stringify(set)}`);
      }
      // Keys sent would reach the page within this while.
      await sleep(1000);
      await pageSays(rig.oracle, window, 'out=code:abc nick:Ada memo:<p>Hello</p><p>World</p> inputs:0');
      // "abc" typed into Code's "abc", which takes one character more, leaves "abca": it holds "abc", and was confirmed.
      const code = await act(rig.context, window, 'type_text', 'textbox', 'Code', { text: 'abc' });
      await pageSays(rig.oracle, window, /^out=code:abca nick:/);
      assert.notEqual(code.effect, 'confirmed', JSON.stringify(code));
      // The busy page takes a key every 250 ms: the field showed "abca", holding "abc", before the last keys, and the
      // typing was confirmed then. The page says when it took the last change.
      const slow = await act(rig.context, window, 'type_text', 'textbox', 'Slow field', { text: 'abc' });
      const answeredAt = Date.now();
      assert.equal(slow.effect, 'confirmed', JSON.stringify(slow));
      const said = await pageSays(rig.oracle, window, /^slow=abcabc at=\d+$/);
      const takenAt = Number(/at=(\d+)/.exec(said)![1]);
      assert.ok(takenAt <= answeredAt, `the page took the last key ${takenAt - answeredAt} ms after the typing was confirmed: ${JSON.stringify(slow)}`);
    });

    test('text typed over a field\'s whole text selected (ctrl+a) replaces it, in the background and with real keys, and is confirmed though the old text held the new', async () => {
      const window = await rig.open('selected-text', 'CUP Web Selected Text');
      await pageSays(rig.oracle, window, 'out=city:New York town:Paris');
      // Blink keys only its active window.
      if (rig.browser === 'chromium') await callOk(rig.context, 'bring_to_front', { window_id: window.id });
      const replace = async (name: string, text: string, delivery_mode: 'background' | 'foreground') => {
        const selectAll = await act(rig.context, window, 'press_key', 'textbox', name, { key: 'ctrl+a' });
        assert.equal(selectAll.effect, 'confirmed', JSON.stringify(selectAll));
        return act(rig.context, window, 'type_text', 'textbox', name, { text, delivery_mode });
      };
      // The keys had been sent after the caret was put at the field's end: "New YorkYork", confirmed.
      const city = await replace('City', 'York', 'background');
      await pageSays(rig.oracle, window, 'out=city:York town:Paris');
      assert.equal(city.effect, 'confirmed', JSON.stringify(city));
      // Real keys replaced the selection, and the field, holding "Par" once as before, read "does not show".
      const town = await replace('Town', 'Par', 'foreground');
      await pageSays(rig.oracle, window, 'out=city:York town:Par');
      assert.equal(town.effect, 'confirmed', JSON.stringify(town));
    });

    test('set_value on radios and a stepped slider says what the control holds: a radio is not unchecked by itself, a slider takes its nearest step', async () => {
      const window = await rig.open('tasks', 'CUP Web Tasks');
      const small = await element(rig.context, window, 'radio', 'Small');
      const refused = await failsWith(rig.context, 'set_value', { window_id: window.id, element_index: small.index, value: 'false' }, 'not_settable');
      assert.match(refused.summary, /another of its group/);
      assert.ok((await rig.oracle.find(window.pid, window.title, 'radio button', 'Small')).states?.includes('checked'), 'Small is still checked');
      const large = await act(rig.context, window, 'set_value', 'radio', 'Large', { value: 'true' });
      assert.equal(large.effect, 'confirmed', large.summary);
      assert.ok((await rig.oracle.find(window.pid, window.title, 'radio button', 'Large')).states?.includes('checked'), 'Large is checked');
      assert.ok(!(await rig.oracle.find(window.pid, window.title, 'radio button', 'Small')).states?.includes('checked'), 'Small is no longer checked');
      const level = await act(rig.context, window, 'set_value', 'slider', 'Level', { value: '75' });
      const held = (await rig.oracle.find(window.pid, window.title, 'slider', 'Level')).value;
      assert.equal(held, 80, 'the slider keeps to its steps of 10');
      assert.match(level.summary + JSON.stringify(level), /holds 80, not the 75 asked for/);
    });

    test('a <select> whose options are grouped (<optgroup>) shows its choice as its value and counts all its options; set_value chooses one of another group', async () => {
      const window = await rig.open('web-app', 'CUP Web App');
      await pageSays(rig.oracle, window, /size=S\b/);
      // Gecko marks the choice selected in its group only: the drop-down read with no value.
      assert.equal((await element(rig.context, window, 'combobox', 'Size')).value, 'S', 'the value is the page\'s choice');
      const compact = (await accessibleWindowState(rig.context, window, { include_screenshot: false, query: 'Size' })).result.body!;
      assert.match(compact, /cmb "Size".*val="S"\n\s*# 4 more items/, `the closed drop-down counts the four options of its two groups, not the groups: ${compact}`);
      const chosen = await act(rig.context, window, 'set_value', 'combobox', 'Size', { value: 'XL' });
      assert.equal(chosen.effect, 'confirmed', chosen.summary);
      await pageSays(rig.oracle, window, /size=XL\b/);
      assert.equal((await element(rig.context, window, 'combobox', 'Size')).value, 'XL', 'the value follows the page\'s choice');
    });

    test('a toast (role=alert) the page shows a while after a click: wait_for finds it by its words, and the compact view shows them', async () => {
      const window = await rig.open('web-app', 'CUP Web App');
      const saved = await act(rig.context, window, 'click', 'button', 'Save draft');
      assert.equal(saved.effect, 'confirmed', saved.summary);
      // Gecko keeps an alert's words in its own text, unnamed: the toast read as a bare `alrt` and the wait timed out.
      const waited = await callOk(rig.context, 'wait_for', { window_id: window.id, selector: 'name~="Draft saved"', timeout_ms: 10_000 });
      await pageSays(rig.oracle, window, /save=done/);
      const compact = (await accessibleWindowState(rig.context, window, { include_screenshot: false })).result.body!;
      assert.match(compact, /"Draft saved"/, `${waited.summary}\n${compact}`);
    });

    test('a switch (role=switch) reads checked when on, a toggle button (aria-pressed) pressed, each with its toggle verb when off; a click\'s evidence says the state changed, as the page says', async () => {
      const window = await rig.open('web-app', 'CUP Web App');
      // Both browsers give both a toggle button; the switch is checkable and its xml-roles says switch.
      const switchSeen = await rig.oracle.find(window.pid, window.title, 'toggle button', 'Dark mode');
      assert.ok(switchSeen.found && !switchSeen.states?.includes('checked'), `pyatspi: the switch is off: ${JSON.stringify(switchSeen)}`);
      const dark = await element(rig.context, window, 'switch', 'Dark mode');
      const mute = await element(rig.context, window, 'button', 'Mute');
      // Off, neither has a state: its toggle verb is what tells it from a push button (a plain one has none).
      for (const control of [dark, mute]) {
        assert.deepEqual(control.states.filter((state) => state === 'checked' || state === 'pressed'), [], `${control.name} is off`);
        assert.ok(control.actions.includes('toggle'), `${control.name} can be toggled: ${control.actions.join(',')}`);
      }
      assert.ok(!(await element(rig.context, window, 'button', 'Save draft')).actions.includes('toggle'), 'a push button has no toggle');
      for (const [role, name, code, state, said] of [['switch', 'Dark mode', 'chk', 'checked', 'dark=true'], ['button', 'Mute', 'prs', 'pressed', 'mute=true']] as const) {
        const clicked = await act(rig.context, window, 'click', role, name);
        const evidence = ((clicked as { evidence?: string[] }).evidence ?? []).join(' | ');
        assert.equal(clicked.effect, 'confirmed', clicked.summary);
        await pageSays(rig.oracle, window, new RegExp(`\\b${said}\\b`));
        assert.match(evidence, new RegExp(`states of \\[e\\d+\\]: \\+${code}\\b`), evidence);
        assert.ok((await element(rig.context, window, role, name)).states.includes(state), `${name} reads ${state} once on`);
      }
      // A switch takes set_value "false" as a check box does (Gecko gives its <button> EditableText: it was refused as read-only text).
      const off = await act(rig.context, window, 'set_value', 'switch', 'Dark mode', { value: 'false' });
      assert.equal(off.effect, 'confirmed', off.summary);
      await pageSays(rig.oracle, window, /\bdark=false\b/);
      assert.equal((await rig.oracle.find(window.pid, window.title, 'toggle button', 'Dark mode')).states?.includes('checked'), false, 'pyatspi: the switch is off again');
    });

    test('a live region (role=status) is named by its words in both browsers: find_elements role=status shows them, and the name follows the page\'s changes', async () => {
      const window = await rig.open('web-app', 'CUP Web App');
      const said = await pageSays(rig.oracle, window, /^state: /);
      const statuses = async () => {
        const found = await callOk(rig.context, 'find_elements', { window_id: window.id, selector: 'role=status' });
        return { summary: found.summary, names: (found.structured as { matches: Element[] }).matches.map((match) => match.name) };
      };
      // Blink keeps a status's words in a text child: it read `status ""`.
      const before = await statuses();
      assert.deepEqual(before.names, [said], before.summary);
      const clicked = await act(rig.context, window, 'click', 'button', 'Mute');
      assert.equal(clicked.effect, 'confirmed', clicked.summary);
      const now = await pageSays(rig.oracle, window, /\bmute=/);
      const after = await statuses();
      assert.deepEqual(after.names, [now], after.summary);
    });

    test('a time field\'s AM/PM part reads the words the browser writes, not its number; set_value of a word is taken where the part is text (Gecko), else refused with the route that works (Blink), which the page then hears', async () => {
      const window = await rig.open('web-app', 'CUP Web App');
      const part = (await elements(rig.context, window)).find((each) => each.name.startsWith('AM/PM') && !each.states.includes('hidden'));
      assert.ok(part, 'the Meeting field\'s AM/PM part is in the tree');
      if (part.role === 'spinbutton') {
        // Blink's part holds 1 of 1..2 and writes "AM" as its value text: it read val="1".
        const seen = (await rig.oracle.attributes(window.pid, window.title, ['spin button'])).find((node) => node.name.startsWith('AM/PM'));
        assert.equal(seen?.attributes.valuetext, 'AM', `pyatspi: the part writes AM: ${JSON.stringify(seen)}`);
        assert.equal(part.value, 'AM', JSON.stringify(part));
        const refused = await failsWith(rig.context, 'set_value', { window_id: window.id, element_index: part.index, value: 'PM' }, 'not_settable');
        assert.match(refused.summary, /click it with delivery_mode "foreground", then type_text "PM" with delivery_mode "foreground"/, refused.summary);
        await pageSays(rig.oracle, window, /^state: (?!.*when=)/);
        // The route the refusal names.
        await callOk(rig.context, 'click', { window_id: window.id, element_index: part.index, delivery_mode: 'foreground' });
        await callOk(rig.context, 'type_text', { window_id: window.id, element_index: part.index, text: 'PM', delivery_mode: 'foreground' });
      } else {
        assert.equal(part.value, 'AM', JSON.stringify(part));
        const set = await act(rig.context, window, 'set_value', part.role, part.name, { value: 'PM' });
        assert.equal(set.effect, 'confirmed', set.summary);
      }
      await pageSays(rig.oracle, window, /\bwhen=2026-03-04T21:30\b/);
      assert.equal((await element(rig.context, window, part.role, part.name)).value, 'PM', 'the part reads the words it now writes');
      const again = await callOk(rig.context, 'set_value', { window_id: window.id, element_index: (await element(rig.context, window, part.role, part.name)).index, value: 'PM' });
      assert.deepEqual((again.structured as { path: string; effect: string }).path, 'none', `it shows PM already, nothing is sent: ${again.summary}`);
    });

    test('a sortable grid\'s column headers say how they sort (aria-sort); a click on a header\'s button sorts the rows, and the headers then say the new order', async () => {
      const window = await rig.open('web-app', 'CUP Web App');
      const sorts = async () => {
        const headers = (await fullTree(rig.context, window)).filter((node) => node.role === 'columnheader');
        return Object.fromEntries(headers.map((node) => [node.name, node.attributes?.sort ?? 'none']));
      };
      // The page's markup starts sorted by Total; a reading said nothing of it.
      assert.deepEqual(await sorts(), { Order: 'none', Customer: 'none', Total: 'ascending' });
      const compact = (await accessibleWindowState(rig.context, window, { include_screenshot: false, query: 'Total' })).result.body!;
      assert.match(compact, /colh "Total" \(sort=ascending\)/, compact);
      // pyatspi's word for each header's order (its `sort` object attribute), the judge of the click's diff.
      const oracleSorts = async () =>
        Object.fromEntries((await rig.oracle.attributes(window.pid, window.title, ['column header'])).map((node) => [node.name, node.attributes.sort && node.attributes.sort !== 'none' ? node.attributes.sort : undefined]));
      for (const order of ['ascending', 'descending']) {
        const was = await oracleSorts();
        // diff: true, as a window read slowly on a loaded machine skips the diff for a while by default.
        const clicked = await callOk(rig.context, 'click', { window_id: window.id, element_index: (await element(rig.context, window, 'button', 'Order')).index, diff: true });
        const structured = clicked.structured as { effect: string; diff?: { changed: { role: string; name: string; changes: { attributes?: Record<string, { from?: string; to?: string }> } }[] } };
        assert.equal(structured.effect, 'confirmed', clicked.summary);
        await pageSays(rig.oracle, window, new RegExp(`sort=Order:${order}:${order === 'ascending' ? 'A-1,A-2,A-3' : 'A-3,A-2,A-1'}`));
        assert.deepEqual(await sorts(), { Order: order, Customer: 'none', Total: 'none' });
        // The click's diff tells each header's new order as pyatspi reads it before and after (it had said only that the
        // rows moved): `~ [e104] colh "Order" sort: none → "ascending"`.
        const now = await oracleSorts();
        assert.equal(now.Order, order, `pyatspi: ${JSON.stringify(now)}`);
        const told = Object.fromEntries((structured.diff?.changed ?? []).filter((entry) => entry.role === 'columnheader' && entry.changes.attributes?.sort).map((entry) => [entry.name, entry.changes.attributes!.sort]));
        const expected = Object.fromEntries(Object.keys(now).filter((name) => now[name] !== was[name]).map((name) => [name, { ...(was[name] ? { from: was[name] } : {}), ...(now[name] ? { to: now[name] } : {}) }]));
        assert.deepEqual(told, expected, clicked.body);
        assert.match(clicked.body ?? '', new RegExp(`colh "Order" sort: ${was.Order ? `"${was.Order}"` : 'none'} \u2192 "${order}"`), clicked.body);
      }
    });

    test('a month field the browser shows as a plain text field (Gecko) takes set_value as a text field does, and the page has it; one shown as parts (Blink) is refused, nothing sent', async () => {
      const window = await rig.open('web-app', 'CUP Web App');
      const month = (await elements(rig.context, window)).find((each) => each.name === 'Month' && (each.role === 'textbox' || each.role === 'group'));
      assert.ok(month, 'the Month field is in the tree');
      const args = { window_id: window.id, element_index: month.index, value: '2026-07' };
      if (month.role === 'group') {
        await failsWith(rig.context, 'set_value', args, 'not_settable');
        await pageSays(rig.oracle, window, /^state: (?!.*month=)/);
        return;
      }
      // Gecko's month field is an entry holding "2026-03", no parts: it had been refused as a date field.
      const set = await callOk(rig.context, 'set_value', args);
      assert.equal((set.structured as { effect: string }).effect, 'confirmed', set.summary);
      await pageSays(rig.oracle, window, /month=2026-07\b/);
    });

    test('hover moves the real pointer onto a button and leaves it there: the page\'s :hover menu appears in the diff, and the page logs the pointer\'s arrival', async (t) => {
      const window = await rig.open('hover', 'CUP Web Hover');
      const x = await rig.desktop.x11();
      await moveTo(x, { x: 1, y: 1 });
      const button = await element(rig.context, window, 'button', 'Products');
      assert.equal((await rig.oracle.find(window.pid, window.title, 'link', 'Laptops')).found, false, 'pyatspi: the menu is not there before');
      const called = await callOk(rig.context, 'hover', { window_id: window.id, element_index: button.index });
      const result = called.structured as { effect: string; diff?: { added: { role: string; name: string }[] } };
      const text = `${called.summary}\n${called.body ?? ''}`;
      t.diagnostic(text);
      assert.equal(result.effect, 'confirmed', text);
      assert.ok(result.diff?.added.some((node) => node.role === 'link' && node.name === 'Laptops'), `the diff adds the menu's link: ${text}`);
      await pageSays(rig.oracle, window, 'entered=Products menu=block');
      assert.equal((await rig.oracle.find(window.pid, window.title, 'link', 'Laptops')).found, true, 'pyatspi: the menu is there');
      const [bx, by, bw, bh] = (await rig.oracle.find(window.pid, window.title, 'push button', 'Products')).extents!;
      const pointer = await new XReaders(rig.desktop.env()).pointer();
      assert.ok(pointer.x >= bx && pointer.x < bx + bw && pointer.y >= by && pointer.y < by + bh, `xdotool: the pointer at ${pointer.x},${pointer.y} is on the button (${bx},${by} ${bw}x${bh})`);
    });
  });
}

/** The processes under a browser's that run its pages: Chromium's renderers, Firefox's content processes. */
function pageProcesses(browserPid: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // Gone since the listing.
    }
  }
  const under = (pid: number) => {
    for (let parent = parents.get(pid); parent; parent = parents.get(parent)) if (parent === browserPid) return true;
    return false;
  };
  const runsPages = (pid: number) => {
    try {
      return /--type=renderer|-contentproc.*-isForBrowser/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' '));
    } catch {
      return false;
    }
  };
  return [...parents.keys()].filter((pid) => under(pid) && runsPages(pid));
}
