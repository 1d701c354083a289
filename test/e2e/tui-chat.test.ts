// A chat client's input line (irssi, no network needed): the line after its "[(status)]" prompt is a text
// field whose value is what was typed, before and after typing. The oracle is irssi's own output.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

test('irssi: the input line is a focused text field named by its prompt; typed text is its value, and Enter runs it', async () => {
  const home = mkdtempSync(join(tmpdir(), 'cup-tui-irssi-'));
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', `exec irssi --home ${join(home, 'irssi')} -n tester`], cwd: home, session: 'irssi' });
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox name="[(status)]" focus', session: 'irssi' });
  await callOk(context, 'tui_type', { text: '/echo marker-41', session: 'irssi' });
  await callOk(context, 'tui_wait_for', { text: '/echo marker-41', session: 'irssi' });
  const field = nodes(await callOk(context, 'tui_snapshot', { session: 'irssi' })).find((node) => node.focused);
  assert.deepEqual([field?.role, field?.name, field?.value], ['textbox', '[(status)]', '/echo marker-41']);
  await callOk(context, 'tui_press', { key: 'Enter', session: 'irssi' });
  // irssi echoes the words in its window and empties the input line.
  await callOk(context, 'tui_wait_for', { newText: '-!- marker-41', session: 'irssi' });
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox name="[(status)]" focus', session: 'irssi' });
  await callOk(context, 'tui_stop', { session: 'irssi' });
});
