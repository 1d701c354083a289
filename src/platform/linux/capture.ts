import type { RawImage } from '../../image/raw-image.js';
import type { RecentCaptures } from './recent-captures.js';
import type { ClientWindow } from './windows.js';
import { toRgb, X11Error, type Image, type X11Connection } from './x11/index.js';

/** A viewable window's client area as the X server holds it. */
async function windowImage(x: X11Connection, window: ClientWindow): Promise<Image> {
  if (window.minimized) {
    throw new Error(`window ${window.id} is minimized, so it has no pixels to capture; bring it to the front first`);
  }
  try {
    return await x.getImage(window.id, 0, 0, window.bounds.width, window.bounds.height);
  } catch (error) {
    if (error instanceof X11Error && error.codeName === 'BadMatch') {
      throw new Error(`window ${window.id} is not viewable (unmapped or on another workspace), so it cannot be captured`);
    }
    throw error;
  }
}

/**
 * The pixels of a window's client area, read from the X server (no subprocess, no image tool). With `recent`,
 * pixels equal to the window's last capture come back as that capture's image (see RecentCaptures).
 */
export async function captureWindowPixels(x: X11Connection, window: ClientWindow, recent?: RecentCaptures): Promise<RawImage> {
  const { width, height } = window.bounds;
  const image = await windowImage(x, window);
  const convert = (): RawImage => ({ width, height, channels: 3, data: toRgb(image, width, height, x.setup, x.findVisual(image.visual)) });
  return recent ? recent.image(window.id, { width, height, depth: image.depth, visual: image.visual }, image.data, convert) : convert();
}
