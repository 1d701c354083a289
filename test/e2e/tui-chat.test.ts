// Chat clients' input lines (irssi and weechat, no network needed): the line after irssi's "[(status)]" prompt,
// and weechat's last row beside its buffer list, are text fields whose value is what was typed. The oracle is
// the client's own output.
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
  // The field's value is read once the typed text is on the screen and the cursor after it: the wait names both.
  await callOk(context, 'tui_wait_for', { text: '/echo marker-41', all: [{ selector: 'role=textbox focus' }, { stableMs: 100 }], session: 'irssi' });
  const field = nodes(await callOk(context, 'tui_snapshot', { session: 'irssi' })).find((node) => node.focused);
  assert.deepEqual([field?.role, field?.name, field?.value], ['textbox', '[(status)]', '/echo marker-41']);
  await callOk(context, 'tui_press', { key: 'Enter', session: 'irssi' });
  // irssi echoes the words in its window and empties the input line.
  await callOk(context, 'tui_wait_for', { newText: '-!- marker-41', session: 'irssi' });
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox name="[(status)]" focus', session: 'irssi' });
  await callOk(context, 'tui_stop', { session: 'irssi' });
});

test('weechat: its buffer list stands apart from the chat, and the input line under the status bar is a focused text field', async () => {
  const home = mkdtempSync(join(tmpdir(), 'cup-tui-weechat-'));
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', `exec weechat -d ${join(home, 'weechat')}`], cwd: home, cols: 80, rows: 20, session: 'weechat' });
  // The buffer list read below is a bar of its own, filled by its plugin: the wait names it too, not only the chat.
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox focus', all: [{ text: '[core]' }, { text: '1.weechat' }], session: 'weechat' });
  const before = nodes(await callOk(context, 'tui_snapshot', { session: 'weechat' }));
  assert.equal(before.filter((node) => node.role === 'listitem' || node.selected).length, 0, 'the status bar is no selected list item');
  assert.ok(before.some((node) => node.name === '1.weechat'), `the buffer list reads apart from the chat: ${before.map((node) => `${node.role} ${JSON.stringify(node.name)}`).join(', ')}`);
  await callOk(context, 'tui_type', { text: '/print marker-57', session: 'weechat' });
  await callOk(context, 'tui_wait_for', { selector: 'role=textbox focus value="/print marker-57"', session: 'weechat' });
  await callOk(context, 'tui_press', { key: 'Enter', session: 'weechat' });
  await callOk(context, 'tui_wait_for', { selector: 'role=text name~=marker-57', all: [{ selector: 'role=textbox focus value=""' }], session: 'weechat' });
  await callOk(context, 'tui_stop', { session: 'weechat' });
});
