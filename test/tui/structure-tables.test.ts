import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildStructure, BOX_HEURISTIC, TABLE_HEURISTIC } from '../../src/tui/structure/index.js';
import { parseSelectorOrThrow } from '../../src/tui/selector/errors.js';
import { matchSelector } from '../../src/tui/selector/match.js';
import { terminalEnvelope } from '../../src/tui/to-cup.js';
import { flattenNodes, type UINode } from '../../src/tui/ui-node.js';
import { recordedGrid, structureOf } from './helpers.js';

// mc at 100x30 with both panels on a directory of a.txt and b.txt (test/tui/record-screens.ts): "mc" as
// started (left panel active on ".."), "mc-down" after Down (a.txt), "mc-tab" after Down and Tab (right panel on "..").

function panels(name: string): UINode[] {
  return structureOf(name).all.filter((node) => node.heuristic === BOX_HEURISTIC);
}

function tableOf(panel: UINode): UINode {
  const table = flattenNodes(panel.children ?? []).find((node) => node.role === 'table');
  assert.ok(table, `panel ${panel.id} holds a table`);
  return table;
}

function selectedRows(panel: UINode): string[] {
  return tableOf(panel).children!.filter((row) => row.selected).map((row) => row.name);
}

test(`${BOX_HEURISTIC}: mc's two side-by-side panels are two regions titled by their top borders, despite text in the bottom borders`, () => {
  assert.deepEqual(
    panels('mc').map((node) => [node.role, node.name, node.bounds]),
    [
      ['panel', '~/panels/files', { x: 0, y: 1, w: 50, h: 26 }],
      ['panel', '~/panels/files', { x: 50, y: 1, w: 50, h: 26 }],
    ],
  );
});

test(`${BOX_HEURISTIC}: no node inside mc's panels spans both`, () => {
  const [left, right] = panels('mc-down');
  for (const node of structureOf('mc-down').all) {
    const { x, y, w } = node.bounds!;
    if (y < 2 || y > 25 || node.role === 'screen') continue;
    const inLeft = x >= left!.bounds!.x && x + w <= left!.bounds!.x + left!.bounds!.w;
    const inRight = x >= right!.bounds!.x && x + w <= right!.bounds!.x + right!.bounds!.w;
    assert.ok(inLeft || inRight, `${node.id} "${node.name}" lies in one panel`);
  }
});

test(`${TABLE_HEURISTIC}: an mc panel is a table with column headers and one row of cells per entry, empty rows left out`, () => {
  const table = tableOf(panels('mc')[0]!);
  const [header, ...rows] = table.children!;
  assert.equal(header!.role, 'headerrow');
  assert.deepEqual(header!.children!.map((cell) => [cell.role, cell.name]), [['columnheader', '.n Name'], ['columnheader', 'Size'], ['columnheader', 'Modify time']]);
  assert.deepEqual(rows.map((row) => row.name), ['/.. UP--DIR Nov 23 01:39', 'a.txt 0 Nov 23 01:39', 'b.txt 0 Nov 23 01:39']);
  assert.deepEqual(rows[2]!.children!.map((cell) => [cell.role, cell.name, cell.bounds]), [
    ['cell', 'b.txt', { x: 1, y: 5, w: 27, h: 1 }],
    ['cell', '0', { x: 29, y: 5, w: 7, h: 1 }],
    ['cell', 'Nov 23 01:39', { x: 37, y: 5, w: 12, h: 1 }],
  ]);
  assert.equal(table.from, 'box');
});

test(`${TABLE_HEURISTIC}: the row under mc's selection bar is selected, and focused in the active panel, before and after Down and Tab`, () => {
  const cases: [string, string[], string[], string][] = [
    ['mc', ['/.. UP--DIR Nov 23 01:39'], [], '/.. UP--DIR Nov 23 01:39'],
    ['mc-down', ['a.txt 0 Nov 23 01:39'], [], 'a.txt 0 Nov 23 01:39'],
    ['mc-tab', [], ['/.. UP--DIR Nov 23 01:39'], '/.. UP--DIR Nov 23 01:39'],
  ];
  for (const [name, left, right, focusedName] of cases) {
    const [leftPanel, rightPanel] = panels(name);
    assert.deepEqual(selectedRows(leftPanel!), left, `${name}: left panel`);
    assert.deepEqual(selectedRows(rightPanel!), right, `${name}: right panel`);
    const { all, focus } = structureOf(name);
    const focused = all.find((node) => node.id === focus);
    assert.equal(focused?.role, 'row', `${name}: focus on a row`);
    assert.equal(focused?.name, focusedName, name);
    const activePanel = right.length ? rightPanel! : leftPanel!;
    assert.ok(flattenNodes([activePanel]).some((node) => node.id === focus), `${name}: the focused row is in the active panel`);
    assert.equal(focused?.from, 'box');
  }
});

