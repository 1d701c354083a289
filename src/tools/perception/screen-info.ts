import { z } from 'zod';
import { defineTool } from '../tool.js';

export const getScreenSize = defineTool({
  name: 'get_screen_size',
  capability: 'perception',
  title: 'Screen size',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description: 'Return the logical size of the screen in pixels and its scale factor (1.0 unless the desktop sets Xft.dpi or GDK_SCALE).',
  input: z.strictObject({}),
  output: z.object({ width: z.number(), height: z.number(), scale_factor: z.number() }),
  async handle(_args, context) {
    const screen = await context.desktop.screen();
    return {
      summary: `✅ screen ${screen.width}x${screen.height}, scale ${screen.scale}`,
      structured: { width: screen.width, height: screen.height, scale_factor: screen.scale },
    };
  },
});

export const getCursorPosition = defineTool({
  name: 'get_cursor_position',
  capability: 'perception',
  title: 'Pointer position',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description: 'Return the current mouse pointer position in screen pixels (origin top-left).',
  input: z.strictObject({}),
  output: z.object({ x: z.number(), y: z.number() }),
  async handle(_args, context) {
    const position = await context.desktop.cursorPosition();
    return { summary: `✅ cursor at ${position.x},${position.y}`, structured: position };
  },
});
