// The raw material of the tool fuzzer: a seeded random source and the values a hostile or careless caller
// sends (boundary numbers, huge and strange strings, deep JSON, selectors and regexes built to blow up).
// Pure: no I/O, so a seed reproduces a run exactly.

/** A small seeded generator (mulberry32): the same seed gives the same calls on every machine. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }
}

/**
 * A value sent as raw JSON text because JSON.stringify cannot write it (it recurses, and overflows the stack
 * on 10,000 levels). The harness splices `json` into the request line in place of the marker.
 */
export class RawJson {
  constructor(
    readonly json: string,
    readonly label: string,
  ) {}

  toJSON(): string {
    return `\u0000raw:${this.label}\u0000`;
  }
}

/** Nesting deep enough to overflow any recursive walk of the arguments (JSON.stringify, structuredClone, a naive describe). */
export const DEEP_LEVELS = 10_000;
export const deepArray = new RawJson(`${'['.repeat(DEEP_LEVELS)}0${']'.repeat(DEEP_LEVELS)}`, 'deep-array');
export const deepObject = new RawJson(`${'{"a":'.repeat(DEEP_LEVELS)}0${'}'.repeat(DEEP_LEVELS)}`, 'deep-object');

/** Replaces RawJson markers in a serialised request with their JSON text. */
export function serialise(value: unknown): string {
  const raws: RawJson[] = [];
  collectRaw(value, raws, 0);
  let text = JSON.stringify(value);
  for (const raw of raws) text = text.replace(JSON.stringify(raw.toJSON()), raw.json);
  return text;
}

function collectRaw(value: unknown, into: RawJson[], depth: number): void {
  if (depth > 50) return;
  if (value instanceof RawJson) into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectRaw(item, into, depth + 1);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) collectRaw(item, into, depth + 1);
}

export function containsRaw(value: unknown): boolean {
  const raws: RawJson[] = [];
  collectRaw(value, raws, 0);
  return raws.length > 0;
}

export const MEGABYTE = 1 << 20;

/** Strings that have broken parsers, terminals, file systems and loggers. */
export const NASTY_STRINGS: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  '\u202eevil\u202c',
  'שלום עולם',
  'مرحبا',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 🙂👍🏽',
  'e\u0301\u0301\u0301',
  '\ufeffbom',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  '0x7fffffff',
  'null',
  'undefined',
  'true',
  '__proto__',
  'constructor',
  '%s%s%n%x',
  '${HOME}$(id)`id`',
  '"; rm -rf ./x; echo "',
  '\r\n\r\n',
  '\u001b[31mred\u001b[0m\u001b]0;title\u0007',
  '\u001bP+q544e\u001b\\',
  '../../../../etc/passwd',
  '/proc/self/environ',
  '/dev/zero',
  'C:\\Windows\\system32',
  '\\\\server\\share',
  '😀'.repeat(2000),
  'x'.repeat(10_000),
];

/** A fresh 1 MB string (ASCII, and one of multi-byte characters), made once per kind. */
export const HUGE_STRINGS: readonly string[] = ['a'.repeat(MEGABYTE), 'é'.repeat(MEGABYTE / 2)];

export function nastyString(random: Random): string {
  return random.chance(0.04) ? random.pick(HUGE_STRINGS) : random.pick(NASTY_STRINGS);
}

/** Numbers at the edges: of int32, of the safe-integer range, of pixels and pids. */
export const BOUNDARY_NUMBERS: readonly number[] = [
  0, -0, -1, 1, 0.5, -0.5, 1e-300, 2 ** 31 - 1, 2 ** 31, -(2 ** 31), 2 ** 32 - 1, 2 ** 32, 2 ** 53, -(2 ** 53), 2 ** 53 + 2, 1e308, -1e308, 4_194_304, 65_536, 100_000,
];

/** Selectors that parse and can match in the fixture window or a terminal. */
export const GOOD_SELECTORS: readonly string[] = [
  'role=button',
  'role=button name~=increment',
  'name*="^Inc.*t$"',
  'role=list >> role=listitem [index=0]',
  'role=listitem [index=-1]',
  'role=textbox',
  'role=btn',
  'focused',
  'name^=Row',
  'value~=a',
  'text~=a',
  'role=button name="Increment"',
];

/** Selectors built to hang a backtracking engine, exhaust a parser or overflow an index. */
export const HOSTILE_SELECTORS: readonly string[] = [
  'name*="(a+)+$"',
  'value*="(a+)+$"',
  'value*="(a|a)*b"',
  'value*="(a|aa)*c"',
  'value*="(.*a){20}"',
  'value*="((a*)*)*b"',
  `value*="${'(a?)'.repeat(60)}${'a'.repeat(60)}"`,
  'value*="(a{1,100}){1,100}$"',
  'text*="(a{100}){100}"',
  'text*="(.*.*)*x"',
  'name*="(?=x)"',
  'name*="(a)\\1"',
  'name*="[z-a]"',
  `name*="${'('.repeat(120)}a${')'.repeat(120)}"`,
  `name*="${'a|'.repeat(120)}b"`,
  '[index=9007199254740993]',
  '[index=99999999999999999999999999]',
  '[index=-9007199254740993]',
  '[index=2147483648]',
  '[index=NaN]',
  '[index=]',
  'role=button >> '.repeat(30).trim(),
  '>> >> >>',
  'name="unterminated',
  'name*="[',
  'role=',
  '\u0000',
  'role=button\u0000name=x',
  'x'.repeat(501),
  `name~="${'é'.repeat(240)}"`,
];

export function selector(random: Random): string {
  return random.chance(0.5) ? random.pick(GOOD_SELECTORS) : random.pick(HOSTILE_SELECTORS);
}

/** Keys: names the key tools know, and ones they must refuse. */
export const KEY_NAMES: readonly string[] = [
  'return', 'tab', 'escape', 'space', 'backspace', 'delete', 'home', 'end', 'up', 'down', 'left', 'right', 'f1', 'f24', 'a', 'Z', '1', 'é', '€', '🙂',
  'ctrl', 'shift', 'alt', 'super', 'ctrl+a', 'f25', 'F99', 'enter', 'esc', 'pageup', 'menu', 'no-such-key', '', '\u0000', 'ctrl+alt+delete', 'XF86PowerOff',
];
