// The agent cursor's flight from one point to the next: a cubic Bézier curve bent sideways by the arc settings,
// eased in and out, with a spring's overshoot at the end. Pure geometry; the caller moves the overlay along it.

export interface Point {
  x: number;
  y: number;
}

/** The motion settings of seed 000's set_agent_cursor_motion, with its ranges and defaults. */
export interface MotionSettings {
  start_handle: number;
  end_handle: number;
  arc_size: number;
  arc_flow: number;
  spring: number;
  turn_radius: number;
  /** Undefined: the duration follows the distance. */
  glide_duration_ms?: number;
  dwell_after_click_ms: number;
  idle_hide_ms: number;
}

export const DEFAULT_MOTION: MotionSettings = {
  start_handle: 0.3,
  end_handle: 0.3,
  arc_size: 0.25,
  arc_flow: 0,
  spring: 0.72,
  turn_radius: 80,
  dwell_after_click_ms: 80,
  idle_hide_ms: 20_000,
};

/** Pixels per millisecond when the duration follows the distance, and the bounds of such a flight. */
const SPEED = 2;
const MIN_MS = 120;
const MAX_MS = 600;

export function glideDuration(from: Point, to: Point, motion: MotionSettings): number {
  if (motion.glide_duration_ms !== undefined) return motion.glide_duration_ms;
  return Math.min(MAX_MS, Math.max(MIN_MS, Math.hypot(to.x - from.x, to.y - from.y) / SPEED));
}

function bezier(p0: Point, p1: Point, p2: Point, p3: Point, t: number): Point {
  const u = 1 - t;
  const a = u * u * u;
  const b = 3 * u * u * t;
  const c = 3 * u * t * t;
  const d = t * t * t;
  return { x: a * p0.x + b * p1.x + c * p2.x + d * p3.x, y: a * p0.y + b * p1.y + c * p2.y + d * p3.y };
}

function easeInOut(t: number): number {
  return t < 0.5 ? 4 * t * t * t : 1 - (-2 * t + 2) ** 3 / 2;
}

export interface Glide {
  /** Where the cursor is at time t (0 to 1 of the flight). */
  at(t: number): Point;
  /** The direction it arrives in (a unit vector), the next flight's departure heading. */
  heading: Point;
}

/**
 * The flight from `from` to `to`. The first control point lies along the previous arrival `heading` (when there
 * is one) at most turn_radius away, so a change of direction is a rounded corner rather than a kink.
 */
export function glide(from: Point, to: Point, motion: MotionSettings, heading?: Point): Glide {
  const dx = to.x - from.x;
  const dy = to.y - from.y;
  const length = Math.hypot(dx, dy);
  if (length < 1) return { at: () => to, heading: heading ?? { x: 1, y: 0 } };
  const direction = { x: dx / length, y: dy / length };
  // Bent to the left of the direction of travel; arc_flow moves the bulge towards the start (-1) or the end (+1).
  const normal = { x: -direction.y, y: direction.x };
  const bulge = motion.arc_size * length;
  const lead = motion.start_handle * length;
  const departure = heading ? { x: heading.x * Math.min(lead, motion.turn_radius), y: heading.y * Math.min(lead, motion.turn_radius) } : { x: direction.x * lead, y: direction.y * lead };
  const p1 = { x: from.x + departure.x + normal.x * bulge * (1 - motion.arc_flow), y: from.y + departure.y + normal.y * bulge * (1 - motion.arc_flow) };
  const p2 = {
    x: to.x - direction.x * motion.end_handle * length + normal.x * bulge * (1 + motion.arc_flow),
    y: to.y - direction.y * motion.end_handle * length + normal.y * bulge * (1 + motion.arc_flow),
  };
  // A spring below 1 overshoots the target along the arrival direction and settles back within the flight's last 30%.
  const overshoot = ((1 - motion.spring) / 0.7) * Math.min(24, length * 0.1);
  const arrival = (() => {
    const tx = to.x - p2.x;
    const ty = to.y - p2.y;
    const norm = Math.hypot(tx, ty);
    return norm < 1e-6 ? direction : { x: tx / norm, y: ty / norm };
  })();
  return {
    heading: arrival,
    at(t: number): Point {
      const clamped = Math.min(1, Math.max(0, t));
      const point = bezier(from, p1, p2, to, easeInOut(Math.min(1, clamped / 0.85)));
      if (clamped <= 0.7 || overshoot === 0) return point;
      const s = (clamped - 0.7) / 0.3;
      const push = overshoot * Math.sin(Math.PI * s) * (1 - s);
      return { x: point.x + arrival.x * push, y: point.y + arrival.y * push };
    },
  };
}
