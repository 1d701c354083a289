import { z } from 'zod';

/** Argument and result fragments shared by several tools, declared once so every tool reads them the same way. */

export const pidArgument = z.number().int().nonnegative().describe('Target process ID (from list_apps or list_windows).');
export const windowIdArgument = z.number().int().positive().describe('Target window ID (the X11 client window id from list_windows).');

/** Every box in a result (windows, elements, zoom regions, terminal nodes) has CUP's rect shape: left, top, width, height. */
export const boundsResult = z.object({ x: z.number(), y: z.number(), w: z.number(), h: z.number() });

export const windowResult = z.object({
  window_id: z.number(),
  pid: z.number(),
  app_name: z.string(),
  title: z.string(),
  bounds: boundsResult,
  z_index: z.number(),
  is_on_screen: z.boolean(),
  on_current_space: z.boolean(),
  minimized: z.boolean(),
  active: z.boolean(),
});

export type WindowResult = z.infer<typeof windowResult>;
