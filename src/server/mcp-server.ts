import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult, type RequestId, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { failureResult, resultText, type ToolCallResult } from '../tools/call-result.js';
import { type AnyTool, findTool, tools } from '../tools/registry.js';
import { TOOL_CAPABILITIES } from '../tools/tool.js';
import { UsageError } from './cli-args.js';
import { logToStderr } from './log.js';
import type { ToolRunner } from './tool-runners.js';
import { inputJsonSchema, outputJsonSchema } from './tool-schemas.js';
import { packageVersion } from './version.js';

/** MCP shape: text first (summary line, then the body), images as image content, fields in structuredContent. */
export function toCallToolResult(result: ToolCallResult): CallToolResult {
  const content: CallToolResult['content'] = [{ type: 'text', text: resultText(result) }];
  for (const image of result.images) {
    if (image.writtenTo) continue;
    content.push({ type: 'image', data: image.data.toString('base64'), mimeType: image.mimeType });
  }
  // A failure's fields ({error, message, ...details}) match the error branch of every output schema.
  return { content, structuredContent: result.structured, ...(result.ok ? {} : { isError: true }) };
}

/** The tools/list entry of one tool: schemas, title and the hints clients use to ask for consent. */
function listedTool(tool: AnyTool): Tool {
  const { readOnly, destructive, idempotent, openWorld } = tool.annotations;
  return {
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: inputJsonSchema(tool) as Tool['inputSchema'],
    outputSchema: outputJsonSchema(tool) as Tool['outputSchema'],
    annotations: { title: tool.title, readOnlyHint: readOnly, destructiveHint: destructive, idempotentHint: idempotent, openWorldHint: openWorld },
  };
}

/**
 * A tool call as the MCP server hands it on; requestId lets a transport end the exchange of a cancelled call, and
 * `headers` (an HTTP transport's, as the request carried them) lets it find the request the call came in on.
 */
export type McpToolCall = (name: string, args: unknown, signal: AbortSignal, requestId: RequestId, headers?: Readonly<Record<string, string | string[] | undefined>>) => Promise<ToolCallResult>;

/** Serves `served` (all tools unless a --tools filter chose fewer); a call to a tool outside it is refused like an unknown one. */
export function createMcpServer(callTool: McpToolCall, served: readonly AnyTool[] = tools): Server {
  const server = new Server({ name: 'cup-driver', version: packageVersion }, { capabilities: { tools: {} } });
  const names = new Set(served.map((tool) => tool.name));
  const argumentProblems = watchArguments(server);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: served.map(listedTool) }));
  // extra.signal is aborted by the client's notifications/cancelled: the call stops (the SDK then sends no response, as MCP says).
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = findTool(request.params.name);
    if (tool && !names.has(tool.name)) {
      return toCallToolResult(failureResult('usage', `tool "${tool.name}" is not served here (the server was started with --tools); served: ${[...names].join(', ')}`, 'unknown_tool'));
    }
    const problem = argumentProblems.get(extra.requestId);
    if (problem !== undefined) {
      argumentProblems.delete(extra.requestId);
      return toCallToolResult(failureResult('usage', `invalid arguments for ${request.params.name}: ${problem}`, 'invalid_arguments'));
    }
    return toCallToolResult(await callTool(request.params.name, request.params.arguments ?? {}, extra.signal, extra.requestId, extra.requestInfo?.headers));
  });
  return server;
}

/**
 * The problems of tools/call requests' arguments that the SDK's own check of the request would hide, by their ids:
 * - a "__proto__" key: the SDK copies the arguments while checking the request, and the copy turns that key into the
 *   object's prototype (or drops it), so the handler could not tell; the transport's message still has it;
 * - arguments that are no JSON object (a string, an array, null): the SDK refused the whole request as an internal
 *   error (-32603) with its schema checker's dump; the message goes on with no arguments, and the call is answered
 *   invalid_arguments, as the CLI answers it.
 * Every transport the server connects to is watched.
 */
function watchArguments(server: Server): Map<string | number, string> {
  const flagged = new Map<string | number, string>();
  const connect = server.connect.bind(server);
  server.connect = async (transport) => {
    await connect(transport);
    const forward = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const request = message as { id?: string | number; method?: string; params?: { arguments?: unknown } };
      const params = request.params;
      if (request.method !== 'tools/call' || request.id === undefined || params?.arguments === undefined) return forward?.(message, extra);
      const args = params.arguments;
      if (args === null || typeof args !== 'object' || Array.isArray(args)) {
        flagged.set(request.id, `arguments must be a JSON object of the tool's fields (e.g. {"window_id": 123}), got ${args === null ? 'null' : Array.isArray(args) ? 'an array' : `a ${typeof args}`}`);
        const { arguments: _dropped, ...rest } = params;
        return forward?.({ ...message, params: rest } as typeof message, extra);
      }
      if (Object.hasOwn(args, '__proto__')) flagged.set(request.id, 'unknown field "__proto__"');
      forward?.(message, extra);
    };
  };
  return flagged;
}

/**
 * The tools a `--tools` value selects: comma-separated capability areas (perception, config, input, apps, browser,
 * terminal) or tool names. An unknown word is a usage error naming what would work.
 */
export function selectTools(filter: string | undefined): readonly AnyTool[] {
  if (filter === undefined) return tools;
  const words = filter.split(',').map((word) => word.trim()).filter(Boolean);
  if (words.length === 0) throw new UsageError(`--tools needs at least one of: ${TOOL_CAPABILITIES.join(', ')}, or tool names`);
  for (const word of words) {
    if (!(TOOL_CAPABILITIES as readonly string[]).includes(word) && !findTool(word)) {
      throw new UsageError(`--tools: "${word}" is neither an area (${TOOL_CAPABILITIES.join(', ')}) nor a tool name; run cup-driver tools for the names`);
    }
  }
  return tools.filter((tool) => words.includes(tool.capability) || words.some((word) => findTool(word) === tool));
}

/** Serves the registry over stdio until the client closes stdin, then closes the runner. Nothing but protocol goes to stdout. */
export async function serveMcpOverStdio(runner: ToolRunner, served: readonly AnyTool[] = tools): Promise<void> {
  // A client that went away (killed: its end of stdin closed) hears no more answers: the calls it left running
  // are cancelled, or a long wait would keep this process, and what the call holds, alive after its client.
  const clientGone = new AbortController();
  const server = createMcpServer(async (name, args, signal) => {
    const result = await runner.call(name, args, signal ? AbortSignal.any([signal, clientGone.signal]) : clientGone.signal);
    // A desktop started for the client is news for stderr, the MCP server's log, never for stdout.
    for (const notice of result.notices ?? []) logToStderr(notice);
    // The client asked not to hear the answer; the log says how the call ended.
    if (signal?.aborted || clientGone.signal.aborted) logToStderr(`${name} cancelled by the client: ${result.summary.split('\n')[0]}`);
    return result;
  }, served);
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
    process.stdin.once('end', () => resolve());
  });
  await server.connect(transport);
  logToStderr(`MCP server ready on stdio (${served.length} tools)`);
  await closed;
  clientGone.abort();
  await runner.close();
}
