// Issue 13, faults: a SIGSTOPped app keeps every tool bounded, not only get_window_state and click
// (hung-app.test.ts): each call answers within one accessibility-call timeout and a margin, with
// app_not_responding (or a degraded reading naming it), never by waiting on the app once per rung. Once the
// app resumes, the same tools work again, judged by the app's own status label read through pyatspi.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import type { ClientWindow } from '../../src/platform/linux/windows.js';
import type { ToolContext } from '../../src/tools/context.js';
import { runTool } from '../../src/tools/run.js';
import { TestDesktop } from '../helpers/desktop.js';
import { PyatspiOracle } from '../helpers/oracle.js';
import { accessibleWindowState, callOk, testContext } from '../helpers/tools.js';

/** One call timeout (2 s) and room for a loaded machine. */
const BOUND_MS = 3000;

describe('a stopped app keeps every tool bounded', () => {
  let desktop: TestDesktop;
  let context: ToolContext;
  let oracle: PyatspiOracle;
  let app: { process: ChildProcess; window: ClientWindow };
  let target: { pid: number; window_id: number };
  let index: (name: string) => number;

  before(async () => {
    desktop = await TestDesktop.start();
    context = testContext();
    oracle = new PyatspiOracle(desktop.env());
    app = await desktop.launchFixture('gtk3', { title: 'Will stop' });
    target = { pid: app.window.pid, window_id: app.window.id };
    const { state } = await accessibleWindowState(context, app.window, { include_screenshot: false });
    index = (name) => state.elements.find((element) => element.name === name)!.index;
    // The app owns the clipboard (its field's text copied through accessibility), so a read asks the stopped app.
    await callOk(context, 'type_text', { ...target, element_index: index('Name field'), text: 'owned' });
    await callOk(context, 'hotkey', { ...target, element_index: index('Name field'), keys: ['ctrl', 'a'] });
    await callOk(context, 'hotkey', { ...target, element_index: index('Name field'), keys: ['ctrl', 'c'] });
    assert.equal((await callOk(context, 'clipboard_read', {})).structured.text, 'owned');
  });

  after(async () => {
    if (app?.process.pid) process.kill(app.process.pid, 'SIGCONT');
    oracle?.close();
    context?.desktop.close();
    await desktop?.stop();
  });

  test(`while stopped, each tool answers within ${BOUND_MS} ms (wait_for within its own timeout) and names the app`, async () => {
    // set_value first: a reading of the stopped app (find_elements) leaves an empty snapshot as the window's latest.
    const calls: { tool: string; args: Record<string, unknown>; error?: RegExp; boundMs?: number }[] = [
      { tool: 'set_value', args: { ...target, element_index: index('Volume'), value: '30' }, error: /^app_not_responding$/ },
      { tool: 'find_elements', args: { ...target, selector: 'role=button' } },
      { tool: 'wait_for', args: { ...target, selector: 'role=button name=Increment', timeout_ms: 1000 }, error: /^timeout$/, boundMs: 1000 + BOUND_MS },
      { tool: 'wait_for', args: { pid: target.pid, selector: 'role=button name=Increment', timeout_ms: 1000 }, error: /^timeout$/, boundMs: 1000 + BOUND_MS },
      { tool: 'run_actions', args: { ...target, steps: [{ tool: 'wait', arguments: { ms: 10 } }, { tool: 'click', arguments: { element_index: index('Increment') } }] }, error: /^app_not_responding$/ },
      { tool: 'run_actions', args: { ...target, steps: [{ tool: 'find_elements', arguments: { selector: 'role=button' } }, { tool: 'press_key', arguments: { key: 'return' } }] }, error: /^app_not_responding$/ },
      { tool: 'page', args: { ...target, action: 'get_text' }, error: /^no_debugging_endpoint$/ },
      { tool: 'invoke_menu', args: { ...target, path: ['Edit', 'Copy'] }, error: /^app_not_responding$/ },
      { tool: 'clipboard_read', args: {}, error: /^app_not_responding$/ },
      { tool: 'type_text', args: { ...target, text: 'abc' }, error: /^app_not_responding$/ },
      { tool: 'press_key', args: { ...target, key: 'return' }, error: /^app_not_responding$/ },
      { tool: 'click', args: { ...target, x: 40, y: 60 }, error: /^app_not_responding$/ },
      { tool: 'scroll', args: { ...target, direction: 'down' }, error: /^(app_not_responding|nothing_to_scroll)$/ },
    ];
    process.kill(app.process.pid!, 'SIGSTOP');
    try {
      for (const call of calls) {
        const started = Date.now();
        const result = await runTool(call.tool, call.args, context);
        const elapsed = Date.now() - started;
        const what = `${call.tool} ${JSON.stringify(call.args)}: ${result.summary}`;
        assert.ok(elapsed < (call.boundMs ?? BOUND_MS), `${call.tool} took ${elapsed} ms`);
        if (call.error) {
          assert.equal(result.ok, false, what);
          assert.match(String(result.structured.error), call.error, what);
        } else {
          assert.equal(result.ok, true, what);
          assert.match(String(result.structured.degraded_reason), /did not answer/, what);
        }
        // Every answer says which app did not answer (pid), or that the owner of the clipboard did not.
        if (!/^(no_debugging_endpoint|nothing_to_scroll)$/.test(String(result.structured.error))) assert.match(result.summary, new RegExp(`pid ${target.pid}|did not answer|hung or stopped`), what);
      }
    } finally {
      process.kill(app.process.pid!, 'SIGCONT');
    }
  });

  test('while stopped, real keys still go (they need no answer from the app), and the app types them once resumed', async () => {
    const field = () => oracle.find(target.pid, app.window.title, 'text', 'Name field');
    const before = (await field()).text ?? '';
    process.kill(app.process.pid!, 'SIGSTOP');
    let result;
    const started = Date.now();
    try {
      result = await runTool('type_text', { ...target, text: 'zq', delivery_mode: 'foreground' }, context);
    } finally {
      process.kill(app.process.pid!, 'SIGCONT');
    }
    // The reading before the action and the focused element's lookup each wait one call timeout; then the keys go.
    assert.ok(Date.now() - started < 2 * 2000 + BOUND_MS, `type_text took ${Date.now() - started} ms`);
    assert.equal(result.ok, true, result.summary);
    assert.equal(result.structured.path, 'key_events_fg', result.summary);
    for (const deadline = Date.now() + 5000; !((await field()).text ?? '').endsWith('zq') && Date.now() < deadline; );
    // At the caret, or in place of the text ctrl+a left selected in before().
    assert.ok(!before.endsWith('zq'));
    assert.ok(((await field()).text ?? '').endsWith('zq'), `the resumed app typed the keys sent while it was stopped: "${(await field()).text}"`);
  });

  test('while stopped, a real click at a point goes and is not called a no-op: nothing is known until it answers, and it counts the click once resumed', async () => {
    const before = Number((await oracle.status(target.pid, app.window.title)).counter);
    const { state } = await accessibleWindowState(context, app.window, { include_screenshot: false });
    const box = state.elements.find((element) => element.name === 'Increment')!.bounds!;
    const point = { x: Math.round(box.x + box.w / 2 - app.window.bounds.x), y: Math.round(box.y + box.h / 2 - app.window.bounds.y) };
    process.kill(app.process.pid!, 'SIGSTOP');
    let result;
    try {
      result = await runTool('click', { ...target, ...point, delivery_mode: 'foreground' }, context);
    } finally {
      process.kill(app.process.pid!, 'SIGCONT');
    }
    assert.equal(result.ok, true, result.summary);
    assert.equal(result.structured.path, 'x11_pixel_fg', result.summary);
    // A stopped app draws nothing: its unchanged pixels are no sign of a no-op, and advice to click again would
    // have made it two clicks once it ran again.
    assert.equal(result.structured.effect, 'unverifiable', result.summary);
    assert.equal(result.structured.escalation, undefined, result.summary);
    assert.ok(((result.structured.evidence ?? []) as string[]).some((line) => line.includes(`pid ${target.pid}) did not answer`)), result.summary);
    let counter = before;
    for (const deadline = Date.now() + 5000; counter === before && Date.now() < deadline; ) counter = Number((await oracle.status(target.pid, app.window.title)).counter);
    assert.equal(counter, before + 1, 'the resumed app counted the one click sent while it was stopped');
  });

  test('resumed, the first action has its diff: a reading the stopped app left unanswered did not mark the window slow to read', async () => {
    // A fresh app, read once: the action's own reading of the window is the call that goes unanswered.
    const fresh = await desktop.launchFixture('gtk3', { title: 'Will stop once' });
    const on = { pid: fresh.window.pid, window_id: fresh.window.id };
    try {
      const { state } = await accessibleWindowState(context, fresh.window, { include_screenshot: false });
      const increment = state.elements.find((element) => element.name === 'Increment')!.index;
      process.kill(fresh.process.pid!, 'SIGSTOP');
      try {
        const refused = await runTool('click', { ...on, element_index: increment, delivery_mode: 'foreground' }, context);
        assert.equal(refused.structured.error, 'app_not_responding', refused.summary);
      } finally {
        process.kill(fresh.process.pid!, 'SIGCONT');
      }
      const clicked = await callOk(context, 'click', { ...on, element_index: increment });
      assert.equal(clicked.structured.diff_unavailable, undefined, clicked.summary);
      const counter = Number((await oracle.status(on.pid, fresh.window.title)).counter);
      assert.equal(counter, 1);
      assert.ok((clicked.body ?? '').includes(`counter=${counter}`), `the diff shows the status pyatspi reads: ${clicked.body}`);
    } finally {
      fresh.process.kill('SIGKILL');
    }
  });

  test('resumed, the same tools work again: a plan clicks, and pyatspi reads the new counter', async () => {
    const before = Number((await oracle.status(target.pid, app.window.title)).counter);
    const { state } = await accessibleWindowState(context, app.window, { include_screenshot: false });
    const increment = state.elements.find((element) => element.name === 'Increment')!;
    const plan = await callOk(context, 'run_actions', { ...target, steps: [{ tool: 'click', arguments: { element_index: increment.index } }] });
    assert.equal(plan.structured.completed_steps, 1, plan.summary);
    assert.equal(Number((await oracle.status(target.pid, app.window.title)).counter), before + 1);
    const found = await callOk(context, 'find_elements', { ...target, selector: 'role=button name=Increment' });
    assert.equal((found.structured.matches as unknown[]).length, 1, found.summary);
    assert.equal((await callOk(context, 'clipboard_read', {})).structured.text, 'owned');
  });

  test('an app that froze on the key sent to it: the key is not confirmed by its focused element read as "gone"', async () => {
    // The second fixture stops itself (SIGSTOP) on F9, before it changes anything: every read back after the key
    // goes unanswered. A hung Gnumeric's key was once 'confirmed' by "the focused element is gone".
    const frozen = await desktop.launchFixture('gtk3', { title: 'Will freeze', extraArgs: ['--stop-key', 'F9'] });
    try {
      await accessibleWindowState(context, frozen.window, { include_screenshot: false });
      const result = await runTool('press_key', { pid: frozen.window.pid, window_id: frozen.window.id, key: 'F9', delivery_mode: 'foreground' }, context);
      assert.equal(result.ok, true, result.summary);
      const evidence = (result.structured.evidence ?? []) as string[];
      // /proc: the app stopped itself, so the key reached it.
      assert.match(readFileSync(`/proc/${frozen.window.pid}/stat`, 'utf8').split(') ')[1]!, /^T/, 'the fixture stopped on F9');
      assert.equal(result.structured.effect, 'unverifiable', `${result.summary} ${JSON.stringify(evidence)}`);
      assert.ok(!evidence.some((line) => /is gone/.test(line)), JSON.stringify(evidence));
      assert.ok(evidence.some((line) => /did not answer/.test(line)), JSON.stringify(evidence));
    } finally {
      process.kill(frozen.process.pid!, 'SIGCONT');
    }
    let lastKey = '';
    for (const deadline = Date.now() + 5000; lastKey !== 'F9' && Date.now() < deadline; ) lastKey = String((await oracle.status(frozen.window.pid, frozen.window.title)).last_key);
    assert.equal(lastKey, 'F9', 'pyatspi: resumed, the app had the key');
    frozen.process.kill();
  });
});
