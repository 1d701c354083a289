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

/**
 * A spin button whose Value holds nothing (no range: Qt's date and time edits answer 0 of 0..0, their value being a
 * date, which Qt's Value does not carry) and whose text shows digits but no number: what it holds is that text
 * ("2024-03-15", "10:30 AM"), and it has no numeric range to tell. Kid3's and KeePassXC's date fields read
 * `(range=0..0)` and no value. A text with no digit is no value: Gecko's empty date part shows its placeholder "mm".
 */
export function textOnlyValue(value: ValueRange, text: string | undefined): string | undefined {
  const shown = text?.trim();
  if (hasRange(value) || !shown || !/\d/.test(shown) || /^[-+]?\d+(\.\d+)?$/.test(shown)) return undefined;
  return shown;
}

/**
 * How a text is written, its digits and letters aside: "2024-03-15" and "1999-12-31" are both "9-9-9", "10:30 AM" is
 * "9:9 a". A date edit takes a text written as it shows its own; another ("7" in a date edit) it keeps as typed and
 * never takes, and says nothing of through accessibility (Qt announces no value for it either way).
 */
export function textShape(text: string): string {
  return text.trim().replace(/\d+/g, '9').replace(/\p{L}+/gu, 'a');
}
