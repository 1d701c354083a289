import assert from 'node:assert/strict';
import { test } from 'node:test';
// Imported first on purpose: the plan modules and the registry import each other, and loading them from
// this end once failed at start-up (a schema read before its module had run).
import { prepareSteps } from '../../src/tools/plan/steps.js';
import { STEP_TOOLS } from '../../src/tools/plan/step-schema.js';
import { ToolError } from '../../src/errors.js';
import { findTool } from '../../src/tools/registry.js';
import { producedWindows } from '../../src/tools/plan/step-windows.js';
import { inputJsonSchema } from '../../src/server/tool-schemas.js';

test('every tool a plan step may name, but wait, is a registered tool; plans neither nest nor destroy', () => {
  for (const name of STEP_TOOLS) {
    if (name === 'wait') continue;
    assert.ok(findTool(name), `${name} is registered`);
  }
  assert.throws(
    () => prepareSteps([{ tool: 'wait', arguments: { ms: 1 } }, { tool: 'kill_app', arguments: { pid: 1 } }], {}),
    (error: unknown) => error instanceof ToolError && error.code === 'invalid_arguments' && /steps\[1\]\.tool "kill_app" cannot run in a plan/.test(error.message),
  );
  assert.throws(() => prepareSteps([{ tool: 'run_actions' }], {}), /cannot run in a plan/);
  const [step] = prepareSteps([{ tool: 'click', arguments: { element_index: 3 } }], { pid: 7, window_id: 9 });
  assert.deepEqual(step!.arguments, { element_index: 3, pid: 7, window_id: 9 }, 'the plan\'s target fills in what the step leaves out');
  // null is "not the plan's": the key is dropped, not filled in, and the schema (which takes no null) accepts the step.
  const [elsewhere, nowhere] = prepareSteps([{ tool: 'press_key', arguments: { key: 'escape', window_id: null } }, { tool: 'press_key', arguments: { key: 'a', pid: null, window_id: 4 } }], { pid: 7, window_id: 9 });
  assert.deepEqual(elsewhere!.arguments, { key: 'escape', pid: 7 });
  assert.deepEqual(nowhere!.arguments, { key: 'a', window_id: 4 });
});

test('window_id {"from_step": N}: an earlier step\'s window, filled in when the step runs; a reference no run could honour is refused before anything is sent', () => {
  const steps = prepareSteps(
    [
      { tool: 'click', arguments: { selector: 'role=button name="Save As…"' } },
      { tool: 'wait_for', arguments: { window_title: 'Save As' } },
      { tool: 'type_text', arguments: { window_id: { from_step: -1 }, selector: 'role=textbox', text: 'a.txt' } },
      { tool: 'wait_for', arguments: { window_id: { from_step: 1 }, selector: 'role=button name=Save' } },
      { tool: 'click', arguments: { window_id: { from_step: 1 }, pid: 11, selector: 'role=button name=Save' } },
    ],
    { pid: 7, window_id: 9 },
  );
  assert.deepEqual(
    steps.map((step) => [step.windowFrom, step.arguments.window_id, step.arguments.pid]),
    [
      [undefined, 9, 7],
      // A title alone takes neither the plan's window nor its pid: it is any app's window's (a dialog of another process).
      [undefined, undefined, undefined],
      // Neither the plan's window nor its pid: both come from the referenced window (a given pid is kept, and checked then).
      [1, undefined, undefined],
      [1, undefined, undefined],
      [1, undefined, 11],
    ],
  );
  const refused = (window_id: unknown, pattern: RegExp, first: { tool: string; arguments?: Record<string, unknown> } = { tool: 'wait_for', arguments: { window_title: 'x' } }) =>
    assert.throws(
      () => prepareSteps([first, { tool: 'click', arguments: { window_id, selector: 'role=button' } }], { pid: 7, window_id: 9 }),
      (error: unknown) => error instanceof ToolError && error.code === 'invalid_arguments' && pattern.test(error.message),
    );
  refused({ from_step: 1 }, /steps\[1\]\.window_id \{"from_step": 1\} names step 1; a step can only use the window of an earlier step/);
  refused({ from_step: 5 }, /names step 5/);
  refused({ from_step: -2 }, /names no step/);
  refused({ from_step: 0 }, /names step 0, a wait, which produces no window/, { tool: 'wait', arguments: { ms: 10 } });
  refused({ step: 0 }, /is no window id and no reference; a reference is \{"from_step": N\}/);
  // The step's other arguments are still checked before anything runs.
  assert.throws(() => prepareSteps([{ tool: 'wait_for', arguments: { window_title: 'x' } }, { tool: 'click', arguments: { window_id: { from_step: 0 }, bogus: 1 } }], { pid: 7 }), /steps\[1\]/);
});

