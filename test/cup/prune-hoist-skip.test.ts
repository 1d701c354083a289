import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compactBody, node } from './build.js';

const win = (children: ReturnType<typeof node>[]) => node(0, 'window', 'W', { children });
const ok = node(9, 'button', 'OK');

test('an unnamed generic is hoisted: its children take its place', () => {
  const tree = [win([node(1, 'generic', '', { children: [node(2, 'button', 'A'), node(3, 'button', 'B')] })])];
  assert.deepEqual(compactBody(tree), ['[e0] win "W"', '  [e2] btn "A"', '  [e3] btn "B"']);
});

test('a named generic is kept', () => {
  const tree = [win([node(1, 'generic', 'Box', { children: [node(2, 'button', 'A')] })])];
  assert.deepEqual(compactBody(tree), ['[e0] win "W"', '  [e1] gen "Box"', '    [e2] btn "A"']);
});

test('an unnamed region is hoisted, a named one kept', () => {
  const hoisted = [win([node(1, 'region', '', { children: [ok] })])];
  assert.deepEqual(compactBody(hoisted), ['[e0] win "W"', '  [e9] btn "OK"']);
  const named = [win([node(1, 'region', 'Feed', { children: [ok] })])];
  assert.deepEqual(compactBody(named), ['[e0] win "W"', '  [e1] rgn "Feed"', '    [e9] btn "OK"']);
});

test('an unnamed live region is kept, so its words keep the marker saying a reader announces their changes', () => {
  const words = node(2, 'text', 'Saved 1 times');
  const tree = [win([node(1, 'region', '', { attributes: { live: 'polite' }, children: [words] })])];
  assert.deepEqual(compactBody(tree), ['[e0] win "W"', '  [e1] rgn (live=polite)', '    [e2] txt "Saved 1 times"']);
});

test('an unnamed group with no action besides focus is hoisted', () => {
  const tree = [win([node(1, 'group', '', { actions: ['focus'], children: [ok] })])];
  assert.deepEqual(compactBody(tree), ['[e0] win "W"', '  [e9] btn "OK"']);
});

test('an unnamed group with another action, or a named group, is kept', () => {
  const clickable = [win([node(1, 'group', '', { actions: ['click'], children: [ok] })])];
  assert.deepEqual(compactBody(clickable), ['[e0] win "W"', '  [e1] grp [clk]', '    [e9] btn "OK"']);
  const named = [win([node(1, 'group', 'G', { children: [ok] })])];
  assert.deepEqual(compactBody(named), ['[e0] win "W"', '  [e1] grp "G"', '    [e9] btn "OK"']);
});

test('hoisting nests: hoisted nodes inside hoisted nodes all give way to the first kept descendants', () => {
  const tree = [win([node(1, 'generic', '', { children: [node(2, 'group', '', { children: [ok] })] })])];
  assert.deepEqual(compactBody(tree), ['[e0] win "W"', '  [e9] btn "OK"']);
});

test('a hoisted root gives its children the root level', () => {
  const tree = [node(0, 'generic', '', { children: [node(1, 'window', 'A'), node(2, 'window', 'B')] })];
  assert.deepEqual(compactBody(tree), ['[e1] win "A"', '[e2] win "B"']);
});

test('an unnamed generic or region that can be clicked is kept, like an unnamed group with an action', () => {
  for (const role of ['generic', 'region', 'group']) {
    const tree = [win([node(1, role, '', { actions: ['click'], bounds: { x: 1, y: 1, w: 10, h: 10 }, children: [ok] })])];
    assert.deepEqual(compactBody(tree), ['[e0] win "W"', `  [e1] ${role === 'generic' ? 'gen' : role === 'region' ? 'rgn' : 'grp'} 1,1 10x10 [clk]`, '    [e9] btn "OK"']);
  }
});

test('hoisting is decided before skipping: a zero-size unnamed generic still shows its children', () => {
  const tree = [win([node(1, 'generic', '', { bounds: { x: 5, y: 5, w: 0, h: 0 }, children: [ok] })])];
  assert.deepEqual(compactBody(tree), ['[e0] win "W"', '  [e9] btn "OK"']);
});

