import type { AnyTool } from '../../tools/registry.js';
import { logToStderr } from '../log.js';
import { createSharedResources, SessionTable } from '../session.js';
import type { HttpFlagOptions } from './http-options.js';
import { McpHttpServer } from './mcp-http-server.js';

/**
 * `cup-driver mcp --http`: the tools over Streamable HTTP in this process, each MCP session a driver session
 * of its own, until SIGINT, SIGTERM or SIGHUP; then sessions end (calls aborted, terminals stopped), the
 * desktop connections close and a desktop this process started is left to `desktop stop`, as over stdio.
 */
export async function serveMcpOverHttp(served: readonly AnyTool[], options: HttpFlagOptions): Promise<void> {
  // Listening before the handlers exist would let a signal sent as soon as the address is printed kill the process outright.
  const stopped = new Promise<string>((resolve) => {
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.once(signal, () => resolve(`received ${signal}`));
  });
  const shared = createSharedResources();
  const table = new SessionTable(shared);
  let server: McpHttpServer;
  try {
    server = await McpHttpServer.start({
      ...options,
      served,
      calls: { run: (session, tool, args, call) => table.run(session, tool, args, call), end: (session) => table.end(session) },
      log: logToStderr,
    });
  } catch (error) {
    await shared.close();
    throw error;
  }
  const reason = await stopped;
  await server.close(reason);
  await shared.close();
  logToStderr('stopped');
}
