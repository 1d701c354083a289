import type { CupRect } from '../../cup/types.js';
import type { RawImage } from '../../image/raw-image.js';
import { popupsOver, type Popup } from './popups.js';
import type { RecentCaptures } from './recent-captures.js';
import type { ClientWindow } from './windows.js';
import { toRgb, X11Error, type Image, type X11Connection } from './x11/index.js';

/** A viewable window's client area as the X server holds it. */
async function windowImage(x: X11Connection, window: ClientWindow): Promise<Image> {
  if (window.minimized) {
    throw new Error(`window ${window.id} is minimized, so it has no pixels to capture; bring it to the front first`);
  }
  if (window.shaded) {
    throw new Error(`window ${window.id} is shaded (rolled up into its title bar), so nothing of it shows to capture; bring it to the front first (bring_to_front unrolls it)`);
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

/** The window's image with its popups drawn over it where they overlap its client area (a new image: `base` may be shared). */
async function withPopups(x: X11Connection, window: ClientWindow, base: RawImage, popups: readonly Popup[]): Promise<RawImage> {
  const data = Buffer.from(base.data);
  const { x: left, y: top } = window.bounds;
  for (const popup of popups) {
    let image: Image;
    try {
      image = await x.getImage(popup.id, 0, 0, popup.width, popup.height);
    } catch {
      continue; // Unmapped meanwhile: the menu closed.
    }
    const rgb = toRgb(image, popup.width, popup.height, x.setup, x.findVisual(image.visual));
    const fromX = Math.max(popup.x, left);
    const toX = Math.min(popup.x + popup.width, left + base.width);
    for (let y = Math.max(popup.y, top); y < Math.min(popup.y + popup.height, top + base.height); y++) {
      const source = ((y - popup.y) * popup.width + (fromX - popup.x)) * 3;
      rgb.copy(data, ((y - top) * base.width + (fromX - left)) * 3, source, source + (toX - fromX) * 3);
    }
  }
  return { ...base, data };
}

/**
 * The pixels of a window's client area, read from the X server (no subprocess, no image tool), with the menus and
 * tooltips its client shows over it. With `recent`, pixels equal to the window's last capture come back as that
 * capture's image (see RecentCaptures).
 */
export async function captureWindowPixels(x: X11Connection, window: ClientWindow, recent?: RecentCaptures): Promise<RawImage> {
  const { width, height } = window.bounds;
  const [image, popups] = await Promise.all([windowImage(x, window), popupsOver(x, window).catch((): Popup[] => [])]);
  const convert = (): RawImage => ({ width, height, channels: 3, data: toRgb(image, width, height, x.setup, x.findVisual(image.visual)) });
  const own = recent ? recent.image(window.id, { width, height, depth: image.depth, visual: image.visual }, image.data, convert) : convert();
  return popups.length > 0 ? withPopups(x, window, own, popups) : own;
}

/**
 * The pixels of one box of a window's client area (whole pixels within it), without the popups over it: what a drawn surface
 * shows, read before and after an action. The whole window was read for it before every click on a window holding
 * one, 2.6 ms of a 30 ms click for a 635x640 window whose drawing area was a tenth of it.
 */
export async function captureWindowBox(x: X11Connection, window: ClientWindow, box: CupRect): Promise<RawImage> {
  const inside = box.x >= 0 && box.y >= 0 && box.x + box.w <= window.bounds.width && box.y + box.h <= window.bounds.height;
  if (!inside || !Number.isInteger(box.x + box.y + box.w + box.h)) throw new Error(`box ${JSON.stringify(box)} is not whole pixels within window ${window.id}'s ${window.bounds.width}x${window.bounds.height}`);
  const { w: width, h: height } = box;
  if (width === 0 || height === 0) return { width, height, channels: 3, data: Buffer.alloc(0) };
  const image = await x.getImage(window.id, box.x, box.y, width, height);
  return { width, height, channels: 3, data: toRgb(image, width, height, x.setup, x.findVisual(image.visual)) };
}
