import { z } from 'zod';
import { DEFAULT_SESSION } from '../../tui/manager.js';
import type { TerminalSession } from '../../tui/session.js';
import type { ToolContext } from '../context.js';
import { defineTool, type ToolAnnotations, type ToolDefinition, type ToolOutput } from '../tool.js';
import { sessionArgument } from './schemas.js';

/** The terminal a call addresses, resolved before its handler runs. */
export interface RunningTerminal {
  /** The session name the caller used (or "default"). */
  name: string;
  session: TerminalSession;
}

type TerminalInput<S extends z.ZodRawShape> = z.ZodObject<S & { session: typeof sessionArgument }, z.core.$strict>;

interface TerminalToolDefinition<S extends z.ZodRawShape, O extends z.ZodObject> {
  name: string;
  title: string;
  annotations: ToolAnnotations;
  description: string;
  /** The tool's own arguments; `session` is added. */
  input: S;
  output: O;
  handle(args: z.output<TerminalInput<S>>, terminal: RunningTerminal, context: ToolContext): Promise<ToolOutput<z.output<O>>>;
}

/**
 * A tool that works on a running terminal program: adds the `session` argument and finds the program
 * before the handler runs, so no handler repeats the lookup or its no_driver error. `session` is also the
 * run identity (seed 001): run.ts has already switched the call to that session's context, where the
 * program lives under the same name.
 */
export function defineTerminalTool<S extends z.ZodRawShape, O extends z.ZodObject>(definition: TerminalToolDefinition<S, O>): ToolDefinition<TerminalInput<S>, O> {
  const { input, handle, ...declaration } = definition;
  return defineTool({
    ...declaration,
    capability: 'terminal',
    input: z.strictObject({ ...input, session: sessionArgument }) as TerminalInput<S>,
    async handle(args, context) {
      const name = terminalName((args as { session?: string }).session);
      return handle(args, { name, session: context.terminals.require(name) }, context);
    },
  });
}

/** The terminal name of a call: its `session` argument, or "default". */
export function terminalName(session: string | undefined): string {
  return session ?? DEFAULT_SESSION;
}
