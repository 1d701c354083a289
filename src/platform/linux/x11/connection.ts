// The request/reply machinery of one X11 connection: sequence numbers, pipelined writes, reply and error
// matching, deadlines, and event delivery. Request encoders in the area modules build on `request` and `send`.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { ByteQueue } from './byte-queue.js';
import { requestBuffer } from './encode.js';
import { errorCodeName, X11ClosedError, X11Error, X11TimeoutError } from './errors.js';
import { parseEvent, type X11Event } from './events.js';
import { coreRequestName, Opcode } from './opcodes.js';
import type { Setup } from './setup.js';

export interface RequestOptions {
  /** Overrides the connection's default reply deadline for this request. */
  timeoutMs?: number;
}

interface PendingReply {
  major: number;
  minor: number;
  deadline: number;
  timeoutMs: number;
  parse: (reply: Buffer) => unknown;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

interface CheckedScope {
  active: boolean;
  errors: X11Error[];
  sequences: number[];
}

interface ExtensionNames {
  name: string;
  firstError: number;
  requests: readonly string[];
}

interface WriteBatch {
  promise: Promise<void>;
  resolve: () => void;
  reject: (error: Error) => void;
}

/**
 * With 16-bit sequence numbers on the wire, a reply's full number is recovered relative to the last packet seen.
 * That only works while fewer than 65,536 requests separate consecutive packets, so a long run of requests
 * without replies gets a reply-bearing GetInputFocus slipped in well before that.
 */
const maxRequestsWithoutReply = 65_000;

export class X11Core {
  readonly display: string;
  readonly setup: Setup;
  /** Default reply deadline in milliseconds for requests that do not pass their own. */
  timeoutMs: number;

  private readonly socket: Socket;
  private readonly input = new ByteQueue();
  private sequence = 0;
  private lastReceived = 0;
  private lastReplyRequest = 0;
  private readonly pending = new Map<number, PendingReply>();
  private outgoing: Buffer[] = [];
  private flushScheduled = false;
  private batch: WriteBatch | undefined;
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;
  private bigRequestLength: number | undefined;
  private closeReason: X11ClosedError | undefined;
  private readonly scopes = new AsyncLocalStorage<CheckedScope>();
  private readonly checkedSequences = new Map<number, CheckedScope>();
  /** The checked() calls running now (see checked). */
  private openScopes = 0;
  private readonly extensionsByMajor = new Map<number, ExtensionNames>();
  private readonly eventListeners = new Set<(event: X11Event) => void>();
  private readonly errorListeners = new Set<(error: X11Error) => void>();
  private readonly closeListeners = new Set<(error: Error | undefined) => void>();

  constructor(socket: Socket, display: string, setup: Setup, timeoutMs: number, leftover: Buffer) {
    this.socket = socket;
    this.display = display;
    this.setup = setup;
    this.timeoutMs = timeoutMs;
    let socketError: Error | undefined;
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('error', (error) => {
      socketError = error;
    });
    socket.on('close', () => this.shutDown(socketError ? `connection to DISPLAY=${display} failed: ${socketError.message}` : `X server DISPLAY=${display} closed the connection`, socketError));
    if (leftover.length > 0) this.receive(leftover);
  }

  get closed(): boolean {
    return this.closeReason !== undefined;
  }

  /** Sends a request that has a reply; resolves with `parse(reply)` where `reply` is the whole reply packet. */
  request<T>(request: Buffer, parse: (reply: Buffer) => T, options?: RequestOptions): Promise<T> {
    if (this.closeReason) return Promise.reject(this.closeReason);
    return new Promise<T>((resolve, reject) => {
      const sequence = this.enqueue(request);
      this.lastReplyRequest = sequence;
      const timeoutMs = options?.timeoutMs ?? this.timeoutMs;
      const deadline = performance.now() + timeoutMs;
      this.pending.set(sequence, {
        major: request[0],
        minor: request[1],
        deadline,
        timeoutMs,
        parse,
        resolve: resolve as (value: unknown) => void,
        reject,
      });
      this.armTimer(deadline);
    });
  }

  /**
   * Sends a request without a reply. Resolves once the bytes are handed to the socket; an error the server sends
   * later goes to the error listeners, and also rejects an enclosing `checked()` call.
   */
  send(request: Buffer): Promise<void> {
    if (this.closeReason) return Promise.reject(this.closeReason);
    if (this.sequence - this.lastReplyRequest >= maxRequestsWithoutReply) {
      this.request(requestBuffer(Opcode.GetInputFocus, 0, 4), () => undefined).catch(() => undefined);
    }
    let sequence: number;
    try {
      sequence = this.enqueue(request);
    } catch (error) {
      return Promise.reject(error);
    }
    const scope = this.scopes.getStore();
    // A scope outlives its checked() call when `fn` left timers behind; those later requests are unchecked.
    if (scope?.active) {
      scope.sequences.push(sequence);
      this.checkedSequences.set(sequence, scope);
    }
    return this.writeBatch().promise;
  }

