import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NUMBERED_TEXT_HEURISTIC } from '../../src/tui/structure/index.js';
import { terminalEnvelope } from '../../src/tui/to-cup.js';
import { buildStructure } from '../../src/tui/structure/index.js';
import { recordedGrid, recordedScreen, structureOf } from './helpers.js';

test(`${NUMBERED_TEXT_HEURISTIC}: micro's buffer (numbered lines, the current line lit) is a text area of lines, not a list with a selected row`, () => {
  const { lines, cursor } = recordedScreen('micro');
  assert.equal(lines[0], ' 1 line 1: the quick brown fox');
  const { all, focus } = structureOf('micro');
  assert.deepEqual(all.filter((node) => node.role === 'list' || node.role === 'listitem').map((node) => node.name), []);
  assert.equal(all.filter((node) => node.selected).length, 0);
  const areas = all.filter((node) => node.heuristic === NUMBERED_TEXT_HEURISTIC && node.role !== 'text');
  assert.equal(areas.length, 1);
  const [area] = areas;
  assert.equal(area!.role, 'textarea');
  const texts = area!.children!;
  // Every line named by its text, without the gutter's number; the line under the cursor has focus.
  assert.deepEqual(texts.slice(0, 3).map((line) => line.name), ['line 1: the quick brown fox', 'line 2: the quick brown fox', 'line 3: the quick brown fox']);
  assert.equal(texts.length, lines.findIndex((line) => line.includes('notes.txt')));
  const focused = texts.find((line) => line.id === focus);
  assert.equal(focused?.name, 'line 2: the quick brown fox');
  assert.equal(focused?.bounds?.y, cursor.y);
  // In CUP the text area is a textbox that takes typing.
  const envelope = terminalEnvelope({ nodes: buildStructure(recordedGrid('micro'), { title: 'micro' }).nodes, cols: 80, rows: 24, command: 'micro', pid: 1 });
  const cupArea = envelope.tree[0]!.children!.find((node) => node.platform?.linux?.tuiRole === 'textarea');
  assert.equal(cupArea?.role, 'textbox');
  assert.deepEqual(cupArea?.actions, ['type']);
});

test(`${NUMBERED_TEXT_HEURISTIC}: screens without a numbered gutter in a colour of its own have no text area (htop's pids, vim, nano, less, bash)`, () => {
  for (const name of ['htop', 'top', 'vim', 'nano', 'less', 'bash', 'mc', 'fzf-multi', 'dialog-menu']) {
    assert.deepEqual(structureOf(name).all.filter((node) => node.heuristic === NUMBERED_TEXT_HEURISTIC).map((node) => node.role), [], name);
  }
});
