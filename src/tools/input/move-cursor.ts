import { z } from 'zod';
import { defineTool } from '../tool.js';
import { sessionArgument } from './schemas.js';

export const moveCursor = defineTool({
  name: 'move_cursor',
  capability: 'input',
  title: 'Move the agent cursor',
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  description:
    'Move the agent cursor, an on-screen marker showing where the agent is acting, to (x, y) in screen pixels. It does NOT move the real ' +
    'mouse pointer, and clicks pass through it. visible: false hides it.',
  input: z.strictObject({
    x: z.number().describe('Screen X in pixels.'),
    y: z.number().describe('Screen Y in pixels.'),
    visible: z.boolean().optional().describe('false hides the agent cursor. Default true.'),
    cursor_id: z.string().optional().describe('Accepted for compatibility; there is one agent cursor per desktop.'),
    session: sessionArgument,
  }),
  output: z.object({ x: z.number(), y: z.number(), visible: z.boolean() }),
  async handle(args, context) {
    if (args.visible === false) {
      const state = await context.desktop.hideAgentCursor();
      return { summary: '✅ agent cursor hidden', structured: { x: state.x ?? args.x, y: state.y ?? args.y, visible: false } };
    }
    const state = await context.desktop.moveAgentCursor({ x: Math.round(args.x), y: Math.round(args.y) });
    return { summary: `✅ agent cursor at ${Math.round(args.x)},${Math.round(args.y)} (the real pointer did not move)`, structured: { x: Math.round(args.x), y: Math.round(args.y), visible: state.visible } };
  },
});
