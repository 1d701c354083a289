import { resolve } from 'node:path';
import { flagValue, UsageError, type ParsedArgs } from '../cli-args.js';
import { defaultSessionLimits } from '../daemon/sessions.js';
import { isLoopbackHost, parseListenAddress } from './listen-address.js';
import { normaliseOrigin } from './request-checks.js';
import type { McpHttpOptions } from './mcp-http-server.js';

/** The flags `mcp` and `serve` take for HTTP, to spread into their parseArgs lists. */
export const httpFlags = {
  valued: ['http', 'token-file', 'session-idle-timeout'],
  repeated: ['allow-origin'],
  boolean: ['allow-remote'],
};

export type HttpFlagOptions = Pick<McpHttpOptions, 'address' | 'allowedOrigins' | 'tokenFile' | 'sessionIdleMs' | 'maxSessions'>;

/** The HTTP options the flags give, or undefined without --http (the other HTTP flags then are a usage error). */
export function httpOptionsFromFlags(args: ParsedArgs): HttpFlagOptions | undefined {
  const http = flagValue(args, 'http');
  if (http === undefined) {
    const stray = ['token-file', 'session-idle-timeout', 'allow-origin', 'allow-remote'].filter((name) => args.flags.has(name));
    if (stray.length > 0) throw new UsageError(`${stray.map((name) => `--${name}`).join(', ')} only ${stray.length === 1 ? 'goes' : 'go'} with --http [HOST:]PORT`);
    return undefined;
  }
  const idle = flagValue(args, 'session-idle-timeout');
  const idleSeconds = idle === undefined ? defaultSessionLimits.idleMs / 1000 : Number(idle);
  if (!/^\d+(\.\d+)?$/.test(idle ?? '0') || idleSeconds <= 0 || idleSeconds > 2_000_000) {
    throw new UsageError(`--session-idle-timeout "${idle}": expected seconds above 0 (up to 2000000), e.g. 1800`);
  }
  const tokenFile = flagValue(args, 'token-file');
  const address = parseListenAddress(http);
  if (!isLoopbackHost(address.host) && !args.flags.has('allow-remote')) {
    throw new UsageError(
      `refusing to listen on ${address.host}, which other machines can reach; pass --allow-remote to do it anyway (every request still needs the token), or listen on 127.0.0.1`,
    );
  }
  return {
    address,
    allowedOrigins: (args.lists.get('allow-origin') ?? []).map(normaliseOrigin),
    ...(tokenFile !== undefined ? { tokenFile: resolve(tokenFile) } : {}),
    sessionIdleMs: Math.round(idleSeconds * 1000),
    maxSessions: defaultSessionLimits.maxSessions,
  };
}
