import { Buffer } from 'node:buffer';
import { isObjectPath } from './names.js';
import { alignmentOf, cacheSet, parseSignature, parseSingleType, type SigType } from './signature.js';
import { Variant } from './variant.js';

export const MAX_ARRAY_LENGTH = 64 * 1024 * 1024;

/** A growable little-endian output buffer; alignment is counted from `base`, the start of the current message. */
export class Writer {
  buf: Buffer;
  pos = 0;
  base = 0;

  constructor(initialSize = 512) {
    this.buf = Buffer.allocUnsafe(initialSize);
  }

  reserve(bytes: number): void {
    if (this.pos + bytes > this.buf.length) this.grow(this.pos + bytes);
  }

  private grow(needed: number): void {
    let size = Math.max(this.buf.length * 2, 64);
    while (size < needed) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  align(alignment: number): void {
    const pad = (alignment - ((this.pos - this.base) % alignment)) % alignment;
    if (pad === 0) return;
    this.reserve(pad);
    // allocUnsafe memory holds stale bytes, and the spec requires padding to be zero.
    for (let i = 0; i < pad; i++) this.buf[this.pos++] = 0;
  }

  u8(value: number): void {
    this.reserve(1);
    this.buf[this.pos++] = value;
  }

  u32(value: number): void {
    this.align(4);
    this.reserve(4);
    this.buf.writeUInt32LE(value, this.pos);
    this.pos += 4;
  }

  string(value: string): void {
    if (value.includes('\0')) throw new TypeError(`D-Bus strings cannot contain NUL characters: ${describe(value)}`);
    this.align(4);
    // Worst case is 3 UTF-8 bytes per UTF-16 unit; measuring exactly only pays off for long strings.
    const maxBytes = value.length > 4096 ? Buffer.byteLength(value, 'utf8') : value.length * 3;
    this.reserve(4 + maxBytes + 1);
    const written = this.buf.write(value, this.pos + 4, 'utf8');
    this.buf.writeUInt32LE(written, this.pos);
    this.pos += 4 + written;
    this.buf[this.pos++] = 0;
  }

  signature(value: string): void {
    this.reserve(value.length + 2);
    const buf = this.buf;
    buf[this.pos++] = value.length;
    // Signatures are short ASCII; a byte loop beats a native write call for them.
    for (let i = 0; i < value.length; i++) buf[this.pos++] = value.charCodeAt(i);
    buf[this.pos++] = 0;
  }
}

export type Encoder = (w: Writer, value: unknown) => void;
export type BodyEncoder = (w: Writer, values: readonly unknown[]) => void;

const encoders = new Map<string, Encoder>();
const bodyEncoders = new Map<string, BodyEncoder>();

export function encoderFor(type: SigType): Encoder {
  let encoder = encoders.get(type.sig);
  if (encoder === undefined) {
    encoder = compileEncoder(type);
    cacheSet(encoders, type.sig, encoder);
  }
  return encoder;
}

/** The encoder for a whole message body: one value per complete type in `signature`. */
export function bodyEncoderFor(signature: string): BodyEncoder {
  let encoder = bodyEncoders.get(signature);
  if (encoder === undefined) {
    encoder = compileBodyEncoder(signature);
    cacheSet(bodyEncoders, signature, encoder);
  }
  return encoder;
}

/** Marshals `values` as a standalone little-endian body of the given signature (alignment counted from byte 0). */
export function marshal(signature: string, values: readonly unknown[]): Buffer {
  const w = new Writer();
  bodyEncoderFor(signature)(w, values);
  return w.buf.subarray(0, w.pos);
}

function compileBodyEncoder(signature: string): BodyEncoder {
  const encs = parseSignature(signature).map(encoderFor);
  const count = encs.length;
  return (w, values) => {
    if (!Array.isArray(values) || values.length !== count) {
      throw new TypeError(`D-Bus signature "${signature}" needs ${count} value(s), got ${Array.isArray(values) ? values.length : describe(values)}`);
    }
    for (let i = 0; i < count; i++) encs[i]!(w, values[i]);
  };
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value === 'bigint') return `${value}n`;
  if (value === null || typeof value !== 'object') return String(value);
  return value.constructor?.name ?? 'object';
}

