import assert from 'node:assert/strict';
import { test } from 'node:test';
import { countClosedMenuItems } from '../../src/cup/prune.js';
import { compactBody, node } from './build.js';

const DASH = '\u2014';
const at = (x: number, y: number) => ({ x, y, w: 40, h: 20 });
const item = (id: number, name: string, states: string[]) =>
  node(id, 'menuitem', name, { actions: ['click'], states: states as never, ...(states.includes('offscreen') ? {} : { bounds: at(0, 20 * id) }) });

test('a closed menu (no item on screen) shows its entry and a count of its items, not the items', () => {
  const file = node(1, 'menuitem', 'File', {
    actions: ['click'],
    bounds: at(0, 0),
    children: [item(2, 'New', ['offscreen']), item(3, 'Open', ['offscreen']), node(4, 'menu', '', { states: ['hidden', 'offscreen'], children: [item(5, 'Recent', ['offscreen'])] })],
  });
  const tree = [node(0, 'menubar', '', { children: [file] })];
  // The menu's own three items, which opening it shows; Recent's item comes with the submenu.
  assert.deepEqual(compactBody(tree), ['[e0] mnub', '  [e1] mi "File" 0,0 40x20 [clk]', `    # 3 more items ${DASH} open the menu to see`]);
  assert.equal(compactBody(tree, { detail: 'full' }).length, 6, 'detail full still lists every item');
});

test('a closed menu whose items the platform left unread reads as one whose items it read', () => {
  const unread = node(1, 'menuitem', 'File', { actions: ['click'], bounds: at(0, 0), platform: { linux: { closedMenuItems: 3 } } });
  const tree = [node(0, 'menubar', '', { children: [unread] })];
  const hint = `    # 3 more items ${DASH} open the menu to see`;
  assert.deepEqual(compactBody(tree), ['[e0] mnub', '  [e1] mi "File" 0,0 40x20 [clk]', hint]);
  assert.deepEqual(compactBody(tree, { detail: 'full' }), ['[e0] mnub', '  [e1] mi "File" 0,0 40x20 [clk]', hint], 'detail full says they exist');
});

test("a menu-bar entry holding one popup (Qt) counts the popup's items, read or not", () => {
  const popup = node(2, 'menu', '', { states: ['hidden', 'offscreen'], children: [item(3, 'New', ['hidden', 'offscreen']), item(4, 'Open', ['hidden', 'offscreen'])] });
  const read = node(1, 'menuitem', 'File', { actions: ['click'], bounds: at(0, 0), children: [popup] });
  const hint = `  # 2 more items ${DASH} open the menu to see`;
  assert.deepEqual(compactBody([read]), ['[e1] mi "File" 0,0 40x20 [clk]', hint]);
  const unread = node(1, 'menuitem', 'File', { actions: ['click'], bounds: at(0, 0), platform: { linux: { closedMenuItems: 2 } } });
  assert.deepEqual(compactBody([unread]), ['[e1] mi "File" 0,0 40x20 [clk]', hint]);
});

test("a closed popup's separators are no items (File Roller's Location box: five places and a rule read \"6 more items\")", () => {
  const rule = (id: number) => node(id, 'separator', '', { states: ['hidden', 'offscreen'] });
  const popup = node(2, 'menu', '', { states: ['hidden', 'offscreen'], children: [item(3, 'root', ['hidden', 'offscreen']), item(4, 'Desktop', ['hidden', 'offscreen']), rule(5), item(6, 'Other…', ['hidden', 'offscreen'])] });
  const combo = node(1, 'combobox', 'Location:', { actions: ['click'], value: 'root', bounds: at(0, 0), children: [popup] });
  assert.deepEqual(compactBody([combo]), ['[e1] cmb "Location:" 0,0 40x20 [clk] val="root"', `  # 3 more items ${DASH} open the list to see, or set_value with a choice's text`]);
});

test('an open menu lists its items', () => {
  const edit = node(1, 'menuitem', 'Edit', { actions: ['click'], bounds: at(0, 0), children: [item(2, 'Undo', []), item(3, 'Redo', [])] });
  assert.deepEqual(compactBody([edit]), ['[e1] mi "Edit" 0,0 40x20 [clk]', '  [e2] mi "Undo" 0,40 40x20 [clk]', '  [e3] mi "Redo" 0,60 40x20 [clk]']);
});

