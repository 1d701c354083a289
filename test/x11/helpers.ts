// Shared test helpers: waiting for an event, reading pixels back, and building Xauthority files by hand.
import { toRgb, type X11Connection, type X11Event } from '../../src/platform/linux/x11/index.js';

export function waitForEvent<T extends X11Event>(
  connection: X11Connection,
  predicate: (event: X11Event) => event is T,
  timeoutMs = 3000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no matching event within ${timeoutMs} ms`));
    }, timeoutMs);
    const off = connection.onEvent((event) => {
      if (!predicate(event)) return;
      clearTimeout(timer);
      off();
      resolve(event);
    });
  });
}

/**
 * Reads a width x height box of `drawable` with its top-left at `origin` once; the function returned gives the
 * colour at (x, y) inside the box as hex RGB.
 */
export async function readPixels(
  connection: X11Connection,
  drawable: number,
  width: number,
  height: number,
  origin = { x: 0, y: 0 },
): Promise<(x: number, y: number) => string> {
  const rgb = toRgb(await connection.getImage(drawable, origin.x, origin.y, width, height), width, height, connection.setup);
  return (x, y) => rgb.subarray((y * width + x) * 3, (y * width + x) * 3 + 3).toString('hex');
}

export interface XauthRecord {
  family: number;
  address: Buffer | string;
  number: string;
  name: string;
  data: Buffer;
}

/** The on-disk Xauthority format: u16 BE family, then four u16-BE-length-prefixed strings. */
export function buildXauthority(records: XauthRecord[]): Buffer {
  const parts: Buffer[] = [];
  const counted = (value: Buffer | string): Buffer => {
    const bytes = typeof value === 'string' ? Buffer.from(value, 'latin1') : value;
    const length = Buffer.alloc(2);
    length.writeUInt16BE(bytes.length);
    return Buffer.concat([length, bytes]);
  };
  for (const record of records) {
    const family = Buffer.alloc(2);
    family.writeUInt16BE(record.family);
    parts.push(family, counted(record.address), counted(record.number), counted(record.name), counted(record.data));
  }
  return Buffer.concat(parts);
}
