import { existsSync, statSync } from 'node:fs';
import { z } from 'zod';
import { CURSOR_ICONS, resolveColour } from '../../image/overlays.js';
import { ToolError } from '../../errors.js';
import type { ToolContext } from '../context.js';
import { resolveUserPath } from '../files.js';
import { defineTool } from '../tool.js';
import {
  applyAppearance,
  cursorIdOf,
  cursorSettings,
  DEFAULT_APPEARANCE,
  existingCursorSettings,
  glideCursor,
  type AgentCursorSettings,
  type CursorAppearance,
} from './agent-cursors.js';
import { DEFAULT_MOTION, type MotionSettings } from './motion.js';

const cursorIdArgument = z.string().min(1).max(128).optional().describe('Which cursor. Default: the session\'s own ("default" for the CLI\'s anonymous calls).');

const appearanceResult = z.object({
  icon: z.string(),
  color: z.string(),
  size: z.number(),
  opacity: z.number(),
  label: z.string().optional(),
  gradient: z.array(z.string()).optional(),
  bloom: z.string().optional(),
});
const motionResult = z.object({
  start_handle: z.number(),
  end_handle: z.number(),
  arc_size: z.number(),
  arc_flow: z.number(),
  spring: z.number(),
  turn_radius: z.number(),
  glide_duration_ms: z.number().optional(),
  dwell_after_click_ms: z.number(),
  idle_hide_ms: z.number(),
});
const cursorStateResult = z.object({
  cursor_id: z.string(),
  /** Whether actions fly the cursor to their point (set_agent_cursor_enabled). */
  enabled: z.boolean(),
  /** Whether it is on the screen now. */
  visible: z.boolean(),
  x: z.number(),
  y: z.number(),
  appearance: appearanceResult,
  motion: motionResult,
});

async function stateOf(context: ToolContext, id: string, settings: AgentCursorSettings | undefined): Promise<z.infer<typeof cursorStateResult>> {
  const placed = await context.desktop.agentCursor(id);
  const shown = settings ?? { appearance: DEFAULT_APPEARANCE, motion: DEFAULT_MOTION };
  return { cursor_id: id, enabled: settings?.enabled === true, visible: placed.visible, x: placed.x, y: placed.y, appearance: { ...shown.appearance }, motion: { ...shown.motion } };
}

function stateLine(state: z.infer<typeof cursorStateResult>): string {
  const look = state.appearance;
  return (
    `agent cursor "${state.cursor_id}": ${state.enabled ? 'enabled' : 'not enabled'}, ${state.visible ? `shown at ${state.x},${state.y}` : 'hidden'}; ` +
    `${look.icon} ${look.gradient ? `gradient ${look.gradient.join('→')}` : look.color} size ${look.size}${look.bloom ? ` bloom ${look.bloom}` : ''}` +
    `${look.label ? ` label "${look.label}"` : ''}${look.opacity < 1 ? ` opacity ${look.opacity}` : ''}`
  );
}

/** A colour argument as "#rrggbb", or invalid_arguments naming the field. */
async function colourArgument(field: string, colour: string): Promise<string> {
  return resolveColour(colour).catch((error: Error) => {
    throw new ToolError(`${field}: ${error.message}`, 'invalid_arguments');
  });
}

/**
 * An icon file as the image decoder may read it: a regular file of bounded size (a FIFO would keep it waiting
 * for ever, a device would be read without end); invalid_arguments naming the field otherwise.
 */
function iconFile(field: string, path: string): string {
  const stat = statSync(path);
  if (!stat.isFile() || stat.size > MAX_ICON_BYTES) {
    throw new ToolError(`${field}: ${path} is ${stat.isFile() ? `${stat.size} bytes; the limit is ${MAX_ICON_BYTES}` : 'not a regular file'}; give a PNG, JPEG or SVG file`, 'invalid_arguments');
  }
  return path;
}

/**
 * Draws the cursor with the new look, then keeps it (a look that cannot be drawn leaves the old one). `namedFile`:
 * the field and icon file the call named, which the error then names.
 */
async function drawWithLook(context: ToolContext, id: string, settings: AgentCursorSettings, appearance: CursorAppearance, namedFile?: string): Promise<void> {
  await applyAppearance(context.desktop, id, appearance).catch((error: Error) => {
    throw new ToolError(`${namedFile ? `${namedFile}: ` : ''}the cursor could not be drawn with that look: ${error.message}`, 'invalid_arguments');
  });
  settings.appearance = appearance;
}

/** An icon is a small picture; a larger file is not one (and would be decoded on every draw). */
const MAX_ICON_BYTES = 4 << 20;

