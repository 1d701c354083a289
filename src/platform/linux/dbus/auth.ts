import { Buffer } from 'node:buffer';
import type { Socket } from 'node:net';

/** A server line longer than this is not SASL; stop buffering rather than grow without bound. */
const MAX_LINE_LENGTH = 16 * 1024;

export interface AuthResult {
  /** The server's GUID from its OK line. */
  guid: string;
  /** Bytes the server sent after the OK line; they belong to the message stream. */
  leftover: Buffer;
}

/**
 * Runs the SASL EXTERNAL exchange on a connected socket and sends BEGIN. Leaves the socket paused with no
 * 'data' listener of ours, so the caller can attach its own before any message byte is lost.
 */
export function authenticate(socket: Socket, timeoutMs: number): Promise<AuthResult> {
  const uid = process.getuid?.();
  if (uid === undefined) {
    return Promise.reject(new Error('D-Bus EXTERNAL authentication needs a Unix user id, and process.getuid() is not available here'));
  }
  return new Promise<AuthResult>((resolve, reject) => {
    let received: Buffer = Buffer.alloc(0);
    const finish = (error: Error | undefined, result?: AuthResult): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('error', onError);
      socket.off('close', onClose);
      socket.pause();
      if (error === undefined) resolve(result!);
      else reject(error);
    };
    const onData = (chunk: Buffer): void => {
      received = received.length === 0 ? chunk : Buffer.concat([received, chunk]);
      const end = received.indexOf('\r\n');
      if (end === -1) {
        if (received.length > MAX_LINE_LENGTH) finish(new Error(`D-Bus authentication failed: server sent ${received.length} bytes without a line break`));
        return;
      }
      const line = received.toString('latin1', 0, end);
      const leftover = received.subarray(end + 2);
      if (line.startsWith('OK ')) {
        socket.write('BEGIN\r\n');
        finish(undefined, { guid: line.slice(3).trim(), leftover });
      } else if (line.startsWith('REJECTED')) {
        const offered = line.slice('REJECTED'.length).trim();
        finish(new Error(`D-Bus authentication rejected: the server refused EXTERNAL for uid ${uid} (it offers: ${offered || 'nothing'})`));
      } else if (line.startsWith('ERROR')) {
        finish(new Error(`D-Bus authentication failed: server replied "${line}"`));
      } else {
        finish(new Error(`D-Bus authentication failed: unexpected server reply "${line.slice(0, 200)}"`));
      }
    };
    const onError = (error: Error): void => finish(new Error(`D-Bus authentication failed: ${error.message}`, { cause: error }));
    const onClose = (): void => finish(new Error('D-Bus authentication failed: the server closed the connection'));
    const timer = setTimeout(() => finish(new Error(`D-Bus authentication got no answer within ${timeoutMs} ms`)), timeoutMs);
    socket.on('data', onData);
    socket.on('error', onError);
    socket.on('close', onClose);
    // The leading NUL byte is required before any SASL command (it carries credentials on some systems).
    const uidHex = Buffer.from(String(uid), 'ascii').toString('hex');
    socket.write(`\0AUTH EXTERNAL ${uidHex}\r\n`);
  });
}
