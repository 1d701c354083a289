import { z } from 'zod';
import { toCompact } from '../../cup/index.js';
import { EVENT_KINDS } from '../../tui/events.js';
import { screenLines } from '../../tui/grid.js';
import type { TerminalSession } from '../../tui/session.js';
import { terminalEnvelope } from '../../tui/to-cup.js';
import { flattenNodes } from '../../tui/ui-node.js';
import { toVisualFrame } from '../../tui/visual-frame.js';
import { defineTerminalTool } from './define.js';

import { exitResult, liveFrameResult, visualFrameResult } from './schemas.js';

function describeSession(name: string, session: TerminalSession): string {
  const exit = session.exitStatus;
  return `session "${name}" (${session.spec.command}, pid ${session.pid}${exit ? `, exited with code ${exit.code}` : ''})`;
}

export const tuiSnapshot = defineTerminalTool({
  name: 'tui_snapshot',
  title: 'Read a terminal screen',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description:
    'Read a terminal: the LiveFrame (seq, focus, UI nodes with roles, names, states and bounds in cells; from the program itself when it ' +
    'speaks the LiveFrame protocol, else built from the screen: dialogs, buttons, lists with the selected row, inputs, checkboxes, progress ' +
    'bars, text) and the visual frame (lines, cursor, colour spans). The text is the tree in CUP compact form by default.',
  input: {
    format: z.enum(['cup', 'text', 'json', 'none']).default('cup').describe('Body text: cup (CUP compact tree, default), text (screen lines), json (the LiveFrame), none.'),
    visual: z.boolean().default(true).describe('Include the visual frame (lines, cursor, colour spans) in the structured result.'),
    cup: z.boolean().default(false).describe('Include the full CUP envelope (platform linux, bounds in cells) in the structured result.'),
  },
  output: z.object({
    session: z.string(),
    seq: z.number(),
    title: z.string(),
    alternateScreen: z.boolean(),
    exited: exitResult.optional(),
    frame: liveFrameResult,
    visual: visualFrameResult.optional(),
    cup: z.record(z.string(), z.unknown()).optional(),
  }),
  async handle(args, { name, session }) {
    const state = await session.settledState();
    const envelope = args.format === 'cup' || args.cup ? terminalEnvelope({ nodes: state.frame.nodes, cols: state.grid.cols, rows: state.grid.rows, command: session.spec.command, pid: session.pid }) : undefined;
    const body =
      args.format === 'cup' ? toCompact(envelope!, { windowList: [] })
      : args.format === 'text' ? screenLines(state.grid).join('\n').trimEnd()
      : args.format === 'json' ? JSON.stringify(state.frame, null, 1)
      : undefined;
    const nodeCount = flattenNodes(state.frame.nodes).length;
    return {
      summary: `✅ ${describeSession(name, session)} seq ${state.seq}: ${state.grid.cols}x${state.grid.rows}, ${nodeCount} nodes from the ${state.frame.source}, focus ${state.frame.focus ?? 'none'}`,
      body,
      structured: {
        session: name,
        seq: state.seq,
        title: state.title,
        alternateScreen: state.alternateScreen,
        ...(session.exitStatus ? { exited: { ...session.exitStatus } } : {}),
        frame: state.frame,
        ...(args.visual ? { visual: toVisualFrame(state.grid) } : {}),
        ...(args.cup && envelope ? { cup: envelope as unknown as Record<string, unknown> } : {}),
      },
    };
  },
});

export const tuiChangesSince = defineTerminalTool({
  name: 'tui_changes_since',
  title: 'Terminal changes since',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description: 'The current LiveFrame only if its seq is greater than the given one (else changed=false): cheap polling without re-reading unchanged screens.',
  input: { seq: z.number().int().min(0).describe('The seq of the frame you already have.') },
  output: z.object({ changed: z.boolean(), seq: z.number(), frame: liveFrameResult.optional() }),
  async handle(args, { session }) {
    const state = await session.settledState();
    if (state.seq <= args.seq) return { summary: `✅ no change since seq ${args.seq}`, structured: { changed: false, seq: state.seq } };
    return { summary: `✅ changed: seq ${state.seq} (was ${args.seq})`, structured: { changed: true, seq: state.seq, frame: state.frame } };
  },
});

export const tuiRenderText = defineTerminalTool({
  name: 'tui_render_text',
  title: 'Terminal screen as text',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description: 'The screen as plain text, one line per row (and optionally lines of scrollback above it): for reading output and for logs.',
  input: {
    scrollback: z.number().int().min(0).max(5000).default(0).describe('Also return up to this many lines of history above the screen.'),
  },
  output: z.object({
    seq: z.number(),
    lines: z.array(z.string()),
    scrollback: z.array(z.string()),
    cursor: z.object({ x: z.number(), y: z.number(), visible: z.boolean() }),
  }),
  async handle(args, { name, session }) {
    const state = await session.settledState();
    const lines = screenLines(state.grid);
    const history = args.scrollback > 0 && !state.alternateScreen ? session.scrollback(args.scrollback) : [];
    const text = [...history, ...(history.length ? ['─── screen ───'] : []), ...lines].join('\n').trimEnd();
    const { cursor } = state.grid;
    return {
      summary: `✅ ${describeSession(name, session)} seq ${state.seq}, cursor at column ${cursor.x} row ${cursor.y}${cursor.visible ? '' : ' (hidden)'}${history.length ? `, ${history.length} scrollback lines` : ''}`,
      body: text,
      structured: { seq: state.seq, lines, scrollback: history, cursor: { ...cursor } },
    };
  },
});

const eventResult = z.object({ n: z.number(), kind: z.enum(EVENT_KINDS), at: z.number(), data: z.record(z.string(), z.unknown()) });

export const tuiLastEvent = defineTerminalTool({
  name: 'tui_last_event',
  title: 'Last terminal event',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description: `The most recent event of a session (or of one kind) from its ring buffer of 1000: ${EVENT_KINDS.join(', ')}.`,
  input: { kind: z.enum(EVENT_KINDS).optional().describe('Only events of this kind.') },
  output: z.object({ event: eventResult.nullable(), buffered: z.number() }),
  async handle(args, { session }) {
    await session.settled();
    const event = session.events.last(args.kind) ?? null;
    return {
      summary: event ? `✅ event #${event.n}: ${event.kind} ${JSON.stringify(event.data).slice(0, 200)}` : `✅ no ${args.kind ?? ''} event yet`.replace('  ', ' '),
      structured: { event, buffered: session.events.size },
    };
  },
});
