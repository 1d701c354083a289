// XTEST: synthesized input that the server treats as coming from its real devices.
import type { X11Core } from '../connection.js';
import { requestBuffer } from '../encode.js';
import { EventCode } from '../events.js';
import { Extension, type ExtensionRegistry } from './registry.js';

export type FakeEventType = 'KeyPress' | 'KeyRelease' | 'ButtonPress' | 'ButtonRelease' | 'MotionNotify';

export interface FakeInputOptions {
  /** MotionNotify only: the root window the coordinates refer to; 0 (default) means the pointer's current screen. */
  root?: number;
  /** MotionNotify only: the position to move to, or the offset to move by when `detail` is 1. */
  x?: number;
  y?: number;
  /** Server-side delay before the event is processed, in ms (the XTEST request's "time" field). */
  delayMs?: number;
}

export class XTest {
  private readonly extension: Extension;

  constructor(core: X11Core, registry: ExtensionRegistry) {
    this.extension = new Extension(core, registry, 'XTEST', ['GetVersion', 'CompareCursor', 'FakeInput', 'GrabControl']);
  }

  getVersion(): Promise<{ major: number; minor: number }> {
    return this.extension.request(
      (major) => {
        const request = requestBuffer(major, 0, 8);
        request[4] = 2;
        request.writeUInt16LE(2, 6);
        return request;
      },
      (reply) => ({ major: reply[1], minor: reply.readUInt16LE(8) }),
    );
  }

  /** `detail` is the keycode for key events, the button for button events, and 0 absolute / 1 relative for motion. */
  fakeInput(type: FakeEventType, detail: number, options: FakeInputOptions = {}): Promise<void> {
    return this.extension.send((major) => {
      const request = requestBuffer(major, 2, 36);
      request[4] = EventCode[type];
      request[5] = detail;
      request.writeUInt32LE((options.delayMs ?? 0) >>> 0, 8);
      request.writeUInt32LE((options.root ?? 0) >>> 0, 12);
      request.writeInt16LE(options.x ?? 0, 24);
      request.writeInt16LE(options.y ?? 0, 26);
      return request;
    });
  }
}
