import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Attr, RGB_FLAG, emptyGrid } from '../../src/tui/grid.js';
import { gridFromVisualFrame, toVisualFrame } from '../../src/tui/visual-frame.js';
import { recordedScreen } from './helpers.js';

test('a recorded screen survives grid -> visual frame -> grid unchanged', () => {
  for (const name of ['dialog-menu', 'htop', 'less']) {
    const recorded = recordedScreen(name);
    const again = toVisualFrame(gridFromVisualFrame(recorded));
    assert.deepEqual(again.lines, recorded.lines, name);
    assert.deepEqual(again.spans, recorded.spans, name);
    assert.deepEqual(again.cursor, recorded.cursor, name);
  }
});

test('wide characters take two columns but appear once in the line', () => {
  const grid = emptyGrid(10, 1);
  grid.chars.splice(0, 4, '中', '', 'x', '😀');
  grid.widths.set([2, 0, 1, 1]);
  grid.fg[2] = 1;
  grid.bg[3] = RGB_FLAG | 0x102030;
  grid.flags[3] = Attr.bold | Attr.inverse;
  const frame = toVisualFrame(grid);
  assert.deepEqual(frame.lines, ['中x😀']);
  assert.deepEqual(frame.wide, [[0, 0]]);
  assert.deepEqual(frame.spans, [
    { row: 0, col: 2, len: 1, fg: 1 },
    { row: 0, col: 3, len: 1, bg: '#102030', attrs: ['bold', 'inverse'] },
  ]);
  const back = gridFromVisualFrame(frame);
  assert.deepEqual(back.chars.slice(0, 4), ['中', '', 'x', '😀']);
  assert.deepEqual([...back.widths.slice(0, 4)], [2, 0, 1, 1]);
});
