// What an action's advice asks of the caller, in calls the named tools accept: the platform says "retry with
// delivery_mode "foreground"" of any action that needs real input, and a tool without that argument (set_value) answers
// such a retry with invalid_arguments. Its advice names the real-input calls that do what it could not instead.
import type { z } from 'zod';
import { RETRY_IN_FOREGROUND } from '../../platform/action-outcome.js';

/** A call the advice suggests: a tool, and the arguments the advice names (the target and text are the caller's). */
export interface SuggestedCall {
  tool: string;
  arguments: Readonly<Record<string, unknown>>;
}

/** What next-try advice needs of a tool: its name, its arguments' schema, its result's (an action's has an escalation). */
interface AdvisedTool {
  name: string;
  input: z.ZodObject;
  output: z.ZodObject;
  byHand?: string;
}

/**
 * An action tool: its result says what to try next. A plan's result (run_actions) holds its steps' results, each said
 * in its own tool's terms already.
 */
export function isActionTool(tool: AdvisedTool): boolean {
  return 'escalation' in tool.output.shape;
}

function takesDeliveryMode(tool: AdvisedTool): boolean {
  return 'delivery_mode' in tool.input.shape;
}

/**
 * The real input that stands for a retry in the foreground: the same call again where the tool takes delivery_mode;
 * else what a person does by hand, a real click on the element (which toggles a check box, picks an option, puts the
 * caret in a field) and real keys typing what a field should hold.
 */
export function realInputCalls(tool: AdvisedTool): SuggestedCall[] {
  if (takesDeliveryMode(tool)) return [{ tool: tool.name, arguments: { delivery_mode: 'foreground' } }];
  return [
    { tool: 'click', arguments: { delivery_mode: 'foreground' } },
    { tool: 'type_text', arguments: { delivery_mode: 'foreground' } },
  ];
}

function callWords(call: SuggestedCall): string {
  return `${call.tool} with ${Object.entries(call.arguments).map(([name, value]) => `${name} ${JSON.stringify(value)}`).join(', ')}`;
}

/** The words of realInputCalls for a tool that takes no delivery_mode. */
function realInputWords(tool: AdvisedTool): string {
  if (tool.byHand) return `${tool.name} has no foreground delivery, so do it with real input: ${tool.byHand}`;
  const [click, type] = realInputCalls(tool).map(callWords);
  return `${tool.name} has no foreground delivery, so do it with real input: ${click} on the element (it toggles a check box, picks an option, puts the caret in a field), then ${type} for a value that is typed`;
}

/** A text of the tool's result (its advice, a refusal's message) with every retry in the foreground said in calls the tool's caller can make. */
export function inToolsWords(tool: AdvisedTool, text: string): string;
export function inToolsWords(tool: AdvisedTool, text: string | undefined): string | undefined;
export function inToolsWords(tool: AdvisedTool, text: string | undefined): string | undefined {
  if (text === undefined || !isActionTool(tool) || takesDeliveryMode(tool) || !text.includes(RETRY_IN_FOREGROUND)) return text;
  return text.replaceAll(RETRY_IN_FOREGROUND, realInputWords(tool));
}
