// Selections (ICCCM section 2): who owns one, taking it, and asking its owner to convert it into a property.
import { requestBuffer } from './encode.js';
import { Opcode } from './opcodes.js';

export function encodeSetSelectionOwner(owner: number, selection: number, time: number): Buffer {
  const request = requestBuffer(Opcode.SetSelectionOwner, 0, 16);
  request.writeUInt32LE(owner >>> 0, 4);
  request.writeUInt32LE(selection >>> 0, 8);
  request.writeUInt32LE(time >>> 0, 12);
  return request;
}

export function encodeGetSelectionOwner(selection: number): Buffer {
  const request = requestBuffer(Opcode.GetSelectionOwner, 0, 8);
  request.writeUInt32LE(selection >>> 0, 4);
  return request;
}

/** The owner window, 0 when nobody owns the selection. */
export function parseGetSelectionOwner(reply: Buffer): number {
  return reply.readUInt32LE(8);
}

export function encodeConvertSelection(requestor: number, selection: number, target: number, property: number, time: number): Buffer {
  const request = requestBuffer(Opcode.ConvertSelection, 0, 24);
  request.writeUInt32LE(requestor >>> 0, 4);
  request.writeUInt32LE(selection >>> 0, 8);
  request.writeUInt32LE(target >>> 0, 12);
  request.writeUInt32LE(property >>> 0, 16);
  request.writeUInt32LE(time >>> 0, 20);
  return request;
}

/** A SelectionNotify event for SendEvent: the owner's answer to a ConvertSelection (property 0 = refused). */
export function encodeSelectionNotify(time: number, requestor: number, selection: number, target: number, property: number): Buffer {
  const event = Buffer.alloc(32);
  event[0] = 31; // SelectionNotify
  event.writeUInt32LE(time >>> 0, 4);
  event.writeUInt32LE(requestor >>> 0, 8);
  event.writeUInt32LE(selection >>> 0, 12);
  event.writeUInt32LE(target >>> 0, 16);
  event.writeUInt32LE(property >>> 0, 20);
  return event;
}