test("a combo box whose list of choices has no place on screen (Qt 5's closed popup) counts its choices as a closed menu's", () => {
  const choice = (id: number, name: string) => node(id, 'listitem', name, { actions: ['toggle'], bounds: { x: 0, y: 23 * (id - 2), w: 753, h: 23 } });
  const combo = (list: Parameters<typeof node>[3]) =>
    node(1, 'combobox', 'Fusion', { actions: ['click'], value: 'Fusion', bounds: { x: 330, y: 204, w: 84, h: 23 }, children: [node(2, 'list', '', { ...list, children: [choice(2, 'Windows'), choice(3, 'Fusion')] })] });
  const window = (child: ReturnType<typeof node>) => [node(0, 'window', 'Settings', { bounds: { x: 300, y: 100, w: 700, h: 600 }, children: [child] })];
  const closed = compactBody(window(combo({ states: ['offscreen'] })));
  assert.deepEqual(closed.slice(1), ['  [e1] cmb "Fusion" 330,204 84x23 [clk] val="Fusion"', `    # 2 more items ${DASH} open the list to see, or set_value with a choice's text`]);
  assert.deepEqual(compactBody(window(combo({ bounds: { x: 0, y: 0, w: 0, h: 0 } }))).slice(1), closed.slice(1), 'a list of no size is closed too');
  // Opened, the list has its place below the combo box, and its choices are listed.
  const open = compactBody(window(node(1, 'combobox', 'Fusion', {
    actions: ['click'], value: 'Fusion', bounds: { x: 330, y: 204, w: 84, h: 23 },
    children: [node(2, 'list', '', { bounds: { x: 331, y: 228, w: 82, h: 46 }, children: [node(3, 'listitem', 'Windows', { bounds: { x: 331, y: 228, w: 82, h: 23 } }), node(4, 'listitem', 'Fusion', { bounds: { x: 331, y: 251, w: 82, h: 23 } })] })],
  })));
  assert.ok(open.some((line) => line.includes('li "Windows"')) && open.some((line) => line.includes('li "Fusion"')), open.join('\n'));
});

test("a combo box the user types into keeps its text field and counts the choices of its closed list (Qt 5's editable combo box)", () => {
  const choice = (id: number, name: string) => node(id, 'listitem', name, { actions: ['toggle'], bounds: { x: 0, y: 15 * (id - 3), w: 640, h: 15 } });
  const field = node(5, 'textbox', '', { actions: ['type', 'setvalue'], states: ['editable'], value: 'Fit Width', bounds: { x: 702, y: 49, w: 60, h: 19 } });
  const combo = node(1, 'combobox', 'Fit Width', {
    actions: ['click'], value: 'Fit Width', bounds: { x: 700, y: 47, w: 83, h: 23 },
    children: [node(2, 'list', '', { children: [choice(3, 'Fit Width'), choice(4, 'Fit Page')] }), field],
  });
  const tree = [node(0, 'window', 'Viewer', { bounds: { x: 0, y: 0, w: 850, h: 530 }, children: [combo] })];
  assert.deepEqual(compactBody(tree).slice(1), [
    '  [e1] cmb "Fit Width" 700,47 83x23 [clk] val="Fit Width"',
    `    # 2 more items ${DASH} open the list to see, or set_value with a choice's text`,
    '    [e5] tbx 702,49 60x19 {edt} [typ,sv] val="Fit Width"',
  ]);
  assert.equal(compactBody(tree, { detail: 'full' }).filter((line) => line.includes('li "')).length, 2, 'detail full still lists the choices');
});

test('a button holding the items of the menu it opens (GTK3\'s menu tool button), none shown, counts them as a closed menu\'s', () => {
  const templates = node(1, 'button', 'Menu', { actions: ['click'], bounds: at(0, 0), children: [item(2, 'main.c', ['offscreen']), item(3, 'main.py', ['offscreen'])] });
  assert.deepEqual(compactBody([templates]), ['[e1] btn "Menu" 0,0 40x20 [clk]', `  # 2 more items ${DASH} open the menu to see`]);
  // Open, the items are on screen and listed.
  const open = node(1, 'button', 'Menu', { actions: ['click'], bounds: at(0, 0), children: [item(2, 'main.c', []), item(3, 'main.py', [])] });
  assert.equal(compactBody([open]).length, 3);
});

