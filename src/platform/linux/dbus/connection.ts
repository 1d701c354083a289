import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { createConnection, type NetConnectOpts, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { ABSTRACT_SOCKET_HINT, abstractSocketsSupported, isAbstractEntry, parseAddress, socketOptions } from './address.js';
import { authenticate } from './auth.js';
import { DBusClosedError, DBusError, DBusProtocolError, DBusTimeoutError } from './errors.js';
import { FrameSplitter } from './frames.js';
import { Writer } from './marshal.js';
import { decodeMessage, encodeMessage, MessageFlag, MessageType, type Message, type OutgoingMessage } from './message.js';

export interface MethodCall {
  destination: string;
  path: string;
  interface?: string;
  member: string;
  signature?: string;
  body?: unknown[];
  timeoutMs?: number;
  noReplyExpected?: boolean;
  /** False: the call ends at its timeout, whatever the connection's Patience would give (an answer is not awaited beyond it). */
  patient?: boolean;
}

export interface DBusReply {
  signature: string;
  body: unknown[];
  sender: string;
}

export interface DBusSignal {
  sender: string;
  path: string;
  interface: string;
  member: string;
  signature: string;
  body: unknown[];
}

export interface IncomingCall {
  sender: string;
  path: string;
  interface: string;
  member: string;
  signature: string;
  body: unknown[];
}

export interface CallResult {
  signature: string;
  body: unknown[];
}

export type CallHandler = (call: IncomingCall) => Promise<CallResult | undefined> | CallResult | undefined;

export interface SignalToEmit {
  path: string;
  interface: string;
  member: string;
  signature?: string;
  body?: unknown[];
  destination?: string;
}

export interface ConnectOptions {
  /** Default per-call timeout. */
  timeoutMs?: number;
  /** Bound on socket connect + authentication + Hello, over all addresses tried. */
  connectTimeoutMs?: number;
  /**
   * A direct connection to one peer (such as an application's private AT-SPI socket) rather than to a
   * bus: there is no bus daemon to say Hello to, and the connection has no unique name.
   */
  peerToPeer?: boolean;
}

const BUS_NAME = 'org.freedesktop.DBus';
const BUS_PATH = '/org/freedesktop/DBus';
const PEER_INTERFACE = 'org.freedesktop.DBus.Peer';
const UNKNOWN_METHOD = 'org.freedesktop.DBus.Error.UnknownMethod';
const FAILED = 'org.freedesktop.DBus.Error.Failed';

/**
 * One interval checks every deadline: 10,000 pipelined calls would otherwise mean 10,000 timers created
 * and cancelled. A call times out at most this much (plus event-loop delay) after its deadline; a tick
 * with nothing due costs one comparison, and the interval only runs while calls are pending.
 */
const SWEEP_INTERVAL_MS = 10;
/** After a burst, keep a moderately sized output buffer rather than the largest one ever needed. */
const OUTPUT_BUFFER_KEEP_BYTES = 1024 * 1024;

interface PendingCall {
  resolve: (reply: DBusReply) => void;
  reject: (error: Error) => void;
  started: number;
  deadline: number;
  timeoutMs: number;
  /** It was given more time than its timeout (see Patience). */
  extended?: true;
  call: MethodCall;
}

/**
 * Asked when a call's time runs out, with the call's destination ('' on a peer-to-peer connection), how long it has
 * waited and its timeout: how many ms more to wait for the answer (0: give up now). Lets a caller that knows the peer
 * is busy, not hung, wait longer; it is asked again when that time runs out too.
 */
export type Patience = (destination: string, waitedMs: number, timeoutMs: number) => number;

let machineId: string | undefined;

function readMachineId(): string {
  if (machineId === undefined) {
    for (const file of ['/etc/machine-id', '/var/lib/dbus/machine-id']) {
      try {
        machineId = readFileSync(file, 'utf8').trim();
        break;
      } catch {
        // Try the next well-known location.
      }
    }
    if (machineId === undefined) throw new DBusError(FAILED, 'no machine id: neither /etc/machine-id nor /var/lib/dbus/machine-id is readable');
  }
  return machineId;
}

function openSocket(options: NetConnectOpts, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(options);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`socket connect got no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    // Stays attached (later calls are no-ops) so an error in the hand-over to auth and then to the
    // connection can never be an unhandled 'error' event; the 'close' that follows is what they see.
    socket.on('error', (error: Error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}

export class DBusConnection {
  readonly defaultTimeoutMs: number;
  private name = '';
  private isClosed = false;
  private closeReason: Error | undefined;
  private serial = 0;
  private readonly pending = new Map<number, PendingCall>();
  private readonly out = new Writer(64 * 1024);
  private flushScheduled = false;
  private readonly signalListeners = new Set<(signal: DBusSignal) => void>();
  private readonly closeListeners = new Set<(error?: Error) => void>();
  private callHandler: CallHandler | undefined;
  private sweeper: ReturnType<typeof setInterval> | undefined;
  private nextDeadline = Infinity;
  private referenced = true;
  private patience: Patience | undefined;
  private readonly splitter = new FrameSplitter((buf, offset, length) => this.onFrame(buf, offset, length));

  private constructor(
    private readonly socket: Socket,
    defaultTimeoutMs: number,
  ) {
    this.defaultTimeoutMs = defaultTimeoutMs;
  }

  /** Connects to the first usable address in the list, authenticates with SASL EXTERNAL and (on a bus) says Hello. */
  static async connect(address: string, options: ConnectOptions = {}): Promise<DBusConnection> {
    const timeoutMs = options.timeoutMs ?? 2000;
    const connectTimeoutMs = options.connectTimeoutMs ?? 3000;
    const deadline = performance.now() + connectTimeoutMs;
    const entries = parseAddress(address);
    const failures: string[] = [];
    for (const entry of entries) {
      const remaining = (): number => Math.max(1, Math.ceil(deadline - performance.now()));
      let socket: Socket | undefined;
      let connection: DBusConnection | undefined;
      try {
        if (deadline - performance.now() <= 0) throw new Error(`no time left of the ${connectTimeoutMs} ms connect timeout`);
        const target = socketOptions(entry);
        socket = await openSocket(target, remaining());
        const { leftover } = await authenticate(socket, remaining());
        connection = new DBusConnection(socket, timeoutMs);
        connection.attach(leftover);
        if (options.peerToPeer) return connection;
        const reply = await connection.call({ destination: BUS_NAME, path: BUS_PATH, interface: BUS_NAME, member: 'Hello', timeoutMs: remaining() });
        connection.name = String(reply.body[0]);
        return connection;
      } catch (error) {
        if (connection !== undefined) connection.close();
        else socket?.destroy();
        let why = (error as Error).message;
        if (socket === undefined && isAbstractEntry(entry) && !abstractSocketsSupported()) why += ` (${ABSTRACT_SOCKET_HINT})`;
        failures.push(entries.length === 1 ? why : `${entry.text}: ${why}`);
      }
    }
    throw new Error(`could not connect to D-Bus at ${JSON.stringify(address)}: ${failures.join('; ')}`);
  }

  /** The bus-assigned unique name, e.g. ":1.42". */
  get uniqueName(): string {
    return this.name;
  }

  get closed(): boolean {
    return this.isClosed;
  }

  private attach(leftover: Buffer): void {
    this.socket.on('data', (chunk: Buffer) => this.onData(chunk));
    this.socket.on('error', (error: Error) => this.shutdown(error));
    this.socket.on('close', () => this.shutdown(new Error('the socket was closed by the other end')));
    if (leftover.length > 0) this.onData(leftover);
    this.socket.resume();
  }

  call(call: MethodCall): Promise<DBusReply> {
    if (this.isClosed) return Promise.reject(new DBusClosedError(this.closeReason));
    const timeoutMs = call.timeoutMs ?? this.defaultTimeoutMs;
    if (typeof timeoutMs !== 'number' || !(timeoutMs >= 0)) {
      return Promise.reject(new TypeError(`D-Bus call timeoutMs must be a non-negative number, got ${String(timeoutMs)}`));
    }
    const serial = this.nextSerial();
    try {
      this.enqueue({
        type: MessageType.MethodCall,
        flags: call.noReplyExpected === true ? MessageFlag.NoReplyExpected : 0,
        serial,
        path: call.path,
        interface: call.interface,
        member: call.member,
        // An empty destination is how a peer-to-peer caller says "no bus to route through".
        destination: call.destination === '' ? undefined : call.destination,
        signature: call.signature ?? '',
        body: call.body ?? [],
      });
    } catch (error) {
      return Promise.reject(error);
    }
    if (call.noReplyExpected === true) return Promise.resolve({ signature: '', body: [], sender: '' });
    return new Promise<DBusReply>((resolve, reject) => {
      const started = performance.now();
      const deadline = started + timeoutMs;
      this.pending.set(serial, { resolve, reject, started, deadline, timeoutMs, call });
      this.armSweeper(deadline);
    });
  }

  /** Sets what is asked before a call is given up for lost (see Patience); none gives up at the timeout. */
  setPatience(patience: Patience | undefined): void {
    this.patience = patience;
  }

  async addMatch(rule: string): Promise<void> {
    await this.call({ destination: BUS_NAME, path: BUS_PATH, interface: BUS_NAME, member: 'AddMatch', signature: 's', body: [rule] });
  }

  async removeMatch(rule: string): Promise<void> {
    await this.call({ destination: BUS_NAME, path: BUS_PATH, interface: BUS_NAME, member: 'RemoveMatch', signature: 's', body: [rule] });
  }

  onSignal(listener: (signal: DBusSignal) => void): () => void {
    this.signalListeners.add(listener);
    return () => {
      this.signalListeners.delete(listener);
    };
  }

  onClose(listener: (error?: Error) => void): () => void {
    if (this.isClosed) {
      const reason = this.closeReason;
      queueMicrotask(() => listener(reason));
      return () => {};
    }
    this.closeListeners.add(listener);
    return () => {
      this.closeListeners.delete(listener);
    };
  }

  setCallHandler(handler: CallHandler | undefined): void {
    this.callHandler = handler;
  }

  /** Queues a signal; throws synchronously when closed or when the signal cannot be marshalled. */
  emitSignal(signal: SignalToEmit): void {
    if (this.isClosed) throw new DBusClosedError(this.closeReason);
    this.enqueue({
      type: MessageType.Signal,
      flags: 0,
      serial: this.nextSerial(),
      path: signal.path,
      interface: signal.interface,
      member: signal.member,
      destination: signal.destination,
      signature: signal.signature ?? '',
      body: signal.body ?? [],
    });
  }

  /** Lets the process exit while this connection is open (for CLI tools); the sweeper timer follows suit. */
  unref(): void {
    this.referenced = false;
    this.socket.unref();
    this.sweeper?.unref();
  }

  ref(): void {
    this.referenced = true;
    this.socket.ref();
    this.sweeper?.ref();
  }

  /**
   * The socket, to be shared with another process (its file descriptor duplicated into a child's stdio) that keeps it
   * open after this one lets go of it (see release).
   */
  get sharedSocket(): Socket {
    return this.socket;
  }

  /**
   * Stops using the connection without hanging it up: this process's handle of the socket is closed, but no end of
   * stream is sent, so the peer sees the connection close only once every other process that holds the socket (see
   * sharedSocket) has closed it too. Idempotent.
   */
  release(): void {
    if (this.isClosed) return;
    this.shutdown(undefined);
    this.socket.destroy();
  }

  /** Sends whatever is queued, rejects pending calls with DBusClosedError and closes the socket. Idempotent. */
  close(): void {
    if (this.isClosed) return;
    this.flush();
    this.shutdown(undefined);
    // end() lets queued bytes drain; destroying after that keeps a silent peer from holding the handle open.
    this.socket.end(() => this.socket.destroy());
  }

  private nextSerial(): number {
    this.serial = this.serial >= 0xffffffff ? 1 : this.serial + 1;
    return this.serial;
  }

  private enqueue(message: OutgoingMessage): void {
    encodeMessage(this.out, message);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      // setImmediate rather than nextTick: everything queued by all callbacks of this I/O phase goes out in one write.
      setImmediate(() => this.flush());
    }
  }

  private flush(): void {
    this.flushScheduled = false;
    const length = this.out.pos;
    if (length === 0) return;
    this.out.pos = 0;
    if (this.socket.destroyed) return;
    const chunk = Buffer.allocUnsafe(length);
    this.out.buf.copy(chunk, 0, 0, length);
    if (this.out.buf.length > OUTPUT_BUFFER_KEEP_BYTES) this.out.buf = Buffer.allocUnsafe(OUTPUT_BUFFER_KEEP_BYTES);
    this.socket.write(chunk);
  }

  private armSweeper(deadline: number): void {
    if (deadline < this.nextDeadline) this.nextDeadline = deadline;
    if (this.sweeper !== undefined) return;
    this.sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    if (!this.referenced) this.sweeper.unref();
  }

  private stopSweeper(): void {
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
    this.sweeper = undefined;
    this.nextDeadline = Infinity;
  }

  private sweep(): void {
    if (this.pending.size === 0) {
      this.stopSweeper();
      return;
    }
    const now = performance.now();
    if (now < this.nextDeadline) return;
    let next = Infinity;
    // A timeout's stack would only ever show this sweeper, and capturing it is most of the cost when
    // thousands of calls expire together. Rejecting runs no user code synchronously, so nothing else sees the change.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      for (const [serial, pending] of this.pending) {
        if (pending.deadline <= now) {
          const more = this.morePatience(pending, now);
          if (more > 0) {
            pending.deadline = now + more;
            pending.extended = true;
            if (pending.deadline < next) next = pending.deadline;
            continue;
          }
          this.pending.delete(serial);
          const { destination, path, interface: iface, member } = pending.call;
          // A call given more time says how long it waited in all.
          pending.reject(new DBusTimeoutError(destination, path, iface, member, pending.extended ? Math.round(now - pending.started) : pending.timeoutMs));
        } else if (pending.deadline < next) {
          next = pending.deadline;
        }
      }
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    this.nextDeadline = next;
  }

  private morePatience(pending: PendingCall, now: number): number {
    if (!this.patience || pending.call.patient === false) return 0;
    try {
      return this.patience(pending.call.destination ?? '', now - pending.started, pending.timeoutMs);
    } catch {
      // A failing judge gives no more time: the call ends as it would without one.
      return 0;
    }
  }

  private onData(chunk: Buffer): void {
    if (this.isClosed) return;
    try {
      this.splitter.push(chunk);
    } catch (error) {
      this.failProtocol(error);
    }
  }

  private failProtocol(error: unknown): void {
    const reason = error instanceof DBusProtocolError ? error : new DBusProtocolError(`malformed D-Bus message: ${(error as Error).message}`);
    this.shutdown(reason);
    this.socket.destroy();
  }

  private onFrame(buf: Buffer, offset: number, length: number): void {
    if (this.isClosed) return;
    let message: Message;
    try {
      message = decodeMessage(buf, offset, length);
    } catch (error) {
      this.failProtocol(error);
      return;
    }
    switch (message.type) {
      case MessageType.MethodReturn:
      case MessageType.Error:
        this.settle(message);
        break;
      case MessageType.Signal:
        this.dispatchSignal(message);
        break;
      case MessageType.MethodCall:
        this.serve(message);
        break;
      default:
        break; // The spec says unknown message types must be ignored.
    }
  }

  private settle(message: Message): void {
    const pending = this.pending.get(message.replySerial!);
    if (pending === undefined) return; // Late reply to a call that already timed out.
    this.pending.delete(message.replySerial!);
    if (message.type === MessageType.MethodReturn) {
      pending.resolve({ signature: message.signature, body: message.body, sender: message.sender ?? '' });
    } else {
      const text = typeof message.body[0] === 'string' ? message.body[0] : '';
      pending.reject(new DBusError(message.errorName!, text));
    }
  }

  private dispatchSignal(message: Message): void {
    if (this.signalListeners.size === 0) return;
    const signal: DBusSignal = {
      sender: message.sender ?? '',
      path: message.path!,
      interface: message.interface!,
      member: message.member!,
      signature: message.signature,
      body: message.body,
    };
    for (const listener of this.signalListeners) {
      try {
        listener(signal);
      } catch (error) {
        // A faulty listener must not starve the others or break parsing of the rest of this read,
        // but it must not vanish either: surface it as an uncaught exception, as an EventEmitter would.
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  private serve(message: Message): void {
    const call: IncomingCall = {
      sender: message.sender ?? '',
      path: message.path!,
      interface: message.interface ?? '',
      member: message.member!,
      signature: message.signature,
      body: message.body,
    };
    if (call.interface === PEER_INTERFACE) {
      this.servePeer(message, call);
      return;
    }
    const handler = this.callHandler;
    if (handler === undefined) {
      this.answer(message, undefined);
      return;
    }
    let result: ReturnType<CallHandler>;
    try {
      result = handler(call);
    } catch (error) {
      this.answerWithError(message, error);
      return;
    }
    if (isPromiseLike(result)) {
      result.then(
        (value) => this.answer(message, value),
        (error: unknown) => this.answerWithError(message, error),
      );
    } else {
      this.answer(message, result);
    }
  }

  private servePeer(message: Message, call: IncomingCall): void {
    if (call.member === 'Ping') {
      this.answer(message, { signature: '', body: [] });
    } else if (call.member === 'GetMachineId') {
      try {
        this.answer(message, { signature: 's', body: [readMachineId()] });
      } catch (error) {
        this.answerWithError(message, error);
      }
    } else {
      this.answer(message, undefined);
    }
  }

  private wantsReply(message: Message): boolean {
    return !this.isClosed && (message.flags & MessageFlag.NoReplyExpected) === 0;
  }

  private answer(message: Message, result: CallResult | undefined): void {
    if (!this.wantsReply(message)) return;
    if (result === undefined) {
      const iface = message.interface === undefined ? '' : ` of interface ${message.interface}`;
      this.sendError(message, UNKNOWN_METHOD, `${message.path} has no method ${message.member}${iface} taking "${message.signature}"`);
      return;
    }
    try {
      this.enqueue({
        type: MessageType.MethodReturn,
        flags: 0,
        serial: this.nextSerial(),
        replySerial: message.serial,
        destination: message.sender,
        signature: result.signature,
        body: result.body,
      });
    } catch (error) {
      this.sendError(message, FAILED, `the reply to ${message.member} could not be marshalled: ${(error as Error).message}`);
    }
  }

  private answerWithError(message: Message, error: unknown): void {
    if (!this.wantsReply(message)) return;
    if (error instanceof DBusError) this.sendError(message, error.dbusName, error.text);
    else this.sendError(message, FAILED, error instanceof Error ? error.message : String(error));
  }

  private sendError(message: Message, errorName: string, text: string): void {
    const reply = (name: string, body: string): OutgoingMessage => ({
      type: MessageType.Error,
      flags: 0,
      serial: this.nextSerial(),
      replySerial: message.serial,
      errorName: name,
      destination: message.sender,
      signature: 's',
      body: [body],
    });
    try {
      this.enqueue(reply(errorName, text));
    } catch (error) {
      // A handler threw a DBusError with an invalid name or text; the caller still deserves an answer.
      this.enqueue(reply(FAILED, `${message.member} failed, and its error could not be sent: ${(error as Error).message}`));
    }
  }

  private shutdown(reason: Error | undefined): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.closeReason = reason;
    this.stopSweeper();
    const error = new DBusClosedError(reason);
    const pending = [...this.pending.values()];
    this.pending.clear();
    for (const call of pending) call.reject(error);
    for (const listener of this.closeListeners) {
      try {
        listener(reason);
      } catch (listenerError) {
        queueMicrotask(() => {
          throw listenerError;
        });
      }
    }
    this.closeListeners.clear();
  }
}
