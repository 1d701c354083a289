import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffTrees, type DiffReading } from '../../src/cup/diff.js';
import { diffLines } from '../../src/cup/diff-text.js';
import { WindowNumbering } from '../../src/cup/numbering.js';
import type { CupNode } from '../../src/cup/types.js';
import { node } from './build.js';

// A node spec: role, name, identity (absent: the reader knows none), children. Readings are numbered in
// depth-first order as the backend numbers them, so each test writes only what a window shows.
interface Spec {
  role: string;
  name: string;
  id?: string;
  children?: Spec[];
  unread?: boolean;
}

const s = (role: string, name: string, id?: string, children?: Spec[], unread?: boolean): Spec => ({ role, name, id, children, unread });

/** A backend's reading of the window: ids e0, e1, ... in depth-first order, with the identities given. */
function read(root: Spec): DiffReading & { root: CupNode } {
  const identities = new Map<number, string>();
  let next = 0;
  const build = (spec: Spec): CupNode => {
    const index = next++;
    if (spec.id !== undefined) identities.set(index, spec.id);
    const built = node(index, spec.role, spec.name, spec.unread ? { platform: { linux: { unreadChildren: { up: 0, down: 5, left: 0, right: 0 } } } } : {});
    if (spec.children) built.children = spec.children.map(build);
    return built;
  };
  return { root: build(root), identities };
}

/** The window's index of each node, by "role name" (names are unique in these tests). */
function indices(root: CupNode): Record<string, number> {
  const found: Record<string, number> = {};
  const visit = (at: CupNode) => {
    found[`${at.role} ${at.name}`] = Number(at.id.slice(1));
    for (const child of at.children ?? []) visit(child);
  };
  visit(root);
  return found;
}

const dialog = (history: Spec[]) =>
  s('window', 'Find', 'w', [s('combobox', 'Search', 'combo', [s('menu', 'History', 'menu', history)]), s('button', 'Find', 'find'), s('button', 'Close', 'close')]);

test('the first reading keeps the backend\'s depth-first numbers', () => {
  const numbering = new WindowNumbering();
  const { root } = numbering.number(read(dialog([])));
  assert.deepEqual(indices(root), { 'window Find': 0, 'combobox Search': 1, 'menu History': 2, 'button Find': 3, 'button Close': 4 });
  assert.equal(numbering.issued(4), true);
  assert.equal(numbering.issued(5), false);
});

test('nodes added before a button: the button keeps its index, the new nodes take numbers never used', () => {
  const numbering = new WindowNumbering();
  const first = numbering.number(read(dialog([])));
  const withHistory = read(dialog([s('menuitem', 'query one', 'h1'), s('menuitem', 'query two', 'h2')]));
  // As the backend numbers it, the old index of Close (4) is now Find's neighbour: the entries shifted everything.
  assert.deepEqual(indices(withHistory.root)['button Close'], 6);
  const second = numbering.number(withHistory);
  assert.deepEqual(indices(second.root), {
    'window Find': 0,
    'combobox Search': 1,
    'menu History': 2,
    'menuitem query one': 5,
    'menuitem query two': 6,
    'button Find': 3,
    'button Close': 4,
  });
  assert.deepEqual(second.numbers.get(6), 4, 'the backend\'s e6 (Close) is the window\'s e4');
  // The diff of the two numbered readings names the new nodes by indices of the new one.
  const diff = diffTrees(first, second);
  assert.deepEqual(diffLines(diff), ['+ [e5] mi "query one"', '+ [e6] mi "query two"']);
});

test('a removed element\'s index is never given to another: a later arrival gets a new number', () => {
  const numbering = new WindowNumbering();
  numbering.number(read(dialog([s('menuitem', 'old query', 'h1')])));
  const cleared = numbering.number(read(dialog([])));
  assert.deepEqual(indices(cleared.root)['button Close'], 5);
  assert.equal(numbering.issued(3), true, 'e3 was the entry: given out, now gone');
  assert.ok(!Object.values(indices(cleared.root)).includes(3));
  const again = numbering.number(read(dialog([s('menuitem', 'new query', 'h2')])));
  assert.deepEqual(indices(again.root), { 'window Find': 0, 'combobox Search': 1, 'menu History': 2, 'menuitem new query': 6, 'button Find': 4, 'button Close': 5 });
});

test('an object the app replaced (same role, name and place, new identity) keeps the index: the diff\'s matching', () => {
  const numbering = new WindowNumbering();
  numbering.number(read(s('window', 'App', 'w', [s('list', 'Items', 'l', [s('listitem', 'Row 1', 'r1'), s('listitem', 'Row 2', 'r2')])])));
  const rebuilt = numbering.number(read(s('window', 'App', 'w', [s('list', 'Items', 'l', [s('listitem', 'Row 0', 'r0'), s('listitem', 'Row 1', 'r1b'), s('listitem', 'Row 2', 'r2b')])])));
  assert.deepEqual(indices(rebuilt.root), { 'window App': 0, 'list Items': 1, 'listitem Row 0': 4, 'listitem Row 1': 2, 'listitem Row 2': 3 });
});