for (const role of ['scrollbar', 'separator', 'titlebar', 'tooltip']) {
  test(`role ${role} is skipped with its whole subtree`, () => {
    const tree = [win([node(1, role, 'Named', { actions: ['click'], children: [ok] }), node(2, 'button', 'B')])];
    assert.deepEqual(compactBody(tree), ['[e0] win "W"', '  [e2] btn "B"']);
  });
}

test('a node with zero width or zero height is skipped with its subtree', () => {
  const tree = [
    win([
      node(1, 'button', 'Thin', { bounds: { x: 5, y: 5, w: 0, h: 10 }, actions: ['click'], children: [ok] }),
      node(2, 'button', 'Flat', { bounds: { x: 5, y: 5, w: 10, h: 0 }, actions: ['click'] }),
      node(3, 'button', 'Fine', { bounds: { x: 5, y: 5, w: 1, h: 1 } }),
    ]),
  ];
  assert.deepEqual(compactBody(tree), ['[e0] win "W"', '  [e3] btn "Fine"']);
});

test('an offscreen node with no action besides focus is skipped; with another action it is kept', () => {
  const tree = [
    win([
      node(1, 'link', 'Gone', { states: ['offscreen'] }),
      node(2, 'link', 'Focus only', { states: ['offscreen'], actions: ['focus'] }),
      node(3, 'link', 'Reachable', { states: ['offscreen'], actions: ['click'] }),
    ]),
  ];
  assert.deepEqual(compactBody(tree), ['[e0] win "W"', '  [e3] lnk "Reachable" {off} [clk]']);
});

test('an unnamed img is skipped; a named img is kept', () => {
  const tree = [win([node(1, 'img', ''), node(2, 'img', 'Logo')])];
  assert.deepEqual(compactBody(tree), ['[e0] win "W"', '  [e2] img "Logo"']);
});

test('a text with an empty name is skipped', () => {
  const tree = [node(0, 'list', '', { children: [node(1, 'text', ''), node(2, 'text', 'kept')] })];
  assert.deepEqual(compactBody(tree), ['[e0] lst', '  [e2] txt "kept"']);
});

test('a text that is the only child of a named parent is skipped', () => {
  const tree = [node(0, 'button', 'Save', { children: [node(1, 'text', 'Save')] })];
  assert.deepEqual(compactBody(tree), ['[e0] btn "Save"']);
});

test('a text with one sibling under a named parent is kept', () => {
  const tree = [node(0, 'button', 'Save', { children: [node(1, 'text', 'Save'), node(2, 'text', 'Ctrl+S')] })];
  assert.deepEqual(compactBody(tree), ['[e0] btn "Save"', '  [e1] txt "Save"', '  [e2] txt "Ctrl+S"']);
});

test('a text repeating its parent\'s name beside a control named by its tool tip (an icon) is skipped as a lone one', () => {
  // Blink's Sphinx heading: its words, and a permalink icon named by its title.
  const permalink = node(2, 'link', 'Permalink to this heading', { description: 'Permalink to this heading', actions: ['click'] });
  const tree = [node(0, 'heading', 'Widgets manual', { children: [node(1, 'text', 'Widgets manual'), permalink] })];
  assert.deepEqual(compactBody(tree), ['[e0] hdg "Widgets manual"', '  [e2] lnk "Permalink to this heading" [clk]']);
});

test('the only text child of an unnamed parent is kept', () => {
  const tree = [node(0, 'listitem', '', { children: [node(1, 'text', 'Milk')] })];
  assert.deepEqual(compactBody(tree), ['[e0] li', '  [e1] txt "Milk"']);
});

test('sibling count counts raw children that show something, not an unnamed image or an empty hoisted box', () => {
  const tree = [node(0, 'button', 'Save', { children: [node(1, 'text', 'Save'), node(2, 'img', '')] })];
  assert.deepEqual(compactBody(tree), ['[e0] btn "Save"']);
  const named = [node(0, 'button', 'Save', { children: [node(1, 'text', 'Save'), node(2, 'img', 'Disk')] })];
  assert.deepEqual(compactBody(named), ['[e0] btn "Save"', '  [e1] txt "Save"', '  [e2] img "Disk"']);
});

