// XFIXES, for one thing: being told each time a selection is taken. A drag and drop between X clients (XDND) begins
// with its source taking the XdndSelection, so a driver holding the button can tell when the drag has begun.
import type { X11Core } from '../connection.js';
import { requestBuffer } from '../encode.js';
import type { X11Event } from '../events.js';
import { Extension, type ExtensionRegistry } from './registry.js';

const requestNames = ['QueryVersion', 'ChangeSaveSet', 'SelectSelectionInput', 'SelectCursorInput'];

/** SetSelectionOwnerNotifyMask: every SetSelectionOwner on the selection, even by its owner again. */
const setOwnerMask = 1;

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
  async watchSelection(window: number, selection: number, listener: (change: SelectionOwnerChange) => void): Promise<() => Promise<void>> {
    const firstEvent = await this.ready();
    const stop = this.core.onEvent((event) => {
      const change = parseSelectionNotify(event, firstEvent);
      if (change && change.selection === selection) listener(change);
    });
    await this.extension.send((major) => encodeSelectSelectionInput(major, window, selection, setOwnerMask));
    return async () => {
      stop();
      await this.extension.send((major) => encodeSelectSelectionInput(major, window, selection, 0));
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
