// A feed reader (newsboat on a local feed, no network): its articles are a list whose first row under the
// selection bar is an item (not a column header), and its "q:Quit ENTER:Open" hints are buttons that press
// their keys. The oracle is the article newsboat opens.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { callOk } from '../helpers/tools.js';
import { nodes, useTerminals } from '../tui/helpers.js';

const { context, start } = useTerminals();

test('newsboat: the first article is the selected, focused item; tui_focus and the Open hint open another one', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'cup-tui-newsboat-'));
  const stories = ['First', 'Second', 'Third'].map((word, i) => `<item><title>${word} story</title><link>http://example.com/${i}</link><description>Body of the ${word.toLowerCase()} story</description><pubDate>Mon, 23 Nov 2026 0${i}:00:00 +0000</pubDate></item>`);
  writeFileSync(join(directory, 'feed.xml'), `<?xml version="1.0"?><rss version="2.0"><channel><title>Local News</title><link>http://example.com/</link><description>d</description>${stories.join('')}</channel></rss>`);
  writeFileSync(join(directory, 'urls'), `file://${join(directory, 'feed.xml')}\n`);
  // The cache is filled by a run of its own before the reader starts, not by a reload on start (-r): newsboat's reload
  // thread draws the screen alongside its main thread, and curses is no thread's alone. Enter pressed as the reload
  // put "Local News" in the list (its thread still to redraw the list) left, on a loaded machine, the feed list drawn
  // over the article list, the two mixed, or newsboat dead of a segfault (7 runs in about 1500 under load 20-25).
  const script = `newsboat -u urls -c cache.db -C /dev/null -x reload && exec newsboat -u urls -c cache.db -C /dev/null`;
  await start({ command: 'bash', args: ['--norc', '--noprofile', '-c', script], cwd: directory, env: { HOME: directory }, session: 'news' });
  await callOk(context, 'tui_wait_for', { text: 'Local News', session: 'news' });
  await callOk(context, 'tui_press', { key: 'Enter', session: 'news' });
  // newsboat draws the article list, then moves the cursor to the selected row in a write of its own: both are waited for.
  await callOk(context, 'tui_wait_for', { selector: 'role=listitem name~="First story"', all: [{ selector: 'role=listitem name~="Third story" focus' }], session: 'news' });
  const all = nodes(await callOk(context, 'tui_snapshot', { session: 'news' }));
  const items = all.filter((node) => node.role === 'listitem');
  // Newest first; the first row is under the selection bar.
  assert.deepEqual(items.map((item) => [item.name.replace(/^.* (\w+ story)$/, '$1'), item.selected ?? false, item.focused ?? false]), [
    ['Third story', true, true], ['Second story', false, false], ['First story', false, false],
  ]);
  assert.equal(all.filter((node) => node.role === 'header').length, 0);
  const hints = all.filter((node) => node.role === 'button' && node.shortcut).map((node) => `${node.shortcut} ${node.name}`);
  assert.ok(hints.includes('q Quit') && hints.includes('ENTER Open') && hints.includes('n Next Unread'), hints.join(', '));

  await callOk(context, 'tui_focus', { selector: 'role=listitem name~="Second story"', session: 'news' });
  const clicked = await callOk(context, 'tui_click', { selector: 'role=button name=Open', session: 'news' });
  assert.equal(clicked.structured.key, 'Enter');
  await callOk(context, 'tui_wait_for', { text: 'Body of the second story', session: 'news' });
  await callOk(context, 'tui_stop', { session: 'news' });
});
