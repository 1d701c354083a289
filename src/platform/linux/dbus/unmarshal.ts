import { Buffer } from 'node:buffer';
import { DBusProtocolError } from './errors.js';
import { MAX_ARRAY_LENGTH } from './marshal.js';
import { alignmentOf, cacheSet, parseSignature, parseSingleType, type SigType } from './signature.js';
import { Variant } from './variant.js';

/** Variants can nest without any signature showing it, so recursion is bounded here instead. */
const MAX_VARIANT_DEPTH = 64;

/** A cursor over one message (or body) inside a larger buffer; `base` is where alignment is counted from. */
export class Reader {
  pos: number;
  depth = 0;

  constructor(
    readonly buf: Buffer,
    pos: number,
    readonly base: number,
    readonly end: number,
    readonly littleEndian: boolean,
  ) {
    this.pos = pos;
  }

  /** Aligns, checks `size` bytes remain, advances past them and returns where they start. */
  take(alignment: number, size: number): number {
    const pad = (alignment - ((this.pos - this.base) % alignment)) % alignment;
    const start = this.pos + pad;
    if (start + size > this.end) throw truncated(size, start, this);
    this.pos = start + size;
    return start;
  }

  align(alignment: number): void {
    this.take(alignment, 0);
  }

  u8(): number {
    return this.buf[this.take(1, 1)]!;
  }

  u32(): number {
    const at = this.take(4, 4);
    return this.littleEndian ? this.buf.readUInt32LE(at) : this.buf.readUInt32BE(at);
  }

  string(): string {
    const length = this.u32();
    const start = this.take(1, length + 1);
    if (this.buf[start + length] !== 0) throw new DBusProtocolError(`malformed D-Bus message: string at offset ${start - this.base} is not NUL-terminated`);
    return this.buf.toString('utf8', start, start + length);
  }

  signature(): string {
    const length = this.u8();
    const start = this.take(1, length + 1);
    if (this.buf[start + length] !== 0) throw new DBusProtocolError(`malformed D-Bus message: signature at offset ${start - this.base} is not NUL-terminated`);
    return this.buf.toString('latin1', start, start + length);
  }
}

function truncated(size: number, at: number, r: Reader): DBusProtocolError {
  return new DBusProtocolError(`malformed D-Bus message: needs ${size} byte(s) at offset ${at - r.base} but it ends at ${r.end - r.base}`);
}

export type Decoder = (r: Reader) => unknown;
export type BodyDecoder = (r: Reader) => unknown[];

// Separate caches per byte order so each compiled closure reads with one fixed byte order.
const littleDecoders = new Map<string, Decoder>();
const bigDecoders = new Map<string, Decoder>();
const littleBodyDecoders = new Map<string, BodyDecoder>();
const bigBodyDecoders = new Map<string, BodyDecoder>();

export function decoderFor(type: SigType, littleEndian: boolean): Decoder {
  const cache = littleEndian ? littleDecoders : bigDecoders;
  let decoder = cache.get(type.sig);
  if (decoder === undefined) {
    decoder = compileDecoder(type, littleEndian);
    cacheSet(cache, type.sig, decoder);
  }
  return decoder;
}

export function bodyDecoderFor(signature: string, littleEndian: boolean): BodyDecoder {
  const cache = littleEndian ? littleBodyDecoders : bigBodyDecoders;
  let decoder = cache.get(signature);
  if (decoder === undefined) {
    const decs = parseSignature(signature).map((type) => decoderFor(type, littleEndian));
    decoder = (r) => {
      const values = new Array<unknown>(decs.length);
      for (let i = 0; i < decs.length; i++) values[i] = decs[i]!(r);
      return values;
    };
    cacheSet(cache, signature, decoder);
  }
  return decoder;
}

/**
 * Unmarshals a standalone body. Alignment is counted from `offset`, which must therefore be where the
 * body's 8-aligned region starts; the whole rest of the buffer must be consumed.
 */
export function unmarshal(signature: string, buffer: Buffer, options: { bigEndian?: boolean; offset?: number } = {}): unknown[] {
  const offset = options.offset ?? 0;
  const r = new Reader(buffer, offset, offset, buffer.length, options.bigEndian !== true);
  const values = bodyDecoderFor(signature, r.littleEndian)(r);
  if (r.pos !== r.end) throw new DBusProtocolError(`malformed D-Bus data: ${r.end - r.pos} byte(s) left over after "${signature}"`);
  return values;
}

