import { z } from 'zod';
import { configRanges, type DriverConfig } from '../state/config-store.js';
import { defineTool } from '../tool.js';

const configResult = z.object({ max_image_dimension: z.number(), clipboard_keep_s: z.number(), held_button_max_s: z.number(), diff_settle_ms: z.number() });

function line(config: DriverConfig): string {
  return Object.entries(config)
    .map(([key, value]) => `${key}=${value}`)
    .join(' ');
}

const setting = (key: keyof DriverConfig, text: string) => z.number().int().min(configRanges[key].min).max(configRanges[key].max).optional().describe(text);

export const getConfig = defineTool({
  name: 'get_config',
  capability: 'config',
  title: 'Read configuration',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description:
    'Return the current configuration of this session: max_image_dimension (longest screenshot side in pixels, 0 = no limit), ' +
    'clipboard_keep_s (how long clipboard_write text stays pasteable after the driver exits), held_button_max_s (when a mouse_button_down ' +
    'releases by itself), diff_settle_ms (how long an app must be quiet after an action before its diff is read).',
  input: z.strictObject({}),
  output: configResult,
  async handle(_args, context) {
    const config = context.state.config.get();
    return { summary: `✅ ${line(config)}`, structured: config };
  },
});

export const setConfig = defineTool({
  name: 'set_config',
  capability: 'config',
  title: 'Change configuration',
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  description:
    'Change the configuration. In a named session (MCP connection, --session, the session argument) the change is an override kept in ' +
    'that session and dropped when it ends; only the CLI\'s anonymous session writes the persisted default ' +
    '(~/.config/cup-driver/config.json) that every new session starts from.',
  input: z.strictObject({
    max_image_dimension: setting(
      'max_image_dimension',
      'Screenshots are downscaled so their longest side is at most this many pixels (default 1568, 0 = no limit); pixel coordinates taken from a downscaled screenshot still map back to the window.',
    ),
    clipboard_keep_s: setting(
      'clipboard_keep_s',
      'Seconds text written with clipboard_write stays pasteable after the driver\'s process exits (a small keeper process holds it until another app takes the clipboard or this runs out). Default 1800; 0 = only while the driver runs.',
    ),
    held_button_max_s: setting('held_button_max_s', 'Seconds after which a button held by mouse_button_down is released by itself. Default 60.'),
    diff_settle_ms: setting(
      'diff_settle_ms',
      'Milliseconds an app must send no accessibility event after an action before the action\'s diff is read, at most 1.5 s in all, so a change it makes a moment later (a search field re-filtering about 150 ms after the last key) lands in the diff. Default 0: the diff is read right after the action\'s own confirmation, and late changes show in the next reading; 250 catches a typical search field\'s re-filter at a quarter second an action.',
    ),
  }),
  output: configResult,
  async handle(args, context) {
    const update = Object.fromEntries(Object.entries(args).filter(([key, value]) => key in configRanges && value !== undefined)) as Partial<DriverConfig>;
    const store = context.state.config;
    const config = store.set(update);
    // A named session's overrides are its own: ending it drops them.
    if (!store.persists && Object.keys(update).length > 0) {
      context.state.resources.hold('config', `its config overrides (${line(config)}), dropped`, () => store.reset());
    }
    return { summary: `✅ ${line(config)}${store.persists ? ' (saved as the default)' : ` (for session "${context.session}")`}`, structured: config };
  },
});
