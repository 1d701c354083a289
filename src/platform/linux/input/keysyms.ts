// Key names and characters → X keysyms. Pure: which keycode produces a keysym is keyboard-map.ts's business.
import { closestName } from '../../../cup/closest-name.js';
import { ownEntry } from './checks.js';

/** The modifiers a key combination may hold. cmd, meta and win are the logo key (Super, Mod4), as agents trained on macOS and Windows mean them. */
export type ModifierName = 'ctrl' | 'shift' | 'alt' | 'super' | 'altgr';

export type ParsedKey =
  | { kind: 'modifier'; modifier: ModifierName; name: string }
  /** `keysyms`: what the key produces, preferred first (a character's older keysym may be the one a layout has). */
  | { kind: 'key'; keysyms: number[]; name: string };

// Names are compared by nameKey: "Control_L", "page down" and "Caps-Lock" are control_l, pagedown and capslock.
// X's names for the left and right modifier keys (xdotool's spelling) press the modifier.
const modifierNames: Record<string, ModifierName> = {
  ctrl: 'ctrl', control: 'ctrl',
  shift: 'shift',
  alt: 'alt', option: 'alt',
  super: 'super', meta: 'super', cmd: 'super', command: 'super', win: 'super', windows: 'super',
  altgr: 'altgr',
};
const modifierAliases: Record<string, ModifierName> = {
  ...modifierNames,
  controll: 'ctrl', controlr: 'ctrl', ctrll: 'ctrl', ctrlr: 'ctrl', shiftl: 'shift', shiftr: 'shift', altl: 'alt', altr: 'alt',
  superl: 'super', superr: 'super', metal: 'super', metar: 'super', isolevel3shift: 'altgr',
};

/** A name as the tables hold it: case, spaces, hyphens and underscores do not count. */
function nameKey(name: string): string {
  return name.trim().toLowerCase().replace(/[\s_-]+/g, '');
}

const returnKeysym = 0xff0d;
const tabKeysym = 0xff09;

// The first name of a keysym is its canonical one (canonicalKeyName).
const namedKeys: Record<string, number> = {
  return: returnKeysym, enter: returnKeysym,
  tab: tabKeysym,
  escape: 0xff1b, esc: 0xff1b,
  space: 0x20,
  backspace: 0xff08,
  delete: 0xffff, del: 0xffff,
  insert: 0xff63, ins: 0xff63,
  home: 0xff50,
  end: 0xff57,
  pageup: 0xff55, pgup: 0xff55, prior: 0xff55,
  pagedown: 0xff56, pgdn: 0xff56, pgdown: 0xff56, next: 0xff56,
  left: 0xff51, up: 0xff52, right: 0xff53, down: 0xff54,
  arrowleft: 0xff51, arrowup: 0xff52, arrowright: 0xff53, arrowdown: 0xff54,
  menu: 0xff67, contextmenu: 0xff67,
  capslock: 0xffe5,
  print: 0xff61, printscreen: 0xff61,
  pause: 0xff13,
  scrolllock: 0xff14,
  numlock: 0xff7f,
  // Shift+Tab's keysym, as X and GTK name the key pressed.
  isolefttab: 0xfe20,
  // The keypad's keys (X's KP_ names; the digits are on its Num Lock level).
  kpenter: 0xff8d, kpadd: 0xffab, kpsubtract: 0xffad, kpmultiply: 0xffaa, kpdivide: 0xffaf, kpdecimal: 0xffae,
  kpseparator: 0xffac, kpequal: 0xffbd,
  // X's own names for punctuation, so "ctrl+plus" can be written where "ctrl++" would not parse.
  exclam: 0x21, quotedbl: 0x22, numbersign: 0x23, dollar: 0x24, percent: 0x25, ampersand: 0x26, apostrophe: 0x27,
  parenleft: 0x28, parenright: 0x29, asterisk: 0x2a, plus: 0x2b, comma: 0x2c, minus: 0x2d, period: 0x2e,
  slash: 0x2f, colon: 0x3a, semicolon: 0x3b, less: 0x3c, equal: 0x3d, greater: 0x3e, question: 0x3f, at: 0x40,
  bracketleft: 0x5b, backslash: 0x5c, bracketright: 0x5d, asciicircum: 0x5e, underscore: 0x5f, grave: 0x60,
  braceleft: 0x7b, bar: 0x7c, braceright: 0x7d, asciitilde: 0x7e,
};
for (let n = 0; n <= 9; n++) namedKeys[`kp${n}`] = 0xffb0 + n;
for (let n = 1; n <= 24; n++) namedKeys[`f${n}`] = 0xffbe + n - 1;

