import type { ToolContext } from './context.js';
import { findTool, toolNames } from './registry.js';
import { ToolError, type ToolImage } from './tool.js';
import { formatArgumentErrors } from './validation.js';

/** The outcome of one tool call, shared by every adapter (MCP, CLI, daemon). */
export interface ToolCallResult {
  ok: boolean;
  /** Why the call failed: a usage problem (unknown tool, bad arguments) or a tool error. */
  failure?: 'usage' | 'tool';
  summary: string;
  body?: string;
  images: ToolImage[];
  structured: Record<string, unknown>;
  /** Things the caller should be told on stderr that happened on the way (e.g. a desktop was started for it). */
  notices?: string[];
}

function failed(failure: 'usage' | 'tool', message: string, code: string, details: Record<string, unknown> = {}): ToolCallResult {
  return { ok: false, failure, summary: message, images: [], structured: { error: { code, message, ...details } } };
}

/** Validates the arguments against the tool's schema and runs its handler. Never throws for expected failures. */
export async function runTool(name: string, rawArgs: unknown, context: ToolContext): Promise<ToolCallResult> {
  const tool = findTool(name);
  if (!tool) {
    return failed('usage', `unknown tool "${name}"; available tools: ${toolNames().join(', ')}`, 'unknown_tool');
  }
  const parsed = tool.input.safeParse(rawArgs ?? {});
  if (!parsed.success) {
    return failed('usage', formatArgumentErrors(name, parsed.error, rawArgs, tool.input), 'invalid_arguments');
  }
  try {
    const output = await tool.handle(parsed.data, context);
    const structured = tool.output.safeParse(output.structured);
    if (!structured.success) {
      // A handler that breaks its own declared output shape is a bug; surface it instead of sending bad data.
      throw new Error(`${name} produced output that does not match its schema: ${structured.error.message}`);
    }
    return {
      ok: true,
      summary: output.summary,
      body: output.body,
      images: output.images ?? [],
      structured: structured.data as Record<string, unknown>,
    };
  } catch (error) {
    if (error instanceof ToolError) return failed('tool', error.message, error.code, error.details);
    const message = error instanceof Error ? error.message : String(error);
    context.log(`${name} failed: ${error instanceof Error && error.stack ? error.stack : message}`);
    return failed('tool', `${name} failed: ${message}`, 'internal_error');
  }
}