function mismatch(sig: string, expected: string, value: unknown): TypeError {
  return new TypeError(`D-Bus type "${sig}" expects ${expected}, got ${describe(value)}`);
}

function integerEncoder(
  sig: string,
  size: 1 | 2 | 4,
  min: number,
  max: number,
  write: (buf: Buffer, value: number, offset: number) => unknown,
): Encoder {
  return (w, value) => {
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw mismatch(sig, `an integer in ${min}..${max}`, value);
    }
    w.align(size);
    w.reserve(size);
    write(w.buf, value, w.pos);
    w.pos += size;
  };
}

function bigIntEncoder(sig: string, min: bigint, max: bigint, signed: boolean): Encoder {
  return (w, value) => {
    let big: bigint;
    if (typeof value === 'bigint') big = value;
    else if (typeof value === 'number' && Number.isSafeInteger(value)) big = BigInt(value);
    else throw mismatch(sig, 'a bigint or a safe integer number', value);
    if (big < min || big > max) throw mismatch(sig, `a value in ${min}..${max}`, value);
    w.align(8);
    w.reserve(8);
    if (signed) w.buf.writeBigInt64LE(big, w.pos);
    else w.buf.writeBigUInt64LE(big, w.pos);
    w.pos += 8;
  };
}

function compileEncoder(type: SigType): Encoder {
  const sig = type.sig;
  switch (type.code) {
    case 'y':
      return integerEncoder(sig, 1, 0, 0xff, (buf, v, o) => (buf[o] = v));
    case 'n':
      return integerEncoder(sig, 2, -0x8000, 0x7fff, (buf, v, o) => buf.writeInt16LE(v, o));
    case 'q':
      return integerEncoder(sig, 2, 0, 0xffff, (buf, v, o) => buf.writeUInt16LE(v, o));
    case 'i':
      return integerEncoder(sig, 4, -0x80000000, 0x7fffffff, (buf, v, o) => buf.writeInt32LE(v, o));
    case 'u':
    case 'h':
      return integerEncoder(sig, 4, 0, 0xffffffff, (buf, v, o) => buf.writeUInt32LE(v, o));
    case 'x':
      return bigIntEncoder(sig, -(2n ** 63n), 2n ** 63n - 1n, true);
    case 't':
      return bigIntEncoder(sig, 0n, 2n ** 64n - 1n, false);
    case 'b':
      return (w, value) => {
        if (typeof value !== 'boolean') throw mismatch(sig, 'a boolean', value);
        w.u32(value ? 1 : 0);
      };
    case 'd':
      return (w, value) => {
        if (typeof value !== 'number') throw mismatch(sig, 'a number', value);
        w.align(8);
        w.reserve(8);
        w.buf.writeDoubleLE(value, w.pos);
        w.pos += 8;
      };
    case 's':
      return (w, value) => {
        if (typeof value !== 'string') throw mismatch(sig, 'a string', value);
        w.string(value);
      };
    case 'o':
      return (w, value) => {
        if (typeof value !== 'string' || !isObjectPath(value)) throw mismatch(sig, 'an object path string like "/org/a11y/atspi/accessible/root"', value);
        w.string(value);
      };
    case 'g':
      return (w, value) => {
        if (typeof value !== 'string') throw mismatch(sig, 'a signature string', value);
        parseSignature(value);
        w.signature(value);
      };
    case 'v':
      return (w, value) => {
        if (!(value instanceof Variant)) throw mismatch(sig, 'a Variant', value);
        const inner = encoderFor(parseSingleType(value.signature));
        w.signature(value.signature);
        inner(w, value.value);
      };
    case '(':
      return compileStructEncoder(type);
    case 'a': {
      const element = type.children[0]!;
      if (element.code === 'y') return encodeByteArray;
      if (element.code === '{') return compileDictEncoder(type, element);
      return compileArrayEncoder(type, element);
    }
    default:
      throw new Error(`invalid D-Bus signature "${sig}"`);
  }
}