test('inside a container read in part, an unmatched old node may only be unread: a new one does not take its index', () => {
  const numbering = new WindowNumbering();
  numbering.number(read(s('window', 'App', 'w', [s('table', 'Big', 't', [s('row', 'same', 'r1')], true)])));
  // Scrolled: the row read now is another object of the same role and name; the first is out of the read part.
  const scrolled = numbering.number(read(s('window', 'App', 'w', [s('table', 'Big', 't', [s('row', 'same', 'r900')], true)])));
  assert.equal(indices(scrolled.root)['row same'], 3);
  // Read whole, the same change is a replacement.
  const whole = new WindowNumbering();
  whole.number(read(s('window', 'App', 'w', [s('table', 'Big', 't', [s('row', 'same', 'r1')])])));
  assert.equal(indices(whole.number(read(s('window', 'App', 'w', [s('table', 'Big', 't', [s('row', 'same', 'r900')])]))).root)['row same'], 2);
});

test('inside a container read in part, a new object with the same role, a name no sibling shares, and the same box keeps the index', () => {
  // LibreOffice makes a new object for every cell once it has dropped the last (after some seconds idle): each
  // reading after a pause numbered every cell anew, and an index read before failed with stale_element.
  const box = (x: number) => ({ x, y: 157, w: 82, h: 17 });
  const sheet = (ids: string[], names: string[]) => {
    const reading = read(s('window', 'Calc', 'w', [s('table', 'Sheet1', 't', names.map((name, i) => s('cell', name, ids[i])), true)]));
    reading.root.children![0]!.children!.forEach((cell, i) => (cell.bounds = box(41 + 82 * i)));
    return reading;
  };
  const numbering = new WindowNumbering();
  numbering.number(sheet(['a1', 'b1'], ['A1', 'B1']));
  const again = numbering.number(sheet(['a1x', 'b1x'], ['A1', 'B1']));
  assert.deepEqual(indices(again.root), { 'window Calc': 0, 'table Sheet1': 1, 'cell A1': 2, 'cell B1': 3 });
  // Names that siblings share say nothing of which is which: new numbers, as before.
  const same = new WindowNumbering();
  same.number(sheet(['r1', 'r2'], ['same', 'same']));
  const scrolled = same.number(sheet(['r900', 'r901'], ['same', 'same']));
  assert.deepEqual(scrolled.root.children![0]!.children!.map((cell) => cell.id), ['e4', 'e5']);
  // In another box it is not taken for it either.
  const moved = new WindowNumbering();
  moved.number(sheet(['a1'], ['A1']));
  const shifted = sheet(['a1y'], ['A1']);
  shifted.root.children![0]!.children![0]!.bounds = box(500);
  assert.equal(moved.number(shifted).root.children![0]!.children![0]!.id, 'e3');
});

test('an element left out of one reading gets its number back when a reading holds it again', () => {
  const numbering = new WindowNumbering();
  const full = s('window', 'App', 'w', [s('button', 'Top', 'top'), s('document', 'Page', 'doc', [s('link', 'Below the fold', 'link')])]);
  numbering.number(read(full));
  // A compact read leaves out what is scrolled out of view; something new appeared meanwhile.
  const compact = numbering.number(read(s('window', 'App', 'w', [s('button', 'Top', 'top'), s('button', 'New', 'new'), s('document', 'Page', 'doc', [], true)])));
  assert.deepEqual(indices(compact.root), { 'window App': 0, 'button Top': 1, 'button New': 4, 'document Page': 2 });
  const again = numbering.number(read(s('window', 'App', 'w', [s('button', 'Top', 'top'), s('button', 'New', 'new'), s('document', 'Page', 'doc', [s('link', 'Below the fold', 'link')])])));
  assert.deepEqual(indices(again.root), { 'window App': 0, 'button Top': 1, 'button New': 4, 'document Page': 2, 'link Below the fold': 3 });
});

test('the same object with another role is another element; a new object named like a removed one elsewhere is new', () => {
  const numbering = new WindowNumbering();
  numbering.number(read(s('window', 'App', 'w', [s('group', 'A', 'a', [s('button', 'Save', 'x')]), s('group', 'B', 'b')])));
  const next = numbering.number(read(s('window', 'App', 'w', [s('group', 'A', 'a', [s('link', 'Save', 'x')]), s('group', 'B', 'b', [s('button', 'Save', 'y')])])));
  assert.deepEqual(indices(next.root), { 'window App': 0, 'group A': 1, 'link Save': 4, 'group B': 3, 'button Save': 5 });
});