test("an unnamed container whose only click is its ancestor's is hoisted, and shows nothing beside the item's words", () => {
  // Chromium's settings menu item: an icon's wrapper (holding an unnamed image), its words and a ripple, each offering
  // Blink's clickAncestor.
  const ancestorClick = { actions: ['click' as const], platform: { linux: { clicksAncestor: true } } };
  const tree = [
    node(0, 'menuitem', 'Appearance', {
      actions: ['click'],
      children: [
        node(1, 'region', '', { ...ancestorClick, children: [node(2, 'img', '')] }),
        node(3, 'text', 'Appearance', ancestorClick),
        node(4, 'region', '', ancestorClick),
      ],
    }),
  ];
  assert.deepEqual(compactBody(tree), ['[e0] mi "Appearance" [clk]']);
  // A paragraph whose click is only its ancestor's (Sphinx's pages listen for clicks on their body) holds its words.
  const paragraph = [node(0, 'document', 'Docs', { children: [node(1, 'text', '', { ...ancestorClick, children: [node(2, 'text', 'Welcome!', ancestorClick), node(3, 'link', 'Tutorial', { actions: ['click'] })] })] })];
  assert.deepEqual(compactBody(paragraph), ['[e0] doc "Docs"', '  [e2] txt "Welcome!" [clk]', '  [e3] lnk "Tutorial" [clk]']);
  // A container with a click of its own stays.
  const own = [node(0, 'menuitem', 'Appearance', { actions: ['click'], children: [node(1, 'text', 'Appearance'), node(2, 'region', '', { actions: ['click'] })] })];
  assert.deepEqual(compactBody(own), ['[e0] mi "Appearance" [clk]', '  [e1] txt "Appearance"', '  [e2] rgn [clk]']);
});

test('hoisted children: sibling count is the hoisted node raw child count', () => {
  // The button has two raw children, but the text's siblings are the generic's children: just one.
  const tree = [
    node(0, 'button', 'OK', {
      children: [node(1, 'generic', '', { children: [node(2, 'text', 'OK')] }), node(3, 'img', 'Icon')],
    }),
  ];
  assert.deepEqual(compactBody(tree), ['[e0] btn "OK"', '  [e3] img "Icon"']);
  const two = [node(0, 'button', 'OK', { children: [node(1, 'generic', '', { children: [node(2, 'text', 'A'), node(3, 'text', 'B')] })] })];
  assert.deepEqual(compactBody(two), ['[e0] btn "OK"', '  [e2] txt "A"', '  [e3] txt "B"']);
});

test('hoisted children: their parent is the hoisted node own parent', () => {
  // The generic has no name, but the text's parent for the rule is the named window, whose name it repeats.
  const tree = [win([node(1, 'generic', '', { children: [node(2, 'text', 'W')] })])];
  assert.deepEqual(compactBody(tree), ['[e0] win "W"']);
});

test('a lone text child that says more than its parent name is kept (a page output inside an unnamed div)', () => {
  const tree = [win([node(1, 'generic', '', { children: [node(2, 'text', 'Hello, Ada!')] })])];
  assert.deepEqual(compactBody(tree), ['[e0] win "W"', '  [e2] txt "Hello, Ada!"']);
});

test('a lone text child is skipped when its words appear in the parent name, not when only letters do', () => {
  const saveAs = [node(0, 'button', 'Save As…', { children: [node(1, 'text', 'save')] })];
  assert.deepEqual(compactBody(saveAs), ['[e0] btn "Save As…"']);
  const book = [node(0, 'button', 'Book', { children: [node(1, 'text', 'OK')] })];
  assert.deepEqual(compactBody(book), ['[e0] btn "Book"', '  [e1] txt "OK"']);
});

test('a status bar is kept with its labels (an agent reads the encoding and line count there)', () => {
  const tree = [win([node(1, 'status', '', { children: [node(2, 'text', 'UTF-8'), node(3, 'text', 'Lines: 12')] })])];
  assert.deepEqual(compactBody(tree), ['[e0] win "W"', '  [e1] sts', '    [e2] txt "UTF-8"', '    [e3] txt "Lines: 12"']);
});

test('an unnamed text that holds objects (a web paragraph around a link) is hoisted, not skipped with them', () => {
  const tree = [win([node(1, 'text', '', { children: [node(2, 'link', 'Ask us', { actions: ['click'], bounds: { x: 5, y: 5, w: 40, h: 10 } })] })])];
  assert.deepEqual(compactBody(tree), ['[e0] win "W"', '  [e2] lnk "Ask us" 5,5 40x10 [clk]']);
});