export const setAgentCursorEnabled = defineTool({
  name: 'set_agent_cursor_enabled',
  capability: 'input',
  title: 'Turn the agent cursor on or off',
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  description:
    'Show (enabled: true) or hide the agent cursor: an on-screen marker of where the agent acts, which clicks pass through and which never ' +
    'moves the real pointer. While enabled, every action flies it along its motion curve (set_agent_cursor_motion) to the action\'s point ' +
    'before acting. It stays drawn between calls for as long as the process that draws it runs (the daemon, for CLI calls). On Linux it ' +
    'is off until enabled, since it takes time on every action. Cursor precedence: cursor_id, else the session\'s, else "default".',
  input: z.strictObject({ enabled: z.boolean().describe('true shows it and makes actions fly it; false hides it.'), cursor_id: cursorIdArgument }),
  output: cursorStateResult,
  async handle(args, context) {
    const id = cursorIdOf(context, args.cursor_id);
    const settings = cursorSettings(context.desktop, id);
    settings.enabled = args.enabled;
    if (args.enabled) {
      await applyAppearance(context.desktop, id, settings.appearance);
      const placed = await context.desktop.agentCursor(id);
      // A cursor that never showed starts in the middle of the screen; the first action flies it from there.
      const screen = await context.desktop.screen();
      const at = placed.x === 0 && placed.y === 0 ? { x: Math.round(screen.width / 2), y: Math.round(screen.height / 2) } : placed;
      await glideCursor(context.desktop, id, at, context.signal);
    } else {
      clearTimeout(settings.idleTimer);
      await context.desktop.hideAgentCursor(id);
    }
    const state = await stateOf(context, id, settings);
    return { summary: `✅ ${stateLine(state)}`, structured: state };
  },
});

export const setAgentCursorMotion = defineTool({
  name: 'set_agent_cursor_motion',
  capability: 'input',
  title: 'Style the agent cursor and its motion',
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  description:
    'Set how an agent cursor looks (cursor_icon, cursor_color, cursor_size, cursor_label, cursor_opacity) and how it flies between points ' +
    '(a Bézier curve: start_handle, end_handle, arc_size, arc_flow; spring overshoot; turn_radius rounding a change of direction; ' +
    'glide_duration_ms, else by distance; dwell_after_click_ms; idle_hide_ms). Only the arguments given change. On X11 opacity is set as ' +
    '_NET_WM_WINDOW_OPACITY, which only a compositing manager blends; without one the cursor is drawn opaque.',
  input: z.strictObject({
    cursor_id: cursorIdArgument,
    cursor_icon: z.string().min(1).optional().describe(`Built-in (${CURSOR_ICONS.join(', ')}) or the path of a PNG or SVG file (its top-left corner is the point).`),
    cursor_color: z.string().min(1).optional().describe('Hex colour ("#00FFFF", "#0ff") or a CSS colour name. Default #ff2a7a.'),
    cursor_label: z.string().max(40).optional().describe('Short text shown beside the cursor; "" removes it.'),
    cursor_size: z.number().min(6).max(128).optional().describe('Icon size in pixels. Default 16 (the arrow is 18 pixels tall).'),
    cursor_opacity: z.number().min(0).max(1).optional().describe('0.0-1.0. Default 1 (see the description for X11).'),
    start_handle: z.number().min(0).max(1).optional().describe('Departure control point, as a fraction of the path. Default 0.3.'),
    end_handle: z.number().min(0).max(1).optional().describe('Arrival control point, as a fraction of the path. Default 0.3.'),
    arc_size: z.number().min(0).max(1).optional().describe('Sideways bend as a fraction of the path length. Default 0.25.'),
    arc_flow: z.number().min(-1).max(1).optional().describe('Where the bend bulges: towards the start (-1) or the destination (+1). Default 0.'),
    spring: z.number().min(0.3).max(1).optional().describe('Settle damping; 1 = no overshoot. Default 0.72.'),
    turn_radius: z.number().min(1).max(1000).optional().describe('How far (pixels) a flight keeps the previous heading before turning. Default 80.'),
    glide_duration_ms: z.number().min(50).max(5000).optional().describe('Flight time per move. Default: by distance (2 pixels a millisecond, 120-600 ms).'),
    dwell_after_click_ms: z.number().min(0).max(5000).optional().describe('Pause after a click-family action. Default 80.'),
    idle_hide_ms: z.number().min(0).max(60_000).optional().describe('Hide after this long without moving; 0 = never. Default 20000.'),
  }),
  output: cursorStateResult,
  async handle(args, context) {
    const id = cursorIdOf(context, args.cursor_id);
    const settings = cursorSettings(context.desktop, id);
    const appearance: CursorAppearance = { ...settings.appearance };
    if (args.cursor_color !== undefined) appearance.color = await colourArgument('cursor_color', args.cursor_color);
    if (args.cursor_icon !== undefined) {
      if ((CURSOR_ICONS as readonly string[]).includes(args.cursor_icon)) appearance.icon = args.cursor_icon;
      else {
        const path = resolveUserPath(args.cursor_icon, context.cwd);
        if (!existsSync(path)) throw new ToolError(`cursor_icon: "${args.cursor_icon}" is neither a built-in icon (${CURSOR_ICONS.join(', ')}) nor an existing file`, 'invalid_arguments');
        appearance.icon = iconFile('cursor_icon', path);
      }
    }
    if (args.cursor_size !== undefined) appearance.size = args.cursor_size;
    if (args.cursor_opacity !== undefined) appearance.opacity = args.cursor_opacity;
    if (args.cursor_label !== undefined) appearance.label = args.cursor_label || undefined;
    await drawWithLook(context, id, settings, appearance, args.cursor_icon !== undefined && appearance.icon === resolveUserPath(args.cursor_icon, context.cwd) ? `cursor_icon: ${appearance.icon}` : undefined);
    const motionKeys = [...Object.keys(DEFAULT_MOTION), 'glide_duration_ms'] as (keyof MotionSettings)[];
    const given = motionKeys.filter((key) => args[key] !== undefined).map((key) => [key, args[key]]);
    settings.motion = { ...settings.motion, ...Object.fromEntries(given) };
    const state = await stateOf(context, id, settings);
    return { summary: `✅ ${stateLine(state)}`, structured: state };
  },
});

