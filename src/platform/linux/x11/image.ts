// GetImage, and conversion of the common TrueColor ZPixmap layouts to tightly packed RGB / RGBA.
import { endianness } from 'node:os';
import { requestBuffer } from './encode.js';
import { Opcode } from './opcodes.js';
import type { Setup, Visual } from './setup.js';

export interface Image {
  depth: number;
  /** Visual of the drawable; 0 for a pixmap. */
  visual: number;
  /** Raw image bytes as the server sent them (rows padded to the pixmap format's scanline pad). */
  data: Buffer;
}

export interface GetImageOptions {
  format?: 'ZPixmap' | 'XYPixmap';
  planeMask?: number;
  /** Reply deadline for this capture, when a very large one needs longer than the connection's default. */
  timeoutMs?: number;
}

export function encodeGetImage(drawable: number, x: number, y: number, width: number, height: number, options: GetImageOptions = {}): Buffer {
  const request = requestBuffer(Opcode.GetImage, options.format === 'XYPixmap' ? 1 : 2, 20);
  request.writeUInt32LE(drawable >>> 0, 4);
  request.writeInt16LE(x, 8);
  request.writeInt16LE(y, 10);
  request.writeUInt16LE(width, 12);
  request.writeUInt16LE(height, 14);
  request.writeUInt32LE((options.planeMask ?? 0xffffffff) >>> 0, 16);
  return request;
}

export function parseGetImage(reply: Buffer): Image {
  return { depth: reply[1], visual: reply.readUInt32LE(8), data: reply.subarray(32, 32 + reply.readUInt32LE(4) * 4) };
}

export type ImageLayout = Pick<Setup, 'imageByteOrder' | 'pixmapFormats'>;
export type ChannelMasks = Pick<Visual, 'redMask' | 'greenMask' | 'blueMask'>;

const standardMasks: ChannelMasks = { redMask: 0xff0000, greenMask: 0x00ff00, blueMask: 0x0000ff };
const hostIsLittleEndian = endianness() === 'LE';

interface Layout {
  bytesPerPixel: 3 | 4;
  stride: number;
  red: number;
  green: number;
  blue: number;
  /** Byte offset of the alpha channel within a pixel; -1 when the image has none. */
  alpha: number;
}

/** Where each 8-bit channel sits within a pixel's bytes; throws for layouts this module does not convert. */
function layoutOf(image: Pick<Image, 'depth' | 'data'>, width: number, height: number, setup: ImageLayout, masks: ChannelMasks): Layout {
  const format = setup.pixmapFormats.find((candidate) => candidate.depth === image.depth);
  if (!format) throw new Error(`image depth ${image.depth} has no pixmap format on this server`);
  if (image.depth !== 24 && image.depth !== 32) {
    throw new Error(`cannot convert a depth-${image.depth} image to RGB: only 24- and 32-bit TrueColor are supported`);
  }
  if (format.bitsPerPixel !== 24 && format.bitsPerPixel !== 32) {
    throw new Error(`cannot convert ${format.bitsPerPixel} bits per pixel to RGB: only 24 and 32 are supported`);
  }
  const bytesPerPixel = (format.bitsPerPixel / 8) as 3 | 4;
  const byteOf = (mask: number, channel: string): number => {
    const shift = [0, 8, 16, 24].find((candidate) => mask >>> 0 === (0xff << candidate) >>> 0);
    if (shift === undefined || shift / 8 >= bytesPerPixel) {
      throw new Error(`cannot convert to RGB: ${channel} mask 0x${(mask >>> 0).toString(16)} is not a whole byte of the pixel`);
    }
    const lsbIndex = shift / 8;
    return setup.imageByteOrder === 'LSBFirst' ? lsbIndex : bytesPerPixel - 1 - lsbIndex;
  };
  const red = byteOf(masks.redMask, 'red');
  const green = byteOf(masks.greenMask, 'green');
  const blue = byteOf(masks.blueMask, 'blue');
  // Depth 32 keeps alpha in the byte the colour masks leave free; depth 24 in 32 bpp has a padding byte instead.
  const alpha = image.depth === 32 && bytesPerPixel === 4 ? 6 - red - green - blue : -1;
  const pad = format.scanlinePad;
  const stride = (Math.ceil((width * format.bitsPerPixel) / pad) * pad) / 8;
  if (image.data.length < stride * height) {
    throw new Error(`image data is ${image.data.length} bytes, but ${width}x${height} at ${format.bitsPerPixel} bpp needs ${stride * height}`);
  }
  return { bytesPerPixel, stride, red, green, blue, alpha };
}

/** A 32-bit view over `data` when its offset allows one, else undefined. */
function wordView(data: Buffer, words: number): Uint32Array | undefined {
  return data.byteOffset % 4 === 0 ? new Uint32Array(data.buffer, data.byteOffset, words) : undefined;
}

/**
 * Converts a ZPixmap image to tightly packed RGB (3 bytes per pixel, rows not padded). `visual` gives the channel
 * masks (from `X11Connection.findVisual(image.visual)`); without it the usual 0xff0000/0xff00/0xff is assumed.
 */
