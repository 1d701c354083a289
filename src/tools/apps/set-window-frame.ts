import { z } from 'zod';
import { pidArgument, windowIdArgument } from '../schemas.js';
import { resolveWindow } from '../perception/window-records.js';
import { defineTool } from '../tool.js';

const rect = z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() });

export const setWindowFrame = defineTool({
  name: 'set_window_frame',
  capability: 'apps',
  title: 'Move and resize a window',
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  description:
    'Move and resize a top-level window: x, y, width, height are its client area in screen pixels, the same box list_windows reports as ' +
    'bounds (the window manager\'s title bar and border lie outside it). The request goes through the window manager (EWMH ' +
    '_NET_MOVERESIZE_WINDOW; a maximized or fullscreen window is restored first) and the frame is read back once it settles: `frame` is ' +
    'where the window really is, and `matched` says whether that is what was asked (a window manager may keep a window on screen, or an ' +
    'app may keep a minimum size or size steps). Unlike macOS, nothing is refused for lacking a permission; the window is not raised.',
  input: z.strictObject({
    window_id: windowIdArgument,
    pid: pidArgument.optional(),
    x: z.number().int().min(-32_768).max(32_767).describe('Left edge of the client area, screen pixels.'),
    y: z.number().int().min(-32_768).max(32_767).describe('Top edge of the client area, screen pixels.'),
    width: z.number().int().min(1).max(32_767).describe('Client area width in pixels.'),
    height: z.number().int().min(1).max(32_767).describe('Client area height in pixels.'),
  }),
  output: z.object({
    window_id: z.number(),
    requested: rect,
    frame: rect,
    matched: z.boolean(),
    by: z.enum(['window_manager', 'x_server']),
    unmaximized: z.array(z.string()),
  }),
  async handle(args, context) {
    const window = await resolveWindow(context, args.window_id, args.pid);
    const wanted = { x: args.x, y: args.y, width: args.width, height: args.height };
    const outcome = await context.desktop.setWindowFrame(window, wanted);
    const got = outcome.frame;
    const matched = got.x === wanted.x && got.y === wanted.y && got.width === wanted.width && got.height === wanted.height;
    const box = (r: typeof wanted) => `${r.x},${r.y} ${r.width}x${r.height}`;
    return {
      summary: matched
        ? `✅ window ${window.id} is at ${box(got)}`
        : `✅ window ${window.id} asked for ${box(wanted)}, got ${box(got)} (the ${outcome.by === 'window_manager' ? 'window manager or the app' : 'X server'} chose otherwise)`,
      structured: {
        window_id: window.id,
        requested: { x: wanted.x, y: wanted.y, w: wanted.width, h: wanted.height },
        frame: { x: got.x, y: got.y, w: got.width, h: got.height },
        matched,
        by: outcome.by,
        unmaximized: outcome.unmaximized,
      },
    };
  },
});
