// Small helpers for laying out little-endian request bytes.

export function pad4(length: number): number {
  return (length + 3) & ~3;
}

/**
 * A zeroed request of `size` bytes (rounded up to 4) with the opcode, the request's spare data byte and the
 * length field filled in. A request too long for the 16-bit length field gets 0 there; the connection turns it
 * into a BIG-REQUESTS request or refuses it.
 */
export function requestBuffer(opcode: number, data: number, size: number): Buffer {
  const request = Buffer.alloc(pad4(size));
  request[0] = opcode;
  request[1] = data;
  const units = request.length / 4;
  request.writeUInt16LE(units > 0xffff ? 0 : units, 2);
  return request;
}

/** The many requests whose whole body is one resource id (MapWindow, GetGeometry, FreeGC...). */
export function idRequest(opcode: number, id: number): Buffer {
  const request = requestBuffer(opcode, 0, 8);
  request.writeUInt32LE(id >>> 0, 4);
  return request;
}

/** Bitmask-selected value lists (CreateWindow, ChangeGC, ConfigureWindow...): entries must be in bit order. */
export function valueList(entries: readonly (readonly [bit: number, value: number | boolean | undefined])[]): { mask: number; values: number[] } {
  let mask = 0;
  const values: number[] = [];
  for (const [bit, value] of entries) {
    if (value === undefined) continue;
    mask |= bit;
    values.push(typeof value === 'boolean' ? Number(value) : value);
  }
  return { mask: mask >>> 0, values };
}

/** Each value occupies 4 bytes; signed fields (x, y) are sign-extended, which `>>> 0` preserves bit-for-bit. */
export function writeValues(request: Buffer, offset: number, values: readonly number[]): void {
  values.forEach((value, index) => request.writeUInt32LE(value >>> 0, offset + index * 4));
}

/** Latin-1 bytes for names the protocol treats as STRING8 (atom and extension names). */
export function string8(text: string): Buffer {
  return Buffer.from(text, 'latin1');
}