test('children of a hoisted root have no parent, so a lone text among them is kept', () => {
  const tree = [node(0, 'generic', '', { children: [node(1, 'text', 'Hi')] })];
  assert.deepEqual(compactBody(tree), ['[e1] txt "Hi"']);
});

test('detail full keeps every node: nothing hoisted or skipped', () => {
  const tree = [win([node(1, 'generic', '', { children: [node(2, 'separator'), node(3, 'img', '')] })])];
  assert.deepEqual(compactBody(tree, { detail: 'full' }), ['[e0] win "W"', '  [e1] gen', '    [e2] sep', '    [e3] img']);
});

test('an unnamed generic the platform marks a drawn surface (a game board) is kept with its box; unmarked, it is hoisted', () => {
  const bounds = { x: 10, y: 80, w: 600, h: 400 };
  const drawn = [win([node(1, 'generic', '', { bounds, actions: ['focus'], platform: { linux: { drawnSurface: true } } })])];
  assert.deepEqual(compactBody(drawn), ['[e0] win "W"', '  [e1] gen 10,80 600x400']);
  const plain = [win([node(1, 'generic', '', { bounds, actions: ['focus'] })])];
  assert.deepEqual(compactBody(plain), ['[e0] win "W"']);
});

test('the cells of a list item that only spell its name are not listed; a cell with an action, a value or a state keeps them all', () => {
  // A terminal's process table (top, htop): each row is named by its line and holds a cell per column.
  const row = (cells: ReturnType<typeof node>[]) => node(1, 'listitem', '15140 root sleep', { children: cells });
  const spelt = [win([node(5, 'list', 'PID USER Command', { children: [node(6, 'columnheader', 'PID△USER Command', { children: [node(7, 'columnheader', 'PID△'), node(8, 'columnheader', 'USER'), node(9, 'columnheader', 'Command')] }), row([node(2, 'cell', '15140'), node(3, 'cell', 'root'), node(4, 'cell', 'sleep')])] })])];
  assert.deepEqual(compactBody(spelt), ['[e0] win "W"', '  [e5] lst "PID USER Command"', '    [e6] colh "PID△USER Command"', '    [e1] li "15140 root sleep"']);
  const clickable = [win([row([node(2, 'cell', '15140'), node(3, 'cell', 'root', { actions: ['click'] }), node(4, 'cell', 'sleep')])])];
  assert.deepEqual(compactBody(clickable), ['[e0] win "W"', '  [e1] li "15140 root sleep"', '    [e2] cel "15140"', '    [e3] cel "root" [clk]', '    [e4] cel "sleep"']);
  // Cells that say more than the name (another text) are listed.
  const more = [win([row([node(2, 'cell', '15140'), node(3, 'cell', 'root'), node(4, 'cell', 'sleep 60')])])];
  assert.equal(compactBody(more).length, 5);
});

