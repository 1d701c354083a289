// Whether the number a field shows is the number it holds, as its toolkit formats numbers: a spin button's text is
// the Value's number written in the app's locale and with its digits, sometimes with a unit ("1,5" in German for 1.5,
// "1.500" or "1 500" for 1500, "50 %").

/**
 * A number as the tree writes a value: at most six decimals, so a float's binary noise (a scroll position of
 * 972.5999999999999 pixels) reads as the number meant (972.6).
 */
export function treeNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Number(value.toFixed(6)));
}

/** The first number written in the text: digits with the signs, separators and spaces numbers are written with. */
const writtenNumber = /[-+\u2212]?\d[\d.,'\u00a0\u202f ]*/;

/**
 * The values the text can be read as: a separator is either the decimal point or a group separator, whichever the
 * locale used; the digits after the last one tell how far the shown number was rounded.
 */
function readings(written: string): { value: number; step: number; decimals: number }[] {
  const number = written.trim().replace(/\u2212/, '-').replace(/[\u00a0\u202f ']/g, '');
  const last = Math.max(number.lastIndexOf('.'), number.lastIndexOf(','));
  const whole = { value: Number(number.replace(/[.,]/g, '')), step: 1, decimals: 0 };
  if (last < 0) return [whole];
  const decimals = number.length - last - 1;
  const decimal = { value: Number(`${number.slice(0, last).replace(/[.,]/g, '')}.${number.slice(last + 1)}`), step: 10 ** -decimals, decimals };
  return [decimal, whole].filter((reading) => Number.isFinite(reading.value));
}

/** How a text showing `held` reads it: the value it writes and how many decimals it writes it with. */
function readingOf(text: string, held: number): { value: number; decimals: number } | undefined {
  const written = writtenNumber.exec(text)?.[0];
  if (written === undefined) return undefined;
  return readings(written).find(({ value, step }) => Math.abs(value - held) <= step / 2 + Number.EPSILON * Math.abs(held));
}

/**
 * True when the text shows `held` (to the digits it shows), false when it shows another number, undefined when it
 * shows no number at all (nothing can be told).
 */
export function showsNumber(text: string, held: number): boolean | undefined {
  if (writtenNumber.exec(text) === null) return undefined;
  return readingOf(text, held) !== undefined;
}

/** How many decimals a number is written with ("0.25" has 2, 5 has none). */
function decimalsOf(number: number): number {
  const [digits, exponent] = number.toExponential().split('e');
  return Math.max(0, (digits!.split('.')[1]?.length ?? 0) - Number(exponent));
}

/**
 * The decimals a range control takes a number to, or undefined when it says nothing of them: those it shows its
 * number with (a GTK3 spin button with no digits shows 7.6 as "8", and holding 7.6 it shows what it does not hold),
 * and never fewer than its smallest increment is written with (a text that drops trailing zeros shows 50 for 50.0 of
 * a control stepping by 0.5). A control showing no number (a slider) takes its increment's decimals: a slider stepping
 * by 1 is moved by a person to whole numbers. An increment of 0 (any number) says nothing.
 */
export function takenDecimals(increment: number, held: number, shown: string | undefined): number | undefined {
  if (!(increment > 0) || !Number.isFinite(increment)) return undefined;
  const shownDecimals = shown === undefined ? undefined : readingOf(shown, held)?.decimals;
  return Math.max(shownDecimals ?? 0, decimalsOf(increment));
}

/** The number rounded to that many decimals. */
export function roundedTo(number: number, decimals: number): number {
  return Number(number.toFixed(decimals));
}

/** How a control taking that many decimals is said to take numbers: "whole numbers", "numbers to 1 decimal". */
export function decimalsPhrase(decimals: number): string {
  return decimals === 0 ? 'whole numbers' : `numbers to ${decimals} decimal${decimals === 1 ? '' : 's'}`;
}
