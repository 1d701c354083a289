// Text an app rewrote as it took it: a page's controlled field that upper-cases what is typed (a voucher code, a
// flight number), one that formats a phone number or a card number as it goes ("5551234567" shows "(555) 123-4567").
// The typed text is not in the field as typed, yet it arrived: its letters and digits are, in order. Judged by the
// exact text alone, typing "abc" into a field that upper-cases read "no effect seen", and a retry typed it twice.

import { typedInPart } from './typed-arrival.js';

/** A text's letters and digits, case folded: what an app that rewrites typed text keeps of it. */
function lettersAndDigits(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * Whether `after` holds `typed` rewritten: the field changed from `before`, gained at least as many letters and digits
 * as were typed, and holds them (case folded, with whatever else the app put around and between them dropped), as
 * its whole text (`whole`: set_value) or in it (`part`: typing). Text with no letter or digit is never taken so.
 */
export function holdsRewritten(typed: string, before: string | undefined, after: string, extent: 'whole' | 'part'): boolean {
  const want = lettersAndDigits(typed);
  if (want === '' || after === before) return false;
  const have = lettersAndDigits(after);
  if (extent === 'whole') return have === want;
  // The typed text's start as typed is no rewrite of it: its letters and digits may all be there before its last
  // punctuation is. "... for the benchmark....." typed with real keys read as arrived, and as rewritten by the app to
  // "... for the benchmark.", four keys before the app had taken them all.
  return have.length >= lettersAndDigits(before ?? '').length + want.length && have.includes(want) && !typedInPart(before ?? '', after, typed);
}
