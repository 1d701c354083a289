import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as HttpServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server as McpServer } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import { withWarning, type ToolCallResult } from '../../tools/call-result.js';
import type { AnyTool } from '../../tools/registry.js';
import { createMcpServer } from '../mcp-server.js';
import { isLoopbackHost, urlHost, type ListenAddress } from './listen-address.js';
import { RequestChecks, type Refusal } from './request-checks.js';
import { defaultTokenFile, loadOrCreateToken, removeGeneratedToken, type BearerToken } from './token.js';

/** Runs calls in named driver sessions: the SessionTable of this process, or of the daemon. */
export interface SessionCalls {
  /** `calledAt`: when the request came in (performance.now() of this process). */
  run(session: string, tool: string, args: unknown, options: { signal?: AbortSignal; calledAt?: number }): Promise<ToolCallResult>;
  /** Ends the session and undoes what it owns (terminals, cursor, recording): what was undone, and how each failed. */
  end(session: string): Promise<{ label: string; error?: string }[] | undefined>;
}

export interface McpHttpOptions {
  address: ListenAddress;
  allowedOrigins: readonly string[];
  /** Undefined: a generated token in the state directory. */
  tokenFile?: string;
  /** An MCP session with no request open for this long is ended (its driver session with it). */
  sessionIdleMs: number;
  maxSessions: number;
  served: readonly AnyTool[];
  calls: SessionCalls;
  log(message: string): void;
  /** Keeps a host process (the daemon) from idling out while an HTTP session lives; returns the release. */
  hold?: () => () => void;
}

/** A tool call's JSON-RPC body is small; a type_text of a long document still fits with room to spare. */
const maxRequestBodyBytes = 4 * 1024 * 1024;
/** How long a stopping server, or an ending session, lets aborted calls finish before it stops their resources. */
const callGraceMs = 5000;
/** CORS: what a browser page (an allowed origin) may send and read. */
/**
 * How long the server keeps a client's idle connection open, in ms: longer than any client keeps its own (undici's
 * fetch caps at 10 minutes, what the server's Keep-Alive header tells it; most clients a few seconds), so the client
 * closes it first (see the constructor).
 */
const idleConnectionMs = 11 * 60_000;

const corsAllowHeaders = 'Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-Id';

interface HttpSession {
  id: string;
  /** The driver session's name: snapshots, config, cursor and terminals of this client only. */
  name: string;
  transport: StreamableHTTPServerTransport;
  mcp: McpServer;
  /** Requests (and SSE streams) open now; the idle clock runs only at 0. */
  open: number;
  lastActive: number;
  /** Each call until its answer is written (or its response closed). */
  calls: Set<Promise<unknown>>;
  /** Aborted when the server ends the session (stopping, idle, DELETE): its calls stop and are answered before it closes. */
  stop: AbortController;
  ending?: Promise<void>;
  release?: () => void;
}

/** What a call needs of the HTTP request it came in on (see McpHttpServer.requests). */
interface HttpRequestFacts {
  receivedAt: number;
  dropped: AbortSignal;
  closed: Promise<void>;
}

/** The header serve() marks each request with, for its calls to find it by (lower case, as Node keeps header names). */
const REQUEST_MARK = 'x-cup-driver-request';

/**
 * MCP over Streamable HTTP at /mcp, with the official SDK's server transport: one transport and one MCP
 * server per MCP session, each session its own driver session (`http-<id>`), ended when the client
 * DELETEs it, when it idles out, or when the server stops. Every request needs the bearer token; browsers
 * also need an allowed Origin.
 */
export class McpHttpServer {
  private readonly http: HttpServer;
  private readonly sessions = new Map<string, HttpSession>();
  /**
   * The HTTP requests under way, by the mark serve() gives each (REQUEST_MARK): when it came (a reading begun since is
   * fresh for the calls in it), and a signal aborted when it is dropped before its answer was written (the client went
   * away). A call finds its request by the mark among the headers the SDK hands on with it, not through an
   * AsyncLocalStorage: with one enabled, Node 20 runs a hook on every promise of the process, which made a tree walk
   * take half as long again.
   */
  private readonly requests = new Map<string, HttpRequestFacts>();
  private requestsMarked = 0;
  private checks?: RequestChecks;
  private sweep?: NodeJS.Timeout;
  private stopping?: Promise<void>;
  token!: BearerToken;
  url!: string;

