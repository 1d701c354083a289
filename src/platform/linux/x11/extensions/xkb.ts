// XKEYBOARD, only as far as reading and writing the keysyms of a range of keys in one request, reading and locking the
// keyboard's group (which of its layouts is in use), and hearing when the server's keyboard is replaced.
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

/** What a keyboard has locked: its group (layout), and its modifiers as a mask (Caps Lock is 2). */
export interface XkbLocks {
  group: number;
  modifiers: number;
}

const useCoreKeyboard = 0x100;
const keySymsMask = 0x02;
/** XkbNewKeyboardNotify: the event's xkbType (its second byte) and its bit in XkbSelectEvents' masks. */
const newKeyboardNotify = 0;
const newKeyboardNotifyMask = 0x01;

export class Xkb {
  private readonly extension: Extension;
  private initialized: Promise<void> | undefined;
  private readonly newKeyboardListeners = new Set<() => void>();
  /** XKEYBOARD's first event code, known once the connection speaks XKB. */
  private firstEvent: number | undefined;

  constructor(
    core: X11Core,
    private readonly registry: ExtensionRegistry,
  ) {
    this.extension = new Extension(core, registry, 'XKEYBOARD', [
      'UseExtension', 'SelectEvents', '', 'Bell', 'GetState', 'LatchLockState', 'GetControls', 'SetControls', 'GetMap', 'SetMap',
    ]);
    core.onEvent((event) => {
      if (event.name !== 'Unknown' || event.type !== this.firstEvent || event.raw[1] !== newKeyboardNotify) return;
      for (const listener of this.newKeyboardListeners) listener();
    });
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

  /** The keyboard's locks: its locked group (0 is the first layout; a layout switch locks another) and locked modifiers. */
  async getLocks(): Promise<XkbLocks> {
    await this.use();
    return this.extension.request(
      (major) => {
        const request = requestBuffer(major, 4, 8);
        request.writeUInt16LE(useCoreKeyboard, 4);
        return request;
      },
      (reply) => ({ group: reply[13]!, modifiers: reply[11]! }),
    );
  }

  /** Locks the group and sets the locks of the modifiers in `modifierMask` as `locks` says, latches left as they are. */
  async setLocks(locks: XkbLocks, modifierMask: number): Promise<void> {
    await this.use();
    return this.extension.send((major) => {
      const request = requestBuffer(major, 5, 16);
      request.writeUInt16LE(useCoreKeyboard, 4);
      request[6] = modifierMask; // affectModLocks
      request[7] = locks.modifiers & modifierMask;
      request[8] = 1; // lockGroup
      request[9] = locks.group;
      return request;
    });
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

  /**
   * Calls `listener` each time the server's keyboard is replaced (setxkbmap, a layout switch) once this connection
   * speaks XKB: from then on the server sends it XkbNewKeyboardNotify in place of the core MappingNotify (xkb's
   * XkbSendLegacyMapNotify skips initialized clients), which arrives only where it is selected.
   */
  onNewKeyboard(listener: () => void): () => void {
    this.newKeyboardListeners.add(listener);
    return () => this.newKeyboardListeners.delete(listener);
  }

  /**
   * The server refuses other XKB requests from a client that has not announced the version it speaks. Announcing
   * it ends the core MappingNotify after a new keyboard, so XkbNewKeyboardNotify is selected with it.
   */
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
      .then(async (supported) => {
        if (!supported) throw new Error('the X server refused XKEYBOARD version 1.0');
        this.firstEvent = (await this.registry.query('XKEYBOARD')).firstEvent;
        await this.extension.send((major) => encodeSelectNewKeyboard(major));
      });
    this.initialized.catch(() => (this.initialized = undefined));
    return this.initialized;
  }
}

/** XkbSelectEvents: every detail of XkbNewKeyboardNotify (selectAll), the map notifications left as they are. */
function encodeSelectNewKeyboard(major: number): Buffer {
  const request = requestBuffer(major, 1, 16);
  request.writeUInt16LE(useCoreKeyboard, 4);
  request.writeUInt16LE(newKeyboardNotifyMask, 6); // affectWhich
  request.writeUInt16LE(0, 8); // clear
  request.writeUInt16LE(newKeyboardNotifyMask, 10); // selectAll
  request.writeUInt16LE(0, 12); // affectMap
  request.writeUInt16LE(0, 14); // map
  return request;
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
