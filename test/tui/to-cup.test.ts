import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toCompact, validateEnvelope } from '../../src/cup/index.js';
import { buildStructure } from '../../src/tui/structure/index.js';
import { cupRole, terminalEnvelope } from '../../src/tui/to-cup.js';
import { flattenNodes } from '../../src/tui/ui-node.js';
import { recordedGrid } from './helpers.js';

test('terminal roles map onto CUP roles', () => {
  assert.equal(cupRole('screen'), 'window');
  assert.equal(cupRole('panel'), 'group');
  assert.equal(cupRole('header'), 'columnheader');
  assert.equal(cupRole('status'), 'text');
  assert.equal(cupRole('button'), 'button');
  assert.equal(cupRole('menuitem'), 'menuitem');
  assert.equal(cupRole('gizmo'), 'generic');
});

test('every recorded screen renders to an envelope that validates against the CUP schema', () => {
  for (const name of ['dialog-menu', 'dialog-yesno', 'dialog-checklist', 'dialog-gauge', 'dialog-inputbox', 'whiptail-menu', 'htop', 'top', 'vim', 'less', 'bash', 'python']) {
    const grid = recordedGrid(name);
    const { nodes } = buildStructure(grid, { title: name });
    const envelope = terminalEnvelope({ nodes, cols: grid.cols, rows: grid.rows, command: name, pid: 1234 });
    const result = validateEnvelope(envelope);
    assert.ok(result.valid, `${name}: ${result.errors.join('; ')}`);
    assert.equal(envelope.platform, 'linux');
    assert.deepEqual(envelope.screen, { w: 80, h: 24 });
  }
});

test('states, actions, values and shortcuts carry over; the compact form shows them', () => {
  const grid = recordedGrid('htop');
  const envelope = terminalEnvelope({ nodes: buildStructure(grid, { title: 'htop' }).nodes, cols: 80, rows: 24, command: 'htop', pid: 7 });
  const all = flattenNodes(envelope.tree);
  const selected = all.find((node) => node.role === 'listitem' && node.states?.includes('selected'));
  assert.ok(selected?.states?.includes('focused'));
  assert.deepEqual(selected?.actions, ['select']);
  const quit = all.find((node) => node.role === 'button' && node.name === 'F10 Quit');
  assert.equal(quit?.attributes?.keyShortcut, 'F10');
  const cpu = all.find((node) => node.role === 'progressbar');
  assert.equal(cpu?.attributes?.valueMax, 100);
  assert.equal(typeof cpu?.attributes?.valueNow, 'number');
  assert.equal((cpu?.platform?.linux as { tuiId: string }).tuiId, 'progressbar-1-4');
  const compact = toCompact(envelope);
  assert.match(compact, /^# CUP \d+\.\d+\.\d+ \| linux \| 80x24$/m);
  assert.match(compact, /^ {4}\[e\d+\] btn "F10 Quit" 72,23 \d+x1 \[clk\]$/m);
  assert.match(compact, /li "\d+ root .* sleep 600" 0,8 80x1 \{foc,sel\} \[sel\]$/m);
});