  private constructor(private readonly options: McpHttpOptions) {
    this.http = createServer((request, response) => void this.handle(request, response));
    // Bounds on receiving a request; a tool call's answer (an SSE stream) is not bounded by them.
    this.http.headersTimeout = 10_000;
    this.http.requestTimeout = 30_000;
    this.http.maxHeadersCount = 100;
    // An idle connection is the client's to close. Node closes one after 5 s by default and says so in its Keep-Alive
    // header, so a client (undici's fetch) drops it a second earlier; on a loaded machine the two ends' timers cross,
    // and a call sent on a connection the server was closing failed as "fetch failed: other side closed" (an agent
    // pausing five seconds between calls; mcp-http beside mcp-http-concurrency failed three runs of three).
    this.http.keepAliveTimeout = idleConnectionMs;
  }

  /** Listens, loads or generates the token, and prints where to connect and where the token is. The address was checked (httpOptionsFromFlags). */
  static async start(options: McpHttpOptions): Promise<McpHttpServer> {
    const server = new McpHttpServer(options);
    await server.listen();
    return server;
  }

  private listen(): Promise<void> {
    const { address, log } = this.options;
    return new Promise((resolve, reject) => {
      this.http.once('error', (error: NodeJS.ErrnoException) =>
        reject(new Error(`cannot listen on ${urlHost(address.host)}:${address.port}: ${error.code === 'EADDRINUSE' ? 'the port is in use; pick another or 0' : error.message}`)),
      );
      this.http.listen(address.port, address.host, () => {
        const port = (this.http.address() as AddressInfo).port;
        try {
          this.token = loadOrCreateToken(this.options.tokenFile ?? defaultTokenFile(port), log);
        } catch (error) {
          this.http.close();
          reject(error);
          return;
        }
        this.checks = new RequestChecks({ host: address.host, port }, this.options.allowedOrigins, this.token.value);
        this.url = `http://${urlHost(address.host)}:${port}/mcp`;
        this.sweep = setInterval(() => this.endIdleSessions(), Math.min(30_000, Math.max(250, this.options.sessionIdleMs / 4)));
        this.sweep.unref();
        if (!isLoopbackHost(address.host)) {
          log(`WARNING: listening on ${address.host}, reachable from other machines: anyone with the token controls this desktop. Use TLS in front (a proxy) on an untrusted network.`);
        }
        log(`MCP over HTTP at ${this.url} (${this.options.served.length} tools); bearer token in ${this.token.file}`);
        resolve();
      });
    });
  }

  /** Ends every session (calls aborted, resources stopped), closes connections, removes a generated token file. */
  close(reason: string): Promise<void> {
    this.stopping ??= this.shutdown(reason);
    return this.stopping;
  }

  private async shutdown(reason: string): Promise<void> {
    this.options.log(`HTTP server stopping: ${reason}`);
    clearInterval(this.sweep);
    const closed = new Promise<void>((resolve) => this.http.close(() => resolve()));
    await Promise.all([...this.sessions.values()].map((session) => this.endSession(session, reason)));
    this.http.closeAllConnections();
    await closed;
    if (this.token) removeGeneratedToken(this.token);
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    try {
      await this.route(request, response);
    } catch (error) {
      this.options.log(`HTTP ${request.method} failed: ${(error as Error).message}`);
      if (!response.headersSent) sendJsonError(response, 500, `internal error: ${(error as Error).message}`);
      else response.destroy();
    }
  }

