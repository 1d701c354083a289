// BIG-REQUESTS: lifts the 256 KiB request limit (only large ChangeProperty values need it).
import type { X11Core } from '../connection.js';
import { requestBuffer } from '../encode.js';
import type { ExtensionRegistry } from './registry.js';

/** Enables BIG-REQUESTS when the server has it; otherwise the core limit stays and longer requests are refused. */
export async function enableBigRequests(core: X11Core, registry: ExtensionRegistry): Promise<void> {
  const info = await registry.query('BIG-REQUESTS');
  if (!info.present) return;
  core.registerExtension('BIG-REQUESTS', info.majorOpcode, info.firstError, ['Enable']);
  const maxLength = await core.request(requestBuffer(info.majorOpcode, 0, 4), (reply) => reply.readUInt32LE(8));
  core.enableBigRequests(maxLength);
}