  /** A round trip: once it resolves, the server has processed (and answered) everything sent before. */
  sync(options?: RequestOptions): Promise<void> {
    return this.request(requestBuffer(Opcode.GetInputFocus, 0, 4), () => undefined, options);
  }

  /**
   * Runs `fn`, then syncs; rejects with the first X11Error caused by a reply-less request that `fn` issued
   * (including ones issued after awaits inside `fn`). Errors still reach the error listeners too.
   */
  async checked<T>(fn: () => T | Promise<T>): Promise<T> {
    const scope: CheckedScope = { active: true, errors: [], sequences: [] };
    this.openScopes++;
    try {
      const result = await this.scopes.run(scope, fn);
      await this.sync();
      if (scope.errors.length > 0) throw scope.errors[0];
      return result;
    } finally {
      scope.active = false;
      for (const sequence of scope.sequences) this.checkedSequences.delete(sequence);
      // An enabled AsyncLocalStorage has Node 20 run a hook on every promise of the process, for good (a tree walk
      // took half as long again): it is enabled only while a checked call runs. Requests a scope's timers make later
      // are unchecked either way.
      if (--this.openScopes === 0) this.scopes.disable();
    }
  }

  /** Lets requests longer than the core limit be sent as BIG-REQUESTS; `maxLength` is in 4-byte units. */
  enableBigRequests(maxLength: number): void {
    this.bigRequestLength = maxLength;
  }

  /** Largest request the server accepts, in bytes. */
  get maxRequestBytes(): number {
    return (this.bigRequestLength ?? this.setup.maxRequestLength) * 4;
  }

  /** Lets error and timeout messages name extension requests and errors. */
  registerExtension(name: string, majorOpcode: number, firstError: number, requests: readonly string[] = []): void {
    this.extensionsByMajor.set(majorOpcode, { name, firstError, requests });
  }

  requestName(major: number, minor: number): string {
    const core = coreRequestName(major);
    if (core) return core;
    const extension = this.extensionsByMajor.get(major);
    if (extension) return `${extension.name}.${extension.requests[minor] ?? `request${minor}`}`;
    return `request ${major}.${minor}`;
  }

  onEvent(listener: (event: X11Event) => void): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  onError(listener: (error: X11Error) => void): () => void {
    this.errorListeners.add(listener);
    return () => this.errorListeners.delete(listener);
  }

  onClose(listener: (error: Error | undefined) => void): () => void {
    this.closeListeners.add(listener);
    return () => this.closeListeners.delete(listener);
  }

  /** Writes what is queued, then closes; pending requests reject with X11ClosedError. */
  close(): void {
    if (this.closeReason) return;
    this.flush();
    this.socket.end();
    this.shutDown(`connection to DISPLAY=${this.display} was closed by this client`, undefined);
  }

  ref(): void {
    this.socket.ref();
  }

  unref(): void {
    this.socket.unref();
  }

  private enqueue(request: Buffer): number {
    this.outgoing.push(this.fitLength(request));
    this.sequence++;
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      // setImmediate rather than a microtask, so requests issued across several awaits in one turn share a write.
      setImmediate(() => this.flush());
    }
    return this.sequence;
  }

  private fitLength(request: Buffer): Buffer {
    const units = request.length / 4;
    if (units <= this.setup.maxRequestLength) return request;
    if (this.bigRequestLength !== undefined && units + 1 <= this.bigRequestLength) {
      // BIG-REQUESTS form: a zero 16-bit length followed by a 32-bit length that counts itself.
      const big = Buffer.allocUnsafe(request.length + 4);
      request.copy(big, 0, 0, 2);
      big.writeUInt16LE(0, 2);
      big.writeUInt32LE(units + 1, 4);
      request.copy(big, 8, 4);
      return big;
    }
    throw new RangeError(
      `X11 ${this.requestName(request[0], request[1])} would be ${request.length} bytes, more than DISPLAY=${this.display} accepts (${this.maxRequestBytes} bytes)`,
    );
  }

  private writeBatch(): WriteBatch {
    if (!this.batch) {
      let resolve!: () => void;
      let reject!: (error: Error) => void;
      const promise = new Promise<void>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      // Callers often fire and forget reply-less requests; a failed write must not become an unhandled rejection.
      promise.catch(() => undefined);
      this.batch = { promise, resolve, reject };
    }
    return this.batch;
  }

  private flush(): void {
    this.flushScheduled = false;
    const batch = this.batch;
    this.batch = undefined;
    if (this.outgoing.length === 0) {
      batch?.resolve();
      return;
    }
    const data = this.outgoing.length === 1 ? this.outgoing[0]! : Buffer.concat(this.outgoing);
    this.outgoing = [];
    if (this.closeReason) {
      batch?.reject(this.closeReason);
      return;
    }
    this.socket.write(data, (error) => {
      if (!batch) return;
      if (error) batch.reject(this.closeReason ?? new X11ClosedError(`write to DISPLAY=${this.display} failed: ${error.message}`, { cause: error }));
      else batch.resolve();
    });
  }

