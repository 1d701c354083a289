import { observeCall } from './action-observer.js';
import { ActionQueue, actionKey } from './action-queue.js';
import { argumentShapeProblem } from './argument-shape.js';
import { failureResult, type ToolCallResult } from './call-result.js';
import { closestName } from '../cup/closest-name.js';
import { compatibilityWarnings } from './compatibility.js';
import type { ToolContext } from './context.js';
import { findTool, toolNames, type AnyTool } from './registry.js';
import { ToolError } from '../errors.js';
import { DEFAULT_SESSION } from '../tui/manager.js';
import { formatArgumentErrors } from './validation.js';
import { selectElement } from './input/selector-target.js';
import type { Selected } from './input/schemas.js';
import { inToolsWords } from './input/next-try.js';

/** Shared by every session and client of this process: they act on one desktop. */
const actions = new ActionQueue();

/** Validates the arguments against the tool's schema and runs its handler. Never throws for expected failures. */
export async function runTool(name: string, rawArgs: unknown, context: ToolContext): Promise<ToolCallResult> {
  const tool = findTool(name);
  if (!tool) {
    const guess = closestName(name, toolNames());
    return failureResult('usage', `unknown tool "${name}"; ${guess ? `did you mean "${guess}"? ` : ''}available tools: ${toolNames().join(', ')}`, 'unknown_tool');
  }
  // A call the caller gave up on before it started sends nothing.
  if (context.signal?.aborted) return failureResult('tool', `${name} was cancelled before it ran; nothing was sent`, 'cancelled');
  const shapeProblem = argumentShapeProblem(rawArgs);
  if (shapeProblem) return failureResult('usage', `invalid arguments for ${name}: ${shapeProblem}`, 'invalid_arguments');
  const parsed = tool.input.safeParse(rawArgs ?? {});
  if (!parsed.success) {
    return failureResult('usage', formatArgumentErrors(name, parsed.error, rawArgs, tool.input), 'invalid_arguments');
  }
  // The `session` argument is the run identity (seed 001): it, not the connection, picks the snapshots,
  // config, cursor and terminals the call sees. "default" is the caller's own session, where a terminal
  // started without a session name lives under that name.
  const requested = (parsed.data as { session?: unknown }).session;
  const lease = typeof requested === 'string' && requested !== context.session && requested !== DEFAULT_SESSION ? context.sessions.lease(requested) : undefined;
  const callContext = lease
    ? { ...lease.context, cwd: context.cwd, ...(context.signal ? { signal: context.signal } : {}), ...(context.callerPid ? { callerPid: context.callerPid } : {}) }
    : context;
  try {
    const act = async (inLine: ToolContext) => {
      // An element named by selector is found once, in the app's line (after its earlier actions), and named by its token from here on.
      const selection = await selectTarget(tool, parsed.data as Record<string, unknown>, inLine);
      if ('failed' in selection) return selection.failed;
      // The agent cursor and the session's recording see every action here, whichever tool it is.
      const observer = await observeCall(tool, selection.args, rawArgs, inLine);
      const result = withSelected(await handle(tool, name, selection.args, inLine), selection.selected);
      return observer ? await observer.finish(result) : result;
    };
    // Actions on one app wait for each other in arrival order; reads and other apps' actions do not wait.
    const key = actionKey(tool, parsed.data as Record<string, unknown>, callContext);
    return key === undefined ? await act(callContext) : await actions.run(key, callContext, act).catch(cancelledInLine);
  } finally {
    lease?.release();
  }
}

/** An action's arguments with its selector resolved to an element token; the failure when it names no single element. */
async function selectTarget(tool: AnyTool, args: Record<string, unknown>, context: ToolContext): Promise<{ args: Record<string, unknown>; selected?: Selected } | { failed: ToolCallResult }> {
  if (tool.capability !== 'input' || !('element_token' in (tool.input.shape as Record<string, unknown>))) return { args };
  try {
    return (await selectElement(context, tool.name, args)) ?? { args };
  } catch (error) {
    const failed = expectedFailure(error, tool.name, context);
    if (failed) return { failed };
    throw error;
  }
}

/** The result of an expected failure: a ToolError, or a lost display, bus or app that the desktop can explain. */
function expectedFailure(error: unknown, name: string, context: ToolContext): ToolCallResult | undefined {
  if (error instanceof ToolError) return failureResult('tool', error.message, error.code, error.details);
  // A lost display or accessibility bus, or an app that went away, is the caller's to know about, not a bug.
  const explained = context.desktop.explainFailure(error);
  return explained ? failureResult('tool', `${name}: ${explained.message}`, explained.code, explained.details) : undefined;
}

/** A result that says which element its selector chose (the handler only saw the token). */
function withSelected(result: ToolCallResult, selected: Selected | undefined): ToolCallResult {
  if (!selected || !result.ok) return result;
  return { ...result, structured: { ...result.structured, selected } };
}

/** A call cancelled while it waited for the app's earlier actions: a failed result, nothing was sent. */
function cancelledInLine(error: unknown): ToolCallResult {
  if (error instanceof ToolError) return failureResult('tool', error.message, error.code, error.details);
  throw error;
}

/**
 * The result with its advice in calls the tool's caller can make (see next-try.ts): the summary, the body, the
 * escalation's reason and a refusal's message, which the platform words alike for every tool.
 */
function inToolsTerms(tool: AnyTool, result: ToolCallResult): ToolCallResult {
  const structured = result.structured as { escalation?: { reason: string }; message?: string };
  return {
    ...result,
    summary: inToolsWords(tool, result.summary),
    body: inToolsWords(tool, result.body),
    structured: {
      ...result.structured,
      ...(structured.escalation ? { escalation: { ...structured.escalation, reason: inToolsWords(tool, structured.escalation.reason) } } : {}),
      ...(typeof structured.message === 'string' ? { message: inToolsWords(tool, structured.message) } : {}),
    },
  };
}

/** Runs the handler and checks its output against its schema; a failure becomes a failed result. */
async function handle(tool: AnyTool, name: string, args: unknown, context: ToolContext): Promise<ToolCallResult> {
  try {
    const output = await tool.handle(args, context);
    const structured = tool.output.safeParse(output.structured);
    if (!structured.success) {
      // A handler that breaks its own declared output shape is a bug; surface it instead of sending bad data.
      throw new Error(`${name} produced output that does not match its schema: ${structured.error.message}`);
    }
    const warnings = compatibilityWarnings(args as Record<string, unknown>);
    return inToolsTerms(tool, {
      ok: true,
      summary: [output.summary, ...warnings.map((warning) => `⚠️ ${warning}`)].join('\n'),
      body: output.body,
      images: output.images ?? [],
      structured: { ...(structured.data as Record<string, unknown>), ...(warnings.length ? { warnings } : {}) },
    });
  } catch (error) {
    const expected = expectedFailure(error, name, context);
    if (expected) return inToolsTerms(tool, expected);
    const message = error instanceof Error ? error.message : String(error);
    context.log(`${name} failed: ${error instanceof Error && error.stack ? error.stack : message}`);
    return failureResult('tool', `${name} failed: ${message}`, 'internal_error');
  }
}
