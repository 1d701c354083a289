// Debian desktop apps a new user tried through plans, menus and diffs, and what they showed wrong: MATE Calculator
// (GTK3), whose Mode > Advanced makes a panel of new buttons, each named, described and shown as it is made, which the
// evidence told as changes ("-off, renamed (its name before is unknown), description is now ...") of five of them.
// (DB Browser for SQLite's item widgets and editor are made on the Qt 5 fixture: e2e/qt5-app-shapes.)
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ToolContext } from '../../src/tools/context.js';
import type { ActionResult } from '../../src/tools/input/schemas.js';
import type { TestDesktop } from '../helpers/desktop.js';
import { startUserDesktop, stopUserDesktop, type UserDesktop } from '../helpers/user-desktop.js';
import { accessibleWindowState, callOk, pyatspiWalk } from '../helpers/tools.js';

describe('Debian desktop apps a new user tried through menus and diffs (GTK3 MATE Calculator), judged by pyatspi', () => {
  let user: UserDesktop;
  let desktop: TestDesktop;
  let context: ToolContext;

  before(async () => {
    user = await startUserDesktop('cup-deskapps8-home-');
    ({ desktop, context } = user);
  });

  after(async () => {
    await stopUserDesktop(user);
  });

  test("MATE Calculator: Mode > Advanced's new buttons are told added, one line, as the diff says, not each renamed from an unknown name", async () => {
    const { process, window } = await desktop.launch('mate-calc', [], 'Calculator', 20_000, user.env());
    try {
      const buttons = async () => new Set((await pyatspiWalk(window.pid, 'Calculator', desktop.env())).filter((node) => node.role === 'push button').map((node) => node.name));
      const basic = await buttons();
      await accessibleWindowState(context, window, { include_screenshot: false });
      const chosen = await callOk(context, 'invoke_menu', { window_id: window.id, path: ['Mode', 'Advanced'] });
      const result = chosen.structured as unknown as ActionResult;
      // The case: the mode makes buttons the Basic window had none of (pyatspi's names before and after).
      const made = [...(await buttons())].filter((name) => !basic.has(name));
      assert.ok(made.includes('factor') && made.includes('sine'), `pyatspi: the buttons made ${JSON.stringify(made)}`);
      const evidence = result.evidence ?? [];
      assert.ok(!evidence.some((line) => line.includes('its name before is unknown')), chosen.body);
      const added = evidence.filter((line) => / added$/.test(line));
      assert.equal(added.length, 1, chosen.body);
      const told = [...added[0]!.matchAll(/\[e(\d+)\] button "([^"]+)"/g)];
      assert.ok(told.length > 0 && told.every(([, , name]) => made.includes(name!)), `each button told added is one pyatspi reads made:\n${chosen.body}`);
      assert.ok((result.diff?.counts.added ?? 0) >= told.length, `the diff shows them added:\n${chosen.body}`);
    } finally {
      process.kill();
    }
  });
});
