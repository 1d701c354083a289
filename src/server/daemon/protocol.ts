import type { ErrorCode } from '../../errors.js';
import { SESSION_NAME_PATTERN } from '../../tools/schemas.js';
import { failureResult, type ToolCallResult } from '../../tools/call-result.js';
import type { ToolImage } from '../../tools/tool.js';

/*
 * The daemon's wire protocol: one JSON object per line in each direction over a Unix socket.
 *
 * Requests: { id, op?, ... }. `op` is "call" when absent.
 *   call:     { id, op: "call", tool, arguments, session?, origin: "cli" | "mcp", cwd?, caller_pid? }
 *             session omitted = the CLI's anonymous session (its set_config writes the global default);
 *             "mcp" requests must name their session.
 *   ping:     { id, op: "ping" }      → structured: the daemon's identity (pid, version, build, socket)
 *   status:   { id, op: "status" }    → structured: identity plus sessions, connections, calls in flight
 *   shutdown: { id, op: "shutdown" }  → answered, then the daemon stops as on SIGTERM
 *   cancel:   { id, op: "cancel", call_id } → the call with that id on this connection stops (its
 *             handlers see an aborted signal) and is answered as cancelled; the cancel itself is
 *             answered with ok and structured { call_id, in_flight }. A connection that closes
 *             cancels its calls in flight the same way.
 * Responses: { id, ...ToolCallResult } with each image's data in base64. Calls run concurrently, so
 * responses may come in any order; the id pairs them. A request that cannot be read (bad JSON, over the
 * size cap, unknown op, bad fields) is answered with ok=false, failure="usage" and the id when one could
 * be read (else null); the connection stays open for the next line.
 */

export type RequestId = string | number;
export type Origin = 'cli' | 'mcp';

export interface CallRequest {
  id: RequestId;
  op: 'call';
  tool: string;
  arguments: Record<string, unknown>;
  session?: string;
  origin: Origin;
  /** The caller's working directory (absolute); relative paths in arguments are taken from it. */
  cwd?: string;
  /** The caller's pid: kill_app refuses it and the processes it runs under (the agent's shell). */
  caller_pid?: number;
}

export interface ControlRequest {
  id: RequestId;
  op: 'ping' | 'status' | 'shutdown';
}

export interface CancelRequest {
  id: RequestId;
  op: 'cancel';
  /** The id of the call to cancel, as this connection sent it. */
  call_id: RequestId;
}

export type DaemonRequest = CallRequest | ControlRequest | CancelRequest;

export interface WireImage {
  data: string;
  mimeType: ToolImage['mimeType'];
  label: string;
  writtenTo?: string;
}

export type WireResponse = Omit<ToolCallResult, 'images'> & { id: RequestId | null; images: WireImage[] };

/**
 * Requests carry a tool name and its arguments: text to type or paste may be megabytes (MCP takes the same over
 * stdio), but a longer line is a client bug, not a reason to buffer.
 */
export const maxRequestBytes = 16 << 20;
/** Responses carry screenshots (an unlimited max_image_dimension on a large screen is tens of MB in base64). */
export const maxResponseBytes = 256 << 20;

const controlOps = new Set(['ping', 'status', 'shutdown']);

/** A request line that cannot be served; `id` is set when the line got far enough to have one. */
export class RequestError extends Error {
  constructor(
    message: string,
    readonly id: RequestId | null = null,
  ) {
    super(message);
    this.name = 'RequestError';
  }
}

