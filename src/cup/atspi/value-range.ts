// The range of an AT-SPI Value as the app gives it: a bound it does not give is no bound.

/** A Value's number and the bounds the app gives for it (either may be missing). */
export interface ValueRange {
  current: number;
  min?: number;
  max?: number;
}

/**
 * The bounds of a Value from what its MinimumValue and MaximumValue answered (undefined: the read failed). A web
 * page's number field or ARIA spin button with no min or max (Blink and Gecko alike) fails the minimum's read and
 * answers 0 for the maximum: that 0 is no bound when the minimum is missing or above it, else a field with no
 * bounds read as 0..0 and refused every number but 0. A page's max="0" under a min it gives is kept.
 */
export function givenBounds(min: unknown, max: unknown): { min?: number; max?: number } {
  const bounds: { min?: number; max?: number } = {};
  const [low, high] = [min, max].map((bound) => (bound === undefined ? NaN : Number(bound)));
  if (Number.isFinite(low)) bounds.min = low;
  const unsetMaximum = high === 0 && (bounds.min === undefined || bounds.min > 0);
  if (Number.isFinite(high) && !unsetMaximum) bounds.max = high;
  return bounds;
}

/** A range with both ends, the lower below the upper. */
export function hasRange(value: ValueRange): value is ValueRange & { min: number; max: number } {
  return value.min !== undefined && value.max !== undefined && value.min < value.max;
}