test(`${TABLE_HEURISTIC}: a selector finds a file's row in each panel`, () => {
  const { nodes } = buildStructure(recordedGrid('mc-down'), { title: 'mc' });
  const matches = matchSelector(nodes, parseSelectorOrThrow('role=row name~=b.txt'), { textOf: (node) => node.name });
  assert.deepEqual(matches.map((node) => node.bounds), [{ x: 1, y: 5, w: 48, h: 1 }, { x: 51, y: 5, w: 48, h: 1 }]);
  const selected = matchSelector(nodes, parseSelectorOrThrow('role=row selected'), { textOf: (node) => node.name });
  assert.deepEqual(selected.map((node) => node.name), ['a.txt 0 Nov 23 01:39']);
});

test(`${TABLE_HEURISTIC}: mc's command line is a textbox of its own, not focused while a panel row is`, () => {
  const { all, focus } = structureOf('mc-down');
  const commandLine = all.find((node) => node.role === 'textbox');
  assert.equal(commandLine?.name, '#');
  assert.deepEqual(commandLine?.bounds, { x: 0, y: 28, w: 100, h: 1 });
  assert.notEqual(focus, commandLine?.id);
});

test(`${TABLE_HEURISTIC}: in CUP, rows are selectable rows, the header row is not, and every node says what it came from`, () => {
  const grid = recordedGrid('mc-down');
  const { nodes } = buildStructure(grid, { title: 'mc' });
  const envelope = terminalEnvelope({ nodes, cols: grid.cols, rows: grid.rows, command: 'mc', pid: 1 });
  const all = flattenNodes(envelope.tree as unknown as { role: string; name: string; actions?: string[]; states?: string[]; platform?: { linux?: { from?: string; tuiRole?: string } }; children?: never[] }[]);
  const rows = all.filter((node) => node.role === 'row');
  const header = rows.find((node) => node.platform?.linux?.tuiRole === 'headerrow');
  assert.ok(header);
  assert.equal(header.actions, undefined);
  const aTxt = rows.find((node) => node.name === 'a.txt 0 Nov 23 01:39' && node.states?.includes('selected'));
  assert.deepEqual(aTxt?.actions, ['select']);
  assert.deepEqual(aTxt?.states, ['focused', 'selected']);
  const sources = new Set(all.filter((node) => node.platform?.linux?.tuiRole !== 'screen').map((node) => node.platform?.linux?.from));
  assert.deepEqual([...sources].sort(), ['alignment', 'attributes', 'box']);
});

test(`${TABLE_HEURISTIC}: screens without rules inside boxes (dialog, whiptail, htop, nano) have no tables`, () => {
  for (const name of ['dialog-menu', 'dialog-checklist', 'whiptail-menu', 'htop', 'top', 'nano', 'vim']) {
    assert.deepEqual(structureOf(name).all.filter((node) => node.role === 'table'), [], name);
  }
});

test(`${TABLE_HEURISTIC}: mc drawn in ASCII (-a: + - |) reads as it does in line drawing`, () => {
  const shape = (name: string) => {
    const { all, focus } = structureOf(name);
    return {
      panels: all.filter((node) => node.heuristic === BOX_HEURISTIC).map((node) => [node.name, node.bounds]),
      rows: all.filter((node) => node.role === 'row').map((node) => [node.name, node.bounds, node.selected ?? false]),
      focus: all.find((node) => node.id === focus)?.name,
      texts: all.filter((node) => node.role === 'text').map((node) => node.name),
    };
  };
  assert.deepEqual(shape('mc-ascii'), shape('mc-down'));
});
