import { chmodSync, lstatSync, unlinkSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { dirname } from 'node:path';
import { withStartLock } from '../../platform/linux/desktop/start-lock.js';
import { failureResult, type ToolCallResult } from '../../tools/call-result.js';
import { packageVersion } from '../version.js';
import { SessionTable, type SharedResources } from '../session.js';
import { thisBuild } from './identity.js';
import { probeDaemon } from './launcher.js';
import { LineReader } from './line-reader.js';
import {
  encodeResult,
  errorResponse,
  maxRequestBytes,
  parseRequest,
  RequestError,
  type CallRequest,
  type CancelRequest,
  type ControlRequest,
  type RequestId,
  type WireResponse,
} from './protocol.js';
import { defaultSessionLimits, type SessionLimits } from './sessions.js';
import { checkSocketPathLength, daemonLockName, securePrivateDirectory } from './socket-path.js';

export interface DaemonOptions {
  socketPath: string;
  /** Exit after this long with no connection and no call in flight; 0 = never. */
  idleTimeoutMs: number;
  shared: SharedResources;
  sessionLimits?: SessionLimits;
  /** How long a stopping daemon lets calls in flight finish before answering them as cancelled. */
  shutdownGraceMs?: number;
  /** Runs first when the daemon stops, while the shared resources are still open (the HTTP server ends its sessions). */
  beforeStop?: () => Promise<void>;
  log(message: string): void;
}

/** Another daemon already serves the socket; this one must not take it over. */
export class DaemonAlreadyRunningError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DaemonAlreadyRunningError';
  }
}

interface Client {
  socket: Socket;
  reader: LineReader;
}

interface InFlight {
  client: Client;
  id: RequestId;
  tool: string;
  session: string;
  startedAt: number;
  answered: boolean;
  /** Aborted when the caller cancels the call or its connection closes: the handler's context.signal. */
  controller: AbortController;
}

/** How often the daemon checks that its socket file is still its own (removed or replaced means: stop). */
const socketCheckMs = 5000;

/**
 * The daemon: serves tool calls from many connections over one set of shared resources, keeping each
 * session's state (snapshots, image mappings, config) between calls and connections.
 */
export class DaemonServer {
  readonly startedAt = new Date();
  readonly stopped: Promise<void>;
  private readonly server: Server;
  private readonly clients = new Set<Client>();
  private readonly inFlight = new Set<InFlight>();
  /** Every session of the daemon; HTTP clients of `serve --http` run their calls here too, sharing its state. */
  readonly sessions: SessionTable;
  private readonly shutdownGraceMs: number;
  /** Holds from outside the socket (live HTTP sessions): the daemon does not idle out while any is taken. */
  private holds = 0;
  private socketInode?: number;
  private idleTimer?: NodeJS.Timeout;
  private socketCheck?: NodeJS.Timeout;
  private stopping?: Promise<void>;
  private markStopped!: () => void;

  private constructor(private readonly options: DaemonOptions) {
    this.shutdownGraceMs = options.shutdownGraceMs ?? 10_000;
    this.stopped = new Promise((resolve) => {
      this.markStopped = resolve;
    });
    this.sessions = new SessionTable(options.shared, options.sessionLimits ?? defaultSessionLimits, {
      kind: 'daemon',
      pid: process.pid,
      startedAt: this.startedAt.toISOString(),
      socket: options.socketPath,
      connections: () => this.clients.size,
    });
    this.server = createServer((socket) => this.accept(socket));
    this.server.maxConnections = 256;
  }

  /**
   * Binds the socket (mode 0600 in a private 0700 directory) and starts serving. Under a lock, so of two
   * daemons started at once exactly one binds; a socket file left by a daemon that died is replaced, a
   * live daemon is left alone (DaemonAlreadyRunningError).
   */
  static async start(options: DaemonOptions): Promise<DaemonServer> {
    const { socketPath } = options;
    checkSocketPathLength(socketPath);
    securePrivateDirectory(dirname(socketPath));
    const daemon = new DaemonServer(options);
    await withStartLock(daemonLockName(socketPath), `another cup-driver daemon to finish starting on ${socketPath}`, async () => {
      await daemon.claimSocketPath();
      await daemon.listen();
    });
    daemon.socketCheck = setInterval(() => daemon.checkSocket(), socketCheckMs);
    daemon.socketCheck.unref();
    daemon.updateIdle();
    return daemon;
  }

  /** Stops accepting, lets calls in flight finish (bounded), closes connections and shared resources, removes the socket. */
  stop(reason: string): Promise<void> {
    this.stopping ??= this.shutdown(reason);
    return this.stopping;
  }