export const getAgentCursorState = defineTool({
  name: 'get_agent_cursor_state',
  capability: 'input',
  title: 'Read the agent cursor',
  annotations: { readOnly: true, destructive: false, idempotent: true, openWorld: false },
  description: 'Where an agent cursor points, whether it shows and whether actions fly it, and its look and motion settings. Cursor precedence: cursor_id, else the session\'s, else "default".',
  input: z.strictObject({ cursor_id: cursorIdArgument }),
  output: cursorStateResult,
  async handle(args, context) {
    const id = cursorIdOf(context, args.cursor_id);
    const state = await stateOf(context, id, existingCursorSettings(context.desktop, id));
    return { summary: `✅ ${stateLine(state)}`, structured: state };
  },
});

export const setAgentCursorStyle = defineTool({
  name: 'set_agent_cursor_style',
  capability: 'input',
  title: 'Restyle the agent cursor',
  annotations: { readOnly: false, destructive: false, idempotent: true, openWorld: false },
  description:
    'Change how an agent cursor is painted: gradient_colors (stops from the tip to the tail, in place of its one colour; [] goes back to ' +
    'the one colour), bloom_color (a soft halo around it; "" removes it), image_path (a PNG, JPEG or SVG file drawn instead of the built-in ' +
    'icon, its top-left corner the point; "" goes back to the arrow). Only the arguments given change; set_agent_cursor_motion sets the ' +
    'rest of the look. On X11 the overlay is a shaped window: without a compositing manager the halo shows as a solid ring where it is ' +
    'at least half opaque, not as a fading glow.',
  input: z.strictObject({
    cursor_id: cursorIdArgument,
    gradient_colors: z.array(z.string().min(1)).max(8).optional().describe('Hex or CSS colours from the tip to the tail; [] reverts to the single cursor_color.'),
    bloom_color: z.string().optional().describe('Halo colour, hex or a CSS name; "" removes the halo.'),
    image_path: z.string().optional().describe('A PNG, JPEG or SVG file to draw as the cursor; "" reverts to the built-in arrow.'),
  }),
  output: cursorStateResult,
  async handle(args, context) {
    const id = cursorIdOf(context, args.cursor_id);
    const settings = cursorSettings(context.desktop, id);
    const appearance: CursorAppearance = { ...settings.appearance };
    if (args.gradient_colors !== undefined) {
      const stops = await Promise.all(args.gradient_colors.map((colour, i) => colourArgument(`gradient_colors[${i}]`, colour)));
      appearance.gradient = stops.length > 0 ? stops : undefined;
    }
    if (args.bloom_color !== undefined) appearance.bloom = args.bloom_color === '' ? undefined : await colourArgument('bloom_color', args.bloom_color);
    if (args.image_path !== undefined) {
      if (args.image_path === '') appearance.icon = DEFAULT_APPEARANCE.icon;
      else {
        const path = resolveUserPath(args.image_path, context.cwd);
        if (!existsSync(path)) throw new ToolError(`image_path: no file at ${path}; give a PNG, JPEG or SVG file, or "" for the arrow`, 'invalid_arguments');
        appearance.icon = iconFile('image_path', path);
      }
    }
    await drawWithLook(context, id, settings, appearance, args.image_path ? `image_path: ${appearance.icon}` : undefined);
    const state = await stateOf(context, id, settings);
    return { summary: `✅ ${stateLine(state)}`, structured: state };
  },
});
