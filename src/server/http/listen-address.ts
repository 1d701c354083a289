import { isIP } from 'node:net';
import { UsageError } from '../cli-args.js';

/** Where the HTTP server listens. */
export interface ListenAddress {
  host: string;
  /** 0 lets the kernel pick a free port (the chosen one is printed). */
  port: number;
}

/**
 * `[HOST:]PORT`: "8080", "127.0.0.1:8080", "localhost:0", "[::1]:8080", "0.0.0.0:8080". No host means
 * 127.0.0.1: nothing outside this machine reaches the driver unless asked.
 */
export function parseListenAddress(text: string): ListenAddress {
  const match = /^(?:(\[[0-9A-Fa-f:.]+\]|[^:\s]+):)?(\d{1,5})$/.exec(text.trim());
  const port = match ? Number(match[2]) : Number.NaN;
  if (!match || port > 65535) {
    throw new UsageError(`--http "${text}": expected [HOST:]PORT with PORT 0-65535 (0 picks a free one), e.g. 8765, 127.0.0.1:8765 or [::1]:8765`);
  }
  const host = match[1] === undefined ? '127.0.0.1' : match[1].replace(/^\[(.*)\]$/, '$1');
  if (host !== 'localhost' && isIP(host) === 0) {
    throw new UsageError(`--http "${text}": "${host}" is not an IP address or localhost; give the address of the interface to listen on`);
  }
  return { host, port };
}

/** Only this machine can connect: 127.0.0.0/8, ::1 (also as ::ffff:127.x) and localhost. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.toLowerCase().replace(/^::ffff:/, '');
  return bare === 'localhost' || bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

/** The host as it appears in a URL (IPv6 in brackets). */
export function urlHost(host: string): string {
  return isIP(host) === 6 ? `[${host}]` : host;
}
