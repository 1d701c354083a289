// X-Resource: what the server knows of its clients. Its QueryClientIds (1.2) gives the process id of a local
// client, so a window whose app sets no _NET_WM_PID (Tk, Xt/Xaw, Motif) still has its process.
import type { X11Core } from '../connection.js';
import { requestBuffer } from '../encode.js';
import { Extension, type ExtensionRegistry } from './registry.js';

const requestNames = ['QueryVersion', 'QueryClients', 'QueryClientResources', 'QueryClientPixmapBytes', 'QueryClientIds', 'QueryResourceBytes'];

const localClientPidMask = 2;

/** QueryClientIds for the client that owns `resource` (any of its windows), asking for its process id only. */
export function encodeQueryClientPid(major: number, resource: number): Buffer {
  const request = requestBuffer(major, 4, 16);
  request.writeUInt32LE(1, 4);
  request.writeUInt32LE(resource >>> 0, 8);
  request.writeUInt32LE(localClientPidMask, 12);
  return request;
}

/** The process id in a QueryClientIds reply; undefined when the server has none (a client over TCP). */
export function parseClientPid(reply: Buffer): number | undefined {
  const count = reply.readUInt32LE(8);
  let offset = 32;
  for (let index = 0; index < count && offset + 12 <= reply.length; index++) {
    const mask = reply.readUInt32LE(offset + 4);
    const length = reply.readUInt32LE(offset + 8);
    if (mask & localClientPidMask && length >= 4) return reply.readUInt32LE(offset + 12);
    offset += 12 + length;
  }
  return undefined;
}

export class XRes {
  private readonly extension: Extension;

  constructor(core: X11Core, registry: ExtensionRegistry) {
    this.extension = new Extension(core, registry, 'X-Resource', requestNames);
  }

  /** The process id of the client that created `resource`; rejects when the resource is gone (BadValue). */
  clientPid(resource: number): Promise<number | undefined> {
    return this.extension.request((major) => encodeQueryClientPid(major, resource), parseClientPid);
  }
}
