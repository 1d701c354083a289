// Xauthority files: a sequence of entries, each a big-endian u16 family followed by four u16-length-prefixed
// byte strings (address, display number, auth name, auth data).
import { readFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { isIPv4, isIPv6 } from 'node:net';
import { join } from 'node:path';

export const XauthFamily = {
  Internet: 0,
  Internet6: 6,
  Local: 256,
  Wild: 65535,
} as const;

export const mitMagicCookie = 'MIT-MAGIC-COOKIE-1';

export interface XauthEntry {
  family: number;
  address: Buffer;
  /** Display number as the decimal string the file stores; '' matches every display. */
  number: string;
  name: string;
  data: Buffer;
}

export interface XauthAddress {
  family: number;
  address: Buffer;
}

export interface AuthCookie {
  name: string;
  data: Buffer;
}

/** Parses a whole file; a truncated final entry (a file being rewritten) is ignored rather than fatal. */
export function parseXauthority(file: Buffer): XauthEntry[] {
  const entries: XauthEntry[] = [];
  let offset = 0;
  const field = (): Buffer | undefined => {
    if (offset + 2 > file.length) return undefined;
    const length = file.readUInt16BE(offset);
    if (offset + 2 + length > file.length) return undefined;
    const value = file.subarray(offset + 2, offset + 2 + length);
    offset += 2 + length;
    return value;
  };
  while (offset + 2 <= file.length) {
    const family = file.readUInt16BE(offset);
    offset += 2;
    const address = field();
    const number = field();
    const name = field();
    const data = field();
    if (!address || !number || !name || !data) break;
    entries.push({ family, address, number: number.toString('latin1'), name: name.toString('latin1'), data });
  }
  return entries;
}

export function xauthorityPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.XAUTHORITY) return env.XAUTHORITY;
  return env.HOME ? join(env.HOME, '.Xauthority') : undefined;
}

/**
 * The first MIT-MAGIC-COOKIE-1 entry, in file order, for this display number whose address is one of the
 * candidates or is a wildcard.
 */
export function findCookie(entries: XauthEntry[], displayNumber: number, candidates: XauthAddress[]): AuthCookie | undefined {
  const number = String(displayNumber);
  for (const entry of entries) {
    if (entry.name !== mitMagicCookie) continue;
    if (entry.number !== '' && entry.number !== number) continue;
    const addressMatches =
      entry.family === XauthFamily.Wild ||
      candidates.some((candidate) => candidate.family === entry.family && candidate.address.equals(entry.address));
    if (addressMatches) return { name: entry.name, data: entry.data };
  }
  return undefined;
}

const loopbackNames = new Set(['localhost', 'localhost.localdomain', 'ip6-localhost']);

/**
 * Addresses a server could have recorded for us. A local-socket or loopback connection is filed under the
 * machine's host name with family Local, the way xauth and display managers write it.
 */
export function authCandidates(connection: { kind: 'unix'; host: string } | { kind: 'tcp'; host: string; remoteAddress?: string }): XauthAddress[] {
  const local = hostname();
  const localEntry = (name: string): XauthAddress => ({ family: XauthFamily.Local, address: Buffer.from(name, 'latin1') });
  if (connection.kind === 'unix') {
    return [localEntry(connection.host || local)];
  }
  const candidates: XauthAddress[] = [];
  const ip = connection.remoteAddress ?? connection.host;
  const loopback = loopbackNames.has(connection.host) || connection.host === local || ip.startsWith('127.') || ip === '::1';
  if (loopback) candidates.push(localEntry(local));
  if (isIPv4(ip)) candidates.push({ family: XauthFamily.Internet, address: Buffer.from(ip.split('.').map(Number)) });
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) candidates.push({ family: XauthFamily.Internet, address: Buffer.from(mapped[1].split('.').map(Number)) });
  if (isIPv6(ip) && !mapped) candidates.push({ family: XauthFamily.Internet6, address: ipv6Bytes(ip) });
  return candidates;
}

function ipv6Bytes(ip: string): Buffer {
  const [head = '', tail] = ip.split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  const groups = [...headGroups, ...new Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  const bytes = Buffer.alloc(16);
  groups.forEach((group, index) => bytes.writeUInt16BE(parseInt(group, 16), index * 2));
  return bytes;
}

/** Reads the user's Xauthority file and picks a cookie; a missing or unreadable file means "no auth". */
export async function loadCookie(
  displayNumber: number,
  candidates: XauthAddress[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<AuthCookie | undefined> {
  const path = xauthorityPath(env);
  if (!path) return undefined;
  let file: Buffer;
  try {
    file = await readFile(path);
  } catch {
    return undefined;
  }
  return findCookie(parseXauthority(file), displayNumber, candidates);
}
