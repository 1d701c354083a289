// An action's advice names only calls the tools it names accept: set_value's said 'retry with delivery_mode "foreground"',
// and set_value answers that argument with invalid_arguments. Driven from the registry, so a tool added later is held to it.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { actionOutcome, notDelivered, RETRY_IN_FOREGROUND } from '../../src/platform/action-outcome.js';
import { inToolsWords, isActionTool, realInputCalls } from '../../src/tools/input/next-try.js';
import { findTool, tools, type AnyTool } from '../../src/tools/registry.js';

/** Whether the tool named takes these arguments (as part of a call: the target and text are left to the caller). */
function takes(toolName: string, args: Record<string, unknown>): boolean {
  const tool = findTool(toolName);
  return tool !== undefined && tool.input.partial().safeParse(args).success;
}

/**
 * Every delivery_mode the text asks for, with the tool it asks it of, read from the words alone: "retry with
 * delivery_mode "x"" asks it of the tool advised; "<tool> with delivery_mode "x"" (the nearest tool name before it) of that tool.
 */
function askedDeliveries(advised: string, text: string): { tool: string; mode: string }[] {
  const names = new Set(tools.map((tool) => tool.name));
  return [...text.matchAll(/delivery_mode "([^"]*)"/g)].map((match) => {
    const before = text.slice(0, match.index);
    if (/retry with $/.test(before)) return { tool: advised, mode: match[1]! };
    const named = [...before.matchAll(/\b([a-z]+(?:_[a-z]+)*)\b/g)].map((word) => word[1]!).filter((word) => names.has(word)).at(-1);
    return { tool: named ?? advised, mode: match[1]! };
  });
}

/** What the platform says when an action needs real input: its default no-effect advice, and a refusal that sent nothing. */
const platformAdvice = [
  actionOutcome({ path: 'x11_atspi', mode: 'background', observation: { evidence: [], changed: false, listening: true } }).escalation!.reason,
  notDelivered('background', `window 5 is not the active window; nothing was typed: ${RETRY_IN_FOREGROUND}`).escalation!.reason,
];

const actionTools = tools.filter(isActionTool);

describe('next-try advice in each action tool\'s own terms', () => {
  test('the registry has action tools with and without delivery_mode (else this test checks nothing)', () => {
    assert.ok(actionTools.some((tool) => 'delivery_mode' in tool.input.shape));
    assert.ok(actionTools.some((tool) => !('delivery_mode' in tool.input.shape)), 'set_value takes no delivery_mode');
  });

  for (const tool of actionTools as AnyTool[]) {
    test(`${tool.name}: the real-input calls its advice suggests are calls those tools accept`, () => {
      for (const call of realInputCalls(tool)) {
        assert.ok(takes(call.tool, { ...call.arguments }), `${tool.name}'s advice suggests ${call.tool} ${JSON.stringify(call.arguments)}, which ${call.tool}'s schema refuses`);
      }
    });

    test(`${tool.name}: every delivery_mode its advice asks for is asked of a tool that takes it`, () => {
      for (const reason of platformAdvice) {
        const said = inToolsWords(tool, reason);
        const asked = askedDeliveries(tool.name, said);
        assert.ok(asked.length > 0, `the advice names no real input: ${said}`);
        for (const { tool: named, mode } of asked) {
          assert.ok(takes(named, { delivery_mode: mode }), `${tool.name}'s advice asks ${named} for delivery_mode "${mode}", which ${named} does not take: ${said}`);
        }
      }
    });
  }

  test('set_value: the advice names the click and the typing that do what it could not', () => {
    const said = inToolsWords(findTool('set_value')!, platformAdvice[0]!);
    assert.doesNotMatch(said, /retry with delivery_mode/);
    assert.match(said, /click with delivery_mode "foreground" on the element .* then type_text with delivery_mode "foreground"/);
  });

  test('invoke_menu: the advice says to open the menu and click its items by hand, no typing', () => {
    // The case: a Qt menu entry that showed no effect read "click ... on the element (it toggles a check box, picks an
    // option, puts the caret in a field), then type_text ...", set_value's words.
    const said = inToolsWords(findTool('invoke_menu')!, platformAdvice[0]!);
    assert.match(said, /click with delivery_mode "foreground" on the menu \(or the button that opens it\), then on each item/);
    assert.doesNotMatch(said, /type_text|caret/);
  });

  test('a tool that takes delivery_mode keeps the advice as the platform said it', () => {
    for (const name of ['click', 'type_text', 'press_key', 'scroll']) assert.equal(inToolsWords(findTool(name)!, platformAdvice[1]!), platformAdvice[1]);
  });
});
