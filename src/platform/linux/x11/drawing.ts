// Graphics contexts and the one drawing request we need: solid rectangles (enough to paint known pixels).
import { requestBuffer, valueList, writeValues } from './encode.js';
import { Opcode } from './opcodes.js';

export interface GCValues {
  /** Raster operation, e.g. 3 GXcopy (the default). */
  function?: number;
  planeMask?: number;
  foreground?: number;
  background?: number;
  lineWidth?: number;
  /** IncludeInferiors draws over (or, as a GetImage source, reads through) child windows. */
  subwindowMode?: 'ClipByChildren' | 'IncludeInferiors';
  graphicsExposures?: boolean;
}

export interface Rectangle {
  x: number;
  y: number;
  width: number;
  height: number;
}

function gcList(values: GCValues): { mask: number; values: number[] } {
  return valueList([
    [0x00001, values.function],
    [0x00002, values.planeMask],
    [0x00004, values.foreground],
    [0x00008, values.background],
    [0x00010, values.lineWidth],
    [0x08000, values.subwindowMode === undefined ? undefined : values.subwindowMode === 'IncludeInferiors' ? 1 : 0],
    [0x10000, values.graphicsExposures],
  ]);
}

export function encodeCreateGC(id: number, drawable: number, values: GCValues): Buffer {
  const list = gcList(values);
  const request = requestBuffer(Opcode.CreateGC, 0, 16 + list.values.length * 4);
  request.writeUInt32LE(id >>> 0, 4);
  request.writeUInt32LE(drawable >>> 0, 8);
  request.writeUInt32LE(list.mask, 12);
  writeValues(request, 16, list.values);
  return request;
}

export function encodeChangeGC(gc: number, values: GCValues): Buffer {
  const list = gcList(values);
  const request = requestBuffer(Opcode.ChangeGC, 0, 12 + list.values.length * 4);
  request.writeUInt32LE(gc >>> 0, 4);
  request.writeUInt32LE(list.mask, 8);
  writeValues(request, 12, list.values);
  return request;
}

export function encodePolyFillRectangle(drawable: number, gc: number, rectangles: readonly Rectangle[]): Buffer {
  const request = requestBuffer(Opcode.PolyFillRectangle, 0, 12 + rectangles.length * 8);
  request.writeUInt32LE(drawable >>> 0, 4);
  request.writeUInt32LE(gc >>> 0, 8);
  writeRectangles(request, 12, rectangles);
  return request;
}

/** Writes a LISTofRECTANGLE (INT16 x, y; CARD16 width, height: 8 bytes each) from `offset`. */
export function writeRectangles(buffer: Buffer, offset: number, rectangles: readonly Rectangle[]): void {
  rectangles.forEach((rectangle, index) => {
    const at = offset + index * 8;
    buffer.writeInt16LE(rectangle.x, at);
    buffer.writeInt16LE(rectangle.y, at + 2);
    buffer.writeUInt16LE(rectangle.width, at + 4);
    buffer.writeUInt16LE(rectangle.height, at + 6);
  });
}
