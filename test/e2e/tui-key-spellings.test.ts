// Keys as the screen spells them: a key hint's button is named "^O Write Out" and carries shortcut "^O",
// so an agent reading the tree presses "^O". The oracle is the file nano writes and its exit code.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { UINode } from '../../src/tui/ui-node.js';
import { callOk, failsWith } from '../helpers/tools.js';
import { exitCode, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

async function hint(label: string): Promise<string> {
  // nano redraws its hint bar after a prompt ends (the file name's, answered with Enter): the hint is waited for before
  // it is read (CI once read the screen before the bar was back: no "Exit" button).
  await callOk(context, 'tui_wait_for', { selector: `role=button name*="${label}$"` });
  const found = await callOk(context, 'tui_query', { selector: `role=button name*="${label}$"` });
  const node = found.structured.node as UINode | null;
  assert.ok(node?.shortcut, `a key hint "${label}" with its shortcut: ${JSON.stringify(node)}`);
  return node.shortcut;
}

test('nano: the keys its hint bar names (^O, M-U, ^X), pressed as spelled there, write the file and quit', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-keys-'));
  const file = join(directory, 'note.txt');
  // Wide enough that the bar shows the M- hints too; no rc file of the user's.
  await start({ command: 'nano', args: ['--ignorercfiles', file], cwd: directory, cols: 200, rows: 24 });
  await callOk(context, 'tui_wait_for', { selector: 'role=button name*="Write Out$"' });
  const undo = await hint('Undo');
  assert.equal(undo, 'M-U');
  await callOk(context, 'tui_type', { text: 'kept line\n' });
  await callOk(context, 'tui_type', { text: 'undone' });
  await callOk(context, 'tui_wait_for', { text: 'undone' });
  await callOk(context, 'tui_press', { key: undo });
  await callOk(context, 'tui_wait_for', { text: 'undone', gone: true });
  await callOk(context, 'tui_press', { key: await hint('Write Out') });
  await callOk(context, 'tui_wait_for', { text: 'File Name to Write' });
  await callOk(context, 'tui_press', { key: 'Enter' });
  await callOk(context, 'tui_wait_for', { text: 'Wrote ' });
  await callOk(context, 'tui_press', { key: await hint('Exit') });
  assert.equal(await exitCode(context), 0);
  // nano ends the file after the empty line the Enter left: what matters is the line kept and the undone text gone.
  assert.equal(readFileSync(file, 'utf8').trimEnd(), 'kept line');
});

test('nano: a key hint is found by its name as the tree shows it ("^X Exit"), and a click on a name nothing has is not_found', async () => {
  // calcurse's tree read `btn "l Right"`; name="l Right" matched nothing (the node's name is "Right", its key apart), and
  // tui_click on it, as on any selector matching nothing, answered mouse_unavailable (calcurse reads no mouse).
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-keys-'));
  const session = 'shown';
  await start({ command: 'nano', args: ['--ignorercfiles', join(directory, 'unchanged.txt')], cwd: directory, session });
  await callOk(context, 'tui_wait_for', { selector: 'role=button name*="Exit$"', session });
  const tree = (await callOk(context, 'tui_snapshot', { session })).body ?? '';
  // The exit hint as the compact tree spells it, and the key nano's hint bar draws before its label.
  const shown = /btn "([^"]*Exit)"/.exec(tree)?.[1];
  assert.equal(shown, '^X Exit', tree);
  await failsWith(context, 'tui_click', { selector: 'role=button name="^X Exitt"', session }, 'not_found');
  const clicked = await callOk(context, 'tui_click', { selector: `role=button name="${shown}"`, session });
  assert.equal(clicked.structured.key, 'ctrl+x');
  // nano quits at once on ^X with nothing changed.
  assert.equal(await exitCode(context, session), 0);
});
