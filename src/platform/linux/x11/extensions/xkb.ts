// XKEYBOARD, only as far as reading and writing the keysyms of a range of keys in one request.
//
// Why not the core ChangeKeyboardMapping: it takes one contiguous range, and rewriting a key inside the range with
// its own core keysyms is not a no-op under XKB (the server derives the key's types and groups from the core
// columns again: KP_Divide gained a second group, measured). XkbSetMap takes each key's XKB description (types,
// groups, keysyms) as read by XkbGetMap, so the keys between those that change are written back exactly as they
// were, and the whole change costs every client one map notification instead of one per key.
import type { X11Core } from '../connection.js';
import { requestBuffer } from '../encode.js';
import { Extension, type ExtensionRegistry } from './registry.js';

/** One key's keysyms as XKB holds them: a key type per group, the groups and out-of-range rule, the keysyms. */
export interface XkbKeySyms {
  /** Key type index of each of the four groups. */
  types: [number, number, number, number];
  /** Number of groups (low nibble) and what an out-of-range group does (high bits). */
  groupInfo: number;
  /** Keysyms per group: the widest of the key's types. */
  width: number;
  keysyms: number[];
}

const useCoreKeyboard = 0x100;
const keySymsMask = 0x02;

export class Xkb {
  private readonly extension: Extension;
  private initialized: Promise<void> | undefined;

  constructor(core: X11Core, registry: ExtensionRegistry) {
    this.extension = new Extension(core, registry, 'XKEYBOARD', [
      'UseExtension', 'SelectEvents', '', 'Bell', 'GetState', 'LatchLockState', 'GetControls', 'SetControls', 'GetMap', 'SetMap',
    ]);
  }

  /** The keysyms of keys `first` to `first + count - 1` of the core keyboard. */
  async getKeySyms(first: number, count: number): Promise<XkbKeySyms[]> {
    await this.use();
    return this.extension.request(
      (major) => {
        const request = requestBuffer(major, 8, 28);
        request.writeUInt16LE(useCoreKeyboard, 4);
        request.writeUInt16LE(keySymsMask, 8); // partial: only the ranges given
        request[12] = first;
        request[13] = count;
        return request;
      },
      (reply) => parseKeySyms(reply, first, count),
    );
  }

  /** Writes the keysyms of keys `first` onwards (one entry each, consecutive) in one request. */
  async setKeySyms(first: number, keys: readonly XkbKeySyms[], minKeycode: number, maxKeycode: number): Promise<void> {
    await this.use();
    const body = Buffer.concat(keys.map(encodeKey));
    const totalSyms = keys.reduce((sum, key) => sum + key.keysyms.length, 0);
    return this.extension.send((major) => {
      const request = requestBuffer(major, 9, 36 + body.length);
      request.writeUInt16LE(useCoreKeyboard, 4);
      request.writeUInt16LE(keySymsMask, 6);
      request.writeUInt16LE(0, 8); // flags: the keys' actions are left as they are
      request[10] = minKeycode;
      request[11] = maxKeycode;
      request[14] = first;
      request[15] = keys.length;
      request.writeUInt16LE(totalSyms, 16);
      body.copy(request, 36);
      return request;
    });
  }

  /** The server refuses other XKB requests from a client that has not announced the version it speaks. */
  private use(): Promise<void> {
    this.initialized ??= this.extension
      .request(
        (major) => {
          const request = requestBuffer(major, 0, 8);
          request.writeUInt16LE(1, 4);
          request.writeUInt16LE(0, 6);
          return request;
        },
        (reply) => reply[1] !== 0,
      )
      .then((supported) => {
        if (!supported) throw new Error('the X server refused XKEYBOARD version 1.0');
      });
    this.initialized.catch(() => (this.initialized = undefined));
    return this.initialized;
  }
}

function parseKeySyms(reply: Buffer, first: number, count: number): XkbKeySyms[] {
  if (reply[17] !== first || reply[20] !== count) throw new Error(`XkbGetMap answered keys ${reply[17]} to ${reply[17]! + reply[20]! - 1} for ${first} to ${first + count - 1}`);
  // The reply's fixed part is 40 bytes; with only the keysyms asked for, the key descriptions follow.
  let offset = 40;
  const keys: XkbKeySyms[] = [];
  for (let i = 0; i < count; i++) {
    const nSyms = reply.readUInt16LE(offset + 6);
    const keysyms: number[] = [];
    for (let s = 0; s < nSyms; s++) keysyms.push(reply.readUInt32LE(offset + 8 + s * 4));
    keys.push({ types: [reply[offset]!, reply[offset + 1]!, reply[offset + 2]!, reply[offset + 3]!], groupInfo: reply[offset + 4]!, width: reply[offset + 5]!, keysyms });
    offset += 8 + nSyms * 4;
  }
  return keys;
}

function encodeKey(key: XkbKeySyms): Buffer {
  const wire = Buffer.alloc(8 + key.keysyms.length * 4);
  key.types.forEach((type, index) => (wire[index] = type));
  wire[4] = key.groupInfo;
  wire[5] = key.width;
  wire.writeUInt16LE(key.keysyms.length, 6);
  key.keysyms.forEach((keysym, index) => wire.writeUInt32LE(keysym >>> 0, 8 + index * 4));
  return wire;
}
