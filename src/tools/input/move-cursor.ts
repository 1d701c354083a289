import { z } from 'zod';
import { ToolError } from '../../errors.js';
import { cursorIdOf, existingCursorSettings, glideCursor } from '../cursor/agent-cursors.js';
import { defineTool } from '../tool.js';

export const moveCursor = defineTool({
  name: 'move_cursor',
  capability: 'input',
  title: 'Move the agent cursor',
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  description:
    'Move the agent cursor, an on-screen marker showing where the agent is acting, to (x, y) in screen pixels. It does NOT move the real ' +
    'mouse pointer, and clicks pass through it. visible: false hides it. Each session has its own cursor (cursor_id, when given, names ' +
      'another; the CLI\'s anonymous calls use "default"), so agents acting at once on one desktop each show theirs. A shown cursor flies there along ' +
      'its motion curve (set_agent_cursor_motion); one turned off with set_agent_cursor_enabled stays hidden.',
  input: z.strictObject({
    x: z.number().describe('Screen X in pixels.'),
    y: z.number().describe('Screen Y in pixels.'),
    visible: z.boolean().optional().describe('false hides the agent cursor. Default true.'),
    cursor_id: z.string().min(1).max(128).optional().describe('Which cursor; default: the session\'s own.'),
  }),
  output: z.object({ cursor_id: z.string(), x: z.number(), y: z.number(), visible: z.boolean() }),
  async handle(args, context) {
    // Precedence: an explicit cursor_id, then the session (seed 001's run identity), then "default".
    const id = cursorIdOf(context, args.cursor_id);
    if (args.visible === false) {
      const state = await context.desktop.hideAgentCursor(id);
      return { summary: `✅ agent cursor "${id}" hidden`, structured: { cursor_id: id, x: state.x ?? args.x, y: state.y ?? args.y, visible: false } };
    }
    const to = { x: Math.round(args.x), y: Math.round(args.y) };
    const screen = await context.desktop.screen();
    if (!(to.x >= 0 && to.y >= 0 && to.x < screen.width && to.y < screen.height)) {
      throw new ToolError(`x, y: (${args.x}, ${args.y}) is off the screen, which spans 0..${screen.width - 1} x 0..${screen.height - 1}`, 'invalid_arguments');
    }
    if (existingCursorSettings(context.desktop, id)?.enabled === false) {
      return { summary: `✅ agent cursor "${id}" is turned off (set_agent_cursor_enabled); not shown`, structured: { cursor_id: id, ...to, visible: false } };
    }
    await glideCursor(context.desktop, id, to, context.signal);
    const state = await context.desktop.agentCursor(id);
    return {
      summary: `✅ agent cursor "${id}" at ${to.x},${to.y} (the real pointer did not move)`,
      structured: { cursor_id: id, ...to, visible: state.visible },
    };
  },
});