test('numbering copies the tree: the backend\'s reading (which other calls may share) keeps its ids', () => {
  const reading = read(dialog([s('menuitem', 'q', 'h1')]));
  const numbering = new WindowNumbering();
  numbering.number(read(dialog([])));
  const numbered = numbering.number(reading);
  assert.equal(indices(reading.root)['button Close'], 5);
  assert.equal(indices(numbered.root)['button Close'], 4);
});

test('a node in the place of one the app still keeps (another page of a stack) takes a new number; the kept one gets its own back', () => {
  const page = (n: number) => s('window', 'App', 'w', [s('radio', 'Page 1', 'p1'), s('radio', 'Page 2', 'p2'), s('filler', '', 'stack', [s('panel', '', `box${n}`, [s('slider', '', `slider${n}`)])])]);
  const kept = (...ids: string[]) => new Set(ids);
  const numbering = new WindowNumbering();
  numbering.number(read(page(1)));
  const second = read(page(2));
  assert.deepEqual(numbering.replacedObjects(second).sort(), ['box1', 'slider1'], 'the app is asked about the objects page 2\'s could be taken for');
  const onPage2 = numbering.number({ ...second, kept: kept('box1', 'slider1') });
  assert.deepEqual(indices(onPage2.root), { 'window App': 0, 'radio Page 1': 1, 'radio Page 2': 2, 'filler ': 3, 'panel ': 6, 'slider ': 7 });
  const back = read(page(1));
  const onPage1 = numbering.number({ ...back, kept: kept(...numbering.replacedObjects(back)) });
  assert.deepEqual(indices(onPage1.root), { 'window App': 0, 'radio Page 1': 1, 'radio Page 2': 2, 'filler ': 3, 'panel ': 4, 'slider ': 5 });
  // Told nothing of what the app keeps, role, name and place decide alone: page 2's slider took page 1's number.
  const structural = new WindowNumbering();
  structural.number(read(page(1)));
  assert.equal(indices(structural.number(read(page(2))).root)['slider '], 5);
});

test('a kept object leaves its look-alike to no other gone object the app was not asked about', () => {
  // Two unnamed sliders on page 1, one on page 2: page 2's would be taken for the first, then (the first kept) the second.
  const numbering = new WindowNumbering();
  numbering.number(read(s('window', 'App', 'w', [s('slider', '', 'a'), s('slider', '', 'b')])));
  const next = read(s('window', 'App', 'w', [s('slider', '', 'c')]));
  assert.deepEqual(numbering.replacedObjects(next).sort(), ['a', 'b']);
  assert.equal(numbering.number({ ...next, kept: new Set(['a', 'b']) }).root.children![0]!.id, 'e3');
});

test('a web page back from behind a modal dialog that closed: its remade nodes get their indices from before it opened, and the diff says the page is back in one line', () => {
  const browser = (page: Spec[]) => s('window', 'Browser', 'w', [s('document', 'Shop', 'doc', page)]);
  const numbering = new WindowNumbering();
  const first = numbering.number(read(browser([s('form', 'Account', 'form', [s('textbox', 'Email', 'mail'), s('button', 'Delete…', 'del')])])));
  const was = indices(first.root);
  // The dialog open: the page is out of the tree (Blink, Gecko).
  const open = numbering.number(read(browser([s('dialog', 'Delete account?', 'dlg', [s('button', 'Cancel', 'cancel')])])));
  assert.equal(diffTrees(first, open).inert?.[0]?.count, 3);
  // Closed: Blink made the page's objects anew (new identities), and the page wrote a line it did not hold before.
  const readBack = read(browser([s('form', 'Account', 'form2', [s('textbox', 'Email', 'mail2'), s('button', 'Delete…', 'del2')]), s('text', 'out: answered cancel', 'out')]));
  const back = numbering.number(readBack);
  const now = indices(back.root);
  for (const key of ['form Account', 'textbox Email', 'button Delete…']) assert.equal(now[key], was[key], `${key} keeps its index`);
  assert.ok(now['text out: answered cancel']! > Math.max(...Object.values(was), ...Object.values(indices(open.root))), 'what the page made new meanwhile takes a new number');
  assert.deepEqual([...back.returned].sort(), [was['form Account'], was['textbox Email'], was['button Delete…']].sort());
  const dialogIndex = indices(open.root)['dialog Delete account?'];
  assert.deepEqual(diffLines(diffTrees(open, { ...back, returned: back.returned })), [
    `+ [e${now['text out: answered cancel']}] txt "out: answered cancel"`,
    `+ 3 nodes of the page behind dlg "Delete account?" (was e${dialogIndex}) back: that modal dialog closed (they keep the indices they had before it opened)`,
    `- dlg "Delete account?" (was e${dialogIndex})`,
    `- btn "Cancel" (was e${indices(open.root)['button Cancel']})`,
  ]);
  // Once back, the page is no longer remembered: a later reading numbers as usual.
  assert.equal(numbering.number(read(browser([s('form', 'Account', 'form2', [s('textbox', 'Email', 'mail2'), s('button', 'Delete…', 'del2')])]))).returned.size, 0);
});
