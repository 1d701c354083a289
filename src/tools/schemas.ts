import { z } from 'zod';

/** Argument and result fragments shared by several tools, declared once so every tool reads them the same way. */

export const pidArgument = z.number().int().nonnegative().describe('Target process ID (from list_apps or list_windows).');
export const windowIdArgument = z.number().int().positive().describe('Target window ID (the X11 client window id from list_windows).');

/** What a session name may be, on every path (argument, --session, the daemon's protocol). */
export const SESSION_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$/;

/** A session name as every tool takes it (the session tools, the `session` argument, the tui_* tools' terminal name). */
export const sessionName = z.string().regex(SESSION_NAME_PATTERN, 'session names are 1-128 letters, digits and . _ : @ -, starting with a letter or digit (e.g. "agent-1")');

export const sessionArgument = sessionName
  .optional()
  .describe(
    'Run identity: snapshots (element indices), screenshot scales, zoom, config, the agent cursor and terminals are kept per session, the ' +
      'same over MCP, the CLI and the daemon. Default: the connection\'s own session (MCP) or --session (CLI).',
  );

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
  modal: z.boolean().optional().describe('A modal dialog: the window it is a dialog of (or all its app\'s) takes no input until it is answered.'),
  dialog_of: z.number().optional().describe('The window this one is a dialog of (its owner, WM_TRANSIENT_FOR).'),
  splash: z.boolean().optional().describe('A splash screen (_NET_WM_WINDOW_TYPE_SPLASH): the app is starting; its window comes after.'),
  always_on_top: z.boolean().optional().describe('Kept above other windows (_NET_WM_STATE_ABOVE): it stays over a window brought to the front, and takes real clicks where it lies over it.'),
  shaded: z.boolean().optional().describe('Rolled up into its title bar (_NET_WM_STATE_SHADED): nothing of it shows; bring_to_front or foreground input unrolls it.'),
  maximized: z.boolean().optional().describe('Maximized both ways (_NET_WM_STATE_MAXIMIZED_VERT and _HORZ): it fills the work area.'),
  fullscreen: z.boolean().optional().describe('Full screen (_NET_WM_STATE_FULLSCREEN): no frame, over every panel.'),
  notification: z.boolean().optional().describe('A notification bubble (_NET_WM_WINDOW_TYPE_NOTIFICATION): over every window, unmanaged; read it and click its buttons like any window\'s.'),
});

export type WindowResult = z.infer<typeof windowResult>;
