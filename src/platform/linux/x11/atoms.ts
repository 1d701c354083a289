// Atoms: InternAtom / GetAtomName with a two-way cache seeded with the protocol's predefined atoms.
import type { X11Core } from './connection.js';
import { requestBuffer, string8 } from './encode.js';
import { Opcode } from './opcodes.js';

/** The core protocol's predefined atoms, in order: atom n is entry n-1. */
const predefinedNames = [
  'PRIMARY', 'SECONDARY', 'ARC', 'ATOM', 'BITMAP', 'CARDINAL', 'COLORMAP', 'CURSOR', 'CUT_BUFFER0', 'CUT_BUFFER1',
  'CUT_BUFFER2', 'CUT_BUFFER3', 'CUT_BUFFER4', 'CUT_BUFFER5', 'CUT_BUFFER6', 'CUT_BUFFER7', 'DRAWABLE', 'FONT',
  'INTEGER', 'PIXMAP', 'POINT', 'RECTANGLE', 'RESOURCE_MANAGER', 'RGB_COLOR_MAP', 'RGB_BEST_MAP', 'RGB_BLUE_MAP',
  'RGB_DEFAULT_MAP', 'RGB_GRAY_MAP', 'RGB_GREEN_MAP', 'RGB_RED_MAP', 'STRING', 'VISUALID', 'WINDOW', 'WM_COMMAND',
  'WM_HINTS', 'WM_CLIENT_MACHINE', 'WM_ICON_NAME', 'WM_ICON_SIZE', 'WM_NAME', 'WM_NORMAL_HINTS', 'WM_SIZE_HINTS',
  'WM_ZOOM_HINTS', 'MIN_SPACE', 'NORM_SPACE', 'MAX_SPACE', 'END_SPACE', 'SUPERSCRIPT_X', 'SUPERSCRIPT_Y',
  'SUBSCRIPT_X', 'SUBSCRIPT_Y', 'UNDERLINE_POSITION', 'UNDERLINE_THICKNESS', 'STRIKEOUT_ASCENT',
  'STRIKEOUT_DESCENT', 'ITALIC_ANGLE', 'X_HEIGHT', 'QUAD_WIDTH', 'WEIGHT', 'POINT_SIZE', 'RESOLUTION', 'COPYRIGHT',
  'NOTICE', 'FONT_NAME', 'FAMILY_NAME', 'FULL_NAME', 'CAP_HEIGHT', 'WM_CLASS', 'WM_TRANSIENT_FOR',
] as const;

export type PredefinedAtomName = (typeof predefinedNames)[number];

/** Predefined atoms by name (Atom.STRING === 31), usable without a round trip. */
export const Atom = Object.freeze(
  Object.fromEntries(predefinedNames.map((name, index) => [name, index + 1])) as Record<PredefinedAtomName, number>,
);

export const AnyPropertyType = 0;
export const None = 0;

export function encodeInternAtom(name: string, onlyIfExists: boolean): Buffer {
  const bytes = string8(name);
  const request = requestBuffer(Opcode.InternAtom, onlyIfExists ? 1 : 0, 8 + bytes.length);
  request.writeUInt16LE(bytes.length, 4);
  bytes.copy(request, 8);
  return request;
}

export function encodeGetAtomName(atom: number): Buffer {
  const request = requestBuffer(Opcode.GetAtomName, 0, 8);
  request.writeUInt32LE(atom >>> 0, 4);
  return request;
}

export function parseGetAtomName(reply: Buffer): string {
  return reply.toString('latin1', 32, 32 + reply.readUInt16LE(8));
}

export class AtomCache {
  private readonly byName = new Map<string, number>();
  private readonly byAtom = new Map<number, string>();
  // Concurrent look-ups of the same name or atom share one request.
  private readonly internInFlight = new Map<string, Promise<number>>();
  private readonly nameInFlight = new Map<number, Promise<string>>();

  constructor(private readonly core: X11Core) {
    predefinedNames.forEach((name, index) => this.remember(name, index + 1));
  }

  /** The atom for `name`; with onlyIfExists, 0 (None) when the server has no such atom (not cached). */
  intern(name: string, onlyIfExists = false): Promise<number> {
    const known = this.byName.get(name);
    if (known !== undefined) return Promise.resolve(known);
    const key = `${onlyIfExists ? '?' : '!'}${name}`;
    const inFlight = this.internInFlight.get(key);
    if (inFlight) return inFlight;
    const promise = this.core
      .request(encodeInternAtom(name, onlyIfExists), (reply) => reply.readUInt32LE(8))
      .then((atom) => {
        if (atom !== None) this.remember(name, atom);
        return atom;
      })
      .finally(() => this.internInFlight.delete(key));
    this.internInFlight.set(key, promise);
    return promise;
  }

  name(atom: number): Promise<string> {
    const known = this.byAtom.get(atom);
    if (known !== undefined) return Promise.resolve(known);
    const inFlight = this.nameInFlight.get(atom);
    if (inFlight) return inFlight;
    const promise = this.core
      .request(encodeGetAtomName(atom), parseGetAtomName)
      .then((name) => {
        this.remember(name, atom);
        return name;
      })
      .finally(() => this.nameInFlight.delete(atom));
    this.nameInFlight.set(atom, promise);
    return promise;
  }

  /** Interns all names at once: the requests are pipelined, so this costs one round trip. */
  async many(names: readonly string[]): Promise<Record<string, number>> {
    const atoms = await Promise.all(names.map((name) => this.intern(name)));
    return Object.fromEntries(names.map((name, index) => [name, atoms[index]!]));
  }

  /** Synchronous look-up of an already known atom; undefined when it would need a round trip. */
  cached(name: string): number | undefined {
    return this.byName.get(name);
  }

  private remember(name: string, atom: number): void {
    this.byName.set(name, atom);
    this.byAtom.set(atom, name);
  }
}
