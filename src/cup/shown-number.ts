// Whether the number a field shows is the number it holds, as its toolkit formats numbers: a spin button's text is
// the Value's number written in the app's locale and with its digits, sometimes with a unit ("1,5" in German for 1.5,
// "1.500" or "1 500" for 1500, "50 %").

/** The first number written in the text: digits with the signs, separators and spaces numbers are written with. */
const writtenNumber = /[-+\u2212]?\d[\d.,'\u00a0\u202f ]*/;

/**
 * The values the text can be read as: a separator is either the decimal point or a group separator, whichever the
 * locale used; the digits after the last one tell how far the shown number was rounded.
 */
function readings(written: string): { value: number; step: number }[] {
  const number = written.trim().replace(/\u2212/, '-').replace(/[\u00a0\u202f ']/g, '');
  const last = Math.max(number.lastIndexOf('.'), number.lastIndexOf(','));
  const whole = { value: Number(number.replace(/[.,]/g, '')), step: 1 };
  if (last < 0) return [whole];
  const decimals = number.length - last - 1;
  const decimal = { value: Number(`${number.slice(0, last).replace(/[.,]/g, '')}.${number.slice(last + 1)}`), step: 10 ** -decimals };
  return [decimal, whole].filter((reading) => Number.isFinite(reading.value));
}

/**
 * True when the text shows `held` (to the digits it shows), false when it shows another number, undefined when it
 * shows no number at all (nothing can be told).
 */
export function showsNumber(text: string, held: number): boolean | undefined {
  const written = writtenNumber.exec(text)?.[0];
  if (written === undefined) return undefined;
  return readings(written).some(({ value, step }) => Math.abs(value - held) <= step / 2 + Number.EPSILON * Math.abs(held));
}
