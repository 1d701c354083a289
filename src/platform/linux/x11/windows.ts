// Window requests: create/destroy/map/configure, attributes, geometry, tree and coordinate translation.
import { requestBuffer, valueList, writeValues } from './encode.js';
import { Opcode } from './opcodes.js';

export interface WindowAttributeValues {
  /** 0 None, 1 ParentRelative, or a pixmap. */
  backgroundPixmap?: number;
  backgroundPixel?: number;
  /** 0 CopyFromParent or a pixmap. */
  borderPixmap?: number;
  borderPixel?: number;
  bitGravity?: number;
  winGravity?: number;
  backingStore?: 'NotUseful' | 'WhenMapped' | 'Always';
  backingPlanes?: number;
  backingPixel?: number;
  overrideRedirect?: boolean;
  saveUnder?: boolean;
  eventMask?: number;
  doNotPropagateMask?: number;
  colormap?: number;
  cursor?: number;
}

export interface CreateWindowOptions extends WindowAttributeValues {
  parent: number;
  x: number;
  y: number;
  width: number;
  height: number;
  borderWidth?: number;
  /** 0 copies the parent's depth. */
  depth?: number;
  /** 0 copies the parent's visual. */
  visual?: number;
  class?: 'CopyFromParent' | 'InputOutput' | 'InputOnly';
}

export interface WindowAttributes {
  backingStore: 'NotUseful' | 'WhenMapped' | 'Always';
  visual: number;
  class: 'InputOutput' | 'InputOnly';
  bitGravity: number;
  winGravity: number;
  backingPlanes: number;
  backingPixel: number;
  saveUnder: boolean;
  mapIsInstalled: boolean;
  mapState: 'unmapped' | 'unviewable' | 'viewable';
  overrideRedirect: boolean;
  colormap: number;
  allEventMasks: number;
  yourEventMask: number;
  doNotPropagateMask: number;
}

export interface Geometry {
  root: number;
  depth: number;
  x: number;
  y: number;
  width: number;
  height: number;
  borderWidth: number;
}

export type StackMode = 'Above' | 'Below' | 'TopIf' | 'BottomIf' | 'Opposite';

export interface ConfigureValues {
  x?: number;
  y?: number;
  width?: number;
  height?: number;
  borderWidth?: number;
  sibling?: number;
  stackMode?: StackMode;
}

const backingStores = ['NotUseful', 'WhenMapped', 'Always'] as const;
const windowClasses = { CopyFromParent: 0, InputOutput: 1, InputOnly: 2 } as const;
const stackModes: Record<StackMode, number> = { Above: 0, Below: 1, TopIf: 2, BottomIf: 3, Opposite: 4 };
const mapStates = ['unmapped', 'unviewable', 'viewable'] as const;

function attributeList(values: WindowAttributeValues): { mask: number; values: number[] } {
  return valueList([
    [0x0001, values.backgroundPixmap],
    [0x0002, values.backgroundPixel],
    [0x0004, values.borderPixmap],
    [0x0008, values.borderPixel],
    [0x0010, values.bitGravity],
    [0x0020, values.winGravity],
    [0x0040, values.backingStore === undefined ? undefined : backingStores.indexOf(values.backingStore)],
    [0x0080, values.backingPlanes],
    [0x0100, values.backingPixel],
    [0x0200, values.overrideRedirect],
    [0x0400, values.saveUnder],
    [0x0800, values.eventMask],
    [0x1000, values.doNotPropagateMask],
    [0x2000, values.colormap],
    [0x4000, values.cursor],
  ]);
}

export function encodeCreateWindow(id: number, options: CreateWindowOptions): Buffer {
  const list = attributeList(options);
  const request = requestBuffer(Opcode.CreateWindow, options.depth ?? 0, 32 + list.values.length * 4);
  request.writeUInt32LE(id >>> 0, 4);
  request.writeUInt32LE(options.parent >>> 0, 8);
  request.writeInt16LE(options.x, 12);
  request.writeInt16LE(options.y, 14);
  request.writeUInt16LE(options.width, 16);
  request.writeUInt16LE(options.height, 18);
  request.writeUInt16LE(options.borderWidth ?? 0, 20);
  request.writeUInt16LE(windowClasses[options.class ?? 'InputOutput'], 22);
  request.writeUInt32LE((options.visual ?? 0) >>> 0, 24);
  request.writeUInt32LE(list.mask, 28);
  writeValues(request, 32, list.values);
  return request;
}

