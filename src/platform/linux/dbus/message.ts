import type { Buffer } from 'node:buffer';
import { DBusProtocolError } from './errors.js';
import { bodyEncoderFor, type Writer } from './marshal.js';
import { assertBusName, assertInterfaceName, assertMemberName, assertObjectPath } from './names.js';
import { parseSingleType } from './signature.js';
import { bodyDecoderFor, decoderFor, Reader } from './unmarshal.js';

export const MessageType = { MethodCall: 1, MethodReturn: 2, Error: 3, Signal: 4 } as const;
export const MessageFlag = { NoReplyExpected: 0x1 } as const;

export const MAX_MESSAGE_LENGTH = 128 * 1024 * 1024;
/** Endianness, type, flags, version, body length, serial and the header fields' array length. */
export const FIXED_HEADER_LENGTH = 16;

const LITTLE_ENDIAN = 0x6c; // 'l'
const BIG_ENDIAN = 0x42; // 'B'
const PROTOCOL_VERSION = 1;

const Field = {
  Path: 1,
  Interface: 2,
  Member: 3,
  ErrorName: 4,
  ReplySerial: 5,
  Destination: 6,
  Sender: 7,
  Signature: 8,
  UnixFds: 9,
} as const;

const FIELD_SIGNATURES: readonly (string | undefined)[] = [undefined, 'o', 's', 's', 's', 'u', 's', 's', 'g', 'u'];

export interface Message {
  type: number;
  flags: number;
  serial: number;
  path?: string;
  interface?: string;
  member?: string;
  errorName?: string;
  replySerial?: number;
  destination?: string;
  sender?: string;
  signature: string;
  unixFds?: number;
  body: unknown[];
}

/** What the sender chooses; `body` may be any readonly array and SENDER/UNIX_FDS are never sent by a client. */
export type OutgoingMessage = Omit<Message, 'sender' | 'unixFds' | 'body'> & { body: readonly unknown[] };

function stringField(w: Writer, code: number, sig: 's' | 'o', value: string): void {
  w.align(8);
  w.u8(code);
  w.signature(sig);
  w.string(value);
}

function checkRequiredFields(m: OutgoingMessage): void {
  if (m.serial === 0) throw new RangeError('D-Bus message serial must be nonzero');
  if (m.path !== undefined) assertObjectPath(m.path);
  if (m.interface !== undefined) assertInterfaceName(m.interface);
  if (m.member !== undefined) assertMemberName(m.member);
  if (m.errorName !== undefined) assertInterfaceName(m.errorName, 'error name');
  if (m.destination !== undefined) assertBusName(m.destination);
  switch (m.type) {
    case MessageType.MethodCall:
      if (m.path === undefined || m.member === undefined) throw new TypeError('a D-Bus method call needs a path and a member');
      break;
    case MessageType.Signal:
      if (m.path === undefined || m.interface === undefined || m.member === undefined) {
        throw new TypeError('a D-Bus signal needs a path, an interface and a member');
      }
      break;
    case MessageType.Error:
      if (m.errorName === undefined) throw new TypeError('a D-Bus error needs an error name');
      if (m.replySerial === undefined) throw new TypeError('a D-Bus error needs a reply serial');
      break;
    case MessageType.MethodReturn:
      if (m.replySerial === undefined) throw new TypeError('a D-Bus method return needs a reply serial');
      break;
    default:
      throw new RangeError(`unknown D-Bus message type ${m.type}`);
  }
}

/**
 * Appends one little-endian message at `w.pos`. On any error (a bad name, a value that does not fit the
 * signature) nothing is left behind in the writer, so a queue of other messages stays intact.
 */
export function encodeMessage(w: Writer, m: OutgoingMessage): void {
  const start = w.pos;
  const previousBase = w.base;
  try {
    checkRequiredFields(m);
    const encodeBody = bodyEncoderFor(m.signature);
    w.base = start;
    w.reserve(FIXED_HEADER_LENGTH);
    const buf = w.buf;
    buf[start] = LITTLE_ENDIAN;
    buf[start + 1] = m.type;
    buf[start + 2] = m.flags;
    buf[start + 3] = PROTOCOL_VERSION;
    buf.writeUInt32LE(m.serial, start + 8);
    w.pos = start + FIXED_HEADER_LENGTH;

    if (m.path !== undefined) stringField(w, Field.Path, 'o', m.path);
    if (m.interface !== undefined) stringField(w, Field.Interface, 's', m.interface);
    if (m.member !== undefined) stringField(w, Field.Member, 's', m.member);
    if (m.errorName !== undefined) stringField(w, Field.ErrorName, 's', m.errorName);
    if (m.replySerial !== undefined) {
      w.align(8);
      w.u8(Field.ReplySerial);
      w.signature('u');
      w.u32(m.replySerial);
    }
    if (m.destination !== undefined) stringField(w, Field.Destination, 's', m.destination);
    if (m.signature !== '') {
      w.align(8);
      w.u8(Field.Signature);
      w.signature('g');
      w.signature(m.signature);
    }
    w.buf.writeUInt32LE(w.pos - start - FIXED_HEADER_LENGTH, start + 12);
    w.align(8);

    const bodyStart = w.pos;
    encodeBody(w, m.body);
    const total = w.pos - start;
    if (total > MAX_MESSAGE_LENGTH) {
      throw new RangeError(`D-Bus message of ${total} bytes exceeds the ${MAX_MESSAGE_LENGTH}-byte limit`);
    }
    w.buf.writeUInt32LE(w.pos - bodyStart, start + 4);
  } catch (error) {
    w.pos = start;
    throw error;
  } finally {
    w.base = previousBase;
  }
}

