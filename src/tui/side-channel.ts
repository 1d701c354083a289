// The two pipes of the LiveFrame protocol (docs/tui-liveframe-protocol.md). node-pty cannot hand extra
// file descriptors to the child, so they are named pipes in a private directory that a tiny /bin/sh
// prologue opens as fds 3 and 4 before it execs the program.
import { execFileSync } from 'node:child_process';
import { constants, mkdtempSync, openSync, rmSync } from 'node:fs';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const FRAMES_FD = 3;
export const COMMANDS_FD = 4;
/** Frames and events longer than this are dropped unread (and reported) rather than buffered without end. */
export const MAX_LINE_BYTES = 1 << 20;
/** Commands are dropped while this much is still unread by the program. */
const MAX_PENDING_COMMAND_BYTES = 64 * 1024;

/**
 * The shell prologue: $1 and $2 are the pipes, the rest is the program and its arguments. exec keeps the
 * program's pid equal to the one node-pty reports, so signals and the session id are unaffected.
 */
export const PROLOGUE = `exec ${FRAMES_FD}>"$1" ${COMMANDS_FD}<"$2"; shift 2; exec "$@"`;

export interface SideChannelHandlers {
  line(text: string): void;
  oversize(bytes: number): void;
}

export class SideChannel {
  readonly directory: string;
  readonly framesPath: string;
  readonly commandsPath: string;
  private readonly frames: Socket;
  private readonly commands: Socket;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping = false;
  private closed = false;

  constructor(private readonly handlers: SideChannelHandlers) {
    this.directory = mkdtempSync(join(tmpdir(), 'cup-tui-'));
    this.framesPath = join(this.directory, 'frames');
    this.commandsPath = join(this.directory, 'commands');
    try {
      execFileSync('mkfifo', ['-m', '600', this.framesPath, this.commandsPath], { timeout: 5000, stdio: 'ignore' });
      // Read-write opens never block on a FIFO and keep it from reporting end-of-file before the program
      // opens its end, which a read-only open would do at once.
      const flags = constants.O_RDWR | constants.O_NONBLOCK;
      this.frames = new Socket({ fd: openSync(this.framesPath, flags), readable: true, writable: false });
      this.commands = new Socket({ fd: openSync(this.commandsPath, flags), readable: false, writable: true });
    } catch (error) {
      rmSync(this.directory, { recursive: true, force: true });
      throw error;
    }
    this.frames.on('data', (chunk: Buffer) => this.receive(chunk));
    this.frames.on('error', () => undefined);
    this.commands.on('error', () => undefined);
  }

  private receive(chunk: Buffer): void {
    let start = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
      this.append(chunk.subarray(start, newline));
      this.endLine();
      start = newline + 1;
    }
    if (start < chunk.length) this.append(chunk.subarray(start));
  }

  private append(part: Buffer): void {
    if (this.skipping) {
      this.pendingBytes += part.length;
      return;
    }
    this.pending.push(part);
    this.pendingBytes += part.length;
    if (this.pendingBytes > MAX_LINE_BYTES) {
      this.pending = [];
      this.skipping = true;
    }
  }

  private endLine(): void {
    const bytes = this.pendingBytes;
    const skipped = this.skipping;
    const text = skipped ? '' : Buffer.concat(this.pending).toString('utf8');
    this.pending = [];
    this.pendingBytes = 0;
    this.skipping = false;
    if (skipped) this.handlers.oversize(bytes);
    else if (text.trim() !== '') this.handlers.line(text);
  }

  /** Sends one command line to the program; false when the program is not reading its commands. */
  send(command: Record<string, unknown>): boolean {
    if (this.closed || this.commands.writableLength > MAX_PENDING_COMMAND_BYTES) return false;
    this.commands.write(`${JSON.stringify(command)}\n`);
    return true;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.frames.destroy();
    this.commands.destroy();
    rmSync(this.directory, { recursive: true, force: true });
  }
}