test('the window a step produced: the windows an action opened, else the titled windows a wait_for matched, else the windows of its matches, else the window read', () => {
  const dialog = { window_id: 5, pid: 1, title: 'Save As' };
  assert.deepEqual(producedWindows({ new_windows: [dialog], windows: [{ window_id: 6 }] }), { windows: [dialog], source: 'new_windows' });
  assert.deepEqual(producedWindows({ new_windows: [], windows: [dialog], matches: [{ window_id: 6 }] }).windows, [dialog]);
  assert.deepEqual(producedWindows({ windows: [], matches: [{ window_id: 6, index: 1 }, { window_id: 6, index: 2 }] }).windows.map((window) => window.window_id), [6], 'each window once');
  assert.deepEqual(producedWindows({ matches: [], window: dialog }).windows, [dialog]);
  assert.deepEqual(producedWindows({ path: 'x11_atspi', effect: 'confirmed' }).windows, [], 'an action that opened nothing produced no window');
  assert.deepEqual(producedWindows(undefined).windows, []);
});

test('a step waits no longer than the plan can run: a wait_for timeout_ms or a selector_timeout_ms past the 25 s a wait may take is refused before anything runs, saying what works', () => {
  const refused = (steps: { tool: string; arguments?: Record<string, unknown> }[], selectorTimeout: number | undefined, pattern: RegExp) =>
    assert.throws(
      () => prepareSteps(steps, { pid: 7, window_id: 9, selector_timeout_ms: selectorTimeout }),
      (error: unknown) => error instanceof ToolError && error.code === 'invalid_arguments' && pattern.test(error.message),
    );
  // Accepted, the plan's watchdog cut this wait at 30 s and the step said the caller had cancelled it.
  refused([{ tool: 'click', arguments: { element_index: 1 } }, { tool: 'wait_for', arguments: { window_title: 'Copying', gone: true, timeout_ms: 40_000 } }], 5000, /^steps\[1\]\.timeout_ms 40000 is longer than a step may wait: a plan is stopped 30 s after it starts.*wait_for in a call of its own \(up to 50000 ms\)/);
  refused([{ tool: 'click', arguments: { selector: 'role=button', selector_timeout_ms: 26_000 } }], 5000, /^steps\[0\]\.selector_timeout_ms 26000/);
  refused([{ tool: 'click', arguments: { selector: 'role=button' } }], 30_000, /^the plan's selector_timeout_ms 30000/);
  assert.equal(prepareSteps([{ tool: 'wait_for', arguments: { window_title: 'x', timeout_ms: 25_000 } }], { pid: 7 }).length, 1, 'as long as a wait step may be is taken');
});

test("run_actions' selector_timeout_ms: the published maximum is what a plan accepts, one past it the schema refuses", () => {
  // The schema said 50000 and the plan refused anything over 25000: a client keeping to the schema was refused anyway.
  const plan = findTool('run_actions')!;
  const published = (inputJsonSchema(plan) as { properties: Record<string, { maximum: number }> }).properties.selector_timeout_ms!.maximum;
  assert.doesNotThrow(() => prepareSteps([{ tool: 'click', arguments: { selector: 'role=button' } }], { pid: 1, selector_timeout_ms: published }));
  const past = plan.input.safeParse({ selector_timeout_ms: published + 1, steps: [{ tool: 'wait', arguments: { ms: 0 } }] });
  assert.equal(past.success, false);
  assert.deepEqual(past.error!.issues.map((issue: { path: PropertyKey[] }) => issue.path.join('.')), ['selector_timeout_ms']);
});
