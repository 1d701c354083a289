// Web content read and driven through AT-SPI, the same tests for each browser (one browser per test file):
// the fixture pages of test/fixtures/web, every claim judged by pyatspi and by the page's own output.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { CupNode } from '../../src/cup/types.js';
import { accessibleWindowState, callOk } from './tools.js';
import { act, element, pageSays, subtree, webDocument, webRig, type BrowserId } from './web-browser.js';

const objectReplacement = '\uFFFC';
const landmarkRoles = ['banner', 'navigation', 'search', 'main', 'form', 'complementary', 'contentinfo'];

function find(nodes: readonly CupNode[], role: string, name: string): CupNode {
  const found = nodes.find((node) => node.role === role && node.name === name);
  assert.ok(found, `no ${role} "${name}" in the page's tree; ${role}s: ${nodes.filter((node) => node.role === role).map((node) => JSON.stringify(node.name)).join(', ')}`);
  return found;
}

export function webContentSuite(browser: BrowserId): void {
  describe(`${browser}: web pages read and driven in the background through AT-SPI`, () => {
    const rig = webRig(browser);

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

    test('every kind of form field with its value; each set in the background, and the page\'s own output has them all', async (t) => {
      const window = await rig.open('fields', 'CUP Web Fields');
      const before = subtree(await webDocument(rig.context, window, 'CUP Web Fields'));
      find(before, 'form', 'Account');
      for (const name of ['User name', 'Password', 'Comments', 'Notes']) assert.ok(find(before, 'textbox', name).states?.includes('editable'), name);
      assert.equal(find(before, 'spinbutton', 'Quantity').value, '1');
      const slider = find(before, 'slider', 'Volume');
      assert.deepEqual([slider.value, slider.attributes?.valueMin, slider.attributes?.valueMax], ['50', 0, 100]);
      assert.equal((await rig.oracle.find(window.pid, window.title, 'slider', 'Volume')).value, 50);
      assert.equal(find(before, 'combobox', 'Colour').value, 'Red');
      const toppings = find(before, 'list', 'Toppings');
      assert.ok(toppings.states?.includes('multiselectable'));
      assert.deepEqual(toppings.children?.filter((node) => node.role === 'option').map((node) => node.name), ['Cheese', 'Ham', 'Olives', 'Peppers']);
      for (const size of ['Small', 'Medium', 'Large']) assert.ok(find(before, 'radio', size).actions?.includes('click'), size);
      assert.ok(find(before, 'checkbox', 'Subscribe to news').actions?.includes('toggle'));

      const steps: [string, string, string, Record<string, unknown>][] = [
        ['set_value', 'textbox', 'User name', { value: 'Ada Lovelace' }],
        ['type_text', 'textbox', 'Password', { text: 'secret' }],
        ['set_value', 'spinbutton', 'Quantity', { value: '7' }],
        ['set_value', 'slider', 'Volume', { value: '75' }],
        ['set_value', 'combobox', 'Colour', { value: 'Blue' }],
        ['set_value', 'list', 'Toppings', { value: 'Ham, Peppers' }],
        ['click', 'radio', 'Medium', {}],
        ['set_value', 'checkbox', 'Subscribe to news', { value: 'true' }],
        ['type_text', 'textbox', 'Comments', { text: 'Leave at the door' }],
        ['set_value', 'textbox', 'Notes', { value: 'Ring twice' }],
      ];
      const paths: string[] = [];
      for (const [tool, role, name, args] of steps) {
        const done = await act(rig.context, window, tool, role, name, args);
        assert.equal(done.effect, 'confirmed', `${tool} on ${role} "${name}": ${done.summary}`);
        paths.push(`${tool} ${name}: ${done.path}`);
      }
      t.diagnostic(paths.join('; '));
      const save = await act(rig.context, window, 'click', 'button', 'Save settings');
      assert.equal(save.effect, 'confirmed', save.summary);
      await pageSays(
        rig.oracle,
        window,
        'cause=save | user=Ada Lovelace | password=6 chars | quantity=7 | volume=75 | colour=Blue | toppings=Ham+Peppers | size=Medium | subscribe=yes | comments=Leave at the door | notes=Ring twice',
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

    test('a long page: content below the fold is offscreen; scroll brings it into view (pyatspi sees it move) and it is clicked', async () => {
      const window = await rig.open('long', 'CUP Web Long');
      const page = await rig.oracle.find(window.pid, window.title, 'document web', 'CUP Web Long');
      assert.ok(page.extents);
      const viewBottom = page.extents[1] + page.extents[3];
      const below = await rig.oracle.find(window.pid, window.title, 'push button', 'Bottom button');
      assert.ok(below.extents && below.extents[1] > viewBottom, `pyatspi places the button at ${below.extents} under a page ending at y=${viewBottom}`);
      assert.ok((await element(rig.context, window, 'button', 'Bottom button')).states.includes('offscreen'));
      assert.match((await accessibleWindowState(rig.context, window, { include_screenshot: false })).result.body!, /more items — scroll down to see/);

      const scrolled = await callOk(rig.context, 'scroll', { window_id: window.id, direction: 'down', by: 'page', amount: 20 });
      assert.equal(scrolled.structured.effect, 'confirmed', scrolled.summary);
      const now = await rig.oracle.find(window.pid, window.title, 'push button', 'Bottom button');
      assert.ok(now.extents && now.extents[1] >= page.extents[1] && now.extents[1] + now.extents[3] <= viewBottom, `after scrolling, pyatspi places the button at ${now.extents}`);
      assert.ok(!(await element(rig.context, window, 'button', 'Bottom button')).states.includes('offscreen'));
      const again = await callOk(rig.context, 'scroll', { window_id: window.id, direction: 'down', by: 'page', amount: 1 });
      assert.equal(again.structured.effect, 'suspected_noop', `at the end of the page: ${again.summary}`);

      const clicked = await act(rig.context, window, 'click', 'button', 'Bottom button');
      assert.equal(clicked.effect, 'confirmed', clicked.summary);
      await pageSays(rig.oracle, window, 'bottom clicked: / option off');
      const back = await callOk(rig.context, 'scroll', { window_id: window.id, direction: 'up', by: 'line', amount: 3 });
      assert.equal(back.structured.effect, 'confirmed', back.summary);
      const moved = await rig.oracle.find(window.pid, window.title, 'push button', 'Bottom button');
      assert.ok(moved.extents && moved.extents[1] > now.extents[1], `three lines up moves the button down: ${now.extents} -> ${moved.extents}`);
    });
  });
}
