// Rows a list marks with a glyph in a column of its own, counted on its status line (neomutt's tagged messages,
// `*` and "Tag:2"), are its selection; the row under the bar keeps the focus. The oracle is the mailbox file:
// neomutt deletes the tagged messages (`;d`, then `$` to write the mailbox), and exactly the rows the tree called
// selected are gone from it.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { exitCode, nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();
const SUBJECTS = ['Lunch plans', 'Quarterly report', 'Meeting moved', 'Holiday photos'];

function subjectsIn(mbox: string): string[] {
  return [...readFileSync(mbox, 'utf8').matchAll(/^Subject: (.*)$/gm)].map((match) => match[1]!);
}

test('neomutt: the messages tagged with t are the selected rows (their * counted by "Tag:2"), the cursor row the focused one; ;d deletes exactly those', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-mutt-'));
  const mbox = join(directory, 'inbox');
  writeFileSync(mbox, SUBJECTS.map((subject, i) =>
    `From sender${i}@example.org Mon Nov 30 08:0${i}:00 2026\nFrom: Sender ${i} <sender${i}@example.org>\nTo: me@example.org\nSubject: ${subject}\n` +
    `Date: Mon, 30 Nov 2026 08:0${i}:00 +0000\nMessage-ID: <m${i}@example.org>\n\nBody ${i}.\n\n`).join(''));
  const rc = join(directory, 'muttrc');
  writeFileSync(rc, `set mbox_type=mbox\nset folder=${directory}\nset spoolfile=${mbox}\nset sort=mailbox-order\nset delete=yes\nset quit=yes\nset move=no\n`);
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', `exec neomutt -n -F ${rc} -f ${mbox}`], env: { HOME: directory }, cwd: directory, cols: 100, rows: 24, session: 'mutt' });
  await callOk(context, 'tui_wait_for', { text: SUBJECTS[3]!, all: [{ stableMs: 200 }], session: 'mutt' });

  for (const subject of ['Quarterly report', 'Holiday photos']) {
    await callOk(context, 'tui_focus', { selector: `role=listitem name~="${subject}"`, session: 'mutt' });
    await callOk(context, 'tui_press', { key: 't', session: 'mutt' });
  }
  await callOk(context, 'tui_wait_for', { text: 'Tag:2', all: [{ stableMs: 200 }], session: 'mutt' });
  const all = nodes(await callOk(context, 'tui_snapshot', { session: 'mutt' }));
  const items = all.filter((node) => node.role === 'listitem');
  const selected = items.filter((node) => node.selected).map((node) => SUBJECTS.find((subject) => node.name.endsWith(subject)));
  assert.deepEqual(selected, ['Quarterly report', 'Holiday photos']);
  const focused = items.filter((node) => node.focused);
  assert.equal(focused.length, 1, 'the cursor row has the focus');

  await callOk(context, 'tui_press_sequence', { keys: [';', 'd', '$'], session: 'mutt' });
  await callOk(context, 'tui_wait_for', { text: 'Tag:2', gone: true, all: [{ stableMs: 300 }], session: 'mutt' });
  await callOk(context, 'tui_press', { key: 'q', session: 'mutt' });
  assert.equal(await exitCode(context, 'mutt'), 0);
  assert.deepEqual(subjectsIn(mbox), SUBJECTS.filter((subject) => !selected.includes(subject)));
});

test('neomutt: the pager\'s "<Space>:NextPg" hint is a button whose key is Space; clicking it shows the next page', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-mutt-'));
  const mbox = join(directory, 'inbox');
  const body = Array.from({ length: 80 }, (_, i) => `body line ${i + 1}`).join('\n');
  writeFileSync(mbox, `From a@example.org Mon Nov 30 08:00:00 2026\nFrom: A <a@example.org>\nTo: me@example.org\nSubject: Long one\nDate: Mon, 30 Nov 2026 08:00:00 +0000\n\n${body}\n\n`);
  const rc = join(directory, 'muttrc');
  writeFileSync(rc, `set mbox_type=mbox\nset folder=${directory}\nset spoolfile=${mbox}\nset pager_stop=yes\n`);
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', `exec neomutt -n -F ${rc} -f ${mbox}`], env: { HOME: directory }, cwd: directory, cols: 100, rows: 24, session: 'pager' });
  await callOk(context, 'tui_wait_for', { text: 'Long one', all: [{ stableMs: 200 }], session: 'pager' });
  await callOk(context, 'tui_press', { key: 'Enter', session: 'pager' });
  await callOk(context, 'tui_wait_for', { text: 'body line 1', all: [{ selector: 'role=button name=NextPg' }], session: 'pager' });
  const button = nodes(await callOk(context, 'tui_snapshot', { session: 'pager' })).find((node) => node.role === 'button' && node.name === 'NextPg');
  assert.equal(button?.shortcut, '<Space>');
  const firstPage = (await callOk(context, 'tui_render_text', { session: 'pager' })).structured.lines as string[];
  assert.ok(!firstPage.includes('body line 30'), 'line 30 is on the next page');
  const clicked = await callOk(context, 'tui_click', { selector: 'role=button name=NextPg', session: 'pager' });
  assert.equal(clicked.structured.key, 'Space');
  await callOk(context, 'tui_wait_for', { text: 'body line 30', session: 'pager' });
  await callOk(context, 'tui_stop', { session: 'pager' });
});
