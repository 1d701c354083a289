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

/** How long a key press this connection sent is remembered for claimSentKeyPress (its raw event comes back within ms). */
const sentPressMemoryMs = 2000;

export class XTest {
  private readonly extension: Extension;
  /** Key presses sent through this connection lately, oldest first: a watcher of the real keyboard must not take them for the person's. */
  private readonly sentPresses: { keycode: number; at: number }[] = [];

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
    if (type === 'KeyPress') {
      this.forgetOldPresses();
      this.sentPresses.push({ keycode: detail, at: Date.now() });
    }
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

  /**
   * Whether this connection sent a press of `keycode` lately; a match is used up, so each press the driver
   * sent accounts for one raw press event and a person's press of the same key is still seen.
   */
  claimSentKeyPress(keycode: number): boolean {
    this.forgetOldPresses();
    const index = this.sentPresses.findIndex((press) => press.keycode === keycode);
    if (index < 0) return false;
    this.sentPresses.splice(index, 1);
    return true;
  }

  private forgetOldPresses(): void {
    const now = Date.now();
    while (this.sentPresses.length > 0 && now - this.sentPresses[0]!.at > sentPressMemoryMs) this.sentPresses.shift();
  }
}