/**
 * The total length of the message whose first 16 bytes are at `buf[offset]`, so a stream reader knows
 * how much to wait for; throws DBusProtocolError when those bytes cannot start a valid message.
 */
export function messageLength(buf: Buffer, offset: number): number {
  const endian = buf[offset];
  if (endian !== LITTLE_ENDIAN && endian !== BIG_ENDIAN) {
    throw new DBusProtocolError(`malformed D-Bus message: first byte is 0x${(endian ?? 0).toString(16)}, expected 'l' or 'B'`);
  }
  if (buf[offset + 3] !== PROTOCOL_VERSION) {
    throw new DBusProtocolError(`malformed D-Bus message: protocol version ${buf[offset + 3]}, expected ${PROTOCOL_VERSION}`);
  }
  const le = endian === LITTLE_ENDIAN;
  const bodyLength = le ? buf.readUInt32LE(offset + 4) : buf.readUInt32BE(offset + 4);
  const fieldsLength = le ? buf.readUInt32LE(offset + 12) : buf.readUInt32BE(offset + 12);
  const headerLength = FIXED_HEADER_LENGTH + fieldsLength + ((8 - (fieldsLength % 8)) % 8);
  const total = headerLength + bodyLength;
  if (total > MAX_MESSAGE_LENGTH) {
    throw new DBusProtocolError(`D-Bus message of ${total} bytes exceeds the ${MAX_MESSAGE_LENGTH}-byte limit`);
  }
  return total;
}

function expectFieldSignature(code: number, signature: string): void {
  const expected = FIELD_SIGNATURES[code];
  if (expected !== undefined && signature !== expected) {
    throw new DBusProtocolError(`malformed D-Bus message: header field ${code} has signature "${signature}", expected "${expected}"`);
  }
}

/** Decodes the complete message occupying `buf[offset, offset + length)`; throws DBusProtocolError if malformed. */
export function decodeMessage(buf: Buffer, offset: number, length: number): Message {
  if (length < FIXED_HEADER_LENGTH || offset + length > buf.length) {
    throw new DBusProtocolError(`malformed D-Bus message: ${Math.min(length, buf.length - offset)} byte(s) cannot hold a message`);
  }
  if (messageLength(buf, offset) !== length) {
    throw new DBusProtocolError(`malformed D-Bus message: its header declares ${messageLength(buf, offset)} bytes, got ${length}`);
  }
  const le = buf[offset] === LITTLE_ENDIAN;
  const r = new Reader(buf, offset + 4, offset, offset + length, le);
  const bodyLength = r.u32();
  const message: Message = { type: buf[offset + 1]!, flags: buf[offset + 2]!, serial: r.u32(), signature: '', body: [] };
  if (message.serial === 0) throw new DBusProtocolError('malformed D-Bus message: serial is 0');

  const fieldsLength = r.u32();
  const fieldsEnd = r.pos + fieldsLength;
  while (r.pos < fieldsEnd) {
    r.align(8);
    const code = r.u8();
    const signature = r.signature();
    let value: unknown;
    try {
      value = decoderFor(parseSingleType(signature), le)(r);
    } catch (error) {
      if (error instanceof DBusProtocolError) throw error;
      throw new DBusProtocolError(`malformed D-Bus message: header field ${code} has ${(error as Error).message}`);
    }
    expectFieldSignature(code, signature);
    switch (code) {
      case Field.Path: message.path = value as string; break;
      case Field.Interface: message.interface = value as string; break;
      case Field.Member: message.member = value as string; break;
      case Field.ErrorName: message.errorName = value as string; break;
      case Field.ReplySerial: message.replySerial = value as number; break;
      case Field.Destination: message.destination = value as string; break;
      case Field.Sender: message.sender = value as string; break;
      case Field.Signature: message.signature = value as string; break;
      case Field.UnixFds: message.unixFds = value as number; break;
      default: break; // The spec says unknown header fields must be ignored.
    }
  }
  if (r.pos !== fieldsEnd) throw new DBusProtocolError('malformed D-Bus message: header fields overrun their array length');
  r.align(8);
  if (r.end - r.pos !== bodyLength) throw new DBusProtocolError('malformed D-Bus message: body length disagrees with the header');

  checkRequiredIncomingFields(message);
  if (bodyLength > 0 || message.signature !== '') {
    let decodeBody: (r: Reader) => unknown[];
    try {
      decodeBody = bodyDecoderFor(message.signature, le);
    } catch (error) {
      throw new DBusProtocolError(`malformed D-Bus message: body has ${(error as Error).message}`);
    }
    message.body = decodeBody(r);
    if (r.pos !== r.end) throw new DBusProtocolError(`malformed D-Bus message: ${r.end - r.pos} byte(s) after a body of signature "${message.signature}"`);
  }
  return message;
}

function checkRequiredIncomingFields(m: Message): void {
  const missing = (what: string): never => {
    throw new DBusProtocolError(`malformed D-Bus message: message of type ${m.type} (serial ${m.serial}) has no ${what}`);
  };
  switch (m.type) {
    case MessageType.MethodCall:
      if (m.path === undefined) missing('path');
      if (m.member === undefined) missing('member');
      break;
    case MessageType.Signal:
      if (m.path === undefined) missing('path');
      if (m.interface === undefined) missing('interface');
      if (m.member === undefined) missing('member');
      break;
    case MessageType.Error:
      if (m.errorName === undefined) missing('error name');
      if (m.replySerial === undefined) missing('reply serial');
      break;
    case MessageType.MethodReturn:
      if (m.replySerial === undefined) missing('reply serial');
      break;
    default:
      break; // Unknown types are valid on the wire; the spec says to ignore them.
  }
}
