// Opening a socket to the display and exchanging the connection setup messages.
import { ToolError } from '../../../errors.js';
import { createConnection, type Socket } from 'node:net';
import { describeSocketPath, type DisplayTarget } from './display.js';
import { X11TimeoutError } from './errors.js';
import { encodeSetupRequest, parseSetupReply, setupReplyLength, type Setup } from './setup.js';
import { authCandidates, loadCookie, xauthorityPath } from './xauthority.js';

/**
 * The server hung up before answering the setup request. An X server does this while it resets after its last
 * client left (the default for Xvfb and Xorg), so the caller may simply try again.
 */
export class SetupInterruptedError extends Error {
  constructor(display: string, cause?: Error) {
    super(`X server DISPLAY=${display} closed the connection during setup${cause ? `: ${cause.message}` : ''}`, cause ? { cause } : undefined);
    this.name = 'SetupInterruptedError';
  }
}

function connectOnce(options: { path: string } | { host: string; port: number }, timeoutMs: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(options);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    const onError = (error: NodeJS.ErrnoException): void => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    socket.once('error', onError);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.off('error', onError);
      // Until the setup exchange and then the connection install their own handlers, a failure shows up as
      // 'close'; without some 'error' listener Node would throw it instead.
      socket.on('error', () => undefined);
      resolve(socket);
    });
  });
}

export async function connectSocket(target: DisplayTarget, timeoutMs: number): Promise<Socket> {
  const transport = target.transport;
  if (transport.kind === 'tcp') {
    try {
      const socket = await connectOnce({ host: transport.host, port: transport.port }, timeoutMs);
      socket.setNoDelay(true);
      return socket;
    } catch (error) {
      throw new ToolError(`cannot connect to X server DISPLAY=${target.name} at ${transport.host}:${transport.port}: ${reason(error)}`, 'display_unavailable');
    }
  }
  const failures: string[] = [];
  for (const path of transport.paths) {
    try {
      return await connectOnce({ path }, timeoutMs);
    } catch (error) {
      failures.push(`${describeSocketPath(path)}: ${reason(error)}`);
    }
  }
  // What would work, not only what failed: a DISPLAY left exported from a desktop stopped since is the usual cause.
  throw new ToolError(
    `cannot connect to X server DISPLAY=${target.name} (${failures.join('; ')}); is the X server running? ` +
      'Start a virtual desktop with `cup-driver desktop start` and export what it prints, or unset DISPLAY to let cup-driver start its own',
    'display_unavailable',
  );
}

function reason(error: unknown): string {
  const errno = error as NodeJS.ErrnoException;
  return errno.code ? `${errno.code}` : errno.message;
}

/**
 * Sends the setup request (with a cookie from Xauthority when one matches) and waits for the server's answer.
 * Bytes the server sends after the setup reply are returned so the caller's parser sees them.
 */
export async function handshake(
  socket: Socket,
  target: DisplayTarget,
  timeoutMs: number,
  env: NodeJS.ProcessEnv,
  /** The caller's whole timeout, which the error names (timeoutMs is what is left of it after the socket opened). */
  statedMs = timeoutMs,
): Promise<{ setup: Setup; leftover: Buffer }> {
  const candidates =
    target.transport.kind === 'unix'
      ? authCandidates({ kind: 'unix', host: target.host })
      : authCandidates({ kind: 'tcp', host: target.host, remoteAddress: socket.remoteAddress });
  const cookie = await loadCookie(target.displayNumber, candidates, env);
  if (socket.destroyed) throw new SetupInterruptedError(target.name);

  const reply = await new Promise<Buffer>((resolve, reject) => {
    let received = Buffer.alloc(0);
    const finish = (error: Error | undefined, value?: Buffer): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('close', onClose);
      if (error) {
        socket.destroy();
        reject(error);
      } else {
        resolve(value!);
      }
    };
    const onData = (chunk: Buffer): void => {
      // The setup reply is a few KB at most, so plain concatenation is fine here.
      received = Buffer.concat([received, chunk]);
      if (received.length >= 8 && received.length >= setupReplyLength(received)) finish(undefined, received);
    };
    const onError = (error: Error): void => finish(new SetupInterruptedError(target.name, error));
    const onClose = (): void => finish(new SetupInterruptedError(target.name));
    const timer = setTimeout(() => finish(new X11TimeoutError('connection setup', statedMs, target.name)), timeoutMs);
    socket.on('data', onData);
    socket.on('error', onError);
    socket.on('close', onClose);
    socket.write(encodeSetupRequest(cookie));
  });

  const length = setupReplyLength(reply);
  const outcome = parseSetupReply(reply.subarray(0, length));
  if (!outcome.ok) {
    socket.destroy();
    const authNote = cookie
      ? `sent the ${cookie.name} cookie for display ${target.displayNumber} from ${xauthorityPath(env)}`
      : `no MIT-MAGIC-COOKIE-1 for display ${target.displayNumber} in ${xauthorityPath(env) ?? 'Xauthority (XAUTHORITY and HOME unset)'}`;
    throw new Error(`X server DISPLAY=${target.name} refused the connection: ${outcome.reason || outcome.status} (${authNote})`);
  }
  return { setup: outcome.setup, leftover: reply.subarray(length) };
}
