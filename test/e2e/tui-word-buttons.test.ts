// A box's last row of bare words set apart, one lit, is a row of buttons with the lit one selected and
// focused: ncdu's delete confirmation ("yes   no   don't ask me again", "no" lit). Judged on disk: Enter on
// the button read as lit keeps the directory, and after tui_focus on "yes" Enter deletes it.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

async function choices(): Promise<{ name: string; selected: boolean; focused: boolean }[]> {
  const dialog = nodes(await callOk(context, 'tui_snapshot')).find((node) => node.role === 'dialog' && node.name === 'Confirm delete');
  assert.ok(dialog, 'the confirmation is a dialog');
  return (dialog.children ?? []).filter((node) => node.role === 'button').map((node) => ({ name: node.name, selected: node.selected ?? false, focused: node.focused ?? false }));
}

test('ncdu: the delete confirmation offers yes, no and "don\'t ask me again" as buttons, the lit one selected; the choice read is the one ncdu makes', async () => {
  const root = mkdtempSync(join(tmpdir(), 'cup-tui-ncdu-'));
  const doomed = join(root, 'doomed');
  mkdirSync(doomed);
  writeFileSync(join(doomed, 'file'), 'x'.repeat(50000));
  // A smaller neighbour, so the listing is a list (ncdu sorts by size: doomed comes first, selected).
  mkdirSync(join(root, 'kept'));
  await start({ command: 'ncdu', args: ['-x', root], cwd: root });
  await callOk(context, 'tui_wait_for', { selector: 'role=listitem name~=doomed selected' });
  await callOk(context, 'tui_press', { key: 'd' });
  await callOk(context, 'tui_wait_for', { text: 'Are you sure', all: [{ stableMs: 150 }] });
  const first = await choices();
  assert.deepEqual(first.map((choice) => choice.name), ['yes', 'no', "don't ask me again"]);
  assert.deepEqual(first.map((choice) => choice.selected), [false, true, false]);
  assert.deepEqual(first.map((choice) => choice.focused), [false, true, false], 'the dialog has the keyboard, on its lit choice');
  // Enter takes the lit choice: "no" keeps the directory.
  await callOk(context, 'tui_press', { key: 'Enter' });
  await callOk(context, 'tui_wait_for', { text: 'Are you sure', gone: true });
  assert.equal(existsSync(doomed), true);

  await callOk(context, 'tui_press', { key: 'd' });
  await callOk(context, 'tui_wait_for', { text: 'Are you sure', all: [{ stableMs: 150 }] });
  const focus = await callOk(context, 'tui_focus', { selector: 'role=button name=yes' });
  assert.equal(focus.structured.method, 'keys');
  assert.deepEqual((await choices()).map((choice) => choice.selected), [true, false, false]);
  await callOk(context, 'tui_press', { key: 'Enter' });
  await callOk(context, 'tui_wait_for', { text: 'Are you sure', gone: true });
  await callOk(context, 'tui_wait_for', { text: 'doomed', gone: true });
  assert.equal(existsSync(doomed), false);
  await callOk(context, 'tui_press', { key: 'q' });
  await callOk(context, 'tui_wait_for', { exited: true });
  await callOk(context, 'tui_stop');
});