/**
 * Layouts bind some characters to their pre-Unicode keysyms (a German layout's € is EuroSign, a Polish ł is
 * lstroke). Knowing the common ones lets a real key be found instead of a temporary binding.
 */
const legacyKeysyms: Record<number, number> = {
  0x2013: 0xaaa, 0x2014: 0xaa9, 0x2018: 0xad0, 0x2019: 0xad1, 0x201c: 0xad2, 0x201d: 0xad3, 0x201e: 0xafe,
  0x201a: 0xafd, 0x2026: 0xaae, 0x2022: 0xae6, 0x2122: 0xac9, 0x2713: 0xaf3, 0x2717: 0xaf4, 0x20ac: 0x20ac,
  0x0104: 0x1a1, 0x0105: 0x1b1, 0x0141: 0x1a3, 0x0142: 0x1b3, 0x015a: 0x1a6, 0x015b: 0x1b6, 0x0160: 0x1a9,
  0x0161: 0x1b9, 0x017d: 0x1ae, 0x017e: 0x1be, 0x0179: 0x1ac, 0x017a: 0x1bc, 0x017b: 0x1af, 0x017c: 0x1bf,
  0x0106: 0x1c6, 0x0107: 0x1e6, 0x010c: 0x1c8, 0x010d: 0x1e8, 0x0118: 0x1ca, 0x0119: 0x1ea, 0x011a: 0x1cc,
  0x011b: 0x1ec, 0x0143: 0x1d1, 0x0144: 0x1f1, 0x0158: 0x1d8, 0x0159: 0x1f8, 0x016e: 0x1d9, 0x016f: 0x1f9,
  0x0150: 0x1d5, 0x0151: 0x1f5, 0x0170: 0x1db, 0x0171: 0x1fb,
};

/** One character (a single code point) as keysyms: the primary one first, then a layout's older alternative. */
export function characterKeysyms(character: string): number[] {
  const codePoint = character.codePointAt(0);
  if (codePoint === undefined || [...character].length !== 1) {
    throw new Error(`expected one character, got ${JSON.stringify(character)}`);
  }
  if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0)) {
    throw new Error(`control character U+${codePoint.toString(16).padStart(4, '0').toUpperCase()} cannot be typed; use a key name such as "return" or "tab"`);
  }
  // Latin-1 keysyms are the code points themselves; everything else has the Unicode keysym 0x01000000 + code point.
  const primary = codePoint <= 0xff ? codePoint : 0x01000000 + codePoint;
  const legacy = legacyKeysyms[codePoint];
  return legacy === undefined || legacy === primary ? [primary] : [primary, legacy];
}

/** The characters of text to type, one per code point; a line break ("\r\n", "\r" or "\n") is one "\n". */
export function textCharacters(text: string): string[] {
  return [...text.replace(/\r\n?/g, '\n')];
}

/** The keysyms that type one character of text: "\n" is Return, "\t" Tab, and other control characters are refused. */
export function textCharacterKeysyms(character: string): number[] {
  if (character === '\n') return [returnKeysym];
  if (character === '\t') return [tabKeysym];
  return characterKeysyms(character);
}

function modifierFromName(name: string): ModifierName | undefined {
  return typeof name === 'string' ? ownEntry(modifierAliases, nameKey(name)) : undefined;
}

/** The name a keysym's key is known by in comparisons: one per key, whichever alias named it (" " and "Space" are space). */
export function canonicalKeyName(keysym: number): string {
  const named = Object.keys(namedKeys).find((name) => namedKeys[name] === keysym);
  if (named) return named;
  // Latin-1 keysyms are their code points; others are Unicode keysyms (0x01000000 + code point).
  return String.fromCodePoint(keysym >= 0x01000000 ? keysym - 0x01000000 : keysym);
}

/** A modifier name, or an error listing the accepted ones. */
export function parseModifier(name: string): ModifierName {
  const modifier = modifierFromName(name);
  if (!modifier) throw new RangeError(`${JSON.stringify(name)} is not a modifier; expected one of ${Object.keys(modifierNames).join(', ')}`);
  return modifier;
}

