import assert from 'node:assert/strict';
import { test } from 'node:test';
import { diffTrees, type DiffReading } from '../../src/cup/diff.js';
import { diffLines, diffSummary } from '../../src/cup/diff-text.js';
import type { CupNode, CupState } from '../../src/cup/types.js';
import { node } from './build.js';

/** A reading whose identities are given per node as `id:<identity>` in a side table; nodes left out have none. */
function reading(root: CupNode, identities: Record<number, string>): DiffReading {
  return { root, identities: new Map(Object.entries(identities).map(([index, identity]) => [Number(index), identity])) };
}

const box = (x: number, y: number) => ({ x, y, w: 50, h: 20 });

function form(children: CupNode[]): CupNode {
  return node(0, 'window', 'App', { children: [node(1, 'generic', '', { children })] });
}

test('a label whose text changed, matched by identity, is one ~ line with the old and new name', () => {
  const before = reading(form([node(2, 'button', 'Increment', { actions: ['click'] }), node(3, 'text', 'ready')]), { 0: 'w', 1: 'g', 2: 'b', 3: 'l' });
  const after = reading(form([node(2, 'button', 'Increment', { actions: ['click'] }), node(3, 'text', 'Hello, Ada!')]), { 0: 'w', 1: 'g', 2: 'b', 3: 'l' });
  const diff = diffTrees(before, after);
  assert.deepEqual(diff.changed, [{ index: 3, role: 'text', name: 'Hello, Ada!', changes: { name: { from: 'ready', to: 'Hello, Ada!' } } }]);
  assert.deepEqual(diffLines(diff), ['~ [e3] txt name: "ready" \u2192 "Hello, Ada!"']);
});

test("a drawn surface's words, its description and so its value, are told changed once, as its value (Qalculate's result)", () => {
  const before = reading(form([node(2, 'generic', 'Calculation result', {})]), { 2: 'x' });
  const after = reading(form([node(2, 'generic', 'Calculation result', { value: '= 42', description: '= 42' })]), { 2: 'x' });
  assert.deepEqual(diffLines(diffTrees(before, after)), ['~ [e2] gen "Calculation result" value: "" \u2192 "= 42"']);
  // Words that differ from the value are still told apart.
  const hinted = reading(form([node(2, 'generic', 'Calculation result', { value: '= 42', description: 'Result: = 42' })]), { 2: 'x' });
  assert.deepEqual(diffLines(diffTrees(before, hinted)), ['~ [e2] gen "Calculation result" value: "" \u2192 "= 42"; description: "" \u2192 "Result: = 42"']);
});

test('value, description and state changes are told on one line; the name stays as it was', () => {
  const before = reading(form([node(2, 'textbox', 'Name', { value: 'a', states: ['editable'] })]), { 2: 'x' });
  const after = reading(form([node(2, 'textbox', 'Name', { value: 'ab', description: 'hint', states: ['editable', 'focused'] })]), { 2: 'x' });
  assert.deepEqual(diffLines(diffTrees(before, after)), ['~ [e2] tbx "Name" value: "a" \u2192 "ab"; description: "" \u2192 "hint"; states: +foc']);
});

test('added nodes carry the new index, removed ones the old; unnamed fillers are left to their children', () => {
  const before = reading(form([node(2, 'dialog', 'Confirm'), node(3, 'button', 'OK', { actions: ['click'] })]), { 2: 'd', 3: 'ok' });
  const after = reading(form([node(2, 'button', 'OK', { actions: ['click'] }), node(3, 'generic', '', { children: [node(4, 'button', 'Apply', { actions: ['click'] })] })]), {
    2: 'ok',
    3: 'panel',
    4: 'apply',
  });
  const diff = diffTrees(before, after);
  assert.deepEqual(diff.added, [{ index: 4, role: 'button', name: 'Apply' }]);
  assert.deepEqual(diff.removed, [{ index: 2, role: 'dialog', name: 'Confirm' }]);
  assert.deepEqual(diffLines(diff), ['+ [e4] btn "Apply"', '- dlg "Confirm" (was e2)']);
});

test('a row\'s lone label repeating the row\'s name is told by the row', () => {
  const list = (name: string) => form([node(2, 'list', 'L', { children: [node(3, 'option', name, { actions: ['select'], children: [node(4, 'text', name)] })] })]);
  assert.deepEqual(diffLines(diffTrees(reading(list('Row 1'), {}), reading(list('Row 1 (new)'), {}))), ['+ [e3] opt "Row 1 (new)"', '- opt "Row 1" (was e3)']);
});

test('an object the app replaced (new identity) is matched by role, name and place: a change, not a - and a +', () => {
  const before = reading(form([node(2, 'list', 'Items', { children: [node(3, 'listitem', 'Row 1'), node(4, 'listitem', 'Row 2', { states: ['selected'] })] })]), {
    2: 'list',
    3: 'r1',
    4: 'r2',
  });
  const after = reading(form([node(2, 'list', 'Items', { children: [node(3, 'listitem', 'Row 1'), node(4, 'listitem', 'Row 2')] })]), { 2: 'list', 3: 'r1b', 4: 'r2b' });
  const diff = diffTrees(before, after);
  assert.deepEqual(diff.added, []);
  assert.deepEqual(diff.removed, []);
  assert.deepEqual(diffLines(diff), ['~ [e4] li "Row 2" states: -sel']);
});

