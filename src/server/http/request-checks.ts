import type { IncomingMessage } from 'node:http';
import { UsageError } from '../cli-args.js';
import { isLoopbackHost, urlHost, type ListenAddress } from './listen-address.js';
import { bearerMatches } from './token.js';

/** A refusal before the MCP transport sees the request. */
export interface Refusal {
  status: 401 | 403;
  message: string;
  headers?: Record<string, string>;
}

/** An --allow-origin value as browsers send it: scheme://host[:port], lower case, no path. */
export function normaliseOrigin(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(`--allow-origin "${text}": expected an origin such as https://agent.example.com or http://localhost:3000`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname.replace(/\/$/, '') !== '' || url.search || url.hash || url.username) {
    throw new UsageError(`--allow-origin "${text}": expected only scheme://host[:port] (http or https, no path), e.g. https://agent.example.com`);
  }
  return url.origin;
}

/**
 * Who may talk to the server: the bearer token for everyone; for browsers (the only clients that send
 * Origin) also an origin that is the server's own or allowed. On a loopback address the Host header must
 * name this machine too: a page whose DNS name was rebound to 127.0.0.1 sends its own name there.
 */
export class RequestChecks {
  private readonly origins: Set<string>;
  private readonly loopback: boolean;

  /** `address` with the port actually bound (port 0 picks one). */
  constructor(
    address: ListenAddress,
    allowedOrigins: readonly string[],
    private readonly token: string,
  ) {
    this.loopback = isLoopbackHost(address.host);
    const own = this.loopback ? ['127.0.0.1', 'localhost', '[::1]', urlHost(address.host)] : [urlHost(address.host)];
    this.origins = new Set([...own.map((host) => `http://${host}:${address.port}`), ...allowedOrigins.map(normaliseOrigin)]);
  }

  /** The request's Origin when a browser sent one the server accepts: it gets CORS headers. */
  allowedOrigin(request: IncomingMessage): string | undefined {
    const origin = request.headers.origin;
    return origin !== undefined && this.origins.has(origin.toLowerCase()) ? origin : undefined;
  }

  /** 403 for a foreign Origin or (on loopback) a foreign Host; checked before the token, and for preflights too. */
  origin(request: IncomingMessage): Refusal | undefined {
    const origin = request.headers.origin;
    if (origin !== undefined && !this.origins.has(origin.toLowerCase())) {
      return { status: 403, message: `origin ${JSON.stringify(origin)} is not allowed; start the server with --allow-origin ${origin === 'null' ? 'ORIGIN' : origin} to let that page in` };
    }
    if (this.loopback) {
      const host = (request.headers.host ?? '').replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');
      if (!isLoopbackHost(host)) return { status: 403, message: `Host ${JSON.stringify(request.headers.host ?? '')} is not this machine; the server listens on a loopback address only` };
    }
    return undefined;
  }

  /** 401 without the right `Authorization: Bearer <token>`. */
  auth(request: IncomingMessage): Refusal | undefined {
    const header = request.headers.authorization;
    if (bearerMatches(header, this.token)) return undefined;
    return {
      status: 401,
      message: header === undefined ? 'missing Authorization: Bearer <token> (the token is in the file the server printed)' : 'wrong bearer token',
      headers: { 'WWW-Authenticate': `Bearer realm="cup-driver", error="${header === undefined ? 'invalid_request' : 'invalid_token'}"` },
    };
  }
}