export function encodeChangeWindowAttributes(window: number, values: WindowAttributeValues): Buffer {
  const list = attributeList(values);
  const request = requestBuffer(Opcode.ChangeWindowAttributes, 0, 12 + list.values.length * 4);
  request.writeUInt32LE(window >>> 0, 4);
  request.writeUInt32LE(list.mask, 8);
  writeValues(request, 12, list.values);
  return request;
}

export function parseWindowAttributes(reply: Buffer): WindowAttributes {
  return {
    backingStore: backingStores[reply[1]] ?? 'NotUseful',
    visual: reply.readUInt32LE(8),
    class: reply.readUInt16LE(12) === 2 ? 'InputOnly' : 'InputOutput',
    bitGravity: reply[14],
    winGravity: reply[15],
    backingPlanes: reply.readUInt32LE(16),
    backingPixel: reply.readUInt32LE(20),
    saveUnder: reply[24] !== 0,
    mapIsInstalled: reply[25] !== 0,
    mapState: mapStates[reply[26]] ?? 'unmapped',
    overrideRedirect: reply[27] !== 0,
    colormap: reply.readUInt32LE(28),
    allEventMasks: reply.readUInt32LE(32),
    yourEventMask: reply.readUInt32LE(36),
    doNotPropagateMask: reply.readUInt16LE(40),
  };
}

export function encodeConfigureWindow(window: number, values: ConfigureValues): Buffer {
  const list = valueList([
    [0x01, values.x],
    [0x02, values.y],
    [0x04, values.width],
    [0x08, values.height],
    [0x10, values.borderWidth],
    [0x20, values.sibling],
    [0x40, values.stackMode === undefined ? undefined : stackModes[values.stackMode]],
  ]);
  const request = requestBuffer(Opcode.ConfigureWindow, 0, 12 + list.values.length * 4);
  request.writeUInt32LE(window >>> 0, 4);
  request.writeUInt16LE(list.mask, 8);
  writeValues(request, 12, list.values);
  return request;
}

export function parseGeometry(reply: Buffer): Geometry {
  return {
    depth: reply[1],
    root: reply.readUInt32LE(8),
    x: reply.readInt16LE(12),
    y: reply.readInt16LE(14),
    width: reply.readUInt16LE(16),
    height: reply.readUInt16LE(18),
    borderWidth: reply.readUInt16LE(20),
  };
}

export interface Tree {
  root: number;
  /** 0 for a root window. */
  parent: number;
  /** Bottom-to-top stacking order. */
  children: number[];
}

export function parseQueryTree(reply: Buffer): Tree {
  const count = reply.readUInt16LE(16);
  const children = new Array<number>(count);
  for (let i = 0; i < count; i++) children[i] = reply.readUInt32LE(32 + i * 4);
  return { root: reply.readUInt32LE(8), parent: reply.readUInt32LE(12), children };
}

export function encodeTranslateCoordinates(source: number, destination: number, x: number, y: number): Buffer {
  const request = requestBuffer(Opcode.TranslateCoordinates, 0, 16);
  request.writeUInt32LE(source >>> 0, 4);
  request.writeUInt32LE(destination >>> 0, 8);
  request.writeInt16LE(x, 12);
  request.writeInt16LE(y, 14);
  return request;
}

export interface Translation {
  /** False when the windows are on different screens (then x, y and child are 0). */
  sameScreen: boolean;
  /** The destination's child containing the point, or 0. */
  child: number;
  x: number;
  y: number;
}

export function parseTranslateCoordinates(reply: Buffer): Translation {
  return { sameScreen: reply[1] !== 0, child: reply.readUInt32LE(8), x: reply.readInt16LE(12), y: reply.readInt16LE(14) };
}