test('replaced objects under a replaced parent are matched by their ancestry; readings without identities too', () => {
  const tree = (states: CupNode['states']) => form([node(2, 'list', 'Items', { children: [node(3, 'listitem', 'Row 1', { states })] })]);
  const diff = diffTrees(reading(tree([]), {}), reading(tree(['selected']), {}));
  assert.deepEqual(diffLines(diff), ['~ [e3] li "Row 1" states: +sel']);
});

test('same role and name twice: ties are paired in tree order', () => {
  const items = (names: string[], offset: number) => form([node(2, 'list', 'L', { children: names.map((name, i) => node(3 + i + offset, 'listitem', name)) })]);
  const diff = diffTrees(reading(items(['A', 'A'], 0), {}), reading(items(['A', 'A', 'A'], 0), {}));
  assert.deepEqual(diff.added.map((added) => added.index), [5]);
});

test('identity wins over names: the same object renamed is a change, an object with the same name but a new role is not the same', () => {
  const before = reading(form([node(2, 'button', 'Save', { actions: ['click'] })]), { 2: 'x' });
  const after = reading(form([node(2, 'link', 'Save', { actions: ['click'] })]), { 2: 'x' });
  const diff = diffTrees(before, after);
  assert.deepEqual(diffLines(diff), ['+ [e2] lnk "Save"', '- btn "Save" (was e2)']);
});

test('an object found under another index than before is still paired by its identity, and one at its old index with another identity is not', () => {
  // The identity is looked for at the node's own index first (indices are kept across readings), then anywhere.
  const before = reading(form([node(2, 'button', 'Save', { actions: ['click'] }), node(3, 'button', 'Open', { actions: ['click'] })]), { 2: 'save', 3: 'open' });
  const after = reading(form([node(5, 'button', 'Save as', { actions: ['click'] }), node(2, 'button', 'Open', { actions: ['click'] })]), { 5: 'save', 2: 'open' });
  assert.deepEqual(diffLines(diffTrees(before, after)), ['~ [e5] btn name: "Save" → "Save as"']);
});

test('moves are counted, not listed: scrolled rows, rows scrolled out of view, and a reparented node named first', () => {
  const rows = (y: number, offscreen: boolean) =>
    [3, 4, 5, 6].map((index) => node(index, 'listitem', `Row ${index}`, { bounds: box(0, y + index * 20), ...(offscreen && index === 6 ? { states: ['offscreen' as const] } : {}) }));
  const ids = { 2: 'list', 3: 'r3', 4: 'r4', 5: 'r5', 6: 'r6', 7: 'btn', 8: 'pane' };
  const before = reading(
    form([node(2, 'list', 'L', { children: rows(0, false) }), node(7, 'button', 'Go', { actions: ['click'] }), node(8, 'group', 'Pane')]),
    ids,
  );
  const after = reading(
    form([node(2, 'list', 'L', { children: rows(-40, true) }), node(8, 'group', 'Pane', { children: [node(7, 'button', 'Go', { actions: ['click'] })] })]),
    ids,
  );
  const diff = diffTrees(before, after);
  assert.deepEqual(diff.changed, [], 'scrolling out of view is a move, not a state change');
  assert.equal(diff.moved.count, 5);
  assert.deepEqual(
    diff.moved.notable.map((moved) => [moved.index, moved.reparented]),
    [
      [3, false],
      [4, false],
      [7, true],
    ],
  );
  assert.deepEqual(diffLines(diff), ['\u2195 5 moved: [e3] li "Row 3", [e4] li "Row 4", [e7] btn "Go" (new parent), and 2 more']);
});

test('moved nodes none of which is worth naming are counted alone, without a dangling "and N more"', () => {
  const diff = { changed: [], added: [], removed: [], moved: { count: 2, notable: [] } };
  assert.deepEqual(diffLines(diff), ['\u2195 2 moved']);
});

test('lines come changed, added, removed, moved; each kind in tree order', () => {
  const before = reading(form([node(2, 'text', 'a'), node(3, 'button', 'X', { actions: ['click'] }), node(4, 'button', 'Y', { actions: ['click'] }), node(5, 'text', 'b', { bounds: box(0, 0) })]), {
    2: 'a',
    3: 'x',
    4: 'y',
    5: 'b',
  });
  const after = reading(
    form([node(2, 'text', 'a2'), node(3, 'button', 'P', { actions: ['click'] }), node(4, 'button', 'Q', { actions: ['click'] }), node(5, 'text', 'b2', { bounds: box(0, 9) })]),
    { 2: 'a', 3: 'p', 4: 'q', 5: 'b' },
  );
  assert.deepEqual(diffLines(diffTrees(before, after)), [
    '~ [e2] txt name: "a" \u2192 "a2"',
    '~ [e5] txt name: "b" \u2192 "b2"',
    '+ [e3] btn "P"',
    '+ [e4] btn "Q"',
    '- btn "X" (was e3)',
    '- btn "Y" (was e4)',
    '\u2195 1 moved: [e5] txt "b2"',
  ]);
});

