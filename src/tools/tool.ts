import type { z } from 'zod';
import type { ToolContext } from './context.js';

/** An image a tool produced; adapters embed it (MCP) or write it to a file (CLI). */
export interface ToolImage {
  data: Buffer;
  mimeType: 'image/png' | 'image/jpeg';
  /** Short label used in CLI file names and summaries, e.g. "screenshot" or "zoom". */
  label: string;
  /** Set when the tool already wrote the image to disk at the caller's request; adapters then do not embed it. */
  writtenTo?: string;
}

/** What a handler returns; adapters turn it into an MCP CallToolResult or CLI output. */
export interface ToolOutput<S extends Record<string, unknown> = Record<string, unknown>> {
  /** One line, shown first. */
  summary: string;
  /** The main text (tree, table, ...), shown after the summary. */
  body?: string;
  images?: ToolImage[];
  /** Machine-readable fields, validated against the tool's output schema. */
  structured: S;
}

export type ToolCapability = 'perception' | 'config' | 'input' | 'apps' | 'terminal';

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  capability: ToolCapability;
  description: string;
  input: I;
  output: O;
  /** True when the tool only observes; MCP clients may call such tools without confirmation. */
  readOnly: boolean;
  handle(args: z.output<I>, context: ToolContext): Promise<ToolOutput<z.output<O>>>;
}

/** Identity helper that keeps the input/output types of one tool tied together. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(
  definition: ToolDefinition<I, O>,
): ToolDefinition<I, O> {
  return definition;
}