  private async route(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const checks = this.checks;
    if (!checks || this.stopping) return sendJsonError(response, 503, 'the server is starting or stopping; try again');
    const path = (request.url ?? '/').split('?')[0];
    if (path !== '/mcp') return sendJsonError(response, 404, `nothing at ${path}; the MCP endpoint is /mcp`);
    const refusal: Refusal | undefined = checks.origin(request) ?? (request.method === 'OPTIONS' ? undefined : checks.auth(request));
    if (refusal) return sendJsonError(response, refusal.status, refusal.message, refusal.headers);
    const origin = checks.allowedOrigin(request);
    if (origin) {
      response.setHeader('Access-Control-Allow-Origin', origin);
      response.setHeader('Vary', 'Origin');
      response.setHeader('Access-Control-Expose-Headers', 'Mcp-Session-Id, WWW-Authenticate');
    }
    if (request.method === 'OPTIONS') {
      response.writeHead(204, { 'Access-Control-Allow-Methods': 'GET, POST, DELETE', 'Access-Control-Allow-Headers': corsAllowHeaders, 'Access-Control-Max-Age': '600' });
      response.end();
      return;
    }
    const id = request.headers['mcp-session-id'];
    if (typeof id === 'string') {
      const session = this.sessions.get(id);
      // 404 tells a client its session is gone (ended or idled out): it initializes a new one.
      if (!session || session.ending) return sendJsonRpcError(response, 404, -32001, `session ${id} not found (ended or idled out); initialize a new one`);
      return this.serve(session, request, response);
    }
    if (request.method !== 'POST') return sendJsonRpcError(response, 400, -32000, 'Mcp-Session-Id header is required; POST an initialize request first');
    if (this.sessions.size >= this.options.maxSessions) {
      return sendJsonRpcError(response, 503, -32000, `too many sessions (${this.options.maxSessions}); end one (DELETE /mcp) or wait for one to idle out`);
    }
    await this.initialize(request, response);
  }