test('no change at all is an empty diff; an empty reading before makes everything added', () => {
  const tree = form([node(2, 'button', 'OK', { actions: ['click'] })]);
  assert.deepEqual(diffLines(diffTrees(reading(tree, { 2: 'ok' }), reading(tree, { 2: 'ok' }))), []);
  assert.deepEqual(diffLines(diffTrees({ identities: new Map() }, reading(tree, {}))), ['+ [e0] win "App"', '+ [e2] btn "OK"']);
});

test('past the threshold the inline lines are a count line and the first lines of each kind; within it, all lines', () => {
  const list = (prefix: string) => form([node(2, 'list', 'L', { children: Array.from({ length: 30 }, (_, i) => node(3 + i, 'listitem', `${prefix} ${i}`)) })]);
  const diff = diffTrees(reading(list('Row'), {}), reading(list('Item'), {}));
  const summary = diffSummary(diff, 40);
  assert.equal(summary.total, 60);
  assert.equal(summary.truncated, true);
  assert.equal(summary.lines.length, 40);
  assert.equal(summary.lines[0], '0 changed, 30 added, 30 removed, 0 moved: 60 lines, 39 of 60 summary lines shown, the first of each kind');
  assert.equal(summary.lines[1], '+ [e3] li "Item 0"');
  // The added rows do not fill the room: the removed ones have their share (19 and 20 of the 39).
  assert.equal(summary.lines.filter((line) => line.startsWith('+ ')).length, 19);
  assert.equal(summary.lines.filter((line) => line.startsWith('- ')).length, 20);
  assert.equal(summary.lines[20], '- li "Row 0" (was e3)');
  assert.deepEqual(diffLines(summary.shown), summary.lines.slice(1), 'the cut diff holds exactly the lines shown');
  const whole = diffSummary(diff, 60);
  assert.equal(whole.truncated, false);
  assert.deepEqual(whole.lines, diffLines(diff));
});

test('past the threshold, nodes whose states flipped alike are one summary line naming a few: a modal dialog disabling a menu bar hid what else changed', () => {
  const items = (disabled: boolean) => Array.from({ length: 50 }, (_, i) => node(10 + i, 'menuitem', `Item ${i}`, disabled ? { states: ['disabled'] } : {}));
  const identities = { 0: 'w', 1: 'g', 2: 't', 3: 'm', ...Object.fromEntries(Array.from({ length: 50 }, (_, i) => [10 + i, `i${i}`])) };
  const before = reading(form([node(2, 'text', 'ready'), node(3, 'menu', 'File', { children: items(false) })]), identities);
  const after = reading(form([node(2, 'text', 'busy'), node(3, 'menu', 'File', { children: items(true) }), node(70, 'button', 'Stop', { actions: ['click'] })]), { ...identities, 70: 'stop' });
  const diff = diffTrees(before, after);
  assert.equal(diffLines(diff).length, 52, 'one line a node in the whole diff (the file)');
  const summary = diffSummary(diff, 40);
  assert.equal(summary.truncated, true);
  assert.deepEqual(summary.lines, [
    '51 changed, 1 added, 0 removed, 0 moved: 52 lines, summarised',
    '~ [e2] txt name: "ready" \u2192 "busy"',
    '~ 50 nodes, states: +dis: [e10] mi "Item 0", [e11] mi "Item 1", [e12] mi "Item 2", and 47 more',
    '+ [e70] btn "Stop"',
  ]);
  assert.deepEqual(summary.shown.changed.map((entry) => entry.index), [2, 10, 11, 12], 'the structured entries are the nodes the lines name');
  assert.deepEqual(summary.shown.added.map((entry) => entry.index), [70]);
});