/** Writes an array's length placeholder and the padding before its first element; returns where to patch the length. */
function beginArray(w: Writer, elementAlignment: number): number {
  w.align(4);
  w.reserve(4);
  const lengthAt = w.pos;
  w.pos += 4;
  w.align(elementAlignment);
  return lengthAt;
}

function encodeByteArray(w: Writer, value: unknown): void {
  if (value instanceof Uint8Array) {
    if (value.length > MAX_ARRAY_LENGTH) throw new RangeError(`D-Bus byte array is ${value.length} bytes, over the ${MAX_ARRAY_LENGTH}-byte limit`);
    w.u32(value.length);
    w.reserve(value.length);
    w.buf.set(value, w.pos);
    w.pos += value.length;
    return;
  }
  if (!Array.isArray(value)) throw mismatch('ay', 'a Buffer, Uint8Array or array of byte numbers', value);
  if (value.length > MAX_ARRAY_LENGTH) throw new RangeError(`D-Bus byte array is ${value.length} bytes, over the ${MAX_ARRAY_LENGTH}-byte limit`);
  w.u32(value.length);
  w.reserve(value.length);
  for (const byte of value) {
    if (typeof byte !== 'number' || !Number.isInteger(byte) || byte < 0 || byte > 0xff) throw mismatch('ay', 'byte numbers in 0..255', byte);
    w.buf[w.pos++] = byte;
  }
}

function compileArrayEncoder(type: SigType, element: SigType): Encoder {
  const sig = type.sig;
  const elementAlignment = alignmentOf(element.code);
  const encodeElement = encoderFor(element);
  return (w, value) => {
    if (!Array.isArray(value)) throw mismatch(sig, 'an array', value);
    const lengthAt = beginArray(w, elementAlignment);
    const start = w.pos;
    for (let i = 0; i < value.length; i++) encodeElement(w, value[i]);
    const length = w.pos - start;
    if (length > MAX_ARRAY_LENGTH) throw new RangeError(`D-Bus array "${sig}" is ${length} bytes, over the ${MAX_ARRAY_LENGTH}-byte limit`);
    w.buf.writeUInt32LE(length, lengthAt);
  };
}

function compileDictEncoder(type: SigType, entry: SigType): Encoder {
  const sig = type.sig;
  const keyType = entry.children[0]!;
  const encodeKey = encoderFor(keyType);
  const encodeValue = encoderFor(entry.children[1]!);
  const stringKeys = keyType.code === 's' || keyType.code === 'o' || keyType.code === 'g';
  return (w, value) => {
    const lengthAt = beginArray(w, 8);
    const start = w.pos;
    if (value instanceof Map) {
      for (const [k, v] of value) {
        w.align(8);
        encodeKey(w, k);
        encodeValue(w, v);
      }
    } else if (stringKeys && value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const k of Object.keys(value)) {
        w.align(8);
        encodeKey(w, k);
        encodeValue(w, (value as Record<string, unknown>)[k]);
      }
    } else {
      throw mismatch(sig, stringKeys ? 'a Map or a plain object' : 'a Map', value);
    }
    const length = w.pos - start;
    if (length > MAX_ARRAY_LENGTH) throw new RangeError(`D-Bus dict "${sig}" is ${length} bytes, over the ${MAX_ARRAY_LENGTH}-byte limit`);
    w.buf.writeUInt32LE(length, lengthAt);
  };
}

function compileStructEncoder(type: SigType): Encoder {
  const sig = type.sig;
  const fields = type.children.map(encoderFor);
  const count = fields.length;
  return (w, value) => {
    if (!Array.isArray(value) || value.length !== count) throw mismatch(sig, `an array of ${count} struct fields`, value);
    w.align(8);
    for (let i = 0; i < count; i++) fields[i]!(w, value[i]);
  };
}
