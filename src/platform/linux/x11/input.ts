// Pointer and focus requests, and SendEvent.
import { requestBuffer } from './encode.js';
import { Opcode } from './opcodes.js';

export interface PointerState {
  /** False when the pointer is on another screen than `window` (then child and win coordinates are 0). */
  sameScreen: boolean;
  root: number;
  /** The child of the queried window containing the pointer, or 0. */
  child: number;
  rootX: number;
  rootY: number;
  winX: number;
  winY: number;
  /** Modifier and button state (ShiftMask 1, LockMask 2, ControlMask 4, Mod1..5 8..128, Button1..5 256..4096). */
  mask: number;
}

export function parseQueryPointer(reply: Buffer): PointerState {
  return {
    sameScreen: reply[1] !== 0,
    root: reply.readUInt32LE(8),
    child: reply.readUInt32LE(12),
    rootX: reply.readInt16LE(16),
    rootY: reply.readInt16LE(18),
    winX: reply.readInt16LE(20),
    winY: reply.readInt16LE(22),
    mask: reply.readUInt16LE(24),
  };
}

/** Moves the pointer to (x, y) relative to `destination` (no source-window condition). */
export function encodeWarpPointer(destination: number, x: number, y: number): Buffer {
  const request = requestBuffer(Opcode.WarpPointer, 0, 24);
  request.writeUInt32LE(0, 4);
  request.writeUInt32LE(destination >>> 0, 8);
  request.writeInt16LE(x, 20);
  request.writeInt16LE(y, 22);
  return request;
}

export type RevertTo = 'None' | 'PointerRoot' | 'Parent';
const revertTos: Record<RevertTo, number> = { None: 0, PointerRoot: 1, Parent: 2 };

export interface InputFocus {
  /** A window, 0 None, or 1 PointerRoot. */
  focus: number;
  /** 0 None, 1 PointerRoot, 2 Parent. */
  revertTo: number;
}

export function parseGetInputFocus(reply: Buffer): InputFocus {
  return { revertTo: reply[1], focus: reply.readUInt32LE(8) };
}

/** `window` may be 0 (None) or 1 (PointerRoot); time 0 is CurrentTime. */
export function encodeSetInputFocus(window: number, revertTo: RevertTo | number, time: number): Buffer {
  const request = requestBuffer(Opcode.SetInputFocus, typeof revertTo === 'number' ? revertTo : revertTos[revertTo], 12);
  request.writeUInt32LE(window >>> 0, 4);
  request.writeUInt32LE(time >>> 0, 8);
  return request;
}

/** GrabKeyboard's answer: AlreadyGrabbed and Frozen mean another client holds the keyboard. */
export type GrabStatus = 'Success' | 'AlreadyGrabbed' | 'InvalidTime' | 'NotViewable' | 'Frozen';
const grabStatuses: readonly GrabStatus[] = ['Success', 'AlreadyGrabbed', 'InvalidTime', 'NotViewable', 'Frozen'];

export function parseGrabStatus(reply: Buffer): GrabStatus {
  return grabStatuses[reply[1]!] ?? 'InvalidTime';
}

/** An active keyboard grab on `window` (owner events off, both modes asynchronous), at CurrentTime. */
export function encodeGrabKeyboard(window: number): Buffer {
  const request = requestBuffer(Opcode.GrabKeyboard, 0, 16);
  request.writeUInt32LE(window >>> 0, 4);
  request.writeUInt32LE(0, 8);
  request.writeUInt8(1, 12);
  request.writeUInt8(1, 13);
  return request;
}

/** `destination` may be a window, 0 PointerWindow or 1 InputFocus. */
export function encodeSendEvent(destination: number, propagate: boolean, eventMask: number, event: Buffer): Buffer {
  if (event.length !== 32) throw new RangeError(`SendEvent needs a 32-byte event, got ${event.length} bytes`);
  const request = requestBuffer(Opcode.SendEvent, propagate ? 1 : 0, 44);
  request.writeUInt32LE(destination >>> 0, 4);
  request.writeUInt32LE(eventMask >>> 0, 8);
  event.copy(request, 12);
  return request;
}
