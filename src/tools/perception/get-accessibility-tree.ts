import { z } from 'zod';
import { buildEnvelope, toOverview } from '../../cup/index.js';
import { defineTool } from '../tool.js';
import { windowResult } from '../schemas.js';
import { windowRecord } from './window-records.js';

export const getAccessibilityTree = defineTool({
  name: 'get_accessibility_tree',
  capability: 'perception',
  title: 'Read the accessibility tree',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description:
    'A light snapshot of the whole desktop: running apps and the on-screen windows with bounds, z-order and owner pid, ' +
    'frontmost first, as the CUP overview text. Use get_window_state for one window\'s controls.',
  input: z.strictObject({}),
  output: z.object({
    apps: z.array(z.object({ pid: z.number(), name: z.string(), active: z.boolean() })),
    windows: z.array(windowResult),
  }),
  async handle(_args, context) {
    const [windows, screen] = await Promise.all([context.desktop.windows(), context.desktop.screen()]);
    const visible = windows.filter((window) => window.isOnScreen).sort((a, b) => b.zIndex - a.zIndex);
    const apps = context.desktop.applications(windows).running;
    const envelope = buildEnvelope({
      platform: context.desktop.platform,
      screen: { w: screen.width, h: screen.height, scale: screen.scale },
      scope: 'overview',
      tree: [],
      windows: visible.map((window) => ({
        title: window.title,
        pid: window.pid || null,
        foreground: window.active,
        bounds: { x: window.bounds.x, y: window.bounds.y, w: window.bounds.width, h: window.bounds.height },
      })),
    });
    return {
      summary: `✅ ${apps.length} running app${apps.length === 1 ? '' : 's'}, ${visible.length} on-screen window${visible.length === 1 ? '' : 's'}`,
      body: toOverview(envelope),
      structured: {
        apps: apps.map((app) => ({ pid: app.pid, name: app.name, active: app.active })),
        windows: visible.map(windowRecord),
      },
    };
  },
});
