import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { z } from 'zod';
import { parseArgs, UsageError } from '../../src/server/cli-args.js';
import { formatArgumentErrors } from '../../src/tools/validation.js';
import { findTool, tools } from '../../src/tools/registry.js';
import { runTool } from '../../src/tools/run.js';
import { errorCodeOf } from '../../src/tools/call-result.js';
import { createContext } from '../../src/server/session.js';
import { inputJsonSchema, outputJsonSchema } from '../../src/server/tool-schemas.js';

describe('argument errors: one line naming every bad field and what would work', () => {
  const schema = z.strictObject({ pid: z.number().int(), name: z.string().optional(), mode: z.enum(['a', 'b']).default('a'), size: z.number().min(1).optional() });
  const explain = (input: unknown) => {
    const result = schema.safeParse(input);
    assert.equal(result.success, false);
    return formatArgumentErrors('demo_tool', result.error!, input, schema);
  };

  test('each kind of problem', () => {
    assert.equal(explain({}), 'invalid arguments for demo_tool: pid: required, expected an integer');
    assert.equal(explain({ pid: 'x' }), 'invalid arguments for demo_tool: pid: expected an integer, got string "x"');
    assert.equal(explain({ pid: 1, mode: 'c' }), 'invalid arguments for demo_tool: mode: expected one of "a", "b", got string "c"');
    assert.equal(explain({ pid: 1, extra: true }), 'invalid arguments for demo_tool: unknown field "extra" (valid fields: pid, name, mode, size)');
    assert.match(explain({ pid: 1, size: 0 }), /^invalid arguments for demo_tool: size: expected number to be >=1, got number 0$/);
    assert.match(explain({ pid: 1.5, name: 3 }), /pid: .*; name: expected a string, got number 3$/);
  });

  test("an unknown field inside a nested object is named there, with that object's fields as the valid ones", async () => {
    // run_actions' step {tool, args}: the answer named the plan's own fields (pid, window_id, steps, ...) as valid.
    const nested = z.strictObject({ pid: z.number().optional(), steps: z.array(z.strictObject({ tool: z.string(), arguments: z.record(z.string(), z.unknown()).optional() })) });
    const input = { steps: [{ tool: 'click' }, { tool: 'click', args: {} }] };
    const result = nested.safeParse(input);
    assert.equal(result.success, false);
    assert.equal(formatArgumentErrors('plan', result.error!, input, nested), 'invalid arguments for plan: unknown field "args" in steps[1] (valid fields: tool, arguments)');
    const context = createContext({ session: 'unit', persistConfig: false });
    const plan = await runTool('run_actions', { steps: [{ tool: 'click', args: { x: 1, y: 1 } }] }, context);
    assert.equal(errorCodeOf(plan), 'invalid_arguments');
    assert.match(plan.summary, /unknown field "args" in steps\[0\] \(valid fields: tool, arguments\)/);
  });

  test('a mistyped field or tool name gets a suggestion; a name nothing like any gets none', async () => {
    assert.equal(explain({ pid: 1, nmae: 'x' }), 'invalid arguments for demo_tool: unknown field "nmae" (did you mean "name"? valid fields: pid, name, mode, size)');
    // Several unknown fields: each guess names the field it is for, and a one-letter name gets no two-letter guess
    // that shares nothing with it (two edits turn "x" into any two-letter name).
    const press = await runTool('press_key', { window_id: 1, key: 'a', x: 10, y: 20, repaet: 3 }, createContext({ session: 'unit', persistConfig: false }));
    assert.match(press.summary, /unknown fields "x", "y", "repaet" \(did you mean "repeat" for "repaet"\? valid fields: /);
    const zoom = await runTool('zoom', { window_id: 1, x1: 0, y1: 0, x2: 10, y2: 10, w: 10, h: 10 }, createContext({ session: 'unit', persistConfig: false }));
    assert.match(zoom.summary, /unknown fields "w", "h" \(valid fields: /);
    const context = createContext({ session: 'unit', persistConfig: false });
    const typo = await runTool('clik', {}, context);
    assert.match(typo.summary, /^unknown tool "clik"; did you mean "click"\? available tools: list_apps/);
    const unknown = await runTool('no_such_tool', {}, context);
    assert.match(unknown.summary, /^unknown tool "no_such_tool"; available tools: /);
  });
});

describe('the registry', () => {
  test('every tool has a unique snake_case name, a description and object schemas', () => {
    const names = tools.map((tool) => tool.name);
    assert.equal(new Set(names).size, names.length);
    for (const tool of tools) {
      assert.match(tool.name, /^[a-z][a-z0-9_]*$/);
      assert.ok(tool.description.length > 20, tool.name);
      assert.equal(inputJsonSchema(tool).type, 'object');
      assert.equal(outputJsonSchema(tool).type, 'object');
      assert.equal((inputJsonSchema(tool) as { additionalProperties?: boolean }).additionalProperties, false, `${tool.name} rejects unknown fields`);
    }
  });

  test('every session a call can name, end_session can end: one session-name pattern on every tool', async () => {
    const patternOf = (name: string) => (inputJsonSchema(tools.find((tool) => tool.name === name)!) as { properties: Record<string, { pattern?: string }> }).properties.session?.pattern;
    const ending = patternOf('end_session');
    assert.ok(ending);
    const withSession = tools.filter((tool) => patternOf(tool.name) !== undefined);
    assert.ok(withSession.some((tool) => tool.name.startsWith('tui_')));
    for (const tool of withSession) assert.equal(patternOf(tool.name), ending, tool.name);
    // "-0" was a terminal's name that end_session refused: its program and pipes stayed until the idle limit.
    const context = createContext({ session: 'unit', persistConfig: false });
    const refused = await runTool('tui_start', { command: 'cat', session: '-0' }, context);
    assert.equal(errorCodeOf(refused), 'invalid_arguments', refused.summary);
    assert.match(refused.summary, /session: session names are/);
    await context.desktop.close();
  });
});

describe('command-line flags', () => {
  test('known flags, values, and errors for unknown ones', () => {
    const parsed = parseArgs(['list_windows', '{}', '--json', '--image-dir=/tmp/x'], { valued: ['image-dir'], boolean: ['json'] });
    assert.deepEqual(parsed.positional, ['list_windows', '{}']);
    assert.equal(parsed.flags.get('image-dir'), '/tmp/x');
    assert.equal(parsed.flags.get('json'), true);
    assert.throws(() => parseArgs(['--jsn'], { boolean: ['json'] }), (error: unknown) => error instanceof UsageError && /unknown option --jsn \(did you mean --json\?\); valid options: --json/.test(error.message));
    assert.throws(() => parseArgs(['--image-dir'], { valued: ['image-dir'] }), /--image-dir needs a value/);
  });
});

test('type_text with a control character other than a newline or tab is bad input naming the key that does its work, before any window is looked for', async () => {
  // "\b\b" typed to undo two letters was refused by real keys as an internal_error, after the call was taken.
  const context = createContext({ session: 'unit', persistConfig: false });
  const backspaces = await runTool('type_text', { window_id: 1, text: 'ab\b\b', delivery_mode: 'foreground' }, context);
  assert.equal(errorCodeOf(backspaces), 'invalid_arguments', backspaces.summary);
  assert.match(backspaces.summary, /text: holds control character U\+0008, .*press_key "backspace"/);
  const bell = await runTool('type_text', { window_id: 1, text: 'x\u0007' }, context);
  assert.equal(errorCodeOf(bell), 'invalid_arguments', bell.summary);
  assert.match(bell.summary, /U\+0007/);
  // Line breaks and tabs are typed (Return, Tab): the arguments take them. Checked on the schema: a call would go on
  // to the window, and with no DISPLAY start a desktop, which this unit test would leave running.
  assert.equal(findTool('type_text')!.input.safeParse({ window_id: 1, text: 'a\tb\r\nc' }).success, true);
});
