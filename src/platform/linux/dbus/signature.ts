/** One complete D-Bus type. `children` holds an array's element, a struct's fields or a dict entry's key and value. */
export interface SigType {
  readonly code: string;
  readonly sig: string;
  readonly children: readonly SigType[];
}

const BASIC_CODES = 'ybnqiuxtdhsog';
const MAX_SIGNATURE_LENGTH = 255;
const MAX_ARRAY_DEPTH = 32;
const MAX_STRUCT_DEPTH = 32;

const ALIGNMENT: Readonly<Record<string, number>> = {
  y: 1, b: 4, n: 2, q: 2, i: 4, u: 4, x: 8, t: 8, d: 8, h: 4, s: 4, o: 4, g: 1, a: 4, '(': 8, '{': 8, v: 1,
};

export function alignmentOf(code: string): number {
  return ALIGNMENT[code] ?? 1;
}

export function isBasicCode(code: string): boolean {
  return BASIC_CODES.includes(code);
}

const parsedCache = new Map<string, readonly SigType[]>();

/**
 * Signatures arrive from peers inside variants, so a cache keyed by them must not grow without bound;
 * dropping everything now and then is cheaper than LRU bookkeeping on the hot path.
 */
export function cacheSet<V>(cache: Map<string, V>, key: string, value: V): void {
  if (cache.size >= 4096) cache.clear();
  cache.set(key, value);
}

/** Parses and validates a signature (zero or more complete types); throws an Error naming it when invalid. */
export function parseSignature(signature: string): readonly SigType[] {
  const cached = parsedCache.get(signature);
  if (cached !== undefined) return cached;
  if (typeof signature !== 'string') throw new TypeError(`D-Bus signature must be a string, got ${typeof signature}`);
  if (signature.length > MAX_SIGNATURE_LENGTH) {
    throw new Error(`invalid D-Bus signature "${signature.slice(0, 40)}...": longer than ${MAX_SIGNATURE_LENGTH} characters`);
  }
  const parser = new SignatureParser(signature);
  const types: SigType[] = [];
  while (parser.pos < signature.length) types.push(parser.parseOne(0, 0));
  cacheSet(parsedCache, signature, types);
  return types;
}

/** Parses a signature that must hold exactly one complete type, as a variant's does. */
export function parseSingleType(signature: string): SigType {
  const types = parseSignature(signature);
  if (types.length !== 1) {
    throw new Error(`invalid D-Bus signature "${signature}": expected exactly one complete type, found ${types.length}`);
  }
  return types[0]!;
}

class SignatureParser {
  pos = 0;

  constructor(private readonly text: string) {}

  private fail(why: string): never {
    throw new Error(`invalid D-Bus signature "${this.text}": ${why} at position ${this.pos}`);
  }

  parseOne(arrayDepth: number, structDepth: number): SigType {
    const start = this.pos;
    const code = this.text[this.pos];
    if (code === undefined) this.fail('incomplete type');
    this.pos++;
    if (isBasicCode(code) || code === 'v') return { code, sig: code, children: [] };
    if (code === 'a') {
      if (arrayDepth + 1 > MAX_ARRAY_DEPTH) this.fail(`arrays nested deeper than ${MAX_ARRAY_DEPTH}`);
      const element = this.text[this.pos] === '{' ? this.parseDictEntry(arrayDepth + 1, structDepth) : this.parseOne(arrayDepth + 1, structDepth);
      return { code, sig: this.text.slice(start, this.pos), children: [element] };
    }
    if (code === '(') {
      if (structDepth + 1 > MAX_STRUCT_DEPTH) this.fail(`structs nested deeper than ${MAX_STRUCT_DEPTH}`);
      const fields: SigType[] = [];
      while (this.text[this.pos] !== ')') {
        if (this.pos >= this.text.length) this.fail('unclosed struct');
        fields.push(this.parseOne(arrayDepth, structDepth + 1));
      }
      if (fields.length === 0) this.fail('empty struct');
      this.pos++;
      return { code, sig: this.text.slice(start, this.pos), children: fields };
    }
    this.pos--;
    if (code === '{') this.fail('dict entry outside an array');
    this.fail(`unexpected "${code}"`);
  }

  private parseDictEntry(arrayDepth: number, structDepth: number): SigType {
    const start = this.pos;
    this.pos++;
    if (structDepth + 1 > MAX_STRUCT_DEPTH) this.fail(`structs nested deeper than ${MAX_STRUCT_DEPTH}`);
    const keyCode = this.text[this.pos];
    if (keyCode === undefined || !isBasicCode(keyCode)) this.fail('dict entry key must be a basic type');
    const key = this.parseOne(arrayDepth, structDepth + 1);
    if (this.text[this.pos] === '}' || this.pos >= this.text.length) this.fail('dict entry needs a value type');
    const value = this.parseOne(arrayDepth, structDepth + 1);
    if (this.text[this.pos] !== '}') this.fail('dict entry must hold exactly two types');
    this.pos++;
    return { code: '{', sig: this.text.slice(start, this.pos), children: [key, value] };
  }
}
