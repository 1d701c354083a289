/** How a returned screenshot relates to the real window: pixel (x, y) in the image is (x * scale, y * scale) in the window. */
export interface ScreenshotMapping {
  windowId: number;
  imageWidth: number;
  imageHeight: number;
  windowWidth: number;
  windowHeight: number;
  scale: number;
}

/** The window region a zoom image shows, in real window pixels, and the zoom image's size. */
export interface ZoomMapping {
  windowId: number;
  region: { x: number; y: number; w: number; h: number };
  imageWidth: number;
  imageHeight: number;
}

/** Remembers the latest screenshot scale per window and the latest zoom per pid, so pixel coordinates map back. */
export class ImageMappings {
  private readonly screenshots = new Map<number, ScreenshotMapping>();
  private readonly zooms = new Map<number, ZoomMapping>();

  rememberScreenshot(mapping: ScreenshotMapping): void {
    this.screenshots.set(mapping.windowId, mapping);
  }

  screenshot(windowId: number): ScreenshotMapping | undefined {
    return this.screenshots.get(windowId);
  }

  rememberZoom(pid: number, mapping: ZoomMapping): void {
    this.zooms.set(pid, mapping);
  }

  zoom(pid: number): ZoomMapping | undefined {
    return this.zooms.get(pid);
  }

  /** Screenshot pixels of a window → real window pixels (identity when no downscaled screenshot was returned). */
  screenshotToWindow(windowId: number, x: number, y: number): { x: number; y: number } {
    const scale = this.screenshots.get(windowId)?.scale ?? 1;
    return { x: x * scale, y: y * scale };
  }

  /** Zoom image pixels → real window pixels, or undefined when this pid has no zoom. */
  zoomToWindow(pid: number, x: number, y: number): { windowId: number; x: number; y: number } | undefined {
    const zoom = this.zooms.get(pid);
    if (!zoom) return undefined;
    return {
      windowId: zoom.windowId,
      x: zoom.region.x + (x * zoom.region.w) / zoom.imageWidth,
      y: zoom.region.y + (y * zoom.region.h) / zoom.imageHeight,
    };
  }
}