test('a label beside the control it names is not listed: the control says its words; other texts and labels stay', () => {
  const combo = node(2, 'combobox', 'Theme:', { actions: ['click'], value: 'Light' });
  const form = [win([node(1, 'text', 'Theme:', { states: ['readonly'] }), combo, node(3, 'text', 'Passwords differ')])];
  assert.deepEqual(compactBody(form), ['[e0] win "W"', '  [e2] cmb "Theme:" [clk] val="Light"', '  [e3] txt "Passwords differ"']);
  // Beside a box the app names, holding the field the label names (KeePassXC's password field), and through a hoisted grid.
  const field = node(5, 'textbox', 'Enter password:', { actions: ['type'] });
  const boxed = [win([node(1, 'generic', '', { children: [node(3, 'text', 'Enter password:'), node(4, 'generic', 'Password field', { children: [field] })] })])];
  assert.deepEqual(compactBody(boxed), ['[e0] win "W"', '  [e4] gen "Password field"', '    [e5] tbx "Enter password:" [typ]']);
  // Kept: a label whose control is offscreen or has no action, says more than its name, or is itself more than a label.
  const kept = (label: ReturnType<typeof node>, control: ReturnType<typeof node>) => compactBody([win([label, control])]).length === 3;
  assert.ok(kept(node(1, 'text', 'Theme:'), node(2, 'combobox', 'Theme:')), 'a control without actions');
  assert.ok(kept(node(1, 'text', 'Theme:'), node(2, 'combobox', 'Theme:', { actions: ['click'], states: ['offscreen'] })), 'an offscreen control');
  assert.ok(kept(node(1, 'text', 'Theme'), node(2, 'combobox', 'Theme:', { actions: ['click'] })), 'other words');
  assert.ok(kept(node(1, 'text', 'Theme:', { actions: ['click', 'focus'] }), node(2, 'combobox', 'Theme:', { actions: ['click'] })), 'a label with another action');
  // A page's <label for>, whose click (Blink's, Gecko's) does what its control's does, goes as a plain one does.
  assert.deepEqual(compactBody([win([node(1, 'text', 'Full name', { actions: ['click'] }), node(2, 'textbox', 'Full name', { actions: ['type'] })])]), ['[e0] win "W"', '  [e2] tbx "Full name" [typ]']);
  assert.ok(kept(node(1, 'text', 'Theme:', { states: ['focused'] }), node(2, 'combobox', 'Theme:', { actions: ['click'] })), 'a label with a state');
  // A label greyed out goes only beside a control greyed out too (qt5ct's "Color scheme:").
  const greyed = (control: ReturnType<typeof node>) => compactBody([win([node(1, 'text', 'Color scheme:', { states: ['disabled', 'readonly'] }), control])]);
  assert.deepEqual(greyed(node(2, 'combobox', 'Color scheme:', { actions: ['click'], states: ['disabled'] })), ['[e0] win "W"', '  [e2] cmb "Color scheme:" {dis} [clk]']);
  assert.equal(greyed(node(2, 'combobox', 'Color scheme:', { actions: ['click'] })).length, 3, 'a greyed label beside a working control is kept');
});

test('a page\'s label around the control it names gives way to the control, named by its words or by its words and value', () => {
  // Firefox's form fixture: `<label>E-mail <input></label>` read `txt "E-mail" [clk]` over `tbx "E-mail"`.
  const wrapped = (label: string, control: ReturnType<typeof node>) => compactBody([win([node(1, 'text', label, { actions: ['click'], children: [control] })])]);
  assert.deepEqual(wrapped('E-mail', node(2, 'textbox', 'E-mail', { actions: ['type'] })), ['[e0] win "W"', '  [e2] tbx "E-mail" [typ]']);
  assert.deepEqual(wrapped('Shipping Standard', node(2, 'combobox', 'Shipping', { actions: ['click'], value: 'Standard' })), ['[e0] win "W"', '  [e2] cmb "Shipping" [clk] val="Standard"']);
  // Gecko keeps the label's words from when the page loaded: after a choice, they hold another of the choices.
  const choices = () => [node(3, 'menu', '', { children: [node(4, 'menuitem', 'Standard'), node(5, 'menuitem', 'Express', { states: ['selected'] })] })];
  assert.deepEqual(wrapped('Shipping Standard', node(2, 'combobox', 'Shipping', { actions: ['click'], value: 'Express', children: choices() })).slice(0, 2), ['[e0] win "W"', '  [e2] cmb "Shipping" [clk] val="Express"']);
  assert.equal(wrapped('Shipping Overnight', node(2, 'combobox', 'Shipping', { actions: ['click'], value: 'Express', children: choices() }))[1], '  [e1] txt "Shipping Overnight" [clk]', 'words that are none of its choices');
  // Kept: other words, a control without an action, or a label holding more than its control.
  assert.equal(wrapped('Shipping address', node(2, 'combobox', 'Shipping', { actions: ['click'], value: 'Standard' })).length, 3, 'other words');
  assert.equal(wrapped('E-mail', node(2, 'textbox', 'E-mail')).length, 3, 'a control without an action');
  const two = compactBody([win([node(1, 'text', 'E-mail', { actions: ['click'], children: [node(2, 'textbox', 'E-mail', { actions: ['type'] }), node(3, 'link', 'help', { actions: ['click'] })] })])]);
  assert.equal(two.length, 4, 'a label holding a link besides its field');
  // about:config's `<label><input type=checkbox><span>Show only modified preferences</span></label>`: the words in a
  // span of their own beside the check box (Gecko's text of them) read `txt "Show only ..." [clk]` over the check box.
  const spanned = compactBody([
    win([node(1, 'text', 'Show only modified preferences', { actions: ['click'], children: [node(2, 'checkbox', 'Show only modified preferences', { actions: ['toggle'] }), node(3, 'text', 'Show only modified preferences')] })]),
  ]);
  assert.deepEqual(spanned, ['[e0] win "W"', '  [e2] chk "Show only modified preferences" [tog]']);
});