function compileDecoder(type: SigType, le: boolean): Decoder {
  switch (type.code) {
    case 'y':
      return (r) => r.u8();
    case 'b':
      return (r) => {
        const value = r.u32();
        if (value > 1) throw new DBusProtocolError(`malformed D-Bus message: boolean holds ${value}, expected 0 or 1`);
        return value === 1;
      };
    case 'n':
      return le ? (r) => r.buf.readInt16LE(r.take(2, 2)) : (r) => r.buf.readInt16BE(r.take(2, 2));
    case 'q':
      return le ? (r) => r.buf.readUInt16LE(r.take(2, 2)) : (r) => r.buf.readUInt16BE(r.take(2, 2));
    case 'i':
      return le ? (r) => r.buf.readInt32LE(r.take(4, 4)) : (r) => r.buf.readInt32BE(r.take(4, 4));
    case 'u':
    case 'h':
      return le ? (r) => r.buf.readUInt32LE(r.take(4, 4)) : (r) => r.buf.readUInt32BE(r.take(4, 4));
    case 'x':
      return le ? (r) => r.buf.readBigInt64LE(r.take(8, 8)) : (r) => r.buf.readBigInt64BE(r.take(8, 8));
    case 't':
      return le ? (r) => r.buf.readBigUInt64LE(r.take(8, 8)) : (r) => r.buf.readBigUInt64BE(r.take(8, 8));
    case 'd':
      return le ? (r) => r.buf.readDoubleLE(r.take(8, 8)) : (r) => r.buf.readDoubleBE(r.take(8, 8));
    case 's':
    case 'o':
      return (r) => r.string();
    case 'g':
      return (r) => r.signature();
    case 'v':
      return decodeVariant;
    case '(': {
      const fields = type.children.map((field) => decoderFor(field, le));
      return (r) => {
        r.align(8);
        const values = new Array<unknown>(fields.length);
        for (let i = 0; i < fields.length; i++) values[i] = fields[i]!(r);
        return values;
      };
    }
    case 'a': {
      const element = type.children[0]!;
      if (element.code === 'y') return decodeByteArray;
      if (element.code === '{') return compileDictDecoder(element, le);
      return compileArrayDecoder(element, le);
    }
    default:
      throw new DBusProtocolError(`invalid D-Bus signature "${type.sig}"`);
  }
}

function decodeVariant(r: Reader): Variant {
  const signature = r.signature();
  let type: SigType;
  try {
    type = parseSingleType(signature);
  } catch (error) {
    throw new DBusProtocolError(`malformed D-Bus message: variant has ${(error as Error).message}`);
  }
  if (++r.depth > MAX_VARIANT_DEPTH) throw new DBusProtocolError(`malformed D-Bus message: variants nested deeper than ${MAX_VARIANT_DEPTH}`);
  const value = decoderFor(type, r.littleEndian)(r);
  r.depth--;
  return new Variant(signature, value);
}

/** Reads an array's length and the padding before its first element; returns where the elements end. */
function beginArray(r: Reader, elementAlignment: number): number {
  const length = r.u32();
  if (length > MAX_ARRAY_LENGTH) throw new DBusProtocolError(`malformed D-Bus message: array of ${length} bytes exceeds the ${MAX_ARRAY_LENGTH}-byte limit`);
  r.align(elementAlignment);
  const end = r.pos + length;
  if (end > r.end) throw truncated(length, r.pos, r);
  return end;
}

function checkArrayEnd(r: Reader, end: number): void {
  if (r.pos !== end) throw new DBusProtocolError(`malformed D-Bus message: array elements overrun the array's length by ${r.pos - end} byte(s)`);
}

function decodeByteArray(r: Reader): Buffer {
  const end = beginArray(r, 1);
  // A copy, so a small value does not pin the whole incoming read buffer in memory.
  const bytes = Buffer.from(r.buf.subarray(r.pos, end));
  r.pos = end;
  return bytes;
}

function compileArrayDecoder(element: SigType, le: boolean): Decoder {
  const decodeElement = decoderFor(element, le);
  const alignment = alignmentOf(element.code);
  return (r) => {
    const end = beginArray(r, alignment);
    const items: unknown[] = [];
    while (r.pos < end) items.push(decodeElement(r));
    checkArrayEnd(r, end);
    return items;
  };
}

function compileDictDecoder(entry: SigType, le: boolean): Decoder {
  const decodeKey = decoderFor(entry.children[0]!, le);
  const decodeValue = decoderFor(entry.children[1]!, le);
  return (r) => {
    const end = beginArray(r, 8);
    const map = new Map<unknown, unknown>();
    while (r.pos < end) {
      r.align(8);
      const key = decodeKey(r);
      map.set(key, decodeValue(r));
    }
    checkArrayEnd(r, end);
    return map;
  };
}
