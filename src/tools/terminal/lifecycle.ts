import { z } from 'zod';
import { KEY_NAMES } from '../../tui/keys.js';
import { MAX_SESSIONS } from '../../tui/manager.js';
import { LIVEFRAME_PROTOCOL } from '../../tui/ui-node.js';
import {
  BOX_HEURISTIC, BUTTON_HEURISTIC, CHECKBOX_HEURISTIC, INPUT_HEURISTIC, KEY_HINT_HEURISTIC, LIST_HEURISTIC,
  LINK_HEURISTIC, MENU_HEURISTIC, PROGRESS_HEURISTIC, STATUS_HEURISTIC, TABLE_HEURISTIC, TEXT_HEURISTIC,
} from '../../tui/structure/index.js';
import { defineTool } from '../tool.js';
import { ToolError } from '../../errors.js';
import { defineTerminalTool, terminalName } from './define.js';
import { exitResult, sessionArgument } from './schemas.js';

export const tuiStart = defineTool({
  name: 'tui_start',
  capability: 'terminal',
  title: 'Start a terminal program',
  annotations: { readOnly: false, destructive: false, idempotent: false, openWorld: true },
  description:
    'Start a terminal program (bash, vim, htop, less, python3, dialog, ...) on a real pseudo-terminal with TERM=xterm-256color. ' +
    'Only programs on the allowlist start; arguments, env and cwd are checked (loader-injection variables are stripped, cwd must lie in an ' +
    'allowed root). Then read it with tui_snapshot / tui_wait_for and drive it with tui_press / tui_type. One program per session name.',
  input: z.strictObject({
    command: z.string().min(1).max(4096).describe('Program name (looked up on the driver\'s PATH) or absolute path, e.g. "bash".'),
    args: z.array(z.string().max(100_000)).max(256).default([]).describe('Arguments, each checked against the policy.'),
    cwd: z.string().min(1).optional().describe('Working directory (default: where the driver started); must resolve inside an allowed root.'),
    env: z.record(z.string().max(256), z.string().max(100_000)).default({}).describe('Extra environment variables; injection variables (LD_PRELOAD, NODE_OPTIONS, ...) and invalid names are dropped.'),
    cols: z.number().int().min(2).max(500).default(80).describe('Columns, default 80.'),
    rows: z.number().int().min(2).max(300).default(24).describe('Rows, default 24.'),
    session: sessionArgument,
  }),
  output: z.object({
    session: z.string(),
    pid: z.number(),
    program: z.string(),
    cwd: z.string(),
    cols: z.number(),
    rows: z.number(),
    strippedEnv: z.array(z.string()),
  }),
  async handle(args, context) {
    const name = terminalName(args.session);
    const { session, strippedEnv } = await context.terminals.start({
      session: name,
      command: args.command,
      args: args.args,
      cwd: args.cwd,
      callerDirectory: context.cwd,
      env: args.env,
      cols: args.cols,
      rows: args.rows,
    });
    const stripped = strippedEnv.length ? `; dropped env: ${strippedEnv.join(', ')}` : '';
    return {
      summary: `✅ started ${session.spec.file} in session "${name}" (pid ${session.pid}, ${args.cols}x${args.rows}, cwd ${session.spec.cwd})${stripped}`,
      structured: { session: name, pid: session.pid, program: session.spec.file, cwd: session.spec.cwd, cols: args.cols, rows: args.rows, strippedEnv },
    };
  },
});

export const tuiStop = defineTerminalTool({
  name: 'tui_stop',
  title: 'Stop a terminal program',
  annotations: { readOnly: false, destructive: true, idempotent: true, openWorld: false },
  description: 'Stop the program of a session: its whole session of processes is hung up, terminated, killed if need be, and reaped.',
  input: {},
  output: z.object({ session: z.string(), exit: exitResult.optional(), survivors: z.array(z.number()) }),
  async handle(_args, { name, session }, context) {
    const survivors = await context.terminals.stop(name);
    const exit = session.exitStatus;
    const warning = survivors.length ? `; WARNING: processes ${survivors.join(', ')} outlived SIGKILL` : '';
    return {
      summary: `✅ stopped session "${name}" (${session.spec.command}, pid ${session.pid}${exit ? `, exit code ${exit.code}${exit.signal ? ` signal ${exit.signal}` : ''}` : ''})${warning}`,
      structured: { session: name, ...(exit ? { exit: { ...exit } } : {}), survivors },
    };
  },
});

