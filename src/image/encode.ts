import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import type { RawImage } from './raw-image.js';

export interface EncodedImage {
  data: Buffer;
  width: number;
  height: number;
  /** Real pixels per image pixel: (x, y) in the image is (x * scale, y * scale) in the source. */
  scale: number;
}

/** Size after fitting the longest side into maxDimension (0 = no limit), never enlarging. */
export function fitWithin(width: number, height: number, maxDimension: number): { width: number; height: number; scale: number } {
  const longest = Math.max(width, height);
  if (maxDimension <= 0 || longest <= maxDimension) return { width, height, scale: 1 };
  const factor = maxDimension / longest;
  const fitted = { width: Math.max(1, Math.round(width * factor)), height: Math.max(1, Math.round(height * factor)) };
  return { ...fitted, scale: width / fitted.width };
}

function input(image: RawImage) {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels } });
}

/** The text chunk (keyword Software) that says a PNG was written by cup-driver: its type and data, as they appear in the file. */
export const OUR_PNG_CHUNK = Buffer.from('tEXtSoftware\0cup-driver', 'latin1');

/** The PNG with OUR_PNG_CHUNK right after its header chunk (IHDR, always first and 13 bytes long). */
export function markPng(png: Buffer): Buffer {
  const headerEnd = 8 + 4 + 4 + 13 + 4;
  const length = Buffer.alloc(4);
  length.writeUInt32BE(OUR_PNG_CHUNK.length - 4);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(OUR_PNG_CHUNK));
  return Buffer.concat([png.subarray(0, headerEnd), length, OUR_PNG_CHUNK, crc, png.subarray(headerEnd)]);
}

/**
 * The encodings made of each image, by maxDimension. Concurrent identical reads share one capture (the same
 * RawImage object), so keying on the object lets them share its encoding too, and never hands an encoding
 * of other pixels: a new capture is a new object. Held weakly: it goes with the image.
 */
const encodings = new WeakMap<RawImage, Map<number, Promise<EncodedImage>>>();

/**
 * PNG for agents: downscaled to maxDimension, marked as the driver's (markPng), so a file written from it can be told from the caller's own. Low zlib effort without adaptive filtering because
 * encoding time sits on every get_window_state call, while a slightly larger file costs nothing in tokens.
 * An image is encoded once per maxDimension however many callers ask (see encodings); the result is shared, not to be changed.
 */
export function encodePng(image: RawImage, maxDimension: number): Promise<EncodedImage> {
  let byDimension = encodings.get(image);
  if (!byDimension) encodings.set(image, (byDimension = new Map()));
  let encoding = byDimension.get(maxDimension);
  if (!encoding) {
    encoding = encodeOnce(image, maxDimension);
    byDimension.set(maxDimension, encoding);
    // A failed encoding is not kept: the next caller tries again.
    encoding.catch(() => byDimension.delete(maxDimension));
  }
  return encoding;
}

async function encodeOnce(image: RawImage, maxDimension: number): Promise<EncodedImage> {
  const size = fitWithin(image.width, image.height, maxDimension);
  let pipeline = input(image);
  if (size.scale !== 1) pipeline = pipeline.resize(size.width, size.height, { kernel: 'lanczos3' });
  const data = markPng(await pipeline.png({ compressionLevel: 2, adaptiveFiltering: false }).toBuffer());
  return { data, width: size.width, height: size.height, scale: size.scale };
}

export interface CropRegion {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Crops a region and scales it to at most maxWidth pixels wide, as JPEG. */
export async function encodeJpegCrop(image: RawImage, region: CropRegion, maxWidth: number): Promise<EncodedImage> {
  const width = Math.min(maxWidth, region.w);
  const height = Math.max(1, Math.round((region.h * width) / region.w));
  const data = await input(image)
    .extract({ left: region.x, top: region.y, width: region.w, height: region.h })
    .resize(width, height, { kernel: 'lanczos3' })
    .jpeg({ quality: 85 })
    .toBuffer();
  return { data, width, height, scale: region.w / width };
}