  private receive(chunk: Buffer): void {
    if (this.closeReason) return;
    const input = this.input;
    input.push(chunk);
    while (input.length >= 32) {
      const header = input.peek(8);
      const kind = header[0];
      const size = kind === 1 || (kind & 0x7f) === 35 ? 32 + header.readUInt32LE(4) * 4 : 32;
      if (input.length < size) return;
      this.dispatch(input.take(size));
      if (this.closeReason) return;
    }
  }

  /** Full sequence number of an incoming packet: the nearest value at or after the last one seen. */
  private widen(wire: number): number {
    const delta = (wire - (this.lastReceived % 0x10000) + 0x10000) % 0x10000;
    this.lastReceived += delta;
    return this.lastReceived;
  }

  private dispatch(packet: Buffer): void {
    const kind = packet[0];
    if (kind === 0) {
      this.handleError(packet);
    } else if (kind === 1) {
      const sequence = this.widen(packet.readUInt16LE(2));
      const entry = this.pending.get(sequence);
      // No entry: the request timed out earlier and its late reply is dropped.
      if (!entry) return;
      this.pending.delete(sequence);
      let value: unknown;
      try {
        value = entry.parse(packet);
      } catch (error) {
        entry.reject(error instanceof Error ? error : new Error(String(error)));
        return;
      }
      entry.resolve(value);
    } else {
      // KeymapNotify alone carries no sequence number.
      const sequence = (kind & 0x7f) === 11 ? this.lastReceived : this.widen(packet.readUInt16LE(2));
      const event = parseEvent(packet, sequence);
      for (const listener of this.eventListeners) this.callListener(listener, event);
    }
  }

  private handleError(packet: Buffer): void {
    const sequence = this.widen(packet.readUInt16LE(2));
    const code = packet[1];
    const major = packet[10];
    const minor = packet.readUInt16LE(8);
    const error = new X11Error({
      code,
      codeName: this.errorName(code),
      badValue: packet.readUInt32LE(4),
      majorOpcode: major,
      minorOpcode: minor,
      sequence,
      requestName: this.requestName(major, minor),
    });
    const entry = this.pending.get(sequence);
    if (entry) {
      this.pending.delete(sequence);
      entry.reject(error);
      return;
    }
    this.checkedSequences.get(sequence)?.errors.push(error);
    for (const listener of this.errorListeners) this.callListener(listener, error);
  }

  private errorName(code: number): string {
    const core = errorCodeName(code);
    if (core) return core;
    let best: ExtensionNames | undefined;
    for (const extension of this.extensionsByMajor.values()) {
      if (extension.firstError > 0 && extension.firstError <= code && (!best || extension.firstError > best.firstError)) best = extension;
    }
    return best ? `${best.name}Error${code - best.firstError}` : `Error${code}`;
  }

  private callListener<T>(listener: (value: T) => void, value: T): void {
    try {
      listener(value);
    } catch (error) {
      // A throwing listener is a bug in the caller; surface it like an EventEmitter would, without
      // abandoning the packets still queued behind this one.
      queueMicrotask(() => {
        throw error;
      });
    }
  }

  private armTimer(deadline: number): void {
    if (deadline >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = deadline;
    this.timer = setTimeout(() => this.sweep(), Math.max(0, Math.ceil(deadline - performance.now())));
    // The socket keeps the process alive while it is referenced; the sweeper alone should not.
    this.timer.unref();
  }

  /** One timer for all deadlines: expire what is due, then re-arm for the earliest remaining deadline. */
  private sweep(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const [sequence, entry] of this.pending) {
      if (entry.deadline <= now) {
        this.pending.delete(sequence);
        entry.reject(new X11TimeoutError(this.requestName(entry.major, entry.minor), entry.timeoutMs, this.display, sequence));
      } else if (entry.deadline < next) {
        next = entry.deadline;
      }
    }
    if (next < Infinity) this.armTimer(next);
  }

  private shutDown(message: string, cause: Error | undefined): void {
    if (this.closeReason) return;
    const reason = new X11ClosedError(message, cause ? { cause } : undefined);
    this.closeReason = reason;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
    const pending = [...this.pending.values()];
    this.pending.clear();
    this.checkedSequences.clear();
    this.input.clear();
    this.batch?.reject(reason);
    this.batch = undefined;
    for (const entry of pending) entry.reject(reason);
    if (!this.socket.destroyed && !this.socket.writableEnded) this.socket.destroy();
    for (const listener of this.closeListeners) this.callListener(listener, cause);
  }
}
