// XFIXES, for being told each time a selection is taken and each time the cursor changes. A drag and drop between X
// clients (XDND) begins with its source taking the XdndSelection, and its cursor says whether the window under it
// would take the drop: a driver holding the button can tell when the drag has begun, and when it can drop.
import type { X11Core } from '../connection.js';
import { requestBuffer } from '../encode.js';
import type { X11Event } from '../events.js';
import { Extension, type ExtensionRegistry } from './registry.js';

const requestNames = ['QueryVersion', 'ChangeSaveSet', 'SelectSelectionInput', 'SelectCursorInput'];

/** SetSelectionOwnerNotifyMask: every SetSelectionOwner on the selection, even by its owner again. */
const setOwnerMask = 1;
/** DisplayCursorNotifyMask: every change of the cursor shown. */
const displayCursorMask = 1;

/** One XFixesSelectionNotify: subtype 0 is a new owner (1 its window destroyed, 2 its client gone). */
export interface SelectionOwnerChange {
  subtype: number;
  owner: number;
  selection: number;
  time: number;
}

export function encodeSelectSelectionInput(major: number, window: number, selection: number, mask: number): Buffer {
  const request = requestBuffer(major, 2, 16);
  request.writeUInt32LE(window >>> 0, 4);
  request.writeUInt32LE(selection >>> 0, 8);
  request.writeUInt32LE(mask >>> 0, 12);
  return request;
}

/** The selection event of an XFIXES whose events start at firstEvent, or undefined for any other event. */
export function parseSelectionNotify(event: X11Event, firstEvent: number): SelectionOwnerChange | undefined {
  if (event.name !== 'Unknown' || event.type !== firstEvent) return undefined;
  const { raw } = event;
  return { subtype: raw[1]!, owner: raw.readUInt32LE(8), selection: raw.readUInt32LE(12), time: raw.readUInt32LE(16) };
}

/** XFixesCursorNotify: the cursor shown changed; `name` is its name's atom (0 for a cursor made without one). */
export interface CursorChange {
  serial: number;
  name: number;
}

export function encodeSelectCursorInput(major: number, window: number, mask: number): Buffer {
  const request = requestBuffer(major, 3, 12);
  request.writeUInt32LE(window >>> 0, 4);
  request.writeUInt32LE(mask >>> 0, 8);
  return request;
}

/** The cursor event of an XFIXES whose events start at firstEvent, or undefined for any other event. */
export function parseCursorNotify(event: X11Event, firstEvent: number): CursorChange | undefined {
  if (event.name !== 'Unknown' || event.type !== firstEvent + 1 || event.raw[1] !== 0) return undefined;
  return { serial: event.raw.readUInt32LE(8), name: event.raw.readUInt32LE(16) };
}

export class XFixes {
  private readonly extension: Extension;
  private versioned: Promise<number> | undefined;

  constructor(
    private readonly core: X11Core,
    private readonly registry: ExtensionRegistry,
  ) {
    this.extension = new Extension(core, registry, 'XFIXES', requestNames);
  }

  /**
   * Calls `listener` each time `selection` is taken, until the returned function is called. XFIXES takes no other
   * request from a client before its QueryVersion, which the first call sends.
   */
  watchSelection(window: number, selection: number, listener: (change: SelectionOwnerChange) => void): Promise<() => Promise<void>> {
    return this.watch(
      (event, firstEvent) => {
        const change = parseSelectionNotify(event, firstEvent);
        if (change && change.selection === selection) listener(change);
      },
      (major, mask) => encodeSelectSelectionInput(major, window, selection, mask === 'on' ? setOwnerMask : 0),
    );
  }

  /** Calls `listener` each time the cursor shown on the screen of `root` changes, until the returned function is called. */
  watchCursor(root: number, listener: (change: CursorChange) => void): Promise<() => Promise<void>> {
    return this.watch(
      (event, firstEvent) => {
        const change = parseCursorNotify(event, firstEvent);
        if (change) listener(change);
      },
      (major, mask) => encodeSelectCursorInput(major, root, mask === 'on' ? displayCursorMask : 0),
    );
  }

  /** Listens for events, then selects them (`select` with 'on'); the returned function stops listening and deselects them. */
  private async watch(heard: (event: X11Event, firstEvent: number) => void, select: (major: number, mask: 'on' | 'off') => Buffer): Promise<() => Promise<void>> {
    const firstEvent = await this.ready();
    const stop = this.core.onEvent((event) => heard(event, firstEvent));
    await this.extension.send((major) => select(major, 'on'));
    return async () => {
      stop();
      await this.extension.send((major) => select(major, 'off'));
    };
  }

  private ready(): Promise<number> {
    this.versioned ??= this.extension
      .request(
        (major) => {
          const request = requestBuffer(major, 0, 12);
          request.writeUInt32LE(5, 4);
          request.writeUInt32LE(0, 8);
          return request;
        },
        () => undefined,
      )
      .then(async () => (await this.registry.query('XFIXES')).firstEvent);
    this.versioned.catch(() => (this.versioned = undefined));
    return this.versioned;
  }
}
