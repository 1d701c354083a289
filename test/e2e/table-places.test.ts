import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CupNode } from '../../src/cup/types.js';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { LinuxToolContext } from '../../src/server/session.js';
import { TestDesktop } from '../helpers/desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { callOk, testContext } from '../helpers/tools.js';
import { element, fullTree, pageSays, subtree, webDocument, webRig, type BrowserId } from '../helpers/web-browser.js';

// Where a cell lies in its table and which item of its set an item is (CUP's rowIndex, colIndex, rowCount, colCount,
// posInSet, setSize), in a GTK3 tree view, a Qt table and list, and a web page's table, listbox, tab list and list in
// Chromium and Firefox: judged by pyatspi's Table (the cell it finds at each row and column) and the list's children,
// and by the page's own DOM (rowIndex, cellIndex, aria-posinset), never by what the driver read.

const box = (node: CupNode) => node.bounds && [node.bounds.x, node.bounds.y, node.bounds.w, node.bounds.h].join(',');

/** The table node of a role and name, with what it holds. */
function tableIn(tree: CupNode[], name: string): CupNode {
  const table = tree.find((node) => (node.role === 'grid' || node.role === 'table' || node.role === 'tree') && node.name === name);
  assert.ok(table, `no table "${name}" among ${tree.filter((node) => node.role === 'grid' || node.role === 'table').map((node) => node.name).join(', ')}`);
  return table;
}

/**
 * Every cell pyatspi's Table finds at a row and column is a cell of ours placed there, in the same box; every cell of
 * ours directly in the table is one it finds where we say; the table's size is the Table's.
 */
async function cellsAgree(oracle: PyatspiOracle, window: ClientWindow, tree: CupNode[], name: string): Promise<CupNode[]> {
  const table = tableIn(tree, name);
  const { rows, columns } = await oracle.cells(window.pid, window.title, 'table', name, [0, 0], [0, 0]);
  const sheet = await oracle.cells(window.pid, window.title, 'table', name, [0, rows - 1], [0, columns - 1]);
  assert.deepEqual([table.attributes?.rowCount, table.attributes?.colCount], [rows, columns], `${name}'s size`);
  const ours = (table.children ?? []).filter((node) => node.role === 'cell');
  assert.ok(ours.length > 0, `no cells in ${name}`);
  for (const cell of sheet.cells) {
    const placed = ours.filter((node) => node.attributes?.rowIndex === cell.row && node.attributes?.colIndex === cell.column);
    // One of ours there, in its box where we place it (a row scrolled out of a Qt table's view is hidden, and has none).
    assert.equal(placed.length, 1, `the cell pyatspi finds at row ${cell.row}, column ${cell.column} (${JSON.stringify(cell.name)})`);
    if (placed[0]!.bounds) assert.equal(box(placed[0]!), cell.extents.join(','), `${cell.name}'s box`);
  }
  for (const cell of ours) assert.ok(sheet.cells.some((found) => found.row === cell.attributes?.rowIndex && found.column === cell.attributes?.colIndex), `${cell.name}: ${JSON.stringify(cell.attributes)}`);
  return ours;
}

/** The items of the first pyatspi object of a role are ours, in order, each numbered its place of all of them. */
async function itemsNumbered(oracle: PyatspiOracle, window: ClientWindow, tree: CupNode[], holderRole: string, pyatspiRole: string, itemRole: string): Promise<void> {
  const items = await oracle.items(window.pid, window.title, pyatspiRole);
  const holder = tree.find((node) => node.role === holderRole && (node.children ?? []).some((child) => child.role === itemRole));
  assert.ok(holder, `no ${holderRole} of ${itemRole}s`);
  const ours = holder.children!.filter((child) => child.role === itemRole);
  assert.equal(ours.length, items.length);
  // By size: GTK 4 gives pyatspi boxes relative to the window.
  ours.forEach((item, i) => item.bounds && assert.equal(`${item.bounds.w}x${item.bounds.h}`, items[i]!.extents.slice(2).join('x'), `item ${i}: ${item.name}`));
  assert.deepEqual(ours.map((item) => item.attributes?.posInSet), items.map((item) => item.index + 1));
  assert.deepEqual(new Set(ours.map((item) => item.attributes?.setSize)), new Set([items.length]));
}

