// Window properties: GetProperty / ChangeProperty / DeleteProperty and decoders for the common value types.
import { Atom, AnyPropertyType } from './atoms.js';
import { requestBuffer } from './encode.js';
import { Opcode } from './opcodes.js';

export interface PropertyValue {
  type: number;
  format: 0 | 8 | 16 | 32;
  /** Raw value bytes; 16- and 32-bit items are little-endian (this connection's byte order). */
  data: Buffer;
  /** Bytes of the value beyond what was returned (non-zero when `length` was too small or the type mismatched). */
  bytesAfter: number;
}

export interface GetPropertyOptions {
  /** Required type; on mismatch the reply has the actual type and no data. Default AnyPropertyType (0). */
  type?: number;
  /** Offset into the value in 32-bit units. */
  offset?: number;
  /** Maximum length to return in 32-bit units. */
  length?: number;
  /** Delete the property after reading (only when the whole value was returned). */
  delete?: boolean;
}

export type PropertyMode = 'replace' | 'prepend' | 'append';

// Large enough for any real property, small enough that servers computing 4 * length in 32 bits do not overflow.
const defaultLongLength = 0x1fffffff;
const modes: Record<PropertyMode, number> = { replace: 0, prepend: 1, append: 2 };

export function encodeGetProperty(window: number, property: number, options: GetPropertyOptions = {}): Buffer {
  const request = requestBuffer(Opcode.GetProperty, options.delete ? 1 : 0, 24);
  request.writeUInt32LE(window >>> 0, 4);
  request.writeUInt32LE(property >>> 0, 8);
  request.writeUInt32LE((options.type ?? AnyPropertyType) >>> 0, 12);
  request.writeUInt32LE((options.offset ?? 0) >>> 0, 16);
  request.writeUInt32LE((options.length ?? defaultLongLength) >>> 0, 20);
  return request;
}

/** null when the property does not exist on the window. */
export function parseGetProperty(reply: Buffer): PropertyValue | null {
  const type = reply.readUInt32LE(8);
  const format = reply[1];
  if (type === 0 && format === 0) return null;
  const items = reply.readUInt32LE(16);
  const byteLength = items * (format / 8);
  return {
    type,
    format: format === 8 || format === 16 || format === 32 ? format : 0,
    data: reply.subarray(32, 32 + byteLength),
    bytesAfter: reply.readUInt32LE(12),
  };
}

export function encodeChangeProperty(
  window: number,
  property: number,
  type: number,
  format: 8 | 16 | 32,
  data: Buffer | readonly number[],
  mode: PropertyMode = 'replace',
): Buffer {
  const bytes = Buffer.isBuffer(data) ? data : packItems(format, data);
  const unit = format / 8;
  if (bytes.length % unit !== 0) throw new RangeError(`format-${format} property data must be a multiple of ${unit} bytes, got ${bytes.length}`);
  const request = requestBuffer(Opcode.ChangeProperty, modes[mode], 24 + bytes.length);
  request.writeUInt32LE(window >>> 0, 4);
  request.writeUInt32LE(property >>> 0, 8);
  request.writeUInt32LE(type >>> 0, 12);
  request[16] = format;
  request.writeUInt32LE(bytes.length / unit, 20);
  bytes.copy(request, 24);
  return request;
}

function packItems(format: 8 | 16 | 32, items: readonly number[]): Buffer {
  const bytes = Buffer.alloc(items.length * (format / 8));
  items.forEach((item, index) => {
    if (format === 8) bytes[index] = item & 0xff;
    else if (format === 16) bytes.writeUInt16LE(item & 0xffff, index * 2);
    else bytes.writeUInt32LE(item >>> 0, index * 4);
  });
  return bytes;
}

export function encodeDeleteProperty(window: number, property: number): Buffer {
  const request = requestBuffer(Opcode.DeleteProperty, 0, 12);
  request.writeUInt32LE(window >>> 0, 4);
  request.writeUInt32LE(property >>> 0, 8);
  return request;
}

/** The value's items as unsigned numbers, whatever the format. */
export function propertyItems(value: PropertyValue): number[] {
  const { data, format } = value;
  const items: number[] = [];
  if (format === 32) for (let offset = 0; offset + 4 <= data.length; offset += 4) items.push(data.readUInt32LE(offset));
  else if (format === 16) for (let offset = 0; offset + 2 <= data.length; offset += 2) items.push(data.readUInt16LE(offset));
  else if (format === 8) for (const byte of data) items.push(byte);
  return items;
}

/** Text of an 8-bit property: STRING is Latin-1 by definition; UTF8_STRING and others are read as UTF-8. */
export function propertyText(value: PropertyValue): string | null {
  if (value.format !== 8) return null;
  return value.data.toString(value.type === Atom.STRING ? 'latin1' : 'utf8');
}