test("past the threshold, a closed menu's many new items are one summary line: Thunar makes a menu's items as it opens, and an invoke_menu through it hid the view its choice showed", () => {
  // View was an empty menu before; opened on the way and closed again, it holds its 36 items, hidden and off screen.
  const unseen: CupState[] = ['offscreen'];
  const view = (items: number) => node(2, 'menuitem', 'View', { actions: ['click'], bounds: box(0, 0), children: Array.from({ length: items }, (_, i) => node(10 + i, 'menuitemcheckbox', `Choice ${i}`, { actions: ['click'], states: unseen })) });
  const files = (rows: number) => node(3, 'grid', '', { children: Array.from({ length: rows }, (_, i) => node(100 + i, 'cell', `file ${i}`, { actions: ['select'], bounds: box(100, 20 * i) })) });
  const identities = (items: number, rows: number) => ({ 0: 'w', 1: 'g', 2: 'view', 3: 'grid', ...Object.fromEntries(Array.from({ length: items }, (_, i) => [10 + i, `c${i}`])), ...Object.fromEntries(Array.from({ length: rows }, (_, i) => [100 + i, `f${i}`])) });
  const diff = diffTrees(reading(form([view(0), files(0)]), identities(0, 0)), reading(form([view(36), files(24)]), identities(36, 24)));
  assert.equal(diffLines(diff).length, 60, 'the whole diff (the file) lists every item');
  const summary = diffSummary(diff, 40);
  assert.equal(summary.lines[1], '+ 36 items in the closed menu [e2] mi "View" (open it to see them): [e10] mic "Choice 0", [e11] mic "Choice 1", [e12] mic "Choice 2", and 33 more');
  assert.deepEqual(summary.lines.slice(2).map((line) => line.replace(/ ".*/, '')), Array.from({ length: 24 }, (_, i) => `+ [e${100 + i}] cel`), 'every new row of the view is shown');
  assert.deepEqual(summary.shown.added.map((entry) => entry.index), [10, 11, 12, ...Array.from({ length: 24 }, (_, i) => 100 + i)]);
  // A few items added to a closed menu (a search's history) keep a line each.
  const few = diffTrees(reading(form([view(0), files(0)]), identities(0, 0)), reading(form([view(3), files(40)]), identities(3, 40)));
  assert.deepEqual(diffSummary(few, 40).lines.slice(1, 4), ['+ [e10] mic "Choice 0"', '+ [e11] mic "Choice 1"', '+ [e12] mic "Choice 2"']);
});

test("past the threshold, a closed list's many gone items are one summary line, as its new ones are: KCharSelect's search replaced its block list and 23 lines said which Latin blocks had gone", () => {
  // A combo box whose closed list of choices (hidden and off screen) holds one set of blocks before and another after.
  const unseen: CupState[] = ['hidden', 'offscreen'];
  const blocks = (names: string[], from: number) => node(3, 'list', '', { states: unseen, children: names.map((name, i) => node(from + i, 'listitem', name, { actions: ['select'], states: unseen })) });
  const combo = (shown: string, names: string[], from: number) => node(2, 'combobox', shown, { value: shown, actions: ['click'], bounds: box(0, 0), children: [blocks(names, from)] });
  const cells = (rows: number) => node(4, 'grid', '', { children: Array.from({ length: rows }, (_, i) => node(200 + i, 'cell', `c${i}`, { actions: ['toggle'], bounds: box(100, 20 * i) })) });
  const latin = Array.from({ length: 23 }, (_, i) => `Latin ${i}`);
  const ids = (items: number, from: number, rows: number) => ({ 0: 'w', 1: 'g', 2: 'combo', 3: 'list', 4: 'grid', ...Object.fromEntries(Array.from({ length: items }, (_, i) => [from + i, `i${from + i}`])), ...Object.fromEntries(Array.from({ length: rows }, (_, i) => [200 + i, `r${i}`])) });
  const before = reading(form([combo('Basic Latin', latin, 10), cells(30)]), ids(23, 10, 30));
  const after = reading(form([combo('Symbols', ['Arrows', 'Dingbats'], 50), cells(1)]), ids(2, 50, 1));
  const diff = diffTrees(before, after);
  const summary = diffSummary(diff, 40);
  assert.equal(summary.truncated, true, summary.lines.join('\n'));
  assert.ok(summary.lines.includes('- 23 items gone from the closed menu [e2] cmb "Symbols" val="Symbols": li "Latin 0" (was e10), li "Latin 1" (was e11), li "Latin 2" (was e12), and 20 more'), summary.lines.join('\n'));
  // Room left for the cells gone from the view: every one of them.
  assert.deepEqual(summary.lines.filter((line) => /^- cel /.test(line)).length, 29, summary.lines.join('\n'));
  assert.deepEqual(summary.shown.removed.slice(0, 3).map((entry) => entry.index), [10, 11, 12], 'the structured entries are the nodes the lines name');
  // The whole diff (the file) still lists every item.
  assert.equal(diffLines(diff).filter((line) => line.startsWith('- li ')).length, 23);
});

test('the moves named are those that brought a node into view before those that took one out: a tab switched names what its page shows', () => {
  const page = (id: number, name: string, shown: boolean) => node(id, 'checkbox', name, { actions: ['toggle'], ...(shown ? { bounds: box(0, 20 * id) } : { states: ['offscreen'] as CupState[] }) });
  const tabs = (first: boolean) => form([page(2, 'Display A', first), page(3, 'Display B', first), page(4, 'Display C', first), page(5, 'Behavior A', !first), page(6, 'Behavior B', !first)]);
  const ids = { 0: 'w', 1: 'g', 2: 'a', 3: 'b', 4: 'c', 5: 'd', 6: 'e' };
  const diff = diffTrees(reading(tabs(true), ids), reading(tabs(false), ids));
  assert.equal(diff.moved.count, 5);
  assert.deepEqual(diff.moved.notable.map((move) => move.name), ['Display A', 'Behavior A', 'Behavior B'], 'both shown now, and one taken away, in tree order');
});

test('of the nodes a search brought into view, its controls are named before the group, caption and heading around them', () => {
  // Firefox's settings searched for "zoom": the Zoom group comes into view with its caption, heading, a combo box and a
  // check box; the moves had named the group, its caption and its heading.
  const at = (shown: boolean, y: number) => (shown ? { bounds: box(0, y) } : { states: ['offscreen'] as CupState[] });
  const zoom = (shown: boolean) =>
    form([
      node(2, 'group', 'Zoom', {
        actions: ['click'],
        ...at(shown, 10),
        children: [
          node(3, 'text', 'Zoom', at(shown, 10)),
          node(4, 'heading', 'Zoom', { actions: ['click'], ...at(shown, 10) }),
          node(5, 'combobox', 'Default zoom', { actions: ['click', 'expand'], value: '100%', ...at(shown, 40) }),
          node(6, 'checkbox', 'Zoom text only', { actions: ['toggle'], ...at(shown, 80) }),
        ],
      }),
    ]);
  const ids = { 0: 'w', 1: 'g', 2: 'z', 3: 't', 4: 'h', 5: 'c', 6: 'x' };
  const diff = diffTrees(reading(zoom(false), ids), reading(zoom(true), ids));
  assert.equal(diff.moved.count, 5);
  assert.deepEqual(diff.moved.notable.map((move) => move.name), ['Zoom', 'Default zoom', 'Zoom text only'], 'the two controls, and then the group, in tree order');
});

test("a cell renamed by the words it holds is one line: its text's rename and its value's same change are not told again", () => {
  // about:config's value cell after a Toggle: the cell's name and value, and its text's name, all went "false (default)"
  // → "true (custom)".
  const cell = (words: string) => node(2, 'cell', words, { value: words, bounds: box(0, 0), children: [node(3, 'text', words, { bounds: box(0, 0) })] });
  const ids = { 0: 'w', 1: 'g', 2: 'c', 3: 't' };
  const diff = diffTrees(reading(form([cell('false (default)')]), ids), reading(form([cell('true (custom)')]), ids));
  assert.deepEqual(diffLines(diff), ['~ [e2] cel name: "false (default)" \u2192 "true (custom)"']);
});

test("a block that takes or drops the words of its text child as the child scrolls out of or into view is no rename; a block renamed otherwise is", () => {
  // Chromium's chat region: named by its text child while that is off screen, unnamed once it shows.
  const region = (name: string, textStates: CupState[]) => node(2, 'region', name, { bounds: box(0, 0), children: [node(3, 'text', 'Page 1 of 3', { states: textStates, bounds: box(0, 0) })] });
  const ids = { 0: 'w', 1: 'g', 2: 'r', 3: 't' };
  const scrolledIn = diffTrees(reading(form([region('Page 1 of 3', ['offscreen'])]), ids), reading(form([region('', [])]), ids));
  assert.deepEqual(diffLines(scrolledIn).filter((line) => line.startsWith('~')), []);
  const scrolledOut = diffTrees(reading(form([region('', [])]), ids), reading(form([region('Page 1 of 3', ['offscreen'])]), ids));
  assert.deepEqual(diffLines(scrolledOut).filter((line) => line.startsWith('~')), []);
  const renamed = diffTrees(reading(form([region('', [])]), ids), reading(form([region('Messages', [])]), ids));
  assert.deepEqual(diffLines(renamed), ['~ [e2] rgn name: "" \u2192 "Messages"']);
});

test('long values are cut in a change line', () => {
  const before = reading(form([node(2, 'textbox', 'Doc', { value: 'x' })]), { 2: 'd' });
  const after = reading(form([node(2, 'textbox', 'Doc', { value: 'y'.repeat(500) })]), { 2: 'd' });
  const [line] = diffLines(diffTrees(before, after));
  assert.ok(line !== undefined && line.length < 200, line);
  assert.match(line, /value: "x" → "y+\.\.\."$/);
});

test("a closed menu's items that one reading read and the other left unread are no change; an opened menu's items are added", () => {
  const item = (id: number, name: string, states: string[]) => node(id, 'menuitem', name, { actions: ['click'], states: states as never });
  const unread = node(2, 'menuitem', 'File', { actions: ['click'], bounds: box(0, 0), platform: { linux: { closedMenuItems: 2 } } });
  const closed = node(2, 'menuitem', 'File', { actions: ['click'], bounds: box(0, 0), children: [item(3, 'New Tab', ['offscreen']), item(4, 'Quit', ['offscreen'])] });
  const before = reading(form([unread]), { 0: 'w', 1: 'g', 2: 'file' });
  assert.deepEqual(diffLines(diffTrees(before, reading(form([closed]), { 0: 'w', 1: 'g', 2: 'file', 3: 'new', 4: 'quit' }))), []);
  assert.deepEqual(diffLines(diffTrees(reading(form([closed]), { 0: 'w', 1: 'g', 2: 'file', 3: 'new', 4: 'quit' }), before)), []);
  const open = node(2, 'menuitem', 'File', { actions: ['click'], bounds: box(0, 0), children: [node(3, 'menuitem', 'New Tab', { actions: ['click'], bounds: box(0, 20) }), node(4, 'menuitem', 'Quit', { actions: ['click'], bounds: box(0, 40) })] });
  assert.deepEqual(diffLines(diffTrees(before, reading(form([open]), { 0: 'w', 1: 'g', 2: 'file', 3: 'new', 4: 'quit' }))), ['+ [e3] mi "New Tab"', '+ [e4] mi "Quit"']);
  // Both readings read the closed menu's items: one the app removed is a change (a history menu emptied).
  const fewer = node(2, 'menuitem', 'File', { actions: ['click'], bounds: box(0, 0), children: [item(3, 'New Tab', ['offscreen'])] });
  const lines = diffLines(diffTrees(reading(form([closed]), { 0: 'w', 1: 'g', 2: 'file', 3: 'new', 4: 'quit' }), reading(form([fewer]), { 0: 'w', 1: 'g', 2: 'file', 3: 'new' })));
  assert.deepEqual(lines, ['- mi "Quit" (was e4)']);
});

test('a node added or removed hidden and off screen (a view the app keeps hidden beside the one shown) is not listed; one hidden only is', () => {
  // Qt's file dialog: a new folder appears as a row of the detail view shown and as an item of the list view it keeps
  // hidden (each item hidden and off screen), which no view shows.
  const views = (rows: boolean) =>
    form([
      node(2, 'list', 'Files', { states: ['hidden', 'offscreen'], children: rows ? [node(3, 'listitem', 'New Folder', { actions: ['toggle'], states: ['hidden', 'offscreen', 'selected'] })] : [] }),
      node(4, 'tree', 'Files', { children: rows ? [node(5, 'cell', 'New Folder', { actions: ['toggle'], bounds: box(0, 20) }), node(6, 'button', 'Create', { actions: ['click'], states: ['hidden'] })] : [] }),
    ]);
  const ids = { 2: 'list', 3: 'item', 4: 'tree', 5: 'cell', 6: 'create' };
  const added = diffTrees(reading(views(false), ids), reading(views(true), ids));
  assert.deepEqual(diffLines(added), ['+ [e5] cel "New Folder"', '+ [e6] btn "Create"']);
  const removed = diffTrees(reading(views(true), ids), reading(views(false), ids));
  assert.deepEqual(diffLines(removed), ['- cel "New Folder" (was e5)', '- btn "Create" (was e6)']);
  // Its selection taken away, as the shown row's, is told for the row alone; shown, it is a change of states.
  const unselected = (states: CupState[]) =>
    form([
      node(2, 'list', 'Files', { states: ['hidden', 'offscreen'], children: [node(3, 'listitem', 'New Folder', { actions: ['toggle'], states })] }),
      node(4, 'tree', 'Files', { children: [node(5, 'cell', 'New Folder', { actions: ['toggle'], bounds: box(0, 20), states: states.filter((state) => state === 'selected') })] }),
    ]);
  const hidden: CupState[] = ['hidden', 'offscreen'];
  assert.deepEqual(diffLines(diffTrees(reading(unselected([...hidden, 'selected']), ids), reading(unselected(hidden), ids))), ['~ [e5] cel "New Folder" states: -sel']);
  // Shown, it is not also said moved: it had no place to move from.
  assert.deepEqual(diffLines(diffTrees(reading(unselected(hidden), ids), reading(unselected([]), ids))), ['~ [e3] li "New Folder" states: -hid']);
});

test('a node turned hidden or shown is said so once, not also moved: its place came or went with it', () => {
  // Clocks' Alarms tab hides the World page's rows (GTK 4 gives them no box then) and shows its own.
  const page = (world: boolean) =>
    form([
      node(2, 'listitem', 'Paris', { actions: ['select'], ...(world ? { bounds: box(0, 20) } : { states: ['hidden'] }) }),
      node(3, 'button', 'Add Alarm', { actions: ['click'], ...(world ? { states: ['hidden'] } : { bounds: box(0, 60) }) }),
      node(4, 'button', 'Moved', { actions: ['click'], bounds: box(0, world ? 100 : 140) }),
    ]);
  const ids = { 2: 'paris', 3: 'add', 4: 'moved' };
  assert.deepEqual(diffLines(diffTrees(reading(page(true), ids), reading(page(false), ids))), ['~ [e2] li "Paris" states: +hid', '~ [e3] btn "Add Alarm" states: -hid', '\u2195 1 moved: [e4] btn "Moved"']);
});

test('an item added to a closed menu or list of choices is listed, though hidden and off screen until it opens', () => {
  // A search's Find adds its query to the history of a combo box beside it, whose menu GTK3 keeps hidden and off screen.
  const unseen: CupState[] = ['hidden', 'offscreen'];
  const history = (entries: string[]) =>
    form([
      node(2, 'combobox', 'History', {
        actions: ['expand'],
        children: [node(3, 'menu', '', { states: unseen, children: entries.map((entry, i) => node(4 + i, 'menuitem', entry, { actions: ['click'], states: unseen })) })],
      }),
    ]);
  const ids = { 2: 'combo', 3: 'menu', 4: 'first', 5: 'second' };
  assert.deepEqual(diffLines(diffTrees(reading(history(['query']), ids), reading(history(['query', 'again']), ids))), ['+ [e5] mi "again"']);
  assert.deepEqual(diffLines(diffTrees(reading(history(['query', 'again']), ids), reading(history(['query']), ids))), ['- mi "again" (was e5)']);
});

test('a node in the place of one the app still keeps is added, the kept one removed: no change of one into the other', () => {
  const before = { root: node(0, 'window', 'App', { children: [node(1, 'slider', '', { value: '50' })] }), identities: new Map([[0, 'w'], [1, 'page1-slider']]) };
  const after = { root: node(0, 'window', 'App', { children: [node(1, 'slider', '', { value: '0.5' })] }), identities: new Map([[0, 'w'], [1, 'page2-slider']]) };
  assert.deepEqual(diffTrees(before, after).changed.map((changed) => changed.changes.value), [{ from: '50', to: '0.5' }], 'told nothing, it is taken for replaced');
  const diff = diffTrees(before, { ...after, kept: new Set(['page1-slider']) });
  assert.deepEqual([diff.changed, diff.added.map((added) => added.value), diff.removed.map((removed) => removed.value)], [[], ['0.5'], ['50']]);
});

test('a change line writes a line break as \\n and quotes long texts from where they part', () => {
  // gedit's field after a typed Return read "a b" in the diff, as the compact view one-lines a value.
  const field = (value: string) => form([node(2, 'textbox', 'Doc', { value, actions: ['focus'] })]);
  const typed = diffLines(diffTrees(reading(field('a'), { 2: 'doc' }), reading(field('a\nb'), { 2: 'doc' })));
  assert.deepEqual(typed, ['~ [e2] tbx "Doc" value: "a" \u2192 "a\\nb"']);
  const long = 'x'.repeat(150);
  const [line] = diffLines(diffTrees(reading(field(`${long} end`), { 2: 'doc' }), reading(field(`${long} END`), { 2: 'doc' })));
  assert.match(line!, /value: "\.\.\.x+ end" \u2192 "\.\.\.x+ END"$/, 'both sides are quoted from near where they part');
});

test('an unnamed node that moved is named by its index and role', () => {
  // "↕ 1 moved" in gedit said nothing of what had moved.
  const before = reading(form([node(2, 'group', '', { bounds: box(0, 0), actions: ['click'] })]), { 2: 'g' });
  const after = reading(form([node(2, 'group', '', { bounds: box(0, 30), actions: ['click'] })]), { 2: 'g' });
  assert.deepEqual(diffLines(diffTrees(before, after)), ['\u2195 1 moved: [e2] grp']);
});

test("attribute changes are told by the envelope's key on the node's ~ line: a header sorted the other way, a heading's level, a range's new limit", () => {
  const table = (sort: 'ascending' | 'descending' | undefined, level: number, max: number, count: number) =>
    form([
      node(2, 'heading', 'Totals', { attributes: { level } }),
      node(3, 'table', 'Sales', { attributes: { rowCount: count }, children: [node(4, 'columnheader', 'Total', { actions: ['click'], attributes: sort ? { sort } : {} })] }),
      node(5, 'spinbutton', 'Copies', { value: '3', attributes: { valueMin: 1, valueMax: max, valueNow: 3 } }),
    ]);
  const ids = { 2: 'h', 3: 't', 4: 'c', 5: 's' };
  const diff = diffTrees(reading(table(undefined, 2, 10, 3), ids), reading(table('descending', 3, 20, 4), ids));
  assert.deepEqual(
    diff.changed.map((entry) => entry.changes.attributes),
    [{ level: { from: 2, to: 3 } }, { rowCount: { from: 3, to: 4 } }, { sort: { to: 'descending' } }, { valueMax: { from: 10, to: 20 } }],
  );
  assert.deepEqual(diffLines(diff), [
    '~ [e2] hdg "Totals" level: 2 \u2192 3',
    '~ [e3] tbl "Sales" rowCount: 3 \u2192 4',
    '~ [e4] colh "Total" sort: none \u2192 "descending"',
    '~ [e5] spn "Copies" valueMax: 10 \u2192 20',
  ]);
  // Gone: told as none on the new side.
  assert.deepEqual(diffLines(diffTrees(reading(table('ascending', 2, 10, 3), ids), reading(table(undefined, 2, 10, 3), ids))), ['~ [e4] colh "Total" sort: "ascending" \u2192 none']);
});

test("a range's number moving with its value is told by the value alone; a place among others (row, item of a set) is no change", () => {
  const slider = (value: number, row: number) =>
    form([node(2, 'slider', 'Volume', { value: String(value), actions: ['setvalue'], attributes: { valueMin: 0, valueMax: 100, valueNow: value } }), node(3, 'row', 'Ada', { attributes: { rowIndex: row, posInSet: row + 1, setSize: 9 } })]);
  const ids = { 2: 's', 3: 'r' };
  assert.deepEqual(diffLines(diffTrees(reading(slider(40, 1), ids), reading(slider(60, 2), ids))), ['~ [e2] sld "Volume" value: "40" \u2192 "60"']);
});

test("an unnamed panel whose state change a node inside it shows too is told by that node, not on a line of its own", () => {
  // GTK3 hides and shows a popover's panels with its buttons, and wraps each toolbar button in a tool item it enables
  // with it: Mines' menu read nine `gen states: -hid` lines among its buttons', Pluma's typing `gen states: -dis` beside
  // `btn "Save" states: -dis`.
  const menu = (hidden: CupState[], disabled: CupState[]) =>
    form([
      node(2, 'generic', '', { states: hidden, children: [node(3, 'generic', '', { states: hidden, children: [node(4, 'button', 'Scores', { actions: ['click'], states: hidden })] })] }),
      node(5, 'generic', '', { states: disabled, children: [node(6, 'button', 'Save', { actions: ['click'], states: disabled })] }),
      // A panel whose change nothing inside it shows is still told: its children kept their states.
      node(7, 'generic', '', { states: hidden, children: [node(8, 'button', 'Help', { actions: ['click'] })] }),
    ]);
  const ids = { 2: 'p', 3: 'q', 4: 's', 5: 't', 6: 'v', 7: 'h', 8: 'help' };
  const lines = diffLines(diffTrees(reading(menu(['hidden'], ['disabled']), ids), reading(menu([], []), ids)));
  assert.deepEqual(lines, ['~ [e4] btn "Scores" states: -hid', '~ [e6] btn "Save" states: -dis', '~ [e7] gen states: -hid']);
});

test('a modal dialog opened over a web page, which the browser leaves out of the tree: the page is one inert line, not its nodes removed', () => {
  const page = (children: CupNode[]) => node(0, 'window', 'Browser', { children: [node(1, 'document', 'Shop', { children })] });
  const before = reading(page([node(2, 'button', 'Delete…', { actions: ['click'] }), node(3, 'textbox', 'Email', { actions: ['type'] })]), { 0: 'w', 1: 'doc', 2: 'del', 3: 'mail' });
  const after = reading(page([node(4, 'dialog', 'Delete item?', { children: [node(5, 'button', 'Cancel', { actions: ['click'] })] })]), { 0: 'w', 1: 'doc', 4: 'dlg', 5: 'cancel' });
  const diff = diffTrees(before, after);
  assert.deepEqual(diff.removed, []);
  assert.deepEqual(diff.inert, [{ dialog: { index: 4, role: 'dialog', name: 'Delete item?' }, count: 2 }]);
  assert.deepEqual(diffLines(diff), [
    '+ [e4] dlg "Delete item?"',
    '+ [e5] btn "Cancel"',
    '- 2 nodes of the page behind [e4] dlg "Delete item?": inert while that modal dialog is open (left out of the tree, not gone)',
  ]);
  // A dialog that was already all the page showed makes nothing inert anew: what left with it is removed.
  const again = reading(page([node(6, 'dialog', 'Sure?')]), { 0: 'w', 1: 'doc', 6: 'sure' });
  assert.equal(diffTrees(after, again).inert, undefined);
});

test('an added or removed node\'s value is told as its tree line tells it: a cell named by its words shows no value beside them', () => {
  const cell = (index: number, words: string, extra: Partial<CupNode> = {}) => node(index, 'cell', words, { value: words, ...extra });
  const before = reading(form([cell(2, 'Fig'), node(3, 'textbox', 'Price', { value: '4' })]), { 2: 'fig', 3: 'price' });
  const after = reading(form([cell(4, 'Apple'), node(5, 'cell', 'B2', { value: '7' }), node(6, 'generic', 'Box', { value: 'inner words', actions: ['click'] })]), { 4: 'apple', 5: 'b2', 6: 'box' });
  assert.deepEqual(diffLines(diffTrees(before, after)), ['+ [e4] cel "Apple"', '+ [e5] cel "B2" val="7"', '+ [e6] gen "Box"', '- cel "Fig" (was e2)', '- tbx "Price" val="4" (was e3)']);
});

test('a paragraph\'s text the app made anew with other words is one name change told from where they part, not a + and a - reading alike', () => {
  // Blink's #out line: the paragraph kept, its text object replaced; the words that changed lie past 80 characters.
  const words = (city: string) => `out: dialog=closed nickname= menu=closed action=none details=closed proxy= street=1 Main St city=${city} card=none`;
  const page = (city: string) => form([node(2, 'text', '', { children: [node(3, 'text', words(city))] }), node(4, 'button', 'Save address', { actions: ['click'] })]);
  const diff = diffTrees(reading(page(''), { 2: 'p', 3: 't1', 4: 'b' }), reading(page('Oslo'), { 2: 'p', 3: 't2', 4: 'b' }));
  assert.deepEqual(diff.added, []);
  assert.deepEqual(diff.removed, []);
  assert.deepEqual(diff.changed.map((entry) => [entry.index, entry.changes.name]), [[3, { from: words(''), to: words('Oslo') }]]);
  assert.match(diffLines(diff)[0]!, /^~ \[e3\] txt name: .*city=Oslo card=none"$/);
});

test('texts made anew are paired only where one is left on each side: two new texts under one parent stay added', () => {
  const page = (a: string, b: string) => form([node(2, 'text', '', { children: [node(3, 'text', a), node(4, 'text', b)] })]);
  const diff = diffTrees(reading(page('one', 'two'), { 2: 'p', 3: 'a1', 4: 'b1' }), reading(page('three', 'four'), { 2: 'p', 3: 'a2', 4: 'b2' }));
  assert.deepEqual(diff.changed, []);
  assert.deepEqual(diff.added.map((entry) => entry.name), ['three', 'four']);
});

test('a label named by its words and its field\'s text (Gecko\'s <label> around an <input>) is told by the field\'s value change', () => {
  const label = (name: string, value?: string) => node(2, 'text', name, { children: [node(3, 'textbox', 'Search fruit', { states: ['editable'], ...(value ? { value } : {}) })] });
  const before = reading(form([label('Search fruit')]), { 2: 'l', 3: 'f' });
  const after = reading(form([label('Search fruit ap', 'ap')]), { 2: 'l', 3: 'f' });
  assert.deepEqual(diffLines(diffTrees(before, after)), ['~ [e3] tbx "Search fruit" value: "" \u2192 "ap"']);
  // A label renamed otherwise (its own words) is still told.
  const renamed = reading(form([node(2, 'text', 'Find fruit ap', { children: [node(3, 'textbox', 'Search fruit', { states: ['editable'], value: 'ap' })] })]), { 2: 'l', 3: 'f' });
  assert.equal(diffLines(diffTrees(before, renamed)).length, 2);
});
