// Composite: redirecting windows into off-screen pixmaps, so covered windows keep their own contents.
import type { X11Core } from '../connection.js';
import { requestBuffer } from '../encode.js';
import { Extension, type ExtensionRegistry } from './registry.js';

export type RedirectUpdate = 'automatic' | 'manual';

const requestNames = [
  'QueryVersion', 'RedirectWindow', 'RedirectSubwindows', 'UnredirectWindow', 'UnredirectSubwindows',
  'CreateRegionFromBorderClip', 'NameWindowPixmap', 'GetOverlayWindow', 'ReleaseOverlayWindow',
];

export class Composite {
  private readonly extension: Extension;
  private negotiated: Promise<{ major: number; minor: number }> | undefined;
  // Once the version exchange is done, requests go out synchronously and so keep the caller's order.
  private ready = false;

  constructor(
    private readonly core: X11Core,
    registry: ExtensionRegistry,
    private readonly allocateId: () => number,
  ) {
    this.extension = new Extension(core, registry, 'Composite', requestNames);
  }

  /** Announces our version (0.4) and returns the server's; done once, before any other Composite request. */
  queryVersion(): Promise<{ major: number; minor: number }> {
    if (!this.negotiated) {
      this.negotiated = this.extension.request(
        (major) => {
          const request = requestBuffer(major, 0, 12);
          request.writeUInt32LE(0, 4);
          request.writeUInt32LE(4, 8);
          return request;
        },
        (reply) => {
          this.ready = true;
          return { major: reply.readUInt32LE(8), minor: reply.readUInt32LE(12) };
        },
      );
      this.negotiated.catch(() => {
        this.negotiated = undefined;
      });
    }
    return this.negotiated;
  }

  /** Redirects `window` (and its descendants) off screen; 'automatic' keeps the screen updated by the server. */
  redirectWindow(window: number, update: RedirectUpdate): Promise<void> {
    return this.windowRequest(1, window, update);
  }

  /** Redirects every current and future child of `window` (on the root: every top-level window). */
  redirectSubwindows(window: number, update: RedirectUpdate): Promise<void> {
    return this.windowRequest(2, window, update);
  }

  unredirectWindow(window: number, update: RedirectUpdate): Promise<void> {
    return this.windowRequest(3, window, update);
  }

  unredirectSubwindows(window: number, update: RedirectUpdate): Promise<void> {
    return this.windowRequest(4, window, update);
  }

  /**
   * A pixmap naming the off-screen storage of a redirected, viewable window (free it with freePixmap). Checked,
   * because a window that is not redirected or not mapped makes the server refuse with BadMatch.
   */
  async nameWindowPixmap(window: number): Promise<number> {
    if (!this.ready) await this.queryVersion();
    const pixmap = this.allocateId();
    await this.core.checked(() =>
      this.extension.send((major) => {
        const request = requestBuffer(major, 6, 12);
        request.writeUInt32LE(window >>> 0, 4);
        request.writeUInt32LE(pixmap >>> 0, 8);
        return request;
      }),
    );
    return pixmap;
  }

  private async windowRequest(minor: number, window: number, update: RedirectUpdate): Promise<void> {
    if (!this.ready) await this.queryVersion();
    return this.extension.send((major) => {
      const request = requestBuffer(major, minor, 12);
      request.writeUInt32LE(window >>> 0, 4);
      request[8] = update === 'manual' ? 1 : 0;
      return request;
    });
  }
}
