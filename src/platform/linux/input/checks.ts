// Argument checks for the input layer: a wrong value fails before anything is pressed, naming the value and what
// would work.
import { ToolError } from '../../../errors.js';
import type { X11Connection } from '../x11/index.js';

export interface Point {
  x: number;
  y: number;
}

/** A table entry by a caller's name; names like "constructor" must not find Object.prototype's members. */
export function ownEntry<T>(table: Readonly<Record<string, T>>, name: string): T | undefined {
  return Object.hasOwn(table, name) ? table[name] : undefined;
}

/** An integer in [min, max]; undefined gives `fallback`. */
export function integerOption(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new RangeError(`${name} must be a whole number from ${min} to ${max}, got ${String(value)}`);
  }
  return value;
}

/** A point on the screen, in root-window pixels; fractions are rounded (toolkits may report them). */
export function screenPoint(x: X11Connection, point: Point, what = 'point'): Point {
  const { width, height } = x.screen;
  if (!point || !Number.isFinite(point.x) || !Number.isFinite(point.y)) {
    throw new RangeError(`${what} must have numeric x and y, got ${JSON.stringify(point)}`);
  }
  const rounded = { x: Math.round(point.x), y: Math.round(point.y) };
  if (rounded.x < 0 || rounded.y < 0 || rounded.x >= width || rounded.y >= height) {
    // A caller's coordinates (window-local plus the window's place, or a drag's end) can land anywhere: their answer, not a bug.
    throw new ToolError(`${what} (${rounded.x}, ${rounded.y}) is off the screen, which spans 0..${width - 1} x 0..${height - 1}`, 'outside_window');
  }
  return rounded;
}
