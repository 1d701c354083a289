import type { RawImage } from '../../image/raw-image.js';
import type { ClientWindow } from './windows.js';
import { toRgb, X11Error, type X11Connection } from './x11/index.js';

/** The pixels of a window's client area, read from the X server (no subprocess, no image tool). */
export async function captureWindowPixels(x: X11Connection, window: ClientWindow): Promise<RawImage> {
  if (window.minimized) {
    throw new Error(`window ${window.id} is minimized, so it has no pixels to capture; bring it to the front first`);
  }
  const { width, height } = window.bounds;
  let image;
  try {
    image = await x.getImage(window.id, 0, 0, width, height);
  } catch (error) {
    if (error instanceof X11Error && error.codeName === 'BadMatch') {
      throw new Error(`window ${window.id} is not viewable (unmapped or on another workspace), so it cannot be captured`);
    }
    throw error;
  }
  const data = toRgb(image, width, height, x.setup, x.findVisual(image.visual));
  return { width, height, channels: 3, data };
}
