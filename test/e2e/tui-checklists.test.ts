// Checklists as installers show them: which item the keys act on, and items named alike whatever the
// width of their tags. The oracle is the answer the program itself writes when it exits.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { exitCode, nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

test('whiptail --checklist: the current item is selected and focused, names hold tag and description, and tui_focus reaches an item', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-checklist-'));
  const answer = join(directory, 'answer');
  const items = [['ssh', 'Secure shell server', 'ON'], ['web', 'Web server', 'OFF'], ['db', 'Database server', 'OFF'], ['mail', 'Mail server', 'ON']];
  const script = `exec whiptail --output-fd 3 --title Features --checklist 'Choose components:' 14 60 4 ${items.flat().map((word) => `'${word}'`).join(' ')} 3>'${answer}'`;
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', script], cwd: directory, session: 'wt' });
  await callOk(context, 'tui_wait_for', { selector: 'role=checkbox name~=mail', all: [{ stableMs: 100 }], session: 'wt' });
  const boxes = nodes(await callOk(context, 'tui_snapshot', { session: 'wt' })).filter((node) => node.role === 'checkbox');
  // "mail" is the longest tag, so its description follows two blanks and the others' three or more.
  assert.deepEqual(boxes.map((node) => node.name), items.map(([tag, description]) => `${tag} ${description}`));
  assert.deepEqual(boxes.map((node) => [node.checked, node.selected ?? false, node.focused ?? false]), [[true, true, true], [false, false, false], [false, false, false], [true, false, false]]);

  await callOk(context, 'tui_press', { key: 'Down', session: 'wt' });
  await callOk(context, 'tui_wait_for', { selector: 'role=checkbox name^=web selected focus', session: 'wt' });
  const focus = await callOk(context, 'tui_focus', { selector: 'role=checkbox name^=db', session: 'wt' });
  assert.equal(focus.structured.method, 'keys');
  await callOk(context, 'tui_press', { key: 'Space', session: 'wt' });
  await callOk(context, 'tui_wait_for', { selector: 'role=checkbox name^=db checked', session: 'wt' });
  await callOk(context, 'tui_press', { key: 'Enter', session: 'wt' });
  assert.equal(await exitCode(context, 'wt'), 0);
  assert.equal(readFileSync(answer, 'utf8'), '"ssh" "db" "mail"');
  await callOk(context, 'tui_stop', { session: 'wt' });
});
