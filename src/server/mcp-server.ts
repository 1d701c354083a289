import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { tools } from '../tools/registry.js';
import type { ToolCallResult } from '../tools/call-result.js';
import { logToStderr } from './log.js';
import type { ToolRunner } from './tool-runners.js';
import { inputJsonSchema, outputJsonSchema } from './tool-schemas.js';
import { packageVersion } from './version.js';

/** MCP shape: text first (summary line, then the body), images as image content, fields in structuredContent. */
export function toCallToolResult(result: ToolCallResult): CallToolResult {
  const text = result.body ? `${result.summary}\n\n${result.body}` : result.summary;
  const content: CallToolResult['content'] = [{ type: 'text', text: result.ok ? text : `error [${String(result.structured.error)}]: ${text}` }];
  for (const image of result.images) {
    if (image.writtenTo) continue;
    content.push({ type: 'image', data: image.data.toString('base64'), mimeType: image.mimeType });
  }
  // A failure's fields ({error, message, ...details}) match the error branch of every output schema.
  return { content, structuredContent: result.structured, ...(result.ok ? {} : { isError: true }) };
}

export function createMcpServer(callTool: ToolRunner['call']): Server {
  const server = new Server({ name: 'cup-driver', version: packageVersion }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: inputJsonSchema(tool) as { type: 'object' },
      outputSchema: outputJsonSchema(tool) as { type: 'object' },
      annotations: { readOnlyHint: tool.readOnly },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) =>
    toCallToolResult(await callTool(request.params.name, request.params.arguments ?? {})),
  );
  return server;
}

/** Serves the registry over stdio until the client closes stdin, then closes the runner. Nothing but protocol goes to stdout. */
export async function serveMcpOverStdio(runner: ToolRunner): Promise<void> {
  const server = createMcpServer(async (name, args) => {
    const result = await runner.call(name, args);
    // A desktop started for the client is news for stderr, the MCP server's log, never for stdout.
    for (const notice of result.notices ?? []) logToStderr(notice);
    return result;
  });
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  logToStderr(`MCP server ready on stdio (${tools.length} tools)`);
  await closed;
  await runner.close();
}