describe('native tables and lists: places read as pyatspi reads them', () => {
  let desktop: TestDesktop;
  let oracle: PyatspiOracle;
  let context: LinuxToolContext;

  before(async () => {
    desktop = await TestDesktop.start();
    oracle = new PyatspiOracle(desktop.env());
    context = testContext();
  });

  after(async () => {
    oracle?.close();
    await context?.desktop.close();
    await desktop?.stop();
  });

  test("GTK3's tree view (a file list): each cell's row and column, the list's size; the list box's rows and the menu bar's menus numbered", async () => {
    const { window } = await desktop.launchFixture('gtk3', { extraArgs: ['--file-list'] });
    const tree = await fullTree(context, window);
    const cells = await cellsAgree(oracle, window, tree, 'File list');
    // The fixture's own rows: alpha.txt, beta.txt, gamma (a folder), with their sizes beside them.
    const at = (name: string) => cells.find((cell) => cell.name === name)?.attributes;
    assert.deepEqual([at('beta.txt'), at('4 bytes'), at('folder')], [{ rowIndex: 1, colIndex: 0 }, { rowIndex: 1, colIndex: 1 }, { rowIndex: 2, colIndex: 1 }]);
    await itemsNumbered(oracle, window, tree, 'list', 'list box', 'option');
    await itemsNumbered(oracle, window, tree, 'menubar', 'menu bar', 'menuitem');
  });

  test("GTK 4.8: a notebook's tabs numbered; a list view's items not, as it lists only the items it made widgets for", async () => {
    const { window } = await desktop.launchFixture('gtk4', { rows: 3, extraArgs: ['--list-view', '--notebook'] });
    const tree = await fullTree(context, window);
    await itemsNumbered(oracle, window, tree, 'tablist', 'page tab list', 'tab');
    const fruits = tree.find((node) => node.name === 'Fruits');
    assert.ok(fruits, 'the Fruits list view');
    const items = (fruits.children ?? []).filter((node) => node.role === 'listitem' || node.role === 'option');
    assert.ok(items.length > 0);
    assert.deepEqual(items.map((item) => item.attributes?.posInSet), items.map(() => undefined));
  });

  test("Qt 5's table and list: each cell's row and column (Qt's cells have no TableCell: their table places them), the list's items numbered", async () => {
    const { window } = await desktop.launchFixture('qt5', { extraArgs: ['--table'] });
    const tree = await fullTree(context, window);
    const cells = await cellsAgree(oracle, window, tree, 'Stock');
    assert.deepEqual(cells.map((cell) => `${cell.name}@${cell.attributes?.rowIndex},${cell.attributes?.colIndex}`), ['Apple@0,0', '3@0,1', 'Banana@1,0', '12@1,1', 'Cherry@2,0', '100@2,1']);
    await itemsNumbered(oracle, window, tree, 'list', 'list', 'listitem');
  });
});

for (const browser of ['chromium', 'firefox-esr'] as BrowserId[]) {
  describe(`${browser}: a page's table, listbox, tabs and list placed as its DOM places them`, () => {
    // The browser starts on the page: its first read is the browser's first client's (see the test below).
    const rig = webRig(browser, { page: 'sets', title: 'CUP Web Sets' });

    /** The page's places as its DOM says them (once they match `expected`), and the page's nodes as we read them. */
    async function placesSaid(window: ClientWindow, expected: RegExp) {
      const truth = await pageSays(rig.oracle, window, expected);
      const [, size, cells, sets] = /^truth table (\d+x\d+) (.*) sets (.*)$/.exec(truth)!;
      const page = subtree(await webDocument(rig.context, window, 'CUP Web Sets'));
      const table = tableIn(page, 'Stock');
      assert.equal(`${table.attributes?.rowCount}x${table.attributes?.colCount}`, size);
      const placedCells = subtree(table).filter((node) => node.role === 'cell' || node.role === 'columnheader');
      assert.deepEqual(placedCells.map((cell) => `${cell.name}@${cell.attributes?.rowIndex},${cell.attributes?.colIndex}`).join(' '), cells);
      // Each row says the row its cells are in.
      const rows = Number(size.split('x')[0]);
      assert.deepEqual(subtree(table).filter((node) => node.role === 'row').map((row) => row.attributes?.rowIndex), Array.from({ length: rows }, (_, i) => i));
      const items = page.filter((node) => ['option', 'tab', 'listitem'].includes(node.role));
      // A list item's name starts with its bullet ("• Result 41"); the DOM's text has none.
      const numbered = items.map((item) => `${item.name.replace(/^• /, '')}#${item.attributes?.posInSet}/${item.attributes?.setSize}`);
      assert.deepEqual(numbered.join(' '), sets);
    }

    // Firefox answers its first client from a cache its content process fills only once asked (first nothing, then
    // places counted among siblings: Result 41 said 1/2), so this test's first read is the one that meets that.
    test('each cell at its DOM row and column, the table its size; each option, tab and item at its place in its set, also once the set grows', async () => {
      const window = await rig.open('sets', 'CUP Web Sets');
      await placesSaid(window, /^truth table /);
      // A colour added: every colour's set is one larger (the attributes kept of the items read before are stale); a
      // fruit put first: every cell's row is one further down (the places kept of the cells read before are stale).
      const add = await element(rig.context, window, 'button', 'Add colour and fruit');
      await callOk(rig.context, 'click', { window_id: window.id, element_index: add.index });
      await placesSaid(window, /Colour 6#6\/6/);
    });
  });
}
