import { connect, type Socket } from 'node:net';
import type { ToolCallResult } from '../../tools/call-result.js';
import { LineReader } from './line-reader.js';
import { decodeResponse, maxResponseBytes, type CallRequest, type ControlRequest, type RequestId } from './protocol.js';

type RequestBody = Omit<CallRequest, 'id'> | Omit<ControlRequest, 'id'>;

interface Pending {
  resolve(result: ToolCallResult): void;
  reject(error: Error): void;
  timer: NodeJS.Timeout;
}

/** A request the daemon did not answer in time (as opposed to a connection that closed). */
export class DaemonTimeoutError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DaemonTimeoutError';
  }
}

/** Errors from opening the socket that mean "no daemon there" (rather than "a daemon that misbehaves"). */
export function isNoDaemonError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ECONNREFUSED';
}

/**
 * One client connection to the daemon. Requests are multiplexed by id, so several calls may be in flight
 * at once; every request has its own deadline, and everything pending fails when the connection drops.
 */
export class DaemonConnection {
  private readonly pending = new Map<RequestId, Pending>();
  private readonly reader = new LineReader(maxResponseBytes);
  private nextId = 1;
  private closedReason?: string;

  private constructor(
    private readonly socket: Socket,
    readonly socketPath: string,
  ) {
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (error) => this.fail(`the connection to the daemon failed: ${error.message}`));
    socket.on('close', () => this.fail('the daemon closed the connection before answering (it may have stopped or crashed)'));
  }

  /** Connects to the socket; rejects with the system error (ENOENT, ECONNREFUSED, ...) or after the timeout. */
  static open(socketPath: string, timeoutMs: number): Promise<DaemonConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(socketPath);
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`could not connect to the daemon socket ${socketPath} within ${timeoutMs} ms`));
      }, timeoutMs);
      socket.once('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      socket.once('connect', () => {
        clearTimeout(timer);
        socket.removeAllListeners('error');
        resolve(new DaemonConnection(socket, socketPath));
      });
    });
  }

  get closed(): boolean {
    return this.closedReason !== undefined;
  }

  /**
   * Sends one request; `what` names it in the timeout error, `timeoutHint` says why the bound is what it is.
   * When `signal` aborts, the daemon is asked to cancel the call, and its answer (a cancelled result) is
   * still awaited, within the same deadline.
   */
  request(body: RequestBody, timeoutMs: number, what: string, timeoutHint = '', signal?: AbortSignal): Promise<ToolCallResult> {
    if (this.closedReason) return Promise.reject(new Error(this.closedReason));
    const id = this.nextId++;
    const cancel = () => {
      // The cancel's own acknowledgement pairs with no pending request and is dropped; the call's answer is what counts.
      if (this.pending.has(id) && !this.socket.destroyed) this.socket.write(`${JSON.stringify({ id: this.nextId++, op: 'cancel', call_id: id })}\n`);
    };
    return new Promise<ToolCallResult>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new DaemonTimeoutError(`the daemon (${this.socketPath}) did not answer ${what} within ${timeoutMs / 1000} s${timeoutHint}`));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      this.socket.write(`${JSON.stringify({ id, ...body })}\n`);
      if (signal?.aborted) cancel();
      else signal?.addEventListener('abort', cancel, { once: true });
    }).finally(() => signal?.removeEventListener('abort', cancel));
  }

  close(reason = 'the connection to the daemon was closed'): void {
    this.fail(reason);
    this.socket.destroy();
  }

  private receive(chunk: Buffer): void {
    for (const event of this.reader.push(chunk)) {
      if (event.kind === 'oversize') {
        // Which request it answers is unknown, so nothing pending on this connection can be trusted to complete.
        this.close(`the daemon sent a response over ${event.limit} bytes; ask for smaller screenshots (set_config max_image_dimension)`);
        return;
      }
      let decoded: ReturnType<typeof decodeResponse>;
      try {
        decoded = decodeResponse(event.text);
      } catch (error) {
        this.close((error as Error).message);
        return;
      }
      if (decoded.id === null) {
        // The daemon could not read one of our requests; it cannot say which, so fail them all.
        this.close(`the daemon rejected a request: ${decoded.result.summary}`);
        return;
      }
      const waiting = this.pending.get(decoded.id);
      if (!waiting) continue; // Its caller gave up (timed out) already.
      this.pending.delete(decoded.id);
      clearTimeout(waiting.timer);
      waiting.resolve(decoded.result);
    }
  }

  private fail(reason: string): void {
    this.closedReason ??= reason;
    for (const [id, waiting] of this.pending) {
      clearTimeout(waiting.timer);
      this.pending.delete(id);
      waiting.reject(new Error(reason));
    }
  }
}
