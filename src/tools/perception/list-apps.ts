import { z } from 'zod';
import { defineTool } from '../tool.js';

const appRecord = z.object({
  pid: z.number(),
  name: z.string(),
  running: z.boolean(),
  active: z.boolean(),
  launch_path: z.string().nullable(),
  kind: z.literal('desktop'),
  last_used: z.string().nullable(),
});

export const listApps = defineTool({
  name: 'list_apps',
  capability: 'perception',
  title: 'List apps',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description:
    'List applications: running ones (those with a top-level window: pid, name, active) and installed ones from ' +
    'the XDG .desktop files (pid 0, running false). launch_path is the .desktop file; last_used its modification time.',
  input: z.strictObject({}),
  output: z.object({ apps: z.array(appRecord) }),
  async handle(_args, context) {
    const { installed: entries, running } = context.desktop.applications(await context.desktop.windows());
    const runningEntries = new Set(running.map((app) => app.entry?.id).filter(Boolean));
    const apps: z.infer<typeof appRecord>[] = [
      ...running.map((app) => ({
        pid: app.pid,
        name: app.name,
        running: true,
        active: app.active,
        launch_path: app.entry?.path ?? null,
        kind: 'desktop' as const,
        last_used: app.entry?.lastModified.toISOString() ?? null,
      })),
      ...entries
        .filter((entry) => !runningEntries.has(entry.id))
        .map((entry) => ({
          pid: 0,
          name: entry.name,
          running: false,
          active: false,
          launch_path: entry.path,
          kind: 'desktop' as const,
          last_used: entry.lastModified.toISOString(),
        })),
    ];
    const lines = apps.map((app) =>
      app.running ? `${app.pid} ${app.name}${app.active ? ' (active)' : ''}` : `- ${app.name} (${app.launch_path})`,
    );
    return {
      summary: `✅ ${running.length} running, ${apps.length - running.length} installed but not running`,
      body: lines.join('\n'),
      structured: { apps },
    };
  },
});
