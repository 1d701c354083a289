import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LIST_HEURISTIC } from '../../src/tui/structure/index.js';
import type { UINode } from '../../src/tui/ui-node.js';
import { recordedScreen, structureOf } from './helpers.js';

function lists(name: string): UINode[] {
  return structureOf(name).all.filter((node) => node.role === 'list' && node.heuristic === LIST_HEURISTIC);
}

test(`${LIST_HEURISTIC}: dialog --menu after Down: three items, banana selected`, () => {
  const [list] = lists('dialog-menu');
  assert.ok(list);
  assert.deepEqual(list.children!.map((item) => [item.role, item.name, item.selected ?? false]), [
    ['listitem', 'apple Red fruit', false],
    ['listitem', 'banana Yellow fruit', true],
    ['listitem', 'cherry Small fruit', false],
  ]);
});

test(`${LIST_HEURISTIC}: whiptail --menu: the caption above the items is not an item`, () => {
  const [list] = lists('whiptail-menu');
  assert.deepEqual(list!.children!.map((item) => item.name), ['red Warm', 'green Natural', 'blue Cool']);
  assert.equal(list!.children![0]!.selected, true);
  assert.equal(structureOf('whiptail-menu').focus, list!.children![0]!.id);
});

test(`${LIST_HEURISTIC}: htop's process list has a column header and one selected process row`, () => {
  const [list] = lists('htop');
  assert.ok(list, 'htop has a list');
  const [header, ...items] = list.children!;
  assert.equal(header!.role, 'header');
  assert.match(header!.name, /^PID USER .*Command$/);
  assert.ok(items.length >= 10, `${items.length} process rows`);
  assert.ok(items.every((item) => item.role === 'listitem' && /^\d+ \S+/.test(item.name)), 'rows start with a pid and a user');
  const selected = items.filter((item) => item.selected);
  assert.equal(selected.length, 1);
  assert.equal(selected[0], items[0], 'htop starts on the first process');
  // The tab row above the header ("[Main] [I/O]") stays outside the list.
  assert.ok(structureOf('htop').all.some((node) => node.role === 'text' && node.name === '[Main] [I/O]'));
});

test(`${LIST_HEURISTIC}: top's inverse header row makes a list with no selection`, () => {
  const [list] = lists('top');
  assert.equal(list!.children![0]!.role, 'header');
  assert.match(list!.name, /PID USER/);
  assert.equal(list!.children!.filter((item) => item.selected).length, 0);
});

test(`${LIST_HEURISTIC}: plain text screens (vim, less, bash, python) have no lists`, () => {
  for (const name of ['vim', 'less', 'bash', 'python']) assert.deepEqual(lists(name), [], name);
});

test(`${LIST_HEURISTIC}: fzf's count line ("5/5 (1) ───") under its list is a rule, not an item, and the prompt below it is not in the list`, () => {
  const { lines } = recordedScreen('fzf-multi');
  const [list, ...more] = lists('fzf-multi');
  assert.equal(more.length, 0);
  // The five fruits are rows 17 to 21 of the screen, the count line row 22, the prompt row 23; apple's row
  // opens with fzf's pointer and its mark (">>apple"), which are not part of its name.
  assert.deepEqual(lines.slice(17, 22), ['  elderberry', '  date', '  cherry', '  banana', '>>apple']);
  assert.deepEqual(list!.children!.map((item) => item.name), ['elderberry', 'date', 'cherry', 'banana', 'apple']);
  assert.deepEqual(list!.bounds && [list!.bounds.y, list!.bounds.h], [17, 5]);
  assert.deepEqual(list!.children!.filter((item) => item.selected).map((item) => item.bounds?.y), [21]);
  const { all } = structureOf('fzf-multi');
  assert.ok(all.some((node) => node.role === 'text' && node.name === lines[22]!.trim()));
});

test(`${LIST_HEURISTIC}: a pointer drawn in a column of its own before the items (fzf's "> banana") is not part of the item's name`, () => {
  const { lines } = recordedScreen('fzf-up');
  assert.equal(lines[20], '> banana');
  const [list] = lists('fzf-up');
  assert.deepEqual(list!.children!.map((item) => [item.name, item.selected ?? false]), [
    ['elderberry', false], ['date', false], ['cherry', false], ['banana', true], ['apple', false],
  ]);
  // The name is the same whether the pointer is on the item or not, so a selector written for one screen finds it on the next.
  assert.equal(lists('fzf-multi')[0]!.children!.find((item) => item.name === 'banana')?.selected, undefined);
});

test(`${LIST_HEURISTIC}: the first row under the selection bar is an item, not a column header, when its cells are figures (newsboat's "1 N  Nov 23  6  Third story")`, () => {
  const [list] = lists('newsboat-articles');
  assert.ok(list, 'newsboat shows a list');
  assert.deepEqual(list.children!.map((item) => [item.role, item.name, item.selected ?? false]), [
    ['listitem', '1 N Nov 23 6 Third story', true],
    ['listitem', '2 N Nov 23 6 Second story', false],
    ['listitem', '3 N Nov 23 6 First story', false],
  ]);
  assert.equal(structureOf('newsboat-articles').focus, list.children![0]!.id);
  // top's header, words set apart, is still its header.
  assert.equal(lists('top')[0]!.children![0]!.role, 'header');
});

test(`${LIST_HEURISTIC}: less's search hits lighting most of ten short lines are marks in a text, not a list with ten selected rows`, () => {
  const screen = recordedScreen('less-search-hits');
  const litRows = new Set(screen.spans.filter((span) => span.attrs?.includes('inverse')).map((span) => span.row));
  assert.ok(litRows.size >= 10, `the recording shows the hits lit: rows ${[...litRows].join(', ')}`);
  const { all } = structureOf('less-search-hits');
  assert.deepEqual(all.filter((node) => node.selected).map((node) => node.name), []);
  assert.equal(lists('less-search-hits').length, 0);
  assert.ok(all.some((node) => node.role === 'text' && node.name === 'row 255'), 'a hit line reads as text');
});

/** The fields of a process row as the screen shows them: whitespace-separated, the command the rest of the row. */
function processFields(line: string, columns: number): string[] {
  const fields = line.trim().split(/\s+/);
  return [...fields.slice(0, columns - 1), fields.slice(columns - 1).join(' ')];
}

test(`${LIST_HEURISTIC}: the columns under a header of column names: each process row of top and htop has one cell per name, its value under it`, () => {
  for (const name of ['top', 'htop', 'corpus/htop-start']) {
    const [list] = lists(name);
    const [header, ...items] = list!.children!;
    const names = header!.children!.map((cell) => cell.name);
    assert.equal(names.length, 12, `${name}: ${names.join(' | ')}`);
    assert.ok(names.includes(name === 'top' ? '%CPU' : 'CPU%') || names.includes('CPU%▽'), `${name}: ${names.join(' | ')}`);
    // htop's sort arrow ends the name it follows (`PID△USER` is PID△ and USER).
    assert.equal(names[1], 'USER', `${name}: ${names.join(' | ')}`);
    const lines = recordedScreen(name).lines;
    for (const item of items) {
      const cells = item.children!.map((cell) => cell.name);
      assert.deepEqual(cells, processFields(lines[item.bounds!.y]!, names.length), `${name} row ${item.bounds!.y}`);
      // Each cell stands under its column's name.
      item.children!.forEach((cell, index) => assert.equal(cell.bounds!.x, header!.children![index]!.bounds!.x));
    }
  }
});
