// The agent cursors of one desktop by id: whether each is on, how it looks and how it moves. They belong to the
// process (the daemon keeps them across CLI calls), not to a session's state, since a cursor_id may be shared.
import { setTimeout as delay } from 'node:timers/promises';
import { renderCursorLook } from '../../image/overlays.js';
import type { Desktop } from '../../platform/desktop.js';
import type { ToolContext } from '../context.js';
import { DEFAULT_MOTION, glide, glideDuration, type MotionSettings, type Point } from './motion.js';

export interface CursorAppearance {
  icon: string;
  color: string;
  size: number;
  opacity: number;
  label?: string;
  /** Colour stops from the tip to the tail, "#rrggbb" each (set_agent_cursor_style); none: the one colour. */
  gradient?: string[];
  /** A soft halo around the icon, "#rrggbb". */
  bloom?: string;
}

export const DEFAULT_APPEARANCE: CursorAppearance = { icon: 'arrow', color: '#ff2a7a', size: 16, opacity: 1 };

export interface AgentCursorSettings {
  /** Undefined until set: move_cursor then shows the cursor, and actions do not fly it. */
  enabled?: boolean;
  appearance: CursorAppearance;
  motion: MotionSettings;
  /** The direction of the last arrival, where the next flight departs. */
  heading?: Point;
  idleTimer?: NodeJS.Timeout;
}

/** The session name of the CLI's anonymous calls: its cursor is "default" (seed 000: the anonymous path targets "default"). */
const ANONYMOUS_CLI_SESSION = 'cli';
export const DEFAULT_CURSOR_ID = 'default';

const byDesktop = new WeakMap<Desktop, Map<string, AgentCursorSettings>>();

/** Which cursor a call means: an explicit cursor_id, else its session's, else "default". */
export function cursorIdOf(context: ToolContext, explicit?: string): string {
  return explicit ?? (context.session === ANONYMOUS_CLI_SESSION ? DEFAULT_CURSOR_ID : context.session);
}

export function cursorSettings(desktop: Desktop, id: string): AgentCursorSettings {
  let cursors = byDesktop.get(desktop);
  if (!cursors) byDesktop.set(desktop, (cursors = new Map()));
  let settings = cursors.get(id);
  if (!settings) cursors.set(id, (settings = { appearance: { ...DEFAULT_APPEARANCE }, motion: { ...DEFAULT_MOTION } }));
  return settings;
}

/** The settings when the cursor was ever configured or moved, without creating them. */
export function existingCursorSettings(desktop: Desktop, id: string): AgentCursorSettings | undefined {
  return byDesktop.get(desktop)?.get(id);
}

function isDefaultLook(appearance: CursorAppearance): boolean {
  return (
    appearance.icon === DEFAULT_APPEARANCE.icon && appearance.color === DEFAULT_APPEARANCE.color && appearance.size === DEFAULT_APPEARANCE.size &&
    appearance.opacity === 1 && !appearance.label && !appearance.gradient?.length && !appearance.bloom
  );
}

/** Draws the cursor with its appearance from now on. */
export async function applyAppearance(desktop: Desktop, id: string, appearance: CursorAppearance): Promise<void> {
  if (isDefaultLook(appearance)) return desktop.setAgentCursorLook(id, undefined);
  const look = await renderCursorLook(appearance);
  await desktop.setAgentCursorLook(id, { ...look, opacity: appearance.opacity });
}

/** Hides the cursor once it has been still for idle_hide_ms (0: never). */
export function restartIdleTimer(desktop: Desktop, id: string, settings: AgentCursorSettings): void {
  clearTimeout(settings.idleTimer);
  settings.idleTimer = undefined;
  if (settings.motion.idle_hide_ms <= 0) return;
  settings.idleTimer = setTimeout(() => void desktop.hideAgentCursor(id).catch(() => undefined), settings.motion.idle_hide_ms);
  // A waiting hide never keeps a CLI process alive.
  settings.idleTimer.unref();
}

/** About 60 moves a second: smooth to the eye, and each is one small X request. */
const FRAME_MS = 16;

/**
 * Flies cursor `id` along its motion curve to `to` (screen pixels) and leaves it there. A cursor not on the screen
 * yet appears at the point. Stops at the point at once when the call is cancelled.
 */
export async function glideCursor(desktop: Desktop, id: string, to: Point, signal?: AbortSignal): Promise<void> {
  const settings = cursorSettings(desktop, id);
  const now = await desktop.agentCursor(id);
  if (now.visible) {
    const flight = glide({ x: now.x, y: now.y }, to, settings.motion, settings.heading);
    const duration = glideDuration({ x: now.x, y: now.y }, to, settings.motion);
    const started = Date.now();
    for (let elapsed = 0; elapsed < duration && !signal?.aborted; elapsed = Date.now() - started) {
      const point = flight.at(elapsed / duration);
      await desktop.moveAgentCursor(id, { x: Math.round(point.x), y: Math.round(point.y) }).catch(() => undefined);
      await delay(FRAME_MS);
    }
    settings.heading = flight.heading;
  }
  await desktop.moveAgentCursor(id, to);
  restartIdleTimer(desktop, id, settings);
}

/** Forgets cursor `id` and takes it off the screen (its session ended); nothing to do for a cursor never used. */
export async function removeCursor(desktop: Desktop, id: string): Promise<void> {
  const cursors = byDesktop.get(desktop);
  const settings = cursors?.get(id);
  if (!settings) return;
  clearTimeout(settings.idleTimer);
  cursors!.delete(id);
  await desktop.removeAgentCursor(id);
}
