// A selector regex built to be costly, on a long value in a real app: the call answers invalid_selector in about a
// second instead of holding the driver for minutes, and the driver answers the next call.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import { runTool } from '../../src/tools/run.js';
import { TestDesktop } from '../helpers/desktop.js';
import { accessibleWindowState, callOk, failsWith, testContext } from '../helpers/tools.js';

describe('costly selector regexes on long values', () => {
  let desktop: TestDesktop;
  let window: ClientWindow;
  let context: ReturnType<typeof testContext>;

  before(async () => {
    desktop = await TestDesktop.start();
    window = (await desktop.launchFixture('gtk3')).window;
    context = testContext();
    await accessibleWindowState(context, window);
  });

  after(async () => {
    await context?.desktop.close();
    await desktop?.stop();
  });

  test('value*="(a{1,100}){1,100}$" over a 100,000-character text field: invalid_selector, bounded, and the driver goes on', async () => {
    const found = await callOk(context, 'find_elements', { pid: window.pid, window_id: window.id, selector: 'role=textbox name="Name field"' });
    const token = (found.structured.matches as { element_token: string }[])[0]!.element_token;
    const long = 'a'.repeat(100_000);
    await callOk(context, 'set_value', { element_token: token, value: long, diff: false });
    const started = Date.now();
    const refused = await failsWith(context, 'find_elements', { pid: window.pid, window_id: window.id, selector: 'value*="(a{1,100}){1,100}$"' }, 'invalid_selector');
    const elapsed = Date.now() - started;
    assert.match(refused.summary, /invalid selector: the regex .* needs more than \d+ steps/);
    assert.ok(elapsed < 15_000, `answered in ${elapsed} ms`);
    // The same shape with a cheap pattern matches the long value.
    const cheap = await runTool('find_elements', { pid: window.pid, window_id: window.id, selector: 'value*="^a+$"' }, context);
    assert.ok(cheap.ok, cheap.summary);
    assert.equal((cheap.structured.matches as unknown[]).length, 1);
  });
});
