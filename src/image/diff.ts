import type { RawImage } from './raw-image.js';

export interface PixelChange {
  /** Pixels whose colour differs. */
  count: number;
  /** The smallest box holding them, in image pixels. */
  box?: { x: number; y: number; w: number; h: number };
}

/**
 * Where two captures of the same window differ: evidence that an input without accessibility did something. With
 * `within`, only that part of the window is compared (a surface the app draws, whose changes the tree cannot show).
 */
export function pixelChange(before: RawImage, after: RawImage, within?: { x: number; y: number; w: number; h: number }): PixelChange {
  if (before.width !== after.width || before.height !== after.height || before.channels !== after.channels) {
    return { count: before.width * before.height, box: { x: 0, y: 0, w: after.width, h: after.height } };
  }
  const { width, height, channels } = before;
  const [fromX, fromY] = [Math.max(0, Math.floor(within?.x ?? 0)), Math.max(0, Math.floor(within?.y ?? 0))];
  const [toX, toY] = within ? [Math.min(width, Math.ceil(within.x + within.w)), Math.min(height, Math.ceil(within.y + within.h))] : [width, height];
  let count = 0;
  let left = width;
  let top = height;
  let right = -1;
  let bottom = -1;
  for (let y = fromY; y < toY; y++) {
    const row = y * width * channels;
    for (let x = fromX; x < toX; x++) {
      const at = row + x * channels;
      if (before.data[at] === after.data[at] && before.data[at + 1] === after.data[at + 1] && before.data[at + 2] === after.data[at + 2]) continue;
      count++;
      if (x < left) left = x;
      if (x > right) right = x;
      if (y < top) top = y;
      if (y > bottom) bottom = y;
    }
  }
  return count === 0 ? { count } : { count, box: { x: left, y: top, w: right - left + 1, h: bottom - top + 1 } };
}