test("a button whose closed menu ends in a submenu counts the submenu as one of its items (Qalculate's unit buttons)", () => {
  // Qalculate's "kg" button: twelve units, then "more" holding the rest; pyatspi reads them all at -2^31, none showing.
  // Its count is of the lines opening it shows: two units, the separator (counted as a closed menu's always are) and "more".
  const more = node(5, 'menu', 'more', { actions: ['click'], states: ['offscreen'], children: [item(6, 'Becquerel', ['offscreen']), item(7, 'Candela', ['offscreen'])] });
  const units = node(1, 'button', 'Menu', { actions: ['click', 'toggle'], bounds: at(0, 0), children: [item(2, 'Ampere', ['offscreen']), item(3, 'Gram', ['offscreen']), node(4, 'separator', '', { states: ['offscreen'] }), more] });
  assert.deepEqual(compactBody([units]), ['[e1] btn "Menu" 0,0 40x20 [clk,tog]', `  # 4 more items ${DASH} open the menu to see`]);
  assert.equal(countClosedMenuItems([units]), 4, "the summary's count agrees with the view's");
  // Open, its items are on screen and listed, the submenu's own still closed.
  const open = node(1, 'button', 'Menu', { actions: ['click'], bounds: at(0, 0), children: [item(2, 'Ampere', []), item(3, 'Gram', []), node(5, 'menu', 'more', { actions: ['click'], bounds: at(0, 60), children: [item(6, 'Becquerel', ['offscreen'])] })] });
  const body = compactBody([open]);
  assert.ok(body.some((line) => line.includes('mi "Ampere"')) && body.some((line) => line.includes('mnu "more"')), body.join('\n'));
});

test("a collapsed combo box counts the choices of its menu (Gecko's closed <select>: the menu has the drop-down's box and the chosen option shows)", () => {
  const option = (id: number, name: string, chosen: boolean) => node(id, 'menuitem', name, { actions: ['click'], states: chosen ? ['selected'] : ['offscreen'] });
  const select = (states: string[]) =>
    node(1, 'combobox', 'Zoom', {
      actions: ['click', 'expand'], value: 'Automatic Zoom', states: states as never, bounds: { x: 597, y: 106, w: 143, h: 28 },
      children: [node(2, 'menu', '', { bounds: { x: 597, y: 106, w: 143, h: 28 }, children: [option(3, 'Automatic Zoom', true), option(4, 'Page Fit', false), option(5, '50%', false)] })],
    });
  assert.deepEqual(compactBody([select(['collapsed'])]), ['[e1] cmb "Zoom" 597,106 143x28 {col} [clk,exp] val="Automatic Zoom"', `  # 3 more items ${DASH} open the list to see, or set_value with a choice's text`]);
  // Expanded, its menu is open: the choices it shows are listed.
  assert.ok(compactBody([select([])]).some((line) => line.includes('mi "Automatic Zoom"')));
});

test('a closed menu or list with no items gets no count: nothing is there to open for (Firefox\'s address bar read "# 0 more items")', () => {
  const emptyList = node(2, 'list', '', { states: ['offscreen'], children: [] });
  const field = node(3, 'textbox', 'Search or enter address', { actions: ['type'], bounds: { x: 272, y: 69, w: 700, h: 28 } });
  const combo = node(1, 'combobox', '', { actions: ['click'], states: ['collapsed'], bounds: { x: 272, y: 69, w: 788, h: 28 }, children: [field, emptyList] });
  const body = compactBody([node(0, 'window', 'Browser', { bounds: { x: 0, y: 0, w: 1280, h: 800 }, children: [combo] })]);
  assert.ok(!body.some((line) => line.includes('more items')), body.join('\n'));
  const emptyMenu = node(1, 'menuitem', 'Recent', { actions: ['click'], bounds: at(0, 0), children: [node(2, 'menu', '', { states: ['hidden', 'offscreen'], children: [] })] });
  assert.deepEqual(compactBody([node(0, 'menubar', '', { children: [emptyMenu] })]), ['[e0] mnub', '  [e1] mi "Recent" 0,0 40x20 [clk]']);
});

