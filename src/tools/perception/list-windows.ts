import { z } from 'zod';
import { defineTool } from '../tool.js';
import { pidArgument, windowResult } from '../schemas.js';
import type { DesktopWindow } from '../../platform/windows.js';
import { formatWindowLine, windowRecord } from './window-records.js';

export const listWindows = defineTool({
  name: 'list_windows',
  capability: 'perception',
  title: 'List windows',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description:
    'List the top-level windows the window manager knows, including minimized and off-screen ones: window_id, pid, ' +
    'app_name, title, bounds (top-left origin, screen pixels), z_index (higher = in front), is_on_screen, on_current_space, minimized, ' +
    'and when so: dialog_of, modal, always_on_top (it stays over a window brought to the front), shaded (rolled up into its title bar); ' +
    'a window with no title gives the name its accessible top-level object has as accessible_name (title stays "").',
  input: z.strictObject({
    on_screen_only: z.boolean().optional().describe('When true, keep only the windows shown on the screen now (is_on_screen: mapped, not minimized or shaded, on the current workspace, inside the screen). Default false.'),
    pid: pidArgument.optional().describe('Only windows of this process.'),
  }),
  output: z.object({
    windows: z.array(windowResult.extend({ accessible_name: z.string().optional().describe('Of a window with no title (title ""): the name its accessible top-level object has, as a dialog names its kind ("Warning").') })),
  }),
  async handle(args, context) {
    let windows = await context.desktop.windows();
    if (args.pid !== undefined) windows = windows.filter((window) => window.pid === args.pid);
    if (args.on_screen_only) windows = windows.filter((window) => window.isOnScreen);
    windows.sort((a, b) => b.zIndex - a.zIndex);
    // A window with no title carries its accessible name from the listing (DesktopWindow.accessibleName), as every result names it.
    const line = (window: DesktopWindow) => `${formatWindowLine(window)}${window.accessibleName ? ` accessible name ${JSON.stringify(window.accessibleName)}` : ''}`;
    return {
      summary: `✅ ${windows.length} window${windows.length === 1 ? '' : 's'}`,
      body: windows.map(line).join('\n'),
      structured: { windows: windows.map((window) => ({ ...windowRecord(window), ...(window.accessibleName ? { accessible_name: window.accessibleName } : {}) })) },
    };
  },
});