  /** Keeps the daemon from idling out until the returned release is called (once). */
  hold(): () => void {
    this.holds++;
    this.updateIdle();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      this.updateIdle();
    };
  }

  private async claimSocketPath(): Promise<void> {
    const path = this.options.socketPath;
    let stat;
    try {
      stat = lstatSync(path);
    } catch {
      return;
    }
    if (!stat.isSocket()) throw new Error(`${path} exists and is not a socket; move it away or pass another --socket PATH`);
    const found = await probeDaemon(path);
    if (found.state === 'alive') {
      throw new DaemonAlreadyRunningError(`a cup-driver daemon (pid ${found.pid}) already serves ${path}; stop it with \`cup-driver daemon stop\``);
    }
    if (found.state === 'unresponsive') {
      throw new DaemonAlreadyRunningError(`a process listens on ${path} but does not answer (${found.reason}); stop it or pass another --socket PATH`);
    }
    this.options.log(`replacing the stale socket ${path} (its daemon is gone)`);
    unlinkSync(path);
  }

  private listen(): Promise<void> {
    const path = this.options.socketPath;
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      // bind() happens inside listen(), synchronously: with this umask the socket is never reachable by others, not even briefly.
      const previous = process.umask(0o177);
      try {
        this.server.listen(path, () => {
          this.server.off('error', reject);
          this.server.on('error', (error) => this.options.log(`socket error: ${error.message}`));
          chmodSync(path, 0o600);
          this.socketInode = lstatSync(path).ino;
          resolve();
        });
      } finally {
        process.umask(previous);
      }
    });
  }

  private accept(socket: Socket): void {
    if (this.stopping) {
      socket.destroy();
      return;
    }
    const client: Client = { socket, reader: new LineReader(maxRequestBytes) };
    this.clients.add(client);
    this.updateIdle();
    socket.on('data', (chunk: Buffer) => {
      for (const event of client.reader.push(chunk)) {
        if (event.kind === 'oversize') {
          this.send(client, errorResponse(null, 'usage', `bad request: a request line is over ${event.limit} bytes; send one JSON object per line, under that size`, 'request_too_large'));
        } else if (event.text.trim() !== '') {
          this.handleLine(client, event.text);
        }
      }
    });
    // A client that vanishes mid-write is its own problem; the daemon only forgets it.
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      this.clients.delete(client);
      // Nobody is left to read the answers: a plan stops instead of acting for a caller that is gone.
      for (const flight of this.inFlight) if (flight.client === client) flight.controller.abort();
      this.updateIdle();
    });
  }

  private handleLine(client: Client, line: string): void {
    let request;
    try {
      request = parseRequest(line);
    } catch (error) {
      const id = error instanceof RequestError ? error.id : null;
      this.send(client, errorResponse(id, 'usage', (error as Error).message, 'bad_request'));
      return;
    }
    if (request.op === 'call') {
      void this.call(client, request);
      return;
    }
    if (request.op === 'cancel') {
      this.cancel(client, request);
      return;
    }
    this.control(client, request);
  }

  private async call(client: Client, request: CallRequest): Promise<void> {
    const session = request.session ?? '(anonymous cli)';
    if (this.stopping) {
      this.send(client, errorResponse(request.id, 'tool', 'the daemon is stopping; run the call again (a new daemon starts on demand)', 'daemon_stopping'));
      return;
    }
    const flight: InFlight = { client, id: request.id, tool: request.tool, session, startedAt: Date.now(), answered: false, controller: new AbortController() };
    this.inFlight.add(flight);
    this.updateIdle();
    let result: ToolCallResult;
    try {
      result = await this.run(request, flight.controller.signal);
    } catch (error) {
      // runTool turns every handler failure into a result; reaching here is a bug, which must not take the daemon down.
      result = failureResult('tool', `${request.tool} failed: ${(error as Error).message}`, 'internal_error');
    } finally {
      this.inFlight.delete(flight);
    }
    const elapsed = Date.now() - flight.startedAt;
    this.options.log(`${session} ${request.origin} ${request.tool}: ${result.ok ? 'ok' : `failed (${result.summary.split('\n')[0]})`} in ${elapsed} ms`);
    if (!flight.answered) {
      flight.answered = true;
      this.send(client, encodeResult(request.id, result));
    }
    this.updateIdle();
  }

  /** Cancels a call of this connection (only its own: ids are per connection). */
  private cancel(client: Client, request: CancelRequest): void {
    const flight = [...this.inFlight].find((candidate) => candidate.client === client && candidate.id === request.call_id);
    flight?.controller.abort();
    this.send(client, {
      id: request.id,
      ok: true,
      summary: flight ? `✅ cancelling call ${JSON.stringify(request.call_id)} (${flight.tool})` : `✅ no call ${JSON.stringify(request.call_id)} in flight on this connection`,
      images: [],
      structured: { call_id: request.call_id, in_flight: flight !== undefined },
    });
  }

  private run(request: CallRequest, signal: AbortSignal): Promise<ToolCallResult> {
    return this.sessions.run(request.session, request.tool, request.arguments, { signal, ...(request.cwd ? { cwd: request.cwd } : {}), ...(request.caller_pid ? { callerPid: request.caller_pid } : {}) });
  }

  private control(client: Client, request: ControlRequest): void {
    const identity = this.identity();
    switch (request.op) {
      case 'ping':
        this.send(client, { id: request.id, ok: true, summary: `✅ cup-driver daemon pid ${process.pid} on ${this.options.socketPath}`, images: [], structured: identity });
        return;
      case 'status': {
        const now = Date.now();
        const sessions = this.sessions.list().map((entry) => ({
          id: entry.session,
          idle_s: Math.round(entry.idleMs / 1000),
          busy: entry.busy,
        }));
        const calls = [...this.inFlight].map((flight) => ({ tool: flight.tool, session: flight.session, running_ms: now - flight.startedAt }));
        const limits = this.sessions.limits;
        this.send(client, {
          id: request.id,
          ok: true,
          summary: `✅ daemon pid ${process.pid}: ${sessions.length} sessions, ${this.clients.size} connections, ${calls.length} calls in flight`,
          images: [],
          structured: {
            ...identity,
            started_at: this.startedAt.toISOString(),
            idle_timeout_s: this.options.idleTimeoutMs / 1000,
            connections: this.clients.size,
            calls_in_flight: calls,
            sessions,
            session_limits: { max_sessions: limits.maxSessions, idle_s: limits.idleMs / 1000 },
          },
        });
        return;
      }
      case 'shutdown':
        this.send(client, { id: request.id, ok: true, summary: `✅ daemon pid ${process.pid} is stopping`, images: [], structured: identity });
        void this.stop('asked to shut down');
        return;
    }
  }

  private identity(): Record<string, unknown> {
    return {
      pid: process.pid,
      version: packageVersion,
      build: thisBuild,
      socket: this.options.socketPath,
      display: process.env.DISPLAY ?? null,
    };
  }

  private send(client: Client, response: WireResponse): void {
    if (client.socket.destroyed || !client.socket.writable) return;
    client.socket.write(`${JSON.stringify(response)}\n`);
  }

  /** Idle means no connection and no call: only then does the idle clock run. */
  private updateIdle(): void {
    if (this.stopping) return;
    const busy = this.clients.size > 0 || this.inFlight.size > 0 || this.holds > 0;
    if (busy || this.options.idleTimeoutMs <= 0) {
      clearTimeout(this.idleTimer);
      this.idleTimer = undefined;
      return;
    }
    this.idleTimer ??= setTimeout(() => {
      this.idleTimer = undefined;
      // A terminal program started through the daemon (a build, a server) keeps it: stopping would kill the program.
      if (this.options.shared.terminals.runningCount() > 0) return this.updateIdle();
      void this.stop(`idle for ${this.options.idleTimeoutMs / 1000} s`);
    }, this.options.idleTimeoutMs);
  }

  private checkSocket(): void {
    let inode: number | undefined;
    try {
      inode = lstatSync(this.options.socketPath).ino;
    } catch {
      inode = undefined;
    }
    if (inode !== this.socketInode) void this.stop(`its socket ${this.options.socketPath} was removed or replaced`);
  }

  private async shutdown(reason: string): Promise<void> {
    this.options.log(`stopping: ${reason}`);
    clearTimeout(this.idleTimer);
    clearInterval(this.socketCheck);
    await this.options.beforeStop?.().catch((error: unknown) => this.options.log(`stopping the HTTP server failed: ${(error as Error).message}`));
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    const deadline = Date.now() + this.shutdownGraceMs;
    while (this.inFlight.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    for (const flight of this.inFlight) {
      if (flight.answered) continue;
      flight.answered = true;
      this.send(
        flight.client,
        errorResponse(flight.id, 'tool', `the daemon stopped (${reason}) before ${flight.tool} finished; it was cancelled after ${this.shutdownGraceMs / 1000} s`, 'daemon_stopped'),
      );
    }
    await Promise.all([...this.clients].map((client) => endGracefully(client.socket)));
    await closed;
    try {
      await this.options.shared.close();
    } catch (error) {
      this.options.log(`closing shared resources failed: ${(error as Error).message}`);
    }
    this.removeSocketIfOurs();
    this.options.log('stopped');
    this.markStopped();
  }

  private removeSocketIfOurs(): void {
    try {
      // Another daemon may own the path by now (this one's was removed and a new one bound): leave it alone.
      if (lstatSync(this.options.socketPath).ino === this.socketInode) unlinkSync(this.options.socketPath);
    } catch {
      // Already gone.
    }
  }
}

/** Flushes what was written, then closes; a client that does not read within a second is cut off. */
function endGracefully(socket: Socket): Promise<void> {
  return new Promise((resolve) => {
    if (socket.destroyed) return resolve();
    const timer = setTimeout(() => socket.destroy(), 1000);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve();
    });
    socket.end();
  });
}
