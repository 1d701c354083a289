// Core events (32 bytes each, codes 2-34) decoded into plain objects; anything else is passed on raw.

export const EventMask = {
  NoEvent: 0,
  KeyPress: 1 << 0,
  KeyRelease: 1 << 1,
  ButtonPress: 1 << 2,
  ButtonRelease: 1 << 3,
  EnterWindow: 1 << 4,
  LeaveWindow: 1 << 5,
  PointerMotion: 1 << 6,
  PointerMotionHint: 1 << 7,
  Button1Motion: 1 << 8,
  Button2Motion: 1 << 9,
  Button3Motion: 1 << 10,
  Button4Motion: 1 << 11,
  Button5Motion: 1 << 12,
  ButtonMotion: 1 << 13,
  KeymapState: 1 << 14,
  Exposure: 1 << 15,
  VisibilityChange: 1 << 16,
  StructureNotify: 1 << 17,
  ResizeRedirect: 1 << 18,
  SubstructureNotify: 1 << 19,
  SubstructureRedirect: 1 << 20,
  FocusChange: 1 << 21,
  PropertyChange: 1 << 22,
  ColormapChange: 1 << 23,
  OwnerGrabButton: 1 << 24,
} as const;

export const EventCode = {
  KeyPress: 2,
  KeyRelease: 3,
  ButtonPress: 4,
  ButtonRelease: 5,
  MotionNotify: 6,
  EnterNotify: 7,
  LeaveNotify: 8,
  FocusIn: 9,
  FocusOut: 10,
  KeymapNotify: 11,
  Expose: 12,
  GraphicsExposure: 13,
  NoExposure: 14,
  VisibilityNotify: 15,
  CreateNotify: 16,
  DestroyNotify: 17,
  UnmapNotify: 18,
  MapNotify: 19,
  MapRequest: 20,
  ReparentNotify: 21,
  ConfigureNotify: 22,
  ConfigureRequest: 23,
  GravityNotify: 24,
  ResizeRequest: 25,
  CirculateNotify: 26,
  CirculateRequest: 27,
  PropertyNotify: 28,
  SelectionClear: 29,
  SelectionRequest: 30,
  SelectionNotify: 31,
  ColormapNotify: 32,
  ClientMessage: 33,
  MappingNotify: 34,
  GenericEvent: 35,
} as const;

interface Base {
  /** Event code without the SendEvent bit. */
  type: number;
  /** Full (unwrapped) sequence number of the last request the server had processed. */
  sequence: number;
  /** True when another client produced this event with SendEvent. */
  sentEvent: boolean;
}

interface Pointer {
  time: number;
  root: number;
  event: number;
  child: number;
  rootX: number;
  rootY: number;
  eventX: number;
  eventY: number;
  /** Modifier and button state mask before the event. */
  state: number;
  sameScreen: boolean;
}