export const tuiResize = defineTerminalTool({
  name: 'tui_resize',
  title: 'Resize a terminal',
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  description: 'Resize the terminal of a session; the program receives SIGWINCH and redraws.',
  input: {
    cols: z.number().int().min(2).max(500),
    rows: z.number().int().min(2).max(300),
  },
  output: z.object({ cols: z.number(), rows: z.number() }),
  async handle(args, { name, session }) {
    if (session.exitStatus) throw new ToolError(`the program in session "${name}" has exited; nothing to resize`, 'exited');
    session.resize(args.cols, args.rows);
    return { summary: `✅ resized session "${name}" to ${args.cols}x${args.rows}`, structured: { cols: args.cols, rows: args.rows } };
  },
});

const FEATURES = [
  'capabilities', 'start', 'stop', 'sessions', 'resize', 'snapshot', 'changes_since', 'query', 'query_all', 'count', 'expect',
  'last_event', 'render_text', 'screenshot', 'press', 'press_sequence', 'type', 'focus', 'click', 'wait_for', 'liveframe_side_channel',
  'cup',
];

export const tuiCapabilities = defineTool({
  name: 'tui_capabilities',
  capability: 'terminal',
  title: 'Terminal driver capabilities',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description: 'What the terminal driver supports: protocol version, features, key names, structure heuristics, running sessions and the start policy. Safe before tui_start.',
  input: z.strictObject({}),
  output: z.object({
    protocol: z.string(),
    features: z.array(z.string()),
    keys: z.array(z.string()),
    heuristics: z.array(z.string()),
    sessions: z.array(z.object({ session: z.string(), pid: z.number(), command: z.string(), exited: z.boolean() })),
    maxSessions: z.number(),
    policy: z.object({ source: z.string(), programs: z.array(z.string()), cwdRoots: z.array(z.string()) }).optional(),
    policyError: z.string().optional(),
  }),
  async handle(_args, context) {
    let policy: { source: string; programs: string[]; cwdRoots: string[] } | undefined;
    let policyError: string | undefined;
    try {
      const current = context.terminals.currentPolicy(context.cwd);
      policy = { source: current.source, programs: [...current.programs].sort(), cwdRoots: [...current.cwdRoots] };
    } catch (error) {
      policyError = (error as Error).message;
    }
    const sessions = context.terminals.registry.addressable(context.terminals.owner).map(({ name, session }) => ({
      session: name,
      pid: session.pid,
      command: session.spec.command,
      exited: session.exitStatus !== undefined,
    }));
    const heuristics = [BOX_HEURISTIC, KEY_HINT_HEURISTIC, MENU_HEURISTIC, STATUS_HEURISTIC, BUTTON_HEURISTIC, PROGRESS_HEURISTIC, TABLE_HEURISTIC, LIST_HEURISTIC, CHECKBOX_HEURISTIC, INPUT_HEURISTIC, TEXT_HEURISTIC, LINK_HEURISTIC];
    return {
      summary: `✅ terminal driver protocol ${LIVEFRAME_PROTOCOL}; ${sessions.length} session(s) running${policyError ? `; policy problem: ${policyError}` : ''}`,
      structured: {
        protocol: LIVEFRAME_PROTOCOL,
        features: FEATURES,
        keys: KEY_NAMES,
        heuristics,
        sessions,
        maxSessions: MAX_SESSIONS,
        ...(policy ? { policy } : {}),
        ...(policyError ? { policyError } : {}),
      },
    };
  },
});
