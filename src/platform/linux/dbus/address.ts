import { Buffer } from 'node:buffer';
import type { NetConnectOpts } from 'node:net';

/** One `transport:key=value,...` entry of a D-Bus address list, with values already unescaped. */
export interface DBusAddressEntry {
  readonly text: string;
  readonly transport: string;
  readonly params: ReadonlyMap<string, string>;
}

const EXPECTED = 'expected "transport:key=value,key=value" entries separated by ";", e.g. "unix:path=/run/user/1000/bus"';

/** Splits and unescapes an address list (syntax only); throws an Error naming the address when malformed. */
export function parseAddress(address: string): DBusAddressEntry[] {
  function fail(why: string): never {
    throw new Error(`malformed D-Bus address ${JSON.stringify(address)}: ${why}; ${EXPECTED}`);
  }
  if (typeof address !== 'string' || address.trim() === '') fail('it is empty');
  const entries: DBusAddressEntry[] = [];
  for (const text of address.split(';')) {
    if (text === '') continue; // A trailing ";" is common and harmless.
    const colon = text.indexOf(':');
    if (colon <= 0) fail(`entry ${JSON.stringify(text)} has no transport name before ":"`);
    const params = new Map<string, string>();
    const rest = text.slice(colon + 1);
    for (const pair of rest === '' ? [] : rest.split(',')) {
      const eq = pair.indexOf('=');
      if (eq <= 0) fail(`${JSON.stringify(pair)} in entry ${JSON.stringify(text)} is not key=value`);
      const key = pair.slice(0, eq);
      if (params.has(key)) fail(`key "${key}" appears twice in entry ${JSON.stringify(text)}`);
      const value = unescapeValue(pair.slice(eq + 1));
      if (value === undefined) fail(`value of "${key}" in entry ${JSON.stringify(text)} has a bad %-escape`);
      params.set(key, value);
    }
    entries.push({ text, transport: text.slice(0, colon), params });
  }
  if (entries.length === 0) fail('it has no entries');
  return entries;
}

function unescapeValue(value: string): string | undefined {
  if (!value.includes('%')) return value;
  const bytes: number[] = [];
  for (let i = 0; i < value.length; i++) {
    const ch = value.charCodeAt(i);
    if (ch === 0x25) {
      const hex = value.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return undefined;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (ch < 0x80) {
      bytes.push(ch);
    } else {
      bytes.push(...Buffer.from(value[i]!, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** How to open a client socket for one entry; throws for transports a client cannot connect to. */
export function socketOptions(entry: DBusAddressEntry): NetConnectOpts {
  const { params, text } = entry;
  switch (entry.transport) {
    case 'unix': {
      const path = params.get('path');
      const abstract = params.get('abstract');
      if (path !== undefined && abstract === undefined) return { path };
      // Node reaches Linux abstract-namespace sockets through a path with a leading NUL.
      if (abstract !== undefined && path === undefined) return { path: `\0${abstract}` };
      for (const serverOnly of ['tmpdir', 'dir', 'runtime']) {
        if (params.has(serverOnly)) {
          throw new Error(`D-Bus address "${text}" uses unix:${serverOnly}=, which only a server can listen on; a client needs unix:path= or unix:abstract=`);
        }
      }
      throw new Error(`D-Bus address "${text}" needs exactly one of path= or abstract=`);
    }
    case 'tcp': {
      const portText = params.get('port');
      const port = Number(portText);
      if (portText === undefined || !/^\d+$/.test(portText) || port < 1 || port > 65535) {
        throw new Error(`D-Bus address "${text}" needs port= with a TCP port in 1..65535`);
      }
      const family = params.get('family');
      if (family !== undefined && family !== 'ipv4' && family !== 'ipv6') {
        throw new Error(`D-Bus address "${text}" has family=${family}; expected ipv4 or ipv6`);
      }
      const host = params.get('host') ?? 'localhost';
      return family === undefined ? { host, port } : { host, port, family: family === 'ipv4' ? 4 : 6 };
    }
    default:
      throw new Error(`D-Bus address "${text}" uses transport "${entry.transport}"; only unix: (path=, abstract=) and tcp: are supported`);
  }
}

/**
 * libuv before 1.48 passes the whole sun_path (padded with NULs) as an abstract socket's name, so
 * node:net cannot reach an abstract socket bound by anything else, dbus-daemon included.
 */
export function abstractSocketsSupported(uvVersion: string | undefined = process.versions.uv): boolean {
  const [major = 0, minor = 0] = (uvVersion ?? '').split('.').map(Number);
  return major > 1 || (major === 1 && minor >= 48);
}

export function isAbstractEntry(entry: DBusAddressEntry): boolean {
  return entry.transport === 'unix' && entry.params.has('abstract');
}

export const ABSTRACT_SOCKET_HINT =
  `this Node.js (libuv ${process.versions.uv}) pads abstract socket names, so it cannot reach a unix:abstract= bus; ` +
  'use a unix:path= address or Node.js 22+ (libuv 1.48+)';