interface Fields {
  KeyPress: Pointer & { detail: number };
  KeyRelease: Pointer & { detail: number };
  ButtonPress: Pointer & { detail: number };
  ButtonRelease: Pointer & { detail: number };
  MotionNotify: Pointer & { detail: number };
  EnterNotify: Pointer & { detail: number; mode: number; focus: boolean };
  LeaveNotify: Pointer & { detail: number; mode: number; focus: boolean };
  FocusIn: { detail: number; event: number; mode: number };
  FocusOut: { detail: number; event: number; mode: number };
  KeymapNotify: { keys: Buffer };
  Expose: { window: number; x: number; y: number; width: number; height: number; count: number };
  GraphicsExposure: { drawable: number; x: number; y: number; width: number; height: number; minorOpcode: number; count: number; majorOpcode: number };
  NoExposure: { drawable: number; minorOpcode: number; majorOpcode: number };
  VisibilityNotify: { window: number; state: 'Unobscured' | 'PartiallyObscured' | 'FullyObscured' };
  CreateNotify: { parent: number; window: number; x: number; y: number; width: number; height: number; borderWidth: number; overrideRedirect: boolean };
  DestroyNotify: { event: number; window: number };
  UnmapNotify: { event: number; window: number; fromConfigure: boolean };
  MapNotify: { event: number; window: number; overrideRedirect: boolean };
  MapRequest: { parent: number; window: number };
  ReparentNotify: { event: number; window: number; parent: number; x: number; y: number; overrideRedirect: boolean };
  ConfigureNotify: { event: number; window: number; aboveSibling: number; x: number; y: number; width: number; height: number; borderWidth: number; overrideRedirect: boolean };
  ConfigureRequest: { stackMode: number; parent: number; window: number; sibling: number; x: number; y: number; width: number; height: number; borderWidth: number; valueMask: number };
  GravityNotify: { event: number; window: number; x: number; y: number };
  ResizeRequest: { window: number; width: number; height: number };
  CirculateNotify: { event: number; window: number; place: 'Top' | 'Bottom' };
  /** `event` is the parent here. */
  CirculateRequest: { event: number; window: number; place: 'Top' | 'Bottom' };
  PropertyNotify: { window: number; atom: number; time: number; state: 'NewValue' | 'Deleted' };
  SelectionClear: { time: number; owner: number; selection: number };
  SelectionRequest: { time: number; owner: number; requestor: number; selection: number; target: number; property: number };
  SelectionNotify: { time: number; requestor: number; selection: number; target: number; property: number };
  ColormapNotify: { window: number; colormap: number; isNew: boolean; installed: boolean };
  ClientMessage: { format: 8 | 16 | 32; window: number; messageType: number; data: number[] };
  MappingNotify: { request: 'Modifier' | 'Keyboard' | 'Pointer'; firstKeycode: number; count: number };
  /** XGE events: the whole packet, including the payload beyond 32 bytes. */
  GenericEvent: { extension: number; evtype: number; raw: Buffer };
  /** Extension events and anything else not decoded here. */
  Unknown: { raw: Buffer };
}

export type X11EventName = keyof Fields;

/** A decoded event; switch on `name` to narrow. */
export type X11Event = { [N in X11EventName]: Base & { name: N } & Fields[N] }[X11EventName];

/** The event type for one name, e.g. X11EventOf<'KeyPress'>. */
export type X11EventOf<N extends X11EventName> = Extract<X11Event, { name: N }>;

function pointerFields(packet: Buffer): Pointer {
  return {
    time: packet.readUInt32LE(4),
    root: packet.readUInt32LE(8),
    event: packet.readUInt32LE(12),
    child: packet.readUInt32LE(16),
    rootX: packet.readInt16LE(20),
    rootY: packet.readInt16LE(22),
    eventX: packet.readInt16LE(24),
    eventY: packet.readInt16LE(26),
    state: packet.readUInt16LE(28),
    sameScreen: packet[30] !== 0,
  };
}

function crossingFields(packet: Buffer): Pointer & { mode: number; focus: boolean } {
  return { ...pointerFields(packet), mode: packet[30], sameScreen: (packet[31] & 2) !== 0, focus: (packet[31] & 1) !== 0 };
}

const visibilityStates = ['Unobscured', 'PartiallyObscured', 'FullyObscured'] as const;
const mappingRequests = ['Modifier', 'Keyboard', 'Pointer'] as const;

