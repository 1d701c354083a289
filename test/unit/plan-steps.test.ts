import assert from 'node:assert/strict';
import { test } from 'node:test';
// Imported first on purpose: the plan modules and the registry import each other, and loading them from
// this end once failed at start-up (a schema read before its module had run).
import { prepareSteps } from '../../src/tools/plan/steps.js';
import { STEP_TOOLS } from '../../src/tools/plan/step-schema.js';
import { ToolError } from '../../src/errors.js';
import { findTool } from '../../src/tools/registry.js';

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
