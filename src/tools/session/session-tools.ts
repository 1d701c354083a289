import { z } from 'zod';
import type { SessionInfo, ToolContext } from '../context.js';
import { sessionName } from '../schemas.js';
import { defineTool } from '../tool.js';

const sessionRecord = z.object({
  session: z.string(),
  declared: z.boolean(),
  busy: z.boolean(),
  idle_s: z.number(),
  ttl_s: z.number(),
  expires_in_s: z.number().nullable(),
  calls: z.number(),
  created_at: z.string(),
  owns: z.array(z.object({ key: z.string(), label: z.string() })),
});

function record(info: SessionInfo) {
  return {
    session: info.session,
    declared: info.declared,
    busy: info.busy,
    idle_s: Math.round(info.idleMs / 100) / 10,
    ttl_s: info.idleLimitMs / 1000,
    // A session with a call running does not age.
    expires_in_s: info.busy ? null : Math.max(0, Math.round((info.idleLimitMs - info.idleMs) / 100) / 10),
    calls: info.calls,
    created_at: info.createdAt,
    owns: info.resources,
  };
}

/** Where sessions live, said in every session tool's answer: in a one-shot process they end with the call. */
function lifetimeNote(context: ToolContext): string {
  return context.sessions.host.kind === 'daemon'
    ? 'kept by the daemon between calls'
    : `kept by this process (pid ${context.sessions.host.pid}); it ends with the process`;
}

const ttlArgument = z
  .number()
  .int()
  .min(1)
  .max(7 * 24 * 3600)
  .optional()
  .describe('Idle time in seconds after which the session is reclaimed with everything it owns. Default: the daemon\'s (30 minutes).');

export const startSession = defineTool({
  name: 'start_session',
  capability: 'config',
  title: 'Start a session',
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  description:
    'Declare a session: a named run identity that keys snapshots, config overrides, the agent cursor, terminals and recordings, the same over ' +
    'MCP, the CLI (--session or the argument) and the daemon. Idempotent: calling it again restarts the idle clock (and sets ttl_s when given). ' +
    'A session idle past its ttl is reclaimed with everything it owns, as end_session would. On Linux sessions live in the daemon (CLI calls go ' +
    'through it by default) or in the MCP server process; a one-shot `call --no-daemon` session ends with the call.',
  input: z.strictObject({ session: sessionName.describe('Stable id for this run, e.g. "research-run-1".'), ttl_s: ttlArgument }),
  output: z.object({ started: z.boolean(), where: z.string(), ...sessionRecord.shape }),
  async handle(args, context) {
    const started = context.sessions.info(context.session)?.declared !== true;
    context.sessions.declare(context.session, args.ttl_s === undefined ? undefined : args.ttl_s * 1000);
    const info = context.sessions.info(context.session)!;
    const where = lifetimeNote(context);
    return {
      summary: `✅ session "${context.session}" ${started ? 'started' : 'already running; idle clock restarted'} (reclaimed after ${info.idleLimitMs / 1000} s idle; ${where})`,
      structured: { started, where, ...record(info) },
    };
  },
});

export const endSession = defineTool({
  name: 'end_session',
  capability: 'config',
  title: 'End a session',
  annotations: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  description:
    'End a session: stops a recording it owns, releases mouse buttons it holds, hides its agent cursor, stops its terminal programs and drops ' +
    'its snapshots and config overrides, before answering. Idempotent: a session that does not exist is reported as not running.',
  input: z.strictObject({ session: sessionName.describe('The session id to end.') }),
  output: z.object({ session: z.string(), ended: z.boolean(), undone: z.array(z.object({ label: z.string(), error: z.string().optional() })) }),
  async handle(_args, context) {
    const before = context.sessions.info(context.session);
    // The call naming the session made it if it had not been declared or used before: then there was nothing to end.
    // One with terminals running did run, however its calls were counted (an MCP connection's own session counts
    // one call for the whole connection).
    const existed = before !== undefined && (before.declared || before.calls > 1 || context.terminals.names().length > 0);
    const undone = (await context.sessions.end(context.session)) ?? [];
    if (!existed) {
      return { summary: `✅ no session "${context.session}" was running; nothing to end`, structured: { session: context.session, ended: false, undone: [] } };
    }
    const failed = undone.filter((item) => item.error);
    return {
      summary:
        `✅ session "${context.session}" ended` +
        (undone.length ? `; undone: ${undone.map((item) => item.label + (item.error ? ` (failed: ${item.error})` : '')).join('; ')}` : '') +
        (failed.length ? ` — ⚠️ ${failed.length} could not be undone` : ''),
      structured: { session: context.session, ended: true, undone },
    };
  },
});

export const getSession = defineTool({
  name: 'get_session',
  capability: 'config',
  title: 'Describe a session',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description:
    'Describe a session (default: the caller\'s own): whether it was declared, how long it has been idle, when it will be reclaimed, the ' +
    'calls made in it, and what it owns (held buttons, terminals, a recording, config overrides) that ending it undoes.',
  input: z.strictObject({}),
  output: z.object({ where: z.string(), ...sessionRecord.shape }),
  async handle(_args, context) {
    const info = context.sessions.info(context.session);
    // The call itself holds its session, so it exists; a table that lost it would be a bug.
    if (!info) throw new Error(`session "${context.session}" is not in the session table`);
    const where = lifetimeNote(context);
    const item = record(info);
    return {
      summary: `✅ session "${info.session}": ${info.declared ? 'declared' : 'not declared'}, ${item.calls} calls, reclaimed after ${item.ttl_s} s idle; owns ${info.resources.length} things (${where})`,
      body: info.resources.map((resource) => `- ${resource.label}`).join('\n') || undefined,
      structured: { where, ...item },
    };
  },
});

export const listSessions = defineTool({
  name: 'list_sessions',
  capability: 'config',
  title: 'List sessions',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description:
    'List the sessions this daemon (or this MCP server process) keeps, least recently used first, with idle time, expiry and what each owns. ' +
    'The caller\'s own session is listed too (the call holds it).',
  input: z.strictObject({}),
  output: z.object({ where: z.string(), sessions: z.array(sessionRecord) }),
  async handle(_args, context) {
    const sessions = context.sessions.list().map(record);
    const lines = sessions.map(
      (item) =>
        `${item.session}${item.declared ? '' : ' (undeclared)'}: idle ${item.idle_s} s of ${item.ttl_s} s, ${item.calls} calls, owns ${item.owns.length}` +
        (item.busy ? ', busy' : ''),
    );
    const where = lifetimeNote(context);
    return { summary: `✅ ${sessions.length} sessions (${where})`, body: lines.join('\n'), structured: { where, sessions } };
  },
});

export const sessionTools = [startSession, endSession, getSession, listSessions];
