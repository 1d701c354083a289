// Debian desktop apps a new user tried, and what they showed wrong: Thunar's first invoke_menu through a menu it makes
// as it opens, whose new items filled the action's inline diff and hid the file list the choice showed. Judged by
// pyatspi and by the files on disk.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ToolContext } from '../../src/tools/context.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import type { TestDesktop } from '../helpers/desktop.js';
import { startUserDesktop, stopUserDesktop, type UserDesktop } from '../helpers/user-desktop.js';
import { accessibleWindowState, callOk, childIndices, pyatspiWalk } from '../helpers/tools.js';

describe('Debian desktop apps a new user tried, judged by pyatspi and the files on disk', () => {
  let user: UserDesktop;
  let desktop: TestDesktop;
  let context: ToolContext;
  let home: string;

  before(async () => {
    user = await startUserDesktop('cup-deskapps5-home-');
    ({ desktop, context, home } = user);
  });

  after(async () => {
    await stopUserDesktop(user);
  });

  test("Thunar: an invoke_menu through a menu made as it opens tells its new items in one line, and the inline diff keeps the file list the choice showed", async () => {
    const folder = join(home, 'files');
    mkdirSync(join(folder, 'sub'), { recursive: true });
    for (const name of ['a.txt', 'b.md', 'notes.txt']) writeFileSync(join(folder, name), `${name}\n`);
    const files = readdirSync(folder).sort();
    const { process, window } = await desktop.launch('thunar', [folder], 'files - Thunar', 20_000, user.env());
    try {
      await accessibleWindowState(context, window, { include_screenshot: false });
      const chosen = await callOk(context, 'invoke_menu', { window_id: window.id, path: ['View', 'List View'] });
      const result = chosen.structured as unknown as ActionResult;
      assert.equal(result.effect, 'confirmed', chosen.body);
      // The case: pyatspi reads the View menu closed again, holding the items Thunar made as it opened, none showing,
      // and the list view's cells, one a file.
      const walked = await pyatspiWalk(window.pid, window.title, desktop.env());
      const menu = walked.findIndex((node) => node.role === 'menu' && node.name === 'View');
      const items = childIndices(walked, menu).map((at) => walked[at]!).filter((node) => node.role !== 'separator');
      assert.ok(items.length > 10 && items.every((node) => !node.states.includes('showing')), `pyatspi: View holds ${items.length} items, none showing`);
      const cells = walked.filter((node) => node.role === 'table cell' && node.states.includes('showing')).map((node) => node.name);
      assert.ok(files.every((file) => cells.includes(file)), `pyatspi: the list shows ${JSON.stringify(files)} in ${JSON.stringify(cells)}`);
      // The inline diff: View's items in one line, every file's cell shown.
      const text = chosen.body ?? '';
      assert.match(text, /\+ \d+ items in the closed menu \[e\d+\] mi "View" \(open it to see them\)/, text);
      assert.doesNotMatch(text, /^\+ \[e\d+\] mic "Compact View"$/m, text);
      for (const file of files) assert.match(text, new RegExp(`^\\+ \\[e\\d+\\] cel "${file.replace('.', '\\.')}"`, 'm'), text);
      assert.ok(result.diff?.added.some((node) => node.role === 'cell' && node.name === 'notes.txt'), JSON.stringify(result.diff?.added));
    } finally {
      process.kill();
    }
  });
});
