// SHAPE: non-rectangular windows. The bounding region decides which pixels a window covers, the input region
// (SHAPE 1.1) which points it receives the pointer at; an empty input region lets clicks through to what is below.
import type { X11Core } from '../connection.js';
import { writeRectangles, type Rectangle } from '../drawing.js';
import { requestBuffer } from '../encode.js';
import { Extension, type ExtensionRegistry } from './registry.js';

export type ShapeKind = 'Bounding' | 'Clip' | 'Input';
export type ShapeOperation = 'Set' | 'Union' | 'Intersect' | 'Subtract' | 'Invert';

const kinds: Record<ShapeKind, number> = { Bounding: 0, Clip: 1, Input: 2 };
const operations: Record<ShapeOperation, number> = { Set: 0, Union: 1, Intersect: 2, Subtract: 3, Invert: 4 };

const requestNames = [
  'QueryVersion', 'Rectangles', 'Mask', 'Combine', 'Offset', 'QueryExtents', 'SelectInput', 'InputSelected',
  'GetRectangles',
];

export function encodeShapeRectangles(
  major: number,
  window: number,
  kind: ShapeKind,
  rectangles: readonly Rectangle[],
  operation: ShapeOperation = 'Set',
  offset: { x: number; y: number } = { x: 0, y: 0 },
): Buffer {
  const request = requestBuffer(major, 1, 16 + rectangles.length * 8);
  request[4] = operations[operation];
  request[5] = kinds[kind];
  // Ordering UnSorted: the server sorts them itself.
  request[6] = 0;
  request.writeUInt32LE(window >>> 0, 8);
  request.writeInt16LE(offset.x, 12);
  request.writeInt16LE(offset.y, 14);
  writeRectangles(request, 16, rectangles);
  return request;
}

export function parseShapeRectangles(reply: Buffer): Rectangle[] {
  const count = reply.readUInt32LE(8);
  const rectangles: Rectangle[] = [];
  for (let index = 0; index < count; index++) {
    const at = 32 + index * 8;
    rectangles.push({ x: reply.readInt16LE(at), y: reply.readInt16LE(at + 2), width: reply.readUInt16LE(at + 4), height: reply.readUInt16LE(at + 6) });
  }
  return rectangles;
}

export class Shape {
  private readonly extension: Extension;

  constructor(core: X11Core, registry: ExtensionRegistry) {
    this.extension = new Extension(core, registry, 'SHAPE', requestNames);
  }

  queryVersion(): Promise<{ major: number; minor: number }> {
    return this.extension.request(
      (major) => requestBuffer(major, 0, 4),
      (reply) => ({ major: reply.readUInt16LE(8), minor: reply.readUInt16LE(10) }),
    );
  }

  /** Sets (or combines into) a window's region of `kind`; no rectangles with 'Set' makes the region empty. */
  rectangles(window: number, kind: ShapeKind, rectangles: readonly Rectangle[], operation: ShapeOperation = 'Set'): Promise<void> {
    return this.extension.send((major) => encodeShapeRectangles(major, window, kind, rectangles, operation));
  }

  /** The window's region of `kind` in window coordinates; an unshaped window reports its whole extent. */
  getRectangles(window: number, kind: ShapeKind): Promise<Rectangle[]> {
    return this.extension.request((major) => {
      const request = requestBuffer(major, 8, 12);
      request.writeUInt32LE(window >>> 0, 4);
      request[8] = kinds[kind];
      return request;
    }, parseShapeRectangles);
  }
}
