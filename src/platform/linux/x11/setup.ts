// Connection setup: the client's opening message and the server's answer (success, failure, or "authenticate").
import { pad4 } from './encode.js';
import type { AuthCookie } from './xauthority.js';

export interface Visual {
  visualId: number;
  class: 'StaticGray' | 'GrayScale' | 'StaticColor' | 'PseudoColor' | 'TrueColor' | 'DirectColor';
  bitsPerRgbValue: number;
  colormapEntries: number;
  redMask: number;
  greenMask: number;
  blueMask: number;
}

export interface Screen {
  root: number;
  width: number;
  height: number;
  widthMm: number;
  heightMm: number;
  rootDepth: number;
  rootVisual: number;
  defaultColormap: number;
  whitePixel: number;
  blackPixel: number;
  currentInputMasks: number;
  depths: { depth: number; visuals: Visual[] }[];
}

export interface PixmapFormat {
  depth: number;
  bitsPerPixel: number;
  scanlinePad: number;
}

export interface Setup {
  protocolMajor: number;
  protocolMinor: number;
  vendor: string;
  release: number;
  resourceIdBase: number;
  resourceIdMask: number;
  /** In 4-byte units, as the core protocol counts request lengths. */
  maxRequestLength: number;
  imageByteOrder: 'LSBFirst' | 'MSBFirst';
  bitmapBitOrder: 'LeastSignificant' | 'MostSignificant';
  bitmapScanlineUnit: number;
  bitmapScanlinePad: number;
  minKeycode: number;
  maxKeycode: number;
  pixmapFormats: PixmapFormat[];
  screens: Screen[];
}

const visualClasses: Visual['class'][] = ['StaticGray', 'GrayScale', 'StaticColor', 'PseudoColor', 'TrueColor', 'DirectColor'];

/** The opening message, little-endian ('l'), protocol 11.0. */
export function encodeSetupRequest(cookie: AuthCookie | undefined): Buffer {
  const name = Buffer.from(cookie?.name ?? '', 'latin1');
  const data = cookie?.data ?? Buffer.alloc(0);
  const message = Buffer.alloc(12 + pad4(name.length) + pad4(data.length));
  message[0] = 0x6c;
  message.writeUInt16LE(11, 2);
  message.writeUInt16LE(0, 4);
  message.writeUInt16LE(name.length, 6);
  message.writeUInt16LE(data.length, 8);
  name.copy(message, 12);
  data.copy(message, 12 + pad4(name.length));
  return message;
}

/** Total size of the server's answer once its 8-byte header is in hand. */
export function setupReplyLength(header: Buffer): number {
  return 8 + header.readUInt16LE(6) * 4;
}

export type SetupOutcome = { ok: true; setup: Setup } | { ok: false; status: 'failed' | 'authenticate'; reason: string };

export function parseSetupReply(reply: Buffer): SetupOutcome {
  const status = reply[0];
  if (status === 0) {
    const reasonLength = reply[1];
    return { ok: false, status: 'failed', reason: reply.toString('latin1', 8, 8 + reasonLength).trim() };
  }
  if (status === 2) {
    // The reason's length is implied by the total length; servers pad it with NULs.
    return { ok: false, status: 'authenticate', reason: reply.toString('latin1', 8).replace(/\0+$/, '').trim() };
  }
  if (status !== 1) throw new Error(`X server sent an unknown connection setup status ${status}`);

  const vendorLength = reply.readUInt16LE(24);
  const screenCount = reply[28];
  const formatCount = reply[29];
  let offset = 40;
  const vendor = reply.toString('latin1', offset, offset + vendorLength);
  offset += pad4(vendorLength);

  const pixmapFormats: PixmapFormat[] = [];
  for (let i = 0; i < formatCount; i++) {
    pixmapFormats.push({ depth: reply[offset], bitsPerPixel: reply[offset + 1], scanlinePad: reply[offset + 2] });
    offset += 8;
  }

  const screens: Screen[] = [];
  for (let i = 0; i < screenCount; i++) {
    const depthCount = reply[offset + 39];
    const screen: Screen = {
      root: reply.readUInt32LE(offset),
      defaultColormap: reply.readUInt32LE(offset + 4),
      whitePixel: reply.readUInt32LE(offset + 8),
      blackPixel: reply.readUInt32LE(offset + 12),
      currentInputMasks: reply.readUInt32LE(offset + 16),
      width: reply.readUInt16LE(offset + 20),
      height: reply.readUInt16LE(offset + 22),
      widthMm: reply.readUInt16LE(offset + 24),
      heightMm: reply.readUInt16LE(offset + 26),
      rootVisual: reply.readUInt32LE(offset + 32),
      rootDepth: reply[offset + 38],
      depths: [],
    };
    offset += 40;
    for (let d = 0; d < depthCount; d++) {
      const depth = reply[offset];
      const visualCount = reply.readUInt16LE(offset + 2);
      offset += 8;
      const visuals: Visual[] = [];
      for (let v = 0; v < visualCount; v++) {
        visuals.push({
          visualId: reply.readUInt32LE(offset),
          class: visualClasses[reply[offset + 4]] ?? 'TrueColor',
          bitsPerRgbValue: reply[offset + 5],
          colormapEntries: reply.readUInt16LE(offset + 6),
          redMask: reply.readUInt32LE(offset + 8),
          greenMask: reply.readUInt32LE(offset + 12),
          blueMask: reply.readUInt32LE(offset + 16),
        });
        offset += 24;
      }
      screen.depths.push({ depth, visuals });
    }
    screens.push(screen);
  }

  return {
    ok: true,
    setup: {
      protocolMajor: reply.readUInt16LE(2),
      protocolMinor: reply.readUInt16LE(4),
      vendor,
      release: reply.readUInt32LE(8),
      resourceIdBase: reply.readUInt32LE(12),
      resourceIdMask: reply.readUInt32LE(16),
      maxRequestLength: reply.readUInt16LE(26),
      imageByteOrder: reply[30] === 0 ? 'LSBFirst' : 'MSBFirst',
      bitmapBitOrder: reply[31] === 0 ? 'LeastSignificant' : 'MostSignificant',
      bitmapScanlineUnit: reply[32],
      bitmapScanlinePad: reply[33],
      minKeycode: reply[34],
      maxKeycode: reply[35],
      pixmapFormats,
      screens,
    },
  };
}
