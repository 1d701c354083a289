// get_window_state as an agent calls it: the official MCP client over stdio to `cup-driver mcp`, a separate
// process with its own session, so the figure holds the server's reading, rendering and the JSON-RPC transport.
import { performance } from 'node:perf_hooks';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ClientWindow } from '../src/platform/linux/windows.js';
import { connectMcp } from '../test/helpers/mcp.js';

export class McpSession {
  private constructor(private readonly client: Client) {}

  static async connect(env: NodeJS.ProcessEnv): Promise<McpSession> {
    return new McpSession((await connectMcp(env)).client);
  }

  /**
   * One get_window_state of the window (no screenshot: the pyatspi peer takes none), timed from the request
   * to the parsed answer; the node count it read, so a cut-short reading cannot pass for a fast one.
   */
  async windowState(window: ClientWindow): Promise<{ ms: number; nodes: number }> {
    const started = performance.now();
    const result = (await this.client.callTool(
      { name: 'get_window_state', arguments: { pid: window.pid, window_id: window.id, include_screenshot: false } },
      undefined,
      { timeout: 60_000 },
    )) as CallToolResult;
    const ms = performance.now() - started;
    const structured = result.structuredContent as { node_count?: number; truncated?: boolean } | undefined;
    if (result.isError || !structured?.node_count || structured.truncated) throw new Error(`get_window_state through MCP failed: ${JSON.stringify(result.content).slice(0, 300)}`);
    return { ms, nodes: structured.node_count };
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