/** Why a session name is unusable, or undefined when it is fine. Shared by the CLI (usage error) and the daemon. */
export function sessionNameProblem(name: string): string | undefined {
  // The anonymous CLI session goes by "cli" inside (its terminals are scoped by that name); a named one must not share it.
  if (name === 'cli') return 'the session name "cli" is reserved for the anonymous CLI session: omit --session to use it, or pick another name';
  if (SESSION_NAME_PATTERN.test(name)) return undefined;
  return `invalid session name ${JSON.stringify(name)}: use 1-128 letters, digits and . _ : @ -, starting with a letter or digit (e.g. "agent-1")`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

export function parseRequest(line: string): DaemonRequest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (error) {
    throw new RequestError(`bad request: not valid JSON (${(error as Error).message}); send one JSON object per line`);
  }
  if (!isObject(parsed)) throw new RequestError('bad request: expected a JSON object such as {"id": 1, "op": "ping"}');
  const id = parsed.id;
  if (typeof id !== 'string' && !(typeof id === 'number' && Number.isFinite(id))) {
    throw new RequestError('bad request: "id" must be a string or a number; it pairs the response with the request');
  }
  const op = parsed.op ?? 'call';
  if (typeof op !== 'string' || (op !== 'call' && op !== 'cancel' && !controlOps.has(op))) {
    throw new RequestError(`bad request: unknown op ${JSON.stringify(op)}; valid ops: call, cancel, ping, status, shutdown`, id);
  }
  if (op === 'cancel') {
    const callId = parsed.call_id;
    if (typeof callId !== 'string' && !(typeof callId === 'number' && Number.isFinite(callId))) {
      throw new RequestError('bad request: "call_id" must be the id of a call sent on this connection', id);
    }
    return { id, op: 'cancel', call_id: callId };
  }
  if (op !== 'call') return { id, op: op as ControlRequest['op'] };
  if (typeof parsed.tool !== 'string' || parsed.tool.length === 0) {
    throw new RequestError('bad request: "tool" must name a tool, e.g. "list_windows"', id);
  }
  const args = parsed.arguments ?? {};
  if (!isObject(args)) throw new RequestError('bad request: "arguments" must be a JSON object, e.g. {"pid": 1234}', id);
  const origin = parsed.origin;
  if (origin !== 'cli' && origin !== 'mcp') throw new RequestError('bad request: "origin" must be "cli" or "mcp"', id);
  const session = parsed.session;
  if (session !== undefined) {
    if (typeof session !== 'string') throw new RequestError('bad request: "session" must be a string', id);
    const problem = sessionNameProblem(session);
    if (problem) throw new RequestError(`bad request: ${problem}`, id);
  } else if (origin === 'mcp') {
    throw new RequestError('bad request: "mcp" requests must name their session (one per MCP connection)', id);
  }
  const cwd = parsed.cwd;
  if (cwd !== undefined && (typeof cwd !== 'string' || !cwd.startsWith('/'))) throw new RequestError('bad request: "cwd" must be an absolute path', id);
  const callerPid = parsed.caller_pid;
  if (callerPid !== undefined && !(Number.isSafeInteger(callerPid) && (callerPid as number) > 0)) throw new RequestError('bad request: "caller_pid" must be a positive integer', id);
  return {
    id,
    op: 'call',
    tool: parsed.tool,
    arguments: args,
    origin,
    ...(session !== undefined ? { session } : {}),
    ...(cwd !== undefined ? { cwd } : {}),
    ...(callerPid !== undefined ? { caller_pid: callerPid as number } : {}),
  };
}

export function errorResponse(id: RequestId | null, failure: 'usage' | 'tool', message: string, code: ErrorCode): WireResponse {
  return { ...failureResult(failure, message, code), id, images: [] };
}

export function encodeResult(id: RequestId, result: ToolCallResult): WireResponse {
  return { ...result, id, images: result.images.map((image) => ({ ...image, data: image.data.toString('base64') })) };
}

/** Reads a response line back into a ToolCallResult; throws on anything that is not one. */
export function decodeResponse(line: string): { id: RequestId | null; result: ToolCallResult } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (error) {
    throw new Error(`the daemon sent a line that is not JSON (${(error as Error).message})`);
  }
  if (!isObject(parsed) || typeof parsed.ok !== 'boolean' || typeof parsed.summary !== 'string' || !Array.isArray(parsed.images)) {
    throw new Error('the daemon sent a response without ok, summary and images; is another program listening on its socket?');
  }
  const id = typeof parsed.id === 'string' || typeof parsed.id === 'number' ? parsed.id : null;
  const images: ToolImage[] = (parsed.images as WireImage[]).map((image) => ({
    data: Buffer.from(String(image.data), 'base64'),
    mimeType: image.mimeType,
    label: image.label,
    ...(image.writtenTo !== undefined ? { writtenTo: image.writtenTo } : {}),
  }));
  const failure = parsed.failure === 'usage' || parsed.failure === 'tool' ? parsed.failure : undefined;
  return {
    id,
    result: {
      ok: parsed.ok,
      ...(failure ? { failure } : {}),
      summary: parsed.summary,
      ...(typeof parsed.body === 'string' ? { body: parsed.body } : {}),
      images,
      structured: isObject(parsed.structured) ? parsed.structured : {},
      ...(Array.isArray(parsed.notices) ? { notices: parsed.notices.map(String) } : {}),
    },
  };
}