test('a closed menu does not count the children the platform says the app keeps hidden in it', () => {
  // GTK3's menus from a UI file: a hidden unnamed item first, a hidden "Empty" last (Transmission's Edit menu read "6 more", showing 4).
  const edit = node(1, 'menuitem', 'Edit', {
    actions: ['click'],
    bounds: at(0, 0),
    platform: { linux: { hiddenMenuItems: 2 } },
    children: [item(2, '', ['hidden', 'offscreen']), item(3, 'Select All', ['offscreen']), node(4, 'separator', '', { states: ['offscreen'] }), item(5, 'Preferences', ['offscreen']), item(6, 'Empty', ['hidden', 'offscreen'])],
  });
  assert.deepEqual(compactBody([edit]), ['[e1] mi "Edit" 0,0 40x20 [clk]', `  # 3 more items ${DASH} open the menu to see`]);
});

test("the count of closed menus' items is the sum of the view's counts, the same whether a submenu's items were read or not", () => {
  const sizes = (read: boolean) =>
    node(4, 'menu', 'Tab Size', {
      states: ['offscreen'],
      ...(read ? { children: [item(5, '2', ['offscreen']), item(6, '4', ['offscreen']), item(7, '8', ['offscreen'])] } : { platform: { linux: { closedMenuItems: 3 } } }),
    });
  const view = (read: boolean) => node(1, 'menuitem', 'View', { actions: ['click'], bounds: at(0, 0), children: [item(2, 'Word Wrap', ['offscreen']), sizes(read)] });
  const choice = (id: number, name: string) => node(id, 'listitem', name, { actions: ['toggle'], bounds: { x: 0, y: 15 * (id - 10), w: 640, h: 15 } });
  const field = node(12, 'textbox', '', { actions: ['type'], states: ['editable'], bounds: { x: 102, y: 49, w: 60, h: 19 } });
  const zoom = node(9, 'combobox', 'Zoom', { actions: ['click'], bounds: { x: 100, y: 47, w: 83, h: 23 }, children: [node(10, 'list', '', { children: [choice(10, 'Fit'), choice(11, 'Page')] }), field] });
  const tree = (read: boolean) => [node(0, 'window', 'Editor', { bounds: { x: 0, y: 0, w: 850, h: 530 }, children: [node(8, 'menubar', '', { children: [view(read)] }), zoom] })];
  const hinted = compactBody(tree(true)).map((line) => Number(/# (\d+) more items/.exec(line)?.[1] ?? 0)).reduce((sum, count) => sum + count, 0);
  assert.equal(hinted, 4, "View's two items and the zoom box's two choices");
  assert.equal(countClosedMenuItems(tree(true)), hinted, 'with the submenu read (a whole read the live mirror keeps)');
  assert.equal(countClosedMenuItems(tree(false)), hinted, 'with the submenu counted, not read (a read of what is shown)');
});

test("a GTK3 combo box counts the choices of its closed menu, which is hidden and off screen (Transmission's Show: said nothing of its 9)", () => {
  const hidden = ['hidden', 'offscreen'] as never;
  const choice = (id: number, name: string) => node(id, 'menuitem', name, { actions: ['click', 'select'], states: hidden });
  const combo = (menu: Parameters<typeof node>[3], children: ReturnType<typeof node>[] = []) =>
    node(1, 'combobox', 'Color', { actions: ['click'], value: 'Red', bounds: { x: 258, y: 178, w: 79, h: 34 }, children: [...children, node(2, 'menu', '', { states: hidden, ...menu })] });
  const hint = `  # 3 more items ${DASH} open the list to see, or set_value with a choice's text`;
  const read = combo({ children: [choice(3, 'Red'), choice(4, 'Green'), choice(5, 'Blue')] });
  assert.deepEqual(compactBody([read]), ['[e1] cmb "Color" 258,178 79x34 [clk] val="Red"', hint]);
  assert.equal(countClosedMenuItems([read]), 3);
  // A read of what is shown leaves the closed menu's items unread and counts them on the menu.
  const unread = combo({ platform: { linux: { closedMenuItems: 3 } } });
  assert.deepEqual(compactBody([unread]), ['[e1] cmb "Color" 258,178 79x34 [clk] val="Red"', hint]);
  // One the user types into keeps its field beside the count (GtkComboBoxText with an entry).
  const typed = combo({ platform: { linux: { closedMenuItems: 3 } } }, [node(6, 'textbox', '', { actions: ['type'], value: 'Red', bounds: { x: 260, y: 180, w: 50, h: 30 } })]);
  assert.deepEqual(compactBody([typed]), ['[e1] cmb "Color" 258,178 79x34 [clk] val="Red"', '  [e6] tbx 260,180 50x30 [typ] val="Red"', hint]);
});
