// Keyboard and modifier mappings (keycode -> keysyms), needed to type arbitrary characters with XTEST.
import { requestBuffer } from './encode.js';
import { Opcode } from './opcodes.js';

export interface KeyboardMapping {
  keysymsPerKeycode: number;
  /** count * keysymsPerKeycode keysyms, keycode-major; 0 is NoSymbol. */
  keysyms: number[];
}

export interface ModifierMapping {
  keycodesPerModifier: number;
  /** 8 * keycodesPerModifier keycodes: Shift, Lock, Control, Mod1..Mod5 in turn; 0 entries are unused. */
  keycodes: number[];
}

export function encodeGetKeyboardMapping(firstKeycode: number, count: number): Buffer {
  const request = requestBuffer(Opcode.GetKeyboardMapping, 0, 8);
  request[4] = firstKeycode;
  request[5] = count;
  return request;
}

export function parseKeyboardMapping(reply: Buffer): KeyboardMapping {
  const count = reply.readUInt32LE(4);
  const keysyms = new Array<number>(count);
  for (let i = 0; i < count; i++) keysyms[i] = reply.readUInt32LE(32 + i * 4);
  return { keysymsPerKeycode: reply[1], keysyms };
}

export function encodeChangeKeyboardMapping(firstKeycode: number, keysymsPerKeycode: number, keysyms: readonly number[]): Buffer {
  if (keysymsPerKeycode < 1 || keysyms.length % keysymsPerKeycode !== 0) {
    throw new RangeError(`${keysyms.length} keysyms is not a whole number of keycodes at ${keysymsPerKeycode} per keycode`);
  }
  const request = requestBuffer(Opcode.ChangeKeyboardMapping, keysyms.length / keysymsPerKeycode, 8 + keysyms.length * 4);
  request[4] = firstKeycode;
  request[5] = keysymsPerKeycode;
  keysyms.forEach((keysym, index) => request.writeUInt32LE(keysym >>> 0, 8 + index * 4));
  return request;
}

export function parseModifierMapping(reply: Buffer): ModifierMapping {
  const perModifier = reply[1];
  return { keycodesPerModifier: perModifier, keycodes: [...reply.subarray(32, 32 + 8 * perModifier)] };
}

/** QueryKeymap's 32-byte bit vector (bit k of byte k/8 is keycode k) as the list of keycodes that are down. */
export function parseQueryKeymap(reply: Buffer): number[] {
  const down: number[] = [];
  for (let keycode = 8; keycode < 256; keycode++) if (reply[8 + (keycode >> 3)]! & (1 << (keycode & 7))) down.push(keycode);
  return down;
}