/** Decodes one event packet (32 bytes, or more for GenericEvent). The packet is copied where kept. */
export function parseEvent(packet: Buffer, sequence: number): X11Event {
  const type = packet[0] & 0x7f;
  const base: Base = { type, sequence, sentEvent: (packet[0] & 0x80) !== 0 };
  const u32 = (offset: number): number => packet.readUInt32LE(offset);
  const i16 = (offset: number): number => packet.readInt16LE(offset);
  const u16 = (offset: number): number => packet.readUInt16LE(offset);
  const bool = (offset: number): boolean => packet[offset] !== 0;
  switch (type) {
    case EventCode.KeyPress:
      return { ...base, name: 'KeyPress', detail: packet[1], ...pointerFields(packet) };
    case EventCode.KeyRelease:
      return { ...base, name: 'KeyRelease', detail: packet[1], ...pointerFields(packet) };
    case EventCode.ButtonPress:
      return { ...base, name: 'ButtonPress', detail: packet[1], ...pointerFields(packet) };
    case EventCode.ButtonRelease:
      return { ...base, name: 'ButtonRelease', detail: packet[1], ...pointerFields(packet) };
    case EventCode.MotionNotify:
      return { ...base, name: 'MotionNotify', detail: packet[1], ...pointerFields(packet) };
    case EventCode.EnterNotify:
      return { ...base, name: 'EnterNotify', detail: packet[1], ...crossingFields(packet) };
    case EventCode.LeaveNotify:
      return { ...base, name: 'LeaveNotify', detail: packet[1], ...crossingFields(packet) };
    case EventCode.FocusIn:
      return { ...base, name: 'FocusIn', detail: packet[1], event: u32(4), mode: packet[8] };
    case EventCode.FocusOut:
      return { ...base, name: 'FocusOut', detail: packet[1], event: u32(4), mode: packet[8] };
    case EventCode.KeymapNotify:
      return { ...base, name: 'KeymapNotify', keys: Buffer.from(packet.subarray(1, 32)) };
    case EventCode.Expose:
      return { ...base, name: 'Expose', window: u32(4), x: u16(8), y: u16(10), width: u16(12), height: u16(14), count: u16(16) };
    case EventCode.GraphicsExposure:
      return {
        ...base, name: 'GraphicsExposure', drawable: u32(4), x: u16(8), y: u16(10), width: u16(12), height: u16(14),
        minorOpcode: u16(16), count: u16(18), majorOpcode: packet[20],
      };
    case EventCode.NoExposure:
      return { ...base, name: 'NoExposure', drawable: u32(4), minorOpcode: u16(8), majorOpcode: packet[10] };
    case EventCode.VisibilityNotify:
      return { ...base, name: 'VisibilityNotify', window: u32(4), state: visibilityStates[packet[8]] ?? 'FullyObscured' };
    case EventCode.CreateNotify:
      return {
        ...base, name: 'CreateNotify', parent: u32(4), window: u32(8), x: i16(12), y: i16(14), width: u16(16),
        height: u16(18), borderWidth: u16(20), overrideRedirect: bool(22),
      };
    case EventCode.DestroyNotify:
      return { ...base, name: 'DestroyNotify', event: u32(4), window: u32(8) };
    case EventCode.UnmapNotify:
      return { ...base, name: 'UnmapNotify', event: u32(4), window: u32(8), fromConfigure: bool(12) };
    case EventCode.MapNotify:
      return { ...base, name: 'MapNotify', event: u32(4), window: u32(8), overrideRedirect: bool(12) };
    case EventCode.MapRequest:
      return { ...base, name: 'MapRequest', parent: u32(4), window: u32(8) };
    case EventCode.ReparentNotify:
      return {
        ...base, name: 'ReparentNotify', event: u32(4), window: u32(8), parent: u32(12), x: i16(16), y: i16(18),
        overrideRedirect: bool(20),
      };
    case EventCode.ConfigureNotify:
      return {
        ...base, name: 'ConfigureNotify', event: u32(4), window: u32(8), aboveSibling: u32(12), x: i16(16), y: i16(18),
        width: u16(20), height: u16(22), borderWidth: u16(24), overrideRedirect: bool(26),
      };
    case EventCode.ConfigureRequest:
      return {
        ...base, name: 'ConfigureRequest', stackMode: packet[1], parent: u32(4), window: u32(8), sibling: u32(12),
        x: i16(16), y: i16(18), width: u16(20), height: u16(22), borderWidth: u16(24), valueMask: u16(26),
      };
    case EventCode.GravityNotify:
      return { ...base, name: 'GravityNotify', event: u32(4), window: u32(8), x: i16(12), y: i16(14) };
    case EventCode.ResizeRequest:
      return { ...base, name: 'ResizeRequest', window: u32(4), width: u16(8), height: u16(10) };
    case EventCode.CirculateNotify:
      return { ...base, name: 'CirculateNotify', event: u32(4), window: u32(8), place: packet[16] === 0 ? 'Top' : 'Bottom' };
    case EventCode.CirculateRequest:
      return { ...base, name: 'CirculateRequest', event: u32(4), window: u32(8), place: packet[16] === 0 ? 'Top' : 'Bottom' };
    case EventCode.PropertyNotify:
      return { ...base, name: 'PropertyNotify', window: u32(4), atom: u32(8), time: u32(12), state: packet[16] === 0 ? 'NewValue' : 'Deleted' };
    case EventCode.SelectionClear:
      return { ...base, name: 'SelectionClear', time: u32(4), owner: u32(8), selection: u32(12) };
    case EventCode.SelectionRequest:
      return {
        ...base, name: 'SelectionRequest', time: u32(4), owner: u32(8), requestor: u32(12), selection: u32(16),
        target: u32(20), property: u32(24),
      };
    case EventCode.SelectionNotify:
      return { ...base, name: 'SelectionNotify', time: u32(4), requestor: u32(8), selection: u32(12), target: u32(16), property: u32(20) };
    case EventCode.ColormapNotify:
      return { ...base, name: 'ColormapNotify', window: u32(4), colormap: u32(8), isNew: bool(12), installed: bool(13) };
    case EventCode.ClientMessage:
      return { ...base, name: 'ClientMessage', ...decodeClientMessageData(packet) };
    case EventCode.MappingNotify:
      return { ...base, name: 'MappingNotify', request: mappingRequests[packet[4]] ?? 'Pointer', firstKeycode: packet[5], count: packet[6] };
    case EventCode.GenericEvent:
      return { ...base, name: 'GenericEvent', extension: packet[1], evtype: u16(8), raw: Buffer.from(packet) };
    default:
      return { ...base, name: 'Unknown', raw: Buffer.from(packet) };
  }
}

