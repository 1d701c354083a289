import type { z } from 'zod';
import type { ToolContext } from './context.js';
import { sessionArgument } from './schemas.js';

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

/** The area a tool belongs to; `cup-driver mcp --tools terminal,perception` serves only the named areas. */
export const TOOL_CAPABILITIES = ['perception', 'config', 'input', 'apps', 'browser', 'terminal', 'recording'] as const;
export type ToolCapability = (typeof TOOL_CAPABILITIES)[number];

/**
 * What a client may assume about a call before making it (MCP's tool annotations). Every tool states all
 * four: clients use them to decide which calls need the user's consent.
 */
export interface ToolAnnotations {
  /** Only observes: nothing on the desktop or in the driver's state changes. */
  readOnly: boolean;
  /** May destroy something the user cares about (ends a process, discards unsaved work, overwrites a file). */
  destructive: boolean;
  /** A second identical call has no further effect. */
  idempotent: boolean;
  /** Acts on programs whose own effects reach beyond the desktop (they may send mail, browse, write files). */
  openWorld: boolean;
}

export interface ToolDefinition<I extends z.ZodObject = z.ZodObject, O extends z.ZodObject = z.ZodObject> {
  name: string;
  capability: ToolCapability;
  /** A short human title, shown by clients instead of the name. */
  title: string;
  annotations: ToolAnnotations;
  description: string;
  input: I;
  output: O;
  /**
   * For an action tool without delivery_mode: what a person does by hand where its advice says to retry in the
   * foreground (see next-try.ts); without it, a real click on the element, then real keys for a typed value.
   */
  byHand?: string;
  handle(args: z.output<I>, context: ToolContext): Promise<ToolOutput<z.output<O>>>;
}

/** Identity helper that keeps the input/output types of one tool tied together. */
export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(
  definition: ToolDefinition<I, O>,
): ToolDefinition<I, O> {
  // Every tool takes `session`, the run identity (seed 001): run.ts switches the call to that session
  // before the handler runs, so a handler only declares it when it reads it (the terminal tools do).
  if ('session' in definition.input.shape) return definition;
  return { ...definition, input: definition.input.extend({ session: sessionArgument }) as unknown as I };
}
