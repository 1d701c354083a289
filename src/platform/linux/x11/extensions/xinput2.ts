// XInput2, only as far as watching the real keyboard: raw key events from every master device, which reach the
// client that selected them on the root window whatever window has the focus or a grab.
import type { X11Core } from '../connection.js';
import { requestBuffer } from '../encode.js';
import { Extension, type ExtensionRegistry } from './registry.js';

/** XI event types (XI2proto.h) this client reads. */
export const XIEventType = { RawKeyPress: 13, RawKeyRelease: 14 } as const;

/** Every master device: raw events arrive once per key, from the master keyboard (XI 2.1 and later). */
const XIAllMasterDevices = 1;

/** The part of a raw key event a watcher needs (XI2proto: xXIRawEvent). */
export interface RawKeyEvent {
  evtype: number;
  deviceId: number;
  sourceId: number;
  time: number;
  keycode: number;
  /** Set for the presses an auto-repeating key generates after the first. */
  repeat: boolean;
}

/** Reads a GenericEvent's 32-byte head as a raw key event; undefined for any other XI event. */
export function parseRawKeyEvent(raw: Buffer): RawKeyEvent | undefined {
  if (raw.length < 28) return undefined;
  const evtype = raw.readUInt16LE(8);
  if (evtype !== XIEventType.RawKeyPress && evtype !== XIEventType.RawKeyRelease) return undefined;
  return {
    evtype,
    deviceId: raw.readUInt16LE(10),
    time: raw.readUInt32LE(12),
    keycode: raw.readUInt32LE(16),
    sourceId: raw.readUInt16LE(20),
    // XIKeyRepeat (1 << 16) in the flags word.
    repeat: (raw.readUInt32LE(24) & (1 << 16)) !== 0,
  };
}

export class XInput2 {
  private readonly extension: Extension;

  constructor(core: X11Core, registry: ExtensionRegistry) {
    this.extension = new Extension(core, registry, 'XInputExtension', xiRequestNames());
  }

  /** The extension's major opcode: GenericEvents carry it in their `extension` byte. */
  opcode(): Promise<number> {
    return this.extension.opcode();
  }

  /** XIQueryVersion; the server enables XI2 events for this client only after it. */
  queryVersion(major = 2, minor = 2): Promise<{ major: number; minor: number }> {
    return this.extension.request(
      (opcode) => {
        const request = requestBuffer(opcode, 47, 8);
        request.writeUInt16LE(major, 4);
        request.writeUInt16LE(minor, 6);
        return request;
      },
      (reply) => ({ major: reply.readUInt16LE(8), minor: reply.readUInt16LE(10) }),
    );
  }

  /** XISelectEvents for every master device on `window`: the XI event types in `types` (none = stop). */
  selectEvents(window: number, types: readonly number[]): Promise<void> {
    return this.extension.send((opcode) => {
      const request = requestBuffer(opcode, 46, 12 + 4 + 4);
      request.writeUInt32LE(window >>> 0, 4);
      request.writeUInt16LE(1, 8); // one mask
      request.writeUInt16LE(XIAllMasterDevices, 12);
      request.writeUInt16LE(1, 14); // mask length in 4-byte units
      for (const type of types) request[16 + (type >> 3)]! |= 1 << (type & 7);
      return request;
    });
  }
}

/** Minor opcodes 0-60 by name, for error messages ("XInputExtension.XISelectEvents"). */
function xiRequestNames(): string[] {
  const names: string[] = [];
  names[46] = 'XISelectEvents';
  names[47] = 'XIQueryVersion';
  return names;
}