export function toRgb(image: Pick<Image, 'depth' | 'data'>, width: number, height: number, setup: ImageLayout, visual?: ChannelMasks): Buffer {
  const layout = layoutOf(image, width, height, setup, visual ?? standardMasks);
  const out = Buffer.allocUnsafeSlow(width * height * 3);
  const src = image.data;
  const { bytesPerPixel, stride, red, green, blue } = layout;
  const words = bytesPerPixel === 4 && stride === width * 4 && hostIsLittleEndian ? wordView(src, width * height) : undefined;
  if (words) {
    const r = red * 8;
    const g = green * 8;
    const b = blue * 8;
    for (let i = 0, j = 0; i < words.length; i++, j += 3) {
      const pixel = words[i];
      out[j] = pixel >>> r;
      out[j + 1] = pixel >>> g;
      out[j + 2] = pixel >>> b;
    }
    return out;
  }
  let j = 0;
  for (let y = 0; y < height; y++) {
    const end = y * stride + width * bytesPerPixel;
    for (let p = y * stride; p < end; p += bytesPerPixel, j += 3) {
      out[j] = src[p + red];
      out[j + 1] = src[p + green];
      out[j + 2] = src[p + blue];
    }
  }
  return out;
}

/** Like toRgb with a fourth byte: the pixel's alpha for depth-32 images, 255 otherwise. */
export function toRgba(image: Pick<Image, 'depth' | 'data'>, width: number, height: number, setup: ImageLayout, visual?: ChannelMasks): Buffer {
  const layout = layoutOf(image, width, height, setup, visual ?? standardMasks);
  const out = Buffer.allocUnsafeSlow(width * height * 4);
  const src = image.data;
  const { bytesPerPixel, stride, red, green, blue, alpha } = layout;
  const words = bytesPerPixel === 4 && stride === width * 4 && hostIsLittleEndian ? wordView(src, width * height) : undefined;
  if (words && red === 2 && green === 1 && blue === 0) {
    // BGRX/BGRA in memory: swap red and blue in one 32-bit operation per pixel.
    const dest = new Uint32Array(out.buffer, out.byteOffset, width * height);
    const alphaBits = alpha < 0 ? 0xff000000 : 0;
    for (let i = 0; i < words.length; i++) {
      const pixel = words[i];
      dest[i] = (pixel & 0xff00ff00) | ((pixel >>> 16) & 0xff) | ((pixel & 0xff) << 16) | alphaBits;
    }
    return out;
  }
  let j = 0;
  for (let y = 0; y < height; y++) {
    const end = y * stride + width * bytesPerPixel;
    for (let p = y * stride; p < end; p += bytesPerPixel, j += 4) {
      out[j] = src[p + red];
      out[j + 1] = src[p + green];
      out[j + 2] = src[p + blue];
      out[j + 3] = alpha < 0 ? 255 : src[p + alpha];
    }
  }
  return out;
}

/**
 * Tightly packed RGBA as a ZPixmap image of `depth` for PutImage: the inverse of toRgba for the same layouts
 * (24- and 32-bit TrueColor, rows padded to the format's scanline pad). Alpha is dropped on depth 24.
 */
export function fromRgba(rgba: Buffer, width: number, height: number, depth: number, setup: ImageLayout, visual?: ChannelMasks): Buffer {
  const format = setup.pixmapFormats.find((candidate) => candidate.depth === depth);
  if (!format) throw new Error(`depth ${depth} has no pixmap format on this server`);
  const pad = format.scanlinePad;
  const stride = (Math.ceil((width * format.bitsPerPixel) / pad) * pad) / 8;
  const out = Buffer.alloc(stride * height);
  const layout = layoutOf({ depth, data: out }, width, height, setup, visual ?? standardMasks);
  const { bytesPerPixel, red, green, blue, alpha } = layout;
  for (let y = 0, j = 0; y < height; y++) {
    const end = y * stride + width * bytesPerPixel;
    for (let p = y * stride; p < end; p += bytesPerPixel, j += 4) {
      out[p + red] = rgba[j]!;
      out[p + green] = rgba[j + 1]!;
      out[p + blue] = rgba[j + 2]!;
      if (alpha >= 0) out[p + alpha] = rgba[j + 3]!;
    }
  }
  return out;
}

/** PutImage of a ZPixmap (as fromRgba makes it) at (x, y) of the drawable. */
export function encodePutImage(drawable: number, gc: number, width: number, height: number, x: number, y: number, depth: number, data: Buffer): Buffer {
  const request = requestBuffer(Opcode.PutImage, 2, 24 + data.length);
  request.writeUInt32LE(drawable >>> 0, 4);
  request.writeUInt32LE(gc >>> 0, 8);
  request.writeUInt16LE(width, 12);
  request.writeUInt16LE(height, 14);
  request.writeInt16LE(x, 16);
  request.writeInt16LE(y, 18);
  request[20] = 0;
  request[21] = depth;
  data.copy(request, 24);
  return request;
}