function decodeClientMessageData(packet: Buffer): { format: 8 | 16 | 32; window: number; messageType: number; data: number[] } {
  const format = packet[1] === 8 ? 8 : packet[1] === 16 ? 16 : 32;
  const data: number[] = [];
  for (let offset = 12; offset < 32; offset += format / 8) {
    data.push(format === 8 ? packet[offset] : format === 16 ? packet.readUInt16LE(offset) : packet.readUInt32LE(offset));
  }
  return { format, window: packet.readUInt32LE(4), messageType: packet.readUInt32LE(8), data };
}

/** A 32-byte ClientMessage event for SendEvent; `data` holds up to 20/10/5 items for format 8/16/32. */
export function encodeClientMessage(window: number, messageType: number, format: 8 | 16 | 32, data: readonly number[]): Buffer {
  const capacity = 160 / format;
  if (data.length > capacity) throw new RangeError(`a format-${format} ClientMessage holds at most ${capacity} items, got ${data.length}`);
  const event = Buffer.alloc(32);
  event[0] = EventCode.ClientMessage;
  event[1] = format;
  event.writeUInt32LE(window >>> 0, 4);
  event.writeUInt32LE(messageType >>> 0, 8);
  data.forEach((value, index) => {
    const offset = 12 + (index * format) / 8;
    if (format === 8) event[offset] = value & 0xff;
    else if (format === 16) event.writeUInt16LE(value & 0xffff, offset);
    else event.writeUInt32LE(value >>> 0, offset);
  });
  return event;
}

export interface InputEventFields {
  type: 'KeyPress' | 'KeyRelease' | 'ButtonPress' | 'ButtonRelease' | 'MotionNotify' | 'EnterNotify' | 'LeaveNotify';
  /** Keycode for key events, button number for button events, 0 for motion, NotifyAncestor (0) etc. for crossings. */
  detail: number;
  root: number;
  /** The window the event is reported relative to (event-x/event-y). */
  window: number;
  child?: number;
  rootX: number;
  rootY: number;
  eventX: number;
  eventY: number;
  /** Modifier and button mask held during the event. */
  state: number;
  time?: number;
}

/** A 32-byte core input event for SendEvent (the receiver sees it flagged as sent by a client). */
export function encodeInputEvent(fields: InputEventFields): Buffer {
  const event = Buffer.alloc(32);
  event[0] = EventCode[fields.type];
  event[1] = fields.detail;
  event.writeUInt32LE((fields.time ?? 0) >>> 0, 4);
  event.writeUInt32LE(fields.root >>> 0, 8);
  event.writeUInt32LE(fields.window >>> 0, 12);
  event.writeUInt32LE((fields.child ?? 0) >>> 0, 16);
  event.writeInt16LE(fields.rootX, 20);
  event.writeInt16LE(fields.rootY, 22);
  event.writeInt16LE(fields.eventX, 24);
  event.writeInt16LE(fields.eventY, 26);
  event.writeUInt16LE(fields.state & 0xffff, 28);
  // An input event's byte 30 is same-screen; a crossing's is its mode (NotifyNormal, 0) and byte 31 its flags (same-screen).
  if (fields.type === 'EnterNotify' || fields.type === 'LeaveNotify') event[31] = 2;
  else event[30] = 1;
  return event;
}