/** Every name a key may be given, for error messages. */
export function keyNameHelp(): string {
  const modifiers = Object.keys(modifierNames);
  const named = Object.keys(namedKeys).filter((name) => !/^(f\d+|kp\d)$/.test(name));
  return `modifiers ${modifiers.join(', ')} (X's control_l, shift_r... too); keys ${named.join(', ')}, kp0..kp9, f1..f24 (case, spaces and "_" do not count); or any single character`;
}

/**
 * Why a name is no key, with the likeliest meant one first: a combination joined with "-" or spaces ("ctrl-s")
 * instead of "+", or a name one or two letters off ("shft", "escpae").
 */
function unknownKeyMessage(name: string): string {
  const parts = name.trim().split(/[\s-]+/);
  const known = (part: string) => modifierFromName(part) !== undefined || [...part].length === 1 || ownEntry(namedKeys, nameKey(part)) !== undefined;
  if (parts.length > 1 && parts.every(known) && parts.slice(0, -1).every((part) => modifierFromName(part))) {
    return `unknown key "${name}": a combination is written with "+", as "${parts.join('+')}"`;
  }
  const near = closestName(nameKey(name), [...Object.keys(modifierNames), ...Object.keys(namedKeys)]);
  return `unknown key "${name}"${near ? ` (did you mean "${near}"?)` : ''}; expected ${keyNameHelp()}`;
}

/**
 * A key name (case-insensitive) or a single character. A single letter names its key, so "A" is the a key
 * (add shift to get the capital); other characters stand for themselves ("!", "é", "你").
 */
export function parseKey(name: string): ParsedKey {
  if (typeof name !== 'string' || name.length === 0) throw new Error(`empty key name; expected ${keyNameHelp()}`);
  const modifier = modifierFromName(name);
  if (modifier) return { kind: 'modifier', modifier, name };
  if ([...name].length === 1) {
    const lower = name.toLowerCase();
    const isLetter = lower !== name.toUpperCase() && [...lower].length === 1;
    return { kind: 'key', keysyms: characterKeysyms(isLetter ? lower : name), name };
  }
  const keysym = ownEntry(namedKeys, nameKey(name));
  if (keysym === undefined) throw new Error(unknownKeyMessage(name));
  return { kind: 'key', keysyms: [keysym], name };
}

/**
 * A combination such as "ctrl+shift+t" (or already split, ["ctrl", "shift", "t"]). "+" on its own or at the end
 * ("ctrl++") is the plus key.
 */
export function parseCombination(combination: string | readonly string[]): ParsedKey[] {
  // A name written as a combination ("ctrl+shift+s" as press_key's key) is that combination.
  const names = typeof combination === 'string' ? splitCombination(combination) : combination.flatMap((name) => (name.length > 1 && name.includes('+') ? splitCombination(name) : [name]));
  if (names.length === 0) throw new Error(`empty key combination; expected e.g. "ctrl+c", with ${keyNameHelp()}`);
  const keys = names.map(parseKey);
  // A combination is its modifiers held around one key, wherever they are written: real keys pressed in the order
  // given typed "a" for ["a", "ctrl"], while sent events held ctrl around it. A second key has no such meaning (real
  // keys pressed both, sent events only the last), so it is refused.
  const others = keys.filter((key) => key.kind === 'key');
  if (others.length > 1) {
    throw new Error(
      `"${names.join('+')}" holds ${others.length} keys that are not modifiers (${others.map((key) => JSON.stringify(key.name)).join(', ')}); a combination is modifiers and one key: press the keys one after another (a press_key each, or run_actions steps), or type text with type_text`,
    );
  }
  return [...keys.filter((key) => key.kind === 'modifier'), ...others];
}

function splitCombination(text: string): string[] {
  if (text.trim() === '+') return ['+'];
  const parts = text.split('+').map((part) => part.trim());
  // "ctrl++" splits into ["ctrl", "", ""]: the trailing empty pair was a plus key.
  if (parts.length >= 3 && parts.at(-1) === '' && parts.at(-2) === '') parts.splice(-2, 2, '+');
  if (parts.includes('')) throw new Error(`invalid key combination "${text}": a key is missing between "+" signs (the plus key can be written "plus")`);
  return parts;
}