  /** A POST without a session: an initialize creates the session; anything else gets the transport's 400. */
  private async initialize(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let session: HttpSession | undefined;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      maxRequestBodySize: maxRequestBodyBytes,
      onsessioninitialized: (id) => {
        session = this.register(id, transport, mcp);
        this.track(session, response);
      },
      // The client's DELETE: its driver session's resources are stopped before the 200 goes out.
      onsessionclosed: async (id) => {
        const closing = this.sessions.get(id);
        if (closing) await this.endSession(closing, 'the client ended it');
      },
    });
    const mcp = createMcpServer((name, args, signal, requestId, headers) => this.call(session, name, args, signal, requestId, headers), this.options.served);
    await mcp.connect(transport);
    await transport.handleRequest(request, response);
    if (!session) await mcp.close();
  }

  private register(id: string, transport: StreamableHTTPServerTransport, mcp: McpServer): HttpSession {
    const session: HttpSession = { id, name: `http-${id}`, transport, mcp, open: 0, lastActive: Date.now(), calls: new Set(), stop: new AbortController(), release: this.options.hold?.() };
    this.sessions.set(id, session);
    this.options.log(`HTTP session ${session.name} started`);
    return session;
  }

  private async serve(session: HttpSession, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const receivedAt = performance.now();
    this.track(session, response);
    const dropped = new AbortController();
    const closed = new Promise<void>((resolve) =>
      response.once('close', () => {
        if (!response.writableFinished) dropped.abort();
        resolve();
      }),
    );
    // The transport hands the calls the headers it read (see requests); a client's own header of that name is replaced.
    const mark = String(++this.requestsMarked);
    request.headers[REQUEST_MARK] = mark;
    // The SDK's adapter (@hono/node-server) lists the headers from the raw ones.
    for (let at = request.rawHeaders.length - 2; at >= 0; at -= 2) if (request.rawHeaders[at]!.toLowerCase() === REQUEST_MARK) request.rawHeaders.splice(at, 2);
    request.rawHeaders.push(REQUEST_MARK, mark);
    this.requests.set(mark, { receivedAt, dropped: dropped.signal, closed });
    void closed.then(() => this.requests.delete(mark));
    await session.transport.handleRequest(request, response);
  }

  /** A request (or SSE stream) keeps its session from idling out until its response closes. */
  private track(session: HttpSession, response: ServerResponse): void {
    session.open++;
    session.lastActive = Date.now();
    response.once('close', () => {
      session.open--;
      session.lastActive = Date.now();
    });
  }

  private async call(session: HttpSession | undefined, name: string, args: unknown, signal: AbortSignal, requestId: RequestId, headers?: Readonly<Record<string, string | string[] | undefined>>): Promise<ToolCallResult> {
    // The SDK answers only after initialize, which registered the session: this is unreachable otherwise.
    if (!session) throw new Error('a tool call arrived before the session was initialized');
    const mark = headers?.[REQUEST_MARK];
    const request = typeof mark === 'string' ? this.requests.get(mark) : undefined;
    // A client that disconnects mid-call cancels it, as notifications/cancelled would: nobody is left to hear the answer.
    const byClient = request ? AbortSignal.any([signal, request.dropped]) : signal;
    const callSignal = AbortSignal.any([byClient, session.stop.signal]);
    const running = this.options.calls.run(session.name, name, args, { signal: callSignal, ...(request ? { calledAt: request.receivedAt } : {}) });
    // An ending session waits for the answer to be written, not only for the call to return.
    const answered = running.then(() => request?.closed).catch(() => undefined);
    session.calls.add(answered);
    void answered.then(() => session.calls.delete(answered));
    const result = await running;
    for (const notice of result.notices ?? []) this.options.log(notice);
    if (byClient.aborted) {
      this.options.log(`${session.name} ${name} cancelled by the client: ${result.summary.split('\n')[0]}`);
      // A cancelled call gets no answer (MCP), so its response stream would stay open for good: end it.
      setImmediate(() => session.transport.closeSSEStream(requestId));
      return result;
    }
    if (session.stop.signal.aborted) {
      // The client is still waiting: it is answered, and told the call was stopped by the server, not by itself.
      const why = `the server ended this session while the call ran (${String(session.stop.signal.reason)})`;
      this.options.log(`${session.name} ${name} stopped: ${why}: ${result.summary.split('\n')[0]}`);
      return withWarning(result, why);
    }
    return result;
  }

  /**
   * Stops the session's calls in flight and lets them be answered (bounded): a client waiting for an answer that
   * never comes hangs until its own timeout. Then closes its transport and ends its driver session: its terminals
   * are stopped and its snapshots and config forgotten.
   */
  private endSession(session: HttpSession, reason: string): Promise<void> {
    session.ending ??= (async () => {
      session.stop.abort(reason);
      const settled = Promise.allSettled([...session.calls]);
      await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, callGraceMs).unref())]);
      await session.mcp.close().catch(() => undefined);
      try {
        for (const undone of (await this.options.calls.end(session.name)) ?? []) {
          if (undone.error) this.options.log(`ending ${session.name}: ${undone.label} failed: ${undone.error}`);
        }
      } catch (error) {
        this.options.log(`ending ${session.name} failed: ${(error as Error).message}`);
      }
      this.sessions.delete(session.id);
      session.release?.();
      this.options.log(`HTTP session ${session.name} ended: ${reason}`);
    })();
    return session.ending;
  }

  private endIdleSessions(): void {
    const cutoff = Date.now() - this.options.sessionIdleMs;
    for (const session of this.sessions.values()) {
      if (session.open === 0 && session.calls.size === 0 && session.lastActive <= cutoff) {
        void this.endSession(session, `idle for ${Math.round(this.options.sessionIdleMs / 1000)} s`);
      }
    }
  }
}

function sendJsonError(response: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  response.end(`${JSON.stringify({ error: message })}\n`);
}

/** Errors about the MCP exchange itself are JSON-RPC shaped, as the SDK's client expects them. */
function sendJsonRpcError(response: ServerResponse, status: number, code: number, message: string): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(`${JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null })}\n`);
}