test("texts that spell their parent's name with its other children, through unnamed spans, are said once, on the parent's line", () => {
  // Sphinx's search results: `<li><a>dataclasses</a> (Python module, in <span>dataclass</span>es — Data Classes)</li>`,
  // the matched words in highlighting spans; a link whose highlighted words are two texts.
  const span = (words: string) => node(9, 'generic', '', { children: [node(10, 'text', words)] });
  const link = node(2, 'link', 'dataclasses', { actions: ['click'], children: [node(3, 'text', 'dataclass'), node(4, 'text', 'es')] });
  const item = node(1, 'listitem', 'dataclasses (Python module, in dataclass es — Data Classes)', { children: [link, node(5, 'text', '(Python module, in'), span('dataclass'), node(6, 'text', 'es'), node(7, 'text', '— Data Classes)')] });
  assert.deepEqual(compactBody([win([item])]), ['[e0] win "W"', '  [e1] li "dataclasses (Python module, in dataclass es — Data Classes)"', '    [e2] lnk "dataclasses" [clk]']);
  // Words that are not the parent's name keep their lines.
  const other = node(1, 'listitem', 'dataclasses', { children: [node(2, 'link', 'dataclasses', { actions: ['click'] }), node(5, 'text', 'new in 3.7')] });
  assert.equal(compactBody([win([other])]).length, 4);
});

test("a group's caption, a text of the group's words among its children, is said once, on the group's line", () => {
  // GTK 2 and 3 frames as pyatspi reads them (gpicview's Preferences): a panel named by its label, holding what it
  // frames, then the label.
  const framed = node(2, 'generic', '', { children: [node(3, 'button', 'Normal:'), node(4, 'button', 'Fullscreen:')] });
  const tree = [win([node(1, 'group', 'Background colors', { children: [framed, node(5, 'text', 'Background colors')] })])];
  assert.deepEqual(compactBody(tree), ['[e0] win "W"', '  [e1] grp "Background colors"', '    [e3] btn "Normal:"', '    [e4] btn "Fullscreen:"']);
  // A text saying more than the group's name stays.
  const more = [win([node(1, 'group', 'Colors', { children: [node(2, 'button', 'Pick'), node(3, 'text', 'Colors are kept per folder')] })])];
  assert.deepEqual(compactBody(more), ['[e0] win "W"', '  [e1] grp "Colors"', '    [e2] btn "Pick"', '    [e3] txt "Colors are kept per folder"']);
});

test("a list item's text that repeats its name goes beside the marker Blink draws before it (its ::marker), which goes too", () => {
  const bounds = (x: number, w: number) => ({ bounds: { x, y: 10, w, h: 19 } });
  const item = (id: number, words: string, extra: ReturnType<typeof node>[] = []) =>
    node(id, 'listitem', words, { ...bounds(60, 900), children: [node(id + 1, 'text', '\u2022', bounds(44, 7)), node(id + 2, 'text', words, bounds(60, 70)), ...extra] });
  const tree = [win([node(1, 'list', 'Feed', { children: [item(10, 'Post 1'), item(20, 'Post 2', [node(29, 'link', 'More')])] })])];
  assert.deepEqual(compactBody(tree), ['[e0] win "W"', '  [e1] lst "Feed"', '    [e10] li "Post 1"', '    [e20] li "Post 2"', '      [e22] txt "Post 2"', '      [e29] lnk "More"']);
});

test('an unnamed text that holds objects and is clicked (a custom element host around its shadow root\'s button) is kept with them', () => {
  const button = node(2, 'button', 'Like this', { actions: ['click'], bounds: { x: 13, y: 171, w: 79, h: 29 } });
  const tree = [win([node(1, 'text', '', { actions: ['click'], bounds: { x: 13, y: 177, w: 79, h: 17 }, children: [button] })])];
  assert.deepEqual(compactBody(tree), ['[e0] win "W"', '  [e1] txt 13,177 79x17 [clk]', '    [e2] btn "Like this" 13,171 79x29 [clk]']);
});
